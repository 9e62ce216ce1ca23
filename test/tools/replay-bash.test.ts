// createReplayBashTool (agent-evidence/testing): recorded calls answered in order, through the
// foreign-tool path of BashEvidence, on output a real pytest printed.
import { execFileSync } from "node:child_process";

import { afterAll, describe, expect, it } from "vitest";

import { isEvidenceError } from "../../src/errors.js";
import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { createReplayBashTool } from "../../src/tools/replay-bash.js";
import { makeProject, PYTEST_FILES } from "../evidence/ledger-helpers.js";

const project = makeProject(PYTEST_FILES);
afterAll(() => project.cleanup());
const COMMAND = "python3 -m pytest -rA -p no:cacheprovider t.py";
// What pytest really prints for the project, recorded once.
const output = ((): string => {
  try {
    return execFileSync("/usr/bin/python3", ["-m", "pytest", "-rA", "-p", "no:cacheprovider", "t.py"], {
      cwd: project.dir,
      encoding: "utf8",
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
})();

describe("createReplayBashTool", () => {
  it("answers with the recorded output and exit code, which BashEvidence judges as a real run", async () => {
    expect(output).toMatch(/1 passed/);
    const bash = new BashEvidence(createReplayBashTool([{ command: COMMAND, output, exitCode: 0 }]), { workspace: project.dir });
    const result = await bash.execute({ command: COMMAND });
    expect(result.text).toBe(`${output}Exit code: 0`);
    expect(result.isError).toBeUndefined();
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it("replays each recording once, in order, and a command with none left runs nothing and proves nothing", async () => {
    const bash = new BashEvidence(
      createReplayBashTool([
        { command: COMMAND, output: "boom\n", exitCode: 1 },
        { command: COMMAND, output, exitCode: 0 },
      ]),
      { workspace: project.dir },
    );
    expect((await bash.execute({ command: COMMAND })).text).toBe("boom\nExit code: 1");
    expect(bash.verifiedTargets).toEqual([]);
    await bash.execute({ command: COMMAND });
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
    const third = await bash.execute({ command: COMMAND });
    expect(third).toMatchObject({ isError: true, text: `Error: no recorded call left for ${JSON.stringify(COMMAND)}` });
  });

  it("a recording with no exit code is judged on its output alone: the whole report proves, a tail of it does not", async () => {
    const tail = output.trimEnd().split("\n").slice(-2).join("\n") + "\n";
    const bash = new BashEvidence(
      createReplayBashTool([
        { command: COMMAND, output: tail, exitCode: null },
        { command: COMMAND, output, exitCode: null },
      ]),
      { workspace: project.dir },
    );
    expect((await bash.execute({ command: COMMAND })).text).toBe(tail);
    expect(bash.verifiedTargets).toEqual([]);
    expect(bash.verificationRecords.map((record) => record.outcome)).toEqual(["unknown"]);
    await bash.execute({ command: COMMAND });
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it("refuses a malformed recording at construction", () => {
    let thrown: unknown;
    try {
      createReplayBashTool([{ command: "x", output: 3 as unknown as string, exitCode: 0 }]);
    } catch (error) {
      thrown = error;
    }
    expect(isEvidenceError(thrown, "E_INVALID_OPTION")).toBe(true);
  });
});
