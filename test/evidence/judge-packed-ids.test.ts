// The judge asked for packed ids (`ids: "bytes"`, the CLI's form) gives the result the default form
// gives, field by field, and the same JSON bytes: on every captured run of every runner (pushed whole
// and in random pieces, cut inside lines and inside multi-byte characters), and on random pytest -rA
// logs whose ids repeat at any distance (up to 10,000 ids, past the tables' first compaction at
// 4,096 entries, so they compact between and across chunks).
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { writeJudgeJson } from "../../src/cli/judge-json.js";
import { createJudgeStream } from "../../src/evidence/judge.js";
import type { JudgeResult } from "../../src/evidence/judge-types.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { isIdArray } from "../../src/observers/id-list.js";
import { createPytestParser } from "../../src/observers/pytest.js";
import type { RunnerDefinition } from "../../src/runners/definition.js";
import { pytestRunner } from "../../src/runners/pytest.js";
import { createRunnerRegistry } from "../../src/runners/registry.js";
import type { IdList } from "../../src/types.js";
import { runners as tallyRunners } from "../fixtures/own-runner/tally-runner.js";
import { ensureCaptured, loadCapture } from "../support/capture.js";
import { CAPTURE_CASES } from "../support/capture-cases.js";

beforeAll(async () => {
  await ensureCaptured();
});

function judgeIn<F extends "strings" | "bytes">(
  form: F,
  command: string,
  cwd: string,
  output: string,
  exitCode: number,
  cuts: readonly number[],
): JudgeResult<IdList> {
  const analysis = analyzeCommand(command, { cwd });
  const stream = form === "bytes" ? createJudgeStream(analysis, { exitCode, ids: "bytes" }) : createJudgeStream(analysis, { exitCode });
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    stream.push(output.slice(at, cut));
    at = cut;
  }
  stream.push(output.slice(at));
  return stream.end();
}

// The result with every list read out as an array (what the default form holds).
function asArrays(result: JudgeResult<IdList>): JudgeResult {
  return {
    ...result,
    runs: result.runs.map((run) => ({
      ...run,
      passed: [...run.passed],
      failed: [...run.failed],
      skipped: [...run.skipped],
    })),
  };
}

async function jsonOf(result: JudgeResult<IdList>): Promise<string> {
  const pieces: Buffer[] = [];
  await writeJudgeJson(result, (piece) => void pieces.push(Buffer.from(piece)));
  return Buffer.concat(pieces).toString("utf8");
}

async function expectSame(command: string, cwd: string, output: string, exitCode: number, cuts: readonly number[]): Promise<void> {
  const strings = judgeIn("strings", command, cwd, output, exitCode, cuts);
  const packed = judgeIn("bytes", command, cwd, output, exitCode, cuts);
  for (const run of strings.runs) for (const list of [run.passed, run.failed, run.skipped]) expect(isIdArray(list)).toBe(true);
  expect(asArrays(packed)).toEqual(strings);
  expect(await jsonOf(packed)).toBe(await jsonOf(strings));
}

