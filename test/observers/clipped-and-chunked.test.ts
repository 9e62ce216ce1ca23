// Clipped copies of real outputs never gain a pass the truth lacks, and chunked input parses the same
// as whole input (the parsers are incremental).
import { beforeAll, describe, expect, it } from "vitest";

import {
  createCargoParser,
  createDjangoParser,
  createGoTestParser,
  createJestParser,
  createMochaParser,
  createNodeTestParser,
  createPytestParser,
  createVitestParser,
  type OutputParser,
  parseCargo,
  parseDjango,
  type ParsedRunOutput,
  parseGoTest,
  parseJest,
  parseMocha,
  parseNodeTest,
  parsePytest,
  parseVitest,
} from "../../src/observers/index.js";
import { type CapturedRun, ensureCaptured, loadCapture } from "../support/capture.js";
import { CAPTURE_CASES } from "../support/capture-cases.js";

beforeAll(async () => {
  await ensureCaptured();
});

// Runs started in a subdirectory print ids relative to it, while the truth is root-relative.
// jest's forged outputs are excluded from the clipped copies: a test there writes, line for line, a whole
// output of jest's own before jest prints anything, and a copy clipped right after it is exactly that
// (docs/runners.md, jest: the judge still catches a whole output whose summary counts more passes than it shows).
const WHOLE_FORGERIES = new Set(["jt-forged-raw", "jt-forged-two-files", "jt-forged-exit"]);
const WITH_TRUTH = CAPTURE_CASES.filter(
  (c) => c.truth !== "none" && !c.line.startsWith("cd ") && c.cwd === "" && !WHOLE_FORGERIES.has(c.name),
).map((c) => c.name);
const FRACTIONS = [0.1, 0.35, 0.5, 0.8, 0.97];

function parserFor(run: CapturedRun): OutputParser {
  if (run.project === "py" || run.project === "app") return createPytestParser();
  if (run.project === "go") return createGoTestParser();
  if (run.project === "node") return createNodeTestParser();
  if (run.project === "vitest") return createVitestParser();
  if (run.project === "jest") return createJestParser();
  if (run.project === "mocha") return createMochaParser();
  if (run.project === "cargo") return createCargoParser();
  return createDjangoParser(run.line.includes("runtests.py") ? "django" : "unittest");
}

function parseWhole(run: CapturedRun, text: string): ParsedRunOutput {
  if (run.project === "py" || run.project === "app") return parsePytest(text);
  if (run.project === "go") return parseGoTest(text);
  if (run.project === "node") return parseNodeTest(text);
  if (run.project === "vitest") return parseVitest(text);
  if (run.project === "jest") return parseJest(text);
  if (run.project === "mocha") return parseMocha(text);
  if (run.project === "cargo") return parseCargo(text);
  return parseDjango(text, run.line.includes("runtests.py") ? "django" : "unittest");
}

describe("clipped copies of captured outputs", () => {
  it.each(WITH_TRUTH)("%s: every id a clipped copy reports agrees with the truth", (name) => {
    const run = loadCapture(name);
    const truth = run.truth!;
    for (const fraction of FRACTIONS) {
      // Cut mid-line on purpose: tool hosts clip by characters, not lines.
      const clipped = run.output.slice(0, Math.floor(run.output.length * fraction));
      const parsed = parseWhole(run, clipped);
      // A cut between `PASSED x` and x's teardown `ERROR x` shows a pass the truth lacks; only a
      // copy that still holds the runner's final summary may be trusted for its passes.
      // A copy with forgery signals (a test printing result lines, as under -s) is not trusted
      // either: the judge turns those signals into `unknown`.
      const trusted = parsed.summaryCount > 0 && parsed.forgeries.length === 0 ? parsed.passed : [];
      expect({ fraction, passed: trusted.filter((id) => !truth.passed.includes(id)) }).toEqual({ fraction, passed: [] });
      // The last line may be cut inside an id: `FAILED tests/a.py::te` still names a real failure's prefix.
      // A cut right after a separator (pytest's ` - `, jest's ` › `) leaves it dangling on the id.
      const notFailures = parsed.failed.filter((id) => !truth.failed.some((real) => real.startsWith(id.replace(/ [-›]$/, ""))));
      expect({ fraction, failed: notFailures }).toEqual({ fraction, failed: [] });
    }
  });

  it.each(WITH_TRUTH)("%s: a copy cut before the last final summary has one summary fewer", (name) => {
    const run = loadCapture(name);
    const full = parseWhole(run, run.output);
    // go and cargo fold one result per package or test binary into one summary.
    if (full.summary === null || run.project === "go" || run.project === "cargo") return;
    const lines = run.output.split("\n");
    const clipped = lines.slice(0, full.summary.line - 1).join("\n");
    expect(parseWhole(run, clipped).summaryCount).toEqual(full.summaryCount - 1);
  });
});

describe("incremental input", () => {
  it.each(CAPTURE_CASES.map((c) => c.name))("%s: chunks of 1 to 97 characters give the whole-text result", (name) => {
    const run = loadCapture(name);
    const parser = parserFor(run);
    let at = 0;
    let size = 1;
    while (at < run.output.length) {
      parser.push(run.output.slice(at, at + size));
      at += size;
      size = (size * 7 + 3) % 97 || 1;
    }
    expect(parser.end()).toEqual(parseWhole(run, run.output));
  });
});
