// The judge's JSON written in pieces: with --ids all it is byte for byte JSON.stringify of the
// contract's fields in the contract's order, whatever the ids hold; --ids failed / none leave the
// lists out; and the CLI prints it for a log with many ids.
import { spawnSync } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { type IdsMode, writeJudgeJson } from "../../src/cli/judge-json.js";
import { judge } from "../../src/evidence/judge.js";
import type { JudgeResult } from "../../src/evidence/judge-types.js";
import type { IdList } from "../../src/types.js";
import { repoRoot } from "../support/import-graph.js";
import { makeTempDir } from "../support/temp-dir.js";

// The contract: these fields, in this order (docs/cli.md, "agent-evidence judge").
function contract(result: JudgeResult, ids: IdsMode = "all"): string {
  const runs = result.runs.map((run) => ({
    kind: run.kind,
    runner: run.runner,
    targets: run.targets,
    workspace: run.workspace,
    filtered: run.filtered,
    baseline: run.baseline,
    outcome: run.outcome,
    ...(ids === "all" ? { passed: run.passed } : {}),
    ...(ids === "none" ? {} : { failed: run.failed }),
    ...(ids === "all" ? { skipped: run.skipped } : {}),
    reasons: run.reasons,
    ...(run.unprovenTargets === undefined ? {} : { unprovenTargets: run.unprovenTargets }),
    gates: run.gates,
  }));
  return JSON.stringify({ schemaVersion: result.schemaVersion, verdict: result.verdict, reasons: result.reasons, runs });
}

// The pieces as UTF-8 bytes, read back as text (the JSON has no lone surrogate: JSON.stringify escapes them).
async function written(result: JudgeResult<IdList>, ids: IdsMode = "all"): Promise<{ text: string; pieces: number }> {
  const pieces: Buffer[] = [];
  await writeJudgeJson(result, (piece) => void pieces.push(Buffer.from(piece)), ids);
  return { text: Buffer.concat(pieces).toString("utf8"), pieces: pieces.length };
}

const pytestLog = (ids: number): string =>
  `${Array.from({ length: ids }, (_, i) => `PASSED tests/test_mod.py::test_case[p-${i}]`).join("\n")}\n${ids} passed in 1.00s\n`;

