// The captures committed for interpreters apt cannot install (CaptureCase.pinned): each is there,
// is the case it says, and, where the interpreter exists (the machine image's pyenv), still matches a
// live run of its line: same exit status, same truth, same output once timings are masked.
// AE_UPDATE_PINNED=1 rewrites the committed files from the live runs instead.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { captureLive, ensureCaptured, loadPinned, PINNED_DIR, pinnedPath, pinnedText } from "./capture.js";
import { CAPTURE_CASES, PINNED_INTERPRETERS } from "./capture-cases.js";

const PINNED = CAPTURE_CASES.filter((spec) => spec.pinned !== undefined);

// unittest prints its own run time; nothing else in these outputs varies between runs.
const masked = (output: string): string => output.replace(/^Ran (\d+) tests? in \d+\.\d+s$/gm, "Ran $1 tests in <time>");

beforeAll(async () => {
  await ensureCaptured();
});

describe("pinned captures", () => {
  it("are the cases that name an interpreter apt cannot install, and nothing else", () => {
    expect(PINNED.map((spec) => spec.name).sort()).toEqual(
      CAPTURE_CASES.filter((spec) => PINNED_INTERPRETERS.some(([path]) => spec.line.includes(path)))
        .map((spec) => spec.name)
        .sort(),
    );
    expect(readdirSync(PINNED_DIR).sort()).toEqual(PINNED.map((spec) => basename(pinnedPath(spec))).sort());
  });

  it.each(PINNED.map((spec) => [spec.name, spec] as const))("%s is committed as the case it names", (_name, spec) => {
    const run = loadPinned(spec);
    expect([run.name, run.line, run.project]).toEqual([spec.name, spec.line, spec.project]);
    expect(run.output.length).toBeGreaterThan(0);
    expect(run.truth).not.toBeNull();
  });

  describe.each(PINNED_INTERPRETERS)("where %s exists", (interpreter, pinned) => {
    const cases = PINNED.filter((spec) => spec.pinned === pinned);
    it.skipIf(!existsSync(interpreter)).each(cases.map((spec) => [spec.name, spec] as const))(
      "%s matches a live run",
      async (_name, spec) => {
        const live = await captureLive(spec, `${spec.name}.live`);
        if (process.env.AE_UPDATE_PINNED === "1") writeFileSync(pinnedPath(spec), pinnedText({ ...live, durationMs: 0 }));
        const committed = loadPinned(spec);
        expect(live.exitCode).toBe(committed.exitCode);
        expect(live.truth).toEqual(committed.truth);
        expect(masked(live.output)).toBe(masked(committed.output));
      },
    );
  });
});