describe("the judge with packed ids", () => {
  it("gives the default form's result and JSON on every captured run, whole and in random pieces", async () => {
    let packedLists = 0;
    for (const spec of CAPTURE_CASES) {
      const run = loadCapture(spec.name);
      await expectSame(run.line, run.cwd, run.output, run.exitCode, []);
      const packed = judgeIn("bytes", run.line, run.cwd, run.output, run.exitCode, []);
      packedLists += packed.runs.flatMap((r) => [r.passed, r.failed, r.skipped]).filter((list) => !isIdArray(list)).length;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: run.output.length }), { maxLength: 12 }), async (cuts) => {
          await expectSame(run.line, run.cwd, run.output, run.exitCode, cuts);
        }),
        { numRuns: 3 },
      );
    }
    // The built-in runners that keep an id table gave packed lists (the form is not a no-op).
    expect(packedLists).toBeGreaterThan(100);
  }, 120_000);

  it("gives the default form's result and JSON on random pytest -rA logs with repeated and unusual ids", async () => {
    const idArb = fc.oneof(
      fc.integer({ min: 0, max: 40 }).map((n) => `tests/test_m.py::test_${n}`),
      fc.integer({ min: 0, max: 100_000 }).map((n) => `tests/b${n % 97}/test_p.py::TestT::test_case[param-${n}]`),
      fc.constantFrom(
        "tests/test_a.py::test_x[caf\\xe9]",
        "tests/test_a.py::test_é",
        'tests/test_a.py::test_q["x" - y]',
        "tests/t.py::test_😀[a\tb]",
      ),
    );
    const lineArb = fc
      .tuple(fc.constantFrom("PASSED", "FAILED", "ERROR", "XFAIL", "SKIPPED"), idArb)
      .map(([status, id]) => (status === "FAILED" || status === "ERROR" ? `${status} ${id} - AssertionError: boom` : `${status} ${id}`));
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { maxLength: 10_000, size: "max" }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (body, rawCuts) => {
          const output = [
            "============================= test session starts ==============================",
            "rootdir: /work/project",
            `collected ${body.length} items`,
            "=========================== short test summary info ============================",
            ...body,
            `======================== 1 failed, ${body.length} passed in 1.00s ========================`,
            "",
          ].join("\n");
          const cuts = rawCuts.map((n) => n % (output.length + 1));
          await expectSame("python -m pytest -rA tests", "/work/project", output, 1, cuts);
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});

describe("runners of your own and the two forms", () => {
  const tallyOutput = "PASS checks/test_add.sh\nFAIL checks/test_sub.sh\ntally: 1 passed, 1 failed\n";

  it("a parser that ignores ParserOptions gives arrays in the packed form, and the same result", () => {
    const analysis = analyzeCommand("tally checks", { runners: tallyRunners });
    const strings = createJudgeStream(analysis, { exitCode: 1, runners: tallyRunners });
    const packed = createJudgeStream(analysis, { exitCode: 1, runners: tallyRunners, ids: "bytes" });
    strings.push(tallyOutput);
    packed.push(tallyOutput);
    const [a, b] = [strings.end(), packed.end()];
    expect(a.runs[0]!.failed).toEqual(["checks/test_sub.sh"]);
    for (const list of [b.runs[0]!.passed, b.runs[0]!.failed]) expect(isIdArray(list)).toBe(true);
    expect(b).toEqual(a);
  });

  it("a parser that gives packed lists unasked still gives the default form arrays (and end() the same object twice)", () => {
    // A runner written in JavaScript, where no type stops createParser() from giving packed lists.
    const createParser = (() => createPytestParser({ ids: "bytes" })) as unknown as RunnerDefinition["createParser"];
    const packedPytest = createRunnerRegistry([{ ...pytestRunner, createParser }]);
    const output = "PASSED tests/t.py::test_a\nFAILED tests/t.py::test_b - boom\n1 failed, 1 passed in 0.10s\n";
    const analysis = analyzeCommand("python -m pytest -rA tests", { runners: packedPytest });
    const stream = createJudgeStream(analysis, { exitCode: 1, runners: packedPytest });
    stream.push(output);
    const result = stream.end();
    expect(result.runs[0]).toMatchObject({
      outcome: "failed",
      passed: ["tests/t.py::test_a"],
      failed: ["tests/t.py::test_b"],
      skipped: [],
    });
    for (const list of [result.runs[0]!.passed, result.runs[0]!.failed, result.runs[0]!.skipped]) expect(Array.isArray(list)).toBe(true);
    const plain = createJudgeStream(analyzeCommand("python -m pytest -rA tests"), { exitCode: 1 });
    plain.push(output);
    const first = plain.end();
    expect(plain.end()).toBe(first);
    expect(result).toEqual(first);
  });
});
