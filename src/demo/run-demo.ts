// The demo: a scripted agent (no model) works on the bundled sample through evidenceTools, and
// the timeline shows what the evidence ledger concluded after every tool call.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import type { Tool } from "../host/tool.js";
import { evidenceTools } from "../observation/evidence-tools.js";
import { runHostGit } from "../tools/host-git.js";
import { probeSandbox } from "../tools/sandbox.js";
import { createSandboxLayout } from "../tools/sandbox-host.js";
import type { VerificationRecord } from "../types.js";

/** One scripted agent step: a tool call and why the agent makes it. */
export interface DemoStep {
  why: string;
  tool: string;
  input: Record<string, unknown>;
}

/** The fix the scripted agent applies (a real Git diff). */
const FIX = [
  "diff --git a/calc/ops.py b/calc/ops.py",
  "--- a/calc/ops.py",
  "+++ b/calc/ops.py",
  "@@ -4,4 +4,4 @@ def add(a, b):",
  " ",
  " def mean(values):",
  "     # Bug the demo agent fixes: integer division truncates the mean.",
  "-    return sum(values) // len(values)",
  "+    return sum(values) / len(values)",
  "",
].join("\n");

const PYTEST = "python3 -m pytest -rA -p no:cacheprovider";

/** The scripted agent's steps, in order. */
export const DEMO_STEPS: DemoStep[] = [
  { why: "run the tests first", tool: "bash", input: { command: `${PYTEST} tests` } },
  { why: "find the failing function", tool: "grep", input: { pattern: "def mean" } },
  { why: "read it", tool: "file_read", input: { path: "calc/ops.py" } },
  { why: "fix the integer division", tool: "apply_patch", input: { patch: FIX } },
  { why: "rerun, piped through tail as agents do", tool: "bash", input: { command: `${PYTEST} tests 2>&1 | tail -5` } },
  { why: "tidy a comment after the run (this makes the evidence stale)", tool: "file_write", input: { path: "calc/ops.py", mode: "str_replace", oldString: "    # Bug the demo agent fixes: integer division truncates the mean.\n", newString: "" } },
  { why: "rerun so the evidence is current again", tool: "bash", input: { command: `cd tests && ${PYTEST} test_ops.py` } },
  { why: "look at the change", tool: "git_diff", input: {} },
];

/** What the demo produced. */
export interface DemoResult {
  workspace: string;
  sandbox: "bubblewrap" | "none";
  records: VerificationRecord[];
  verifiedTargets: string[];
}

/** Where the bundled sample lives (the package's demo/sample). */
export function sampleDirectory(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "demo", "sample");
}

/** Runs the scripted agent on a fresh copy of the sample; `print` receives the timeline lines. */
export async function runDemo(print: (line: string) => void, options: { keep?: boolean } = {}): Promise<DemoResult> {
  const workspace = mkdtempSync(join(tmpdir(), "agent-evidence-demo-"));
  try {
    cpSync(sampleDirectory(), workspace, { recursive: true });
    const git = async (...args: string[]): Promise<void> => {
      const result = await runHostGit(workspace, args, { identity: { name: "demo", email: "demo@example.invalid" }, config: ["init.defaultBranch=main"] });
      if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed in ${workspace}: ${result.stderr.trim() || result.errorCode || `exit ${result.exitCode}`}`);
    };
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "sample");
    const probe = await probeSandbox(createSandboxLayout({ workspace, tempDir: tmpdir() }));
    const sandboxed = probe.available;
    print(`agent-evidence demo: sample copied to ${workspace}`);
    print(sandboxed ? "sandbox: bubblewrap, strict (system directories read-only, writable workspace, no capabilities, no network)" : `sandbox: none (${probe.available ? "" : probe.reason}); running with sandbox: false`);
    const { tools, evidence } = evidenceTools(["bash", "file_read", "file_write", "apply_patch", "grep", "git_diff"], { cwd: workspace, sandbox: sandboxed ? "strict" : false, allowFileCreation: true });
    const byName = new Map(tools.map((tool) => [tool.name, tool as unknown as Tool<Record<string, unknown>, unknown>]));
    let seen = 0;
    const announcedUnknown = new Set<number>();
    for (const [index, step] of DEMO_STEPS.entries()) {
      const tool = byName.get(step.tool);
      if (tool === undefined) throw new Error(`demo: no tool named ${step.tool}`);
      print("");
      print(`${index + 1}. ${step.tool}: ${describeInput(step)}   (${step.why})`);
      const result = await tool.execute(step.input);
      print(indent(lastLines(result.text, 6)));
      const records = evidence.verificationRecords;
      for (const record of records.slice(seen)) print(`   + record #${record.seq}: ${renderRecord(record)}`);
      for (const record of records) {
        if (record.applicability !== "unknown" || announcedUnknown.has(record.seq)) continue;
        announcedUnknown.add(record.seq);
        const why = record.postTestEdits.length > 0 ? `edited after: ${record.postTestEdits.join(", ")}` : record.postTestCommands.length > 0 ? `ran after: ${record.postTestCommands.join("; ")}` : "";
        print(`   ~ record #${record.seq} is now unknown${why === "" ? "" : ` (${why})`}`);
      }
      seen = records.length;
      print(`   verified targets: ${evidence.verifiedTargets.length === 0 ? "(none)" : evidence.verifiedTargets.join(", ")}`);
    }
    return { workspace, sandbox: sandboxed ? "bubblewrap" : "none", records: evidence.verificationRecords, verifiedTargets: evidence.verifiedTargets };
  } finally {
    if (options.keep !== true) rmSync(workspace, { recursive: true, force: true });
  }
}

function describeInput(step: DemoStep): string {
  const input = step.input;
  if (typeof input.command === "string") return input.command;
  if (typeof input.path === "string") return `${input.path}${typeof input.mode === "string" ? ` (${input.mode})` : ""}`;
  if (typeof input.pattern === "string") return JSON.stringify(input.pattern);
  if (typeof input.patch === "string") return "a one-line fix to calc/ops.py";
  return "";
}

/** One line describing a record. */
export function renderRecord(record: VerificationRecord): string {
  const proof = record.verified ? "verified" : `not verified${record.reasons.length > 0 ? ` (${record.reasons.join(", ")})` : ""}`;
  return `target ${record.target}, exit ${String(record.exitCode)}, ${record.outcome}, ${proof}, ${record.applicability}`;
}

function lastLines(text: string, count: number): string {
  const lines = text.trimEnd().split("\n");
  return (lines.length > count ? ["...", ...lines.slice(-count)] : lines).join("\n");
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `   | ${line}`)
    .join("\n");
}
