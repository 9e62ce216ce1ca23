// A runner that never started (`command not found`, `No module named pytest`) is a usage error; the
// same words in a test's own output, in a run that printed its summary, are not.
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { pytestRule } from "../support/pytest-text.js";

const lines = (...text: string[]): string => `${text.join("\n")}\n`;
const bar = (title: string): string => pytestRule(title);

describe("start errors", () => {
  it("a passing -rA run whose test wrote `No such file or directory` to stderr passes", () => {
    const output = lines(
      bar("test session starts"),
      "collected 1 item",
      "",
      "tests/test_io.py .                                                       [100%]",
      "",
      bar("PASSES"),
      "________________________________ test_reads ________________________________",
      "----------------------------- Captured stderr call -----------------------------",
      "cat: missing.txt: No such file or directory",
      bar("short test summary info"),
      "PASSED tests/test_io.py::test_reads",
      bar("1 passed in 0.02s"),
    );
    const result = judge({ command: "python -m pytest -rA tests/test_io.py", output, exitCode: 0 });
    expect(result.verdict).toBe("passed");
    expect(result.runs[0]!.passed).toEqual(["tests/test_io.py::test_reads"]);
  });

  it.each([
    ["pytest -q", "bash: line 1: pytest: command not found", 127],
    ["python -m pytest -q", "/usr/bin/python3: No module named pytest", 1],
    ["cd missing && python -m pytest -q", "bash: line 1: cd: missing: No such file or directory", 1],
    ["python tests/runtests.py", "python: can't open file '/repo/tests/runtests.py': [Errno 2] No such file or directory", 2],
  ])("%s printing only `%s` is a usage error", (command, text, exitCode) => {
    const result = judge({ command, output: lines(text), exitCode });
    expect(result.verdict).toBe("unknown");
    expect(result.reasons).toEqual(["usage-error"]);
  });
});