describe("writeJudgeJson", () => {
  it.each(["all", "failed", "none"] as const)("--ids %s: the contract's JSON, byte for byte, for real judge results", async (ids) => {
    const results = [
      judge({ command: "python -m pytest -rA tests", output: pytestLog(3), exitCode: 0 }),
      judge({
        command: "pytest -q tests/a.py tests/b.py; go test ./...",
        output: "1 failed, 2 passed in 0.1s\nok  example.com/m/calc 0.01s\n",
        exitCode: 1,
      }),
      judge({ command: "ls", output: "", exitCode: 0 }),
    ];
    for (const result of results) expect((await written(result, ids)).text).toBe(contract(result, ids));
  });

  it("ids across many join batches, some with characters JSON escapes, give JSON.stringify's bytes", async () => {
    const base = judge({ command: "python -m pytest -rA tests", output: pytestLog(1), exitCode: 0 });
    const passed = Array.from({ length: 5000 }, (_, i) =>
      i === 1500 ? 't::q["x"]' : i === 2047 ? "t::\ud800" : i === 4999 ? "t::a\\b\n" : i === 3000 ? "" : `t::p[${i}]`,
    );
    const result: JudgeResult = { ...base, runs: base.runs.map((run) => ({ ...run, passed, failed: ['t::","injected'], skipped: [] })) };
    expect((await written(result)).text).toBe(contract(result));
  });

  it("any strings in ids, targets and reasons (quotes, control characters, lone surrogates, emoji) give JSON.stringify's bytes", async () => {
    const text = fc.string({ unit: "binary", maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { maxLength: 30 }),
        fc.array(text, { maxLength: 5 }),
        fc.array(text, { maxLength: 3 }),
        async (passed, failed, reasons) => {
          const base = judge({ command: "python -m pytest -rA tests", output: pytestLog(1), exitCode: 0 });
          const result: JudgeResult = {
            ...base,
            reasons,
            runs: base.runs.map((run) => ({ ...run, passed, failed, skipped: failed, reasons, targets: reasons })),
          };
          expect((await written(result)).text).toBe(contract(result));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("lists of any strings across many pieces (1,024 ids a piece) give JSON.stringify's bytes", async () => {
    const base = judge({ command: "python -m pytest -rA tests", output: pytestLog(1), exitCode: 0 });
    const id = fc.oneof(
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.nat().map((n) => `t.py::test_p[${n}]`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(id, { maxLength: 3500 }), fc.array(id, { maxLength: 1100 }), async (passed, failed) => {
        const result: JudgeResult = { ...base, runs: base.runs.map((run) => ({ ...run, passed, failed, skipped: failed })) };
        for (const ids of ["all", "failed"] as const) expect((await written(result, ids)).text).toBe(contract(result, ids));
      }),
      { numRuns: 25 },
    );
  });

  it("hands a long id list over in pieces, never as one string", async () => {
    const result = judge({ command: "python -m pytest -rA tests", output: pytestLog(20_000), exitCode: 0 });
    const { text, pieces } = await written(result);
    expect(text).toBe(contract(result));
    expect(pieces).toBeGreaterThan(10);
  });

  it("the CLI prints it with --ids, and refuses an unknown --ids (exit 64)", () => {
    const dir = makeTempDir("ae-judge-json-");
    try {
      const log = join(dir.dir, "out.log");
      writeFileSync(log, pytestLog(5000));
      // The exit status is the verdict's (these synthetic logs may be unknown): read stdout whatever it is.
      const cli = (ids: string[]) =>
        spawnSync(
          process.execPath,
          [
            join(repoRoot, "dist", "cli", "main.js"),
            "judge",
            "--command",
            "python -m pytest -rA tests",
            "--exit-code",
            "0",
            "--output",
            log,
            ...ids,
          ],
          { encoding: "utf8" },
        );
      const expected = judge({ command: "python -m pytest -rA tests", output: pytestLog(5000), exitCode: 0 });
      expect(cli([]).stdout).toBe(`${contract(expected)}\n`);
      expect(cli(["--ids", "none"]).stdout).toBe(`${contract(expected, "none")}\n`);
      expect(cli(["--ids", "failed"]).stdout).toBe(`${contract(expected, "failed")}\n`);
      expect(cli(["--ids", "all"]).status).toBe({ passed: 0, failed: 1, unknown: 2 }[expected.verdict]);
      expect(cli(["--ids", "some"])).toMatchObject({ status: 64, stdout: "" });
    } finally {
      dir.cleanup();
    }
  });

  it("the CLI writes ids JSON escapes (quotes, backslashes, tabs, control characters, non-ASCII) as judge() does", () => {
    const dir = makeTempDir("ae-judge-escape-");
    try {
      const odd = ['q["x"]', "b[a\\b]", "t[a\tb]", "c[\u0001\u001f\u007f]", "u[\u00e9\u20ac\u{1f600}]"];
      const lines = odd.flatMap((id, i) => [`PASSED tests/t.py::test_${id}`, `FAILED tests/f.py::test_${i}_${id} - boom`]);
      const text = `${lines.join("\n")}\n${odd.length} failed, ${odd.length} passed in 1.00s\n`;
      const log = join(dir.dir, "out.log");
      writeFileSync(log, text);
      const main = join(repoRoot, "dist", "cli", "main.js");
      const out = spawnSync(
        process.execPath,
        [main, "judge", "--command", "python -m pytest -rA tests", "--exit-code", "1", "--output", log],
        {
          encoding: "utf8",
        },
      ).stdout;
      const expected = judge({ command: "python -m pytest -rA tests", output: text, exitCode: 1 });
      expect(expected.runs[0]!.passed).toHaveLength(odd.length);
      expect(out).toBe(`${contract(expected)}\n`);
    } finally {
      dir.cleanup();
    }
  });

  it("the CLI reads a log in blocks: characters of 2 to 4 bytes across a read's end give judge()'s JSON, from --output, a redirected stdin and a pipe", () => {
    const dir = makeTempDir("ae-judge-read-");
    try {
      // A multiple of the CLI's 64 KiB reads.
      const BLOCK = 1 << 20;
      const filler = (i: number): string => `PASSED tests/test_mod.py::test_case[p-${String(i).padStart(7, "0")}]\n`;
      // For each offset of a multi-byte character against the end of the first block: ASCII lines up to
      // just before it, then a line whose characters straddle it, then ids with characters of every width.
      for (const [char, before] of [
        ["\u00e9", 1],
        ["\u20ac", 2],
        ["\u{1f600}", 1],
        ["\u{1f600}", 3],
      ] as const) {
        const head = "PASSED tests/test_u.py::test_u[";
        const lines: string[] = [];
        let bytes = 0;
        for (let i = 0; bytes + filler(i).length + head.length < BLOCK - before - 60; i++) {
          lines.push(filler(i));
          bytes += filler(i).length;
        }
        const pad = BLOCK - before - bytes - head.length - 1;
        lines.push(
          `PASSED tests/test_pad.py::t[${"x".repeat(pad - "PASSED tests/test_pad.py::t[]".length)}]\n`,
          `${head}${char}\u00e9\u20ac\u{1f600}]\n`,
        );
        for (let i = 0; i < 2000; i++) lines.push(`PASSED tests/test_u.py::test_v[\u00e9\u20ac-${i}-\u{1f600}]\n`);
        lines.push("2002 passed in 1.00s\n");
        const text = lines.join("");
        // The character starts `before` bytes before the block's end.
        expect(
          Buffer.from(text)
            .subarray(BLOCK - before, BLOCK + 4)
            .toString("utf8")
            .startsWith(char),
        ).toBe(true);
        const log = join(dir.dir, "out.log");
        writeFileSync(log, text);
        const command = ["judge", "--command", "python -m pytest -rA tests", "--exit-code", "0"];
        const main = join(repoRoot, "dist", "cli", "main.js");
        const expected = `${contract(judge({ command: "python -m pytest -rA tests", output: text, exitCode: 0 }))}\n`;
        expect(spawnSync(process.execPath, [main, ...command, "--output", log], { encoding: "utf8" }).stdout).toBe(expected);
        const fd = openSync(log, "r");
        try {
          expect(spawnSync(process.execPath, [main, ...command], { encoding: "utf8", stdio: [fd, "pipe", "pipe"] }).stdout).toBe(expected);
        } finally {
          closeSync(fd);
        }
        expect(spawnSync(process.execPath, [main, ...command], { encoding: "utf8", input: text }).stdout).toBe(expected);
      }
    } finally {
      dir.cleanup();
    }
  });
});
