// The pytest lines that say how a run ended rather than which tests ran: an internal error, a usage
// error, `!!!! ... !!!!` (collection errors, -x/--maxfail stops, interrupts), pytest-timeout's
// `+++ Timeout +++`, and pytest-cov's coverage gate. Pure; pytest.ts asks it of each line it reads whole.
import type { GateFinding } from "../types.js";
import type { Findings } from "./lines.js";

const BANG_RE = /^!+ (.*?) !+$/;
const GATE_FAIL_RE = /^FAIL Required test coverage of ([\d.]+)% not reached\. Total coverage: ([\d.]+)%/;
const GATE_PASS_RE = /^Required test coverage of ([\d.]+)% reached\. Total coverage: ([\d.]+)%/;
const USAGE_RES = [
  /^ERROR: usage: /,
  /: error: unrecognized arguments: /,
  /^ERROR: file or directory not found: /,
  /^ERROR: not found: /,
  /^ERROR: found no collectors for /,
  /^ERROR: module or package not found: /,
];

/** Records what a marker line says (a marker in `findings`, a gate in `gates`); false when `line` is none. */
export function readPytestMarkerLine(line: string, lineNo: number, findings: Findings, gates: GateFinding[]): boolean {
  // Each marker starts with its own character, except `...: error: unrecognized arguments: ...`.
  const first = line.charCodeAt(0);
  if (
    first !== 73 &&
    first !== 69 &&
    first !== 33 &&
    first !== 43 &&
    first !== 70 &&
    first !== 82 &&
    !line.includes("unrecognized arguments")
  )
    return false;
  if (line.startsWith("INTERNALERROR>")) {
    findings.mark("internal-error", lineNo, line);
    return true;
  }
  for (const re of USAGE_RES) {
    if (re.test(line)) {
      findings.mark("usage-error", lineNo, line);
      return true;
    }
  }
  const bang = BANG_RE.exec(line);
  if (bang !== null) {
    const text = bang[1]!;
    if (/^Interrupted: \d+ errors? during collection$/.test(text)) findings.mark("collection-error", lineNo, text);
    else if (/^stopping after \d+ failures?$/.test(text)) findings.mark("stopped-early", lineNo, text);
    else if (text.includes("KeyboardInterrupt") || text.startsWith("Interrupted") || text.includes("Exit"))
      findings.mark("interrupted", lineNo, text);
    return true;
  }
  if (/^\+{3,} Timeout \+{3,}$/.test(line)) {
    findings.mark("timeout", lineNo, line);
    return true;
  }
  const gateFail = GATE_FAIL_RE.exec(line);
  const gatePass = gateFail === null ? GATE_PASS_RE.exec(line) : null;
  if (gateFail !== null || gatePass !== null) {
    gates.push({ kind: "coverage", passed: gateFail === null, detail: line });
    return true;
  }
  return false;
}
