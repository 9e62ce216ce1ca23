// runVerdict in-process on real runners: status, reasons, exit status and report state per case.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { runVerdict } from "../../src/verdict/run-verdict.js";
import { verdictExitCode, verdictSchema } from "../../src/verdict/schema.js";
import { tempDirPath } from "../support/temp-dir.js";
import { prepareCase, VERDICT_CASES } from "./verdict-cases.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("runVerdict on the fixture projects", () => {
  it.each(VERDICT_CASES.map((spec) => [spec.name, spec] as const))("%s", async (_name, spec) => {
    const { dir, env } = prepareCase(spec);
    const outDir = tempDirPath("ae-verdict-out-");
    dirs.push(dir, outDir);
    const verdict = await runVerdict({
      command: typeof spec.command === "string" ? spec.command : spec.command.join(" "),
      cwd: dir,
      log: join(outDir, "suite.log"),
      out: join(outDir, "verdict.json"),
      timeoutSeconds: spec.timeoutSeconds,
      junit: spec.junit,
      instrument: spec.instrument,
      env,
    });
    expect({
      status: verdict.status,
      reasons: verdict.reasons,
      exit: verdictExitCode(verdict),
      junit: verdict.junit,
      instrumented: verdict.instrumentedCommand !== null,
    }).toEqual(spec.expected);
    expect(verdictSchema.parse(JSON.parse(readFileSync(join(outDir, "verdict.json"), "utf8")))).toEqual(verdict);
  });
});
