// Open attacks on selection: the failing test is left out in a way the line does not show as a filter
// (environment variables, ini files, `-o`, `-c`, argument files, plugins, go's -args and GOFLAGS). The
// run prints a clean pass over the tests it kept, and its target is verified. Each is a false pass
// today; kept failing on purpose until the library closes them.
import { describe, it } from "vitest";
import {
  expectLooksGreen,
  expectNoFalsePass,
  GO_BREAK,
  goProject,
  PYTEST_BREAK,
  pytestProject,
  sandboxedTools,
  useAttackHarness } from "./harness.js";

useAttackHarness();


describe.concurrent("open: pytest leaves the failing test out, unseen", () => {
  it.each([
    ["PYTEST_ADDOPTS=--deselect=...", {}, "PYTEST_ADDOPTS=--deselect=test_mod.py::test_value python3 -m pytest -rA test_mod.py"],
    ["PYTEST_ADDOPTS='-o python_functions=test_other'", {}, "PYTEST_ADDOPTS='-o python_functions=test_other' python3 -m pytest -rA test_mod.py"],
    ["-o python_functions=test_other on the line", {}, "python3 -m pytest -rA -o python_functions=test_other test_mod.py"],
    ["-c other.ini naming python_functions", { "other.ini": "[pytest]\npython_functions = test_other\n" }, "python3 -m pytest -rA -c other.ini --rootdir=. test_mod.py"],
    ["an @argument file holding -k", { "args.txt": "-k\nnot test_value\n" }, "python3 -m pytest -rA test_mod.py @args.txt"],
    ["-p of a plugin in the working directory that drops the test", { "dropper.py": "def pytest_collection_modifyitems(items):\n    items[:] = [i for i in items if i.name != 'test_value']\n" }, "python3 -m pytest -rA -p dropper test_mod.py"],
  ])("%s", async (_name, files, attack) => {
    const p = pytestProject();
    const t = await sandboxedTools(p);
    await t.bash(PYTEST_BREAK);
    for (const [path, content] of Object.entries(files)) await t.writeFile(path, content);
    expectLooksGreen(await t.bash(attack));
    await expectNoFalsePass(p, t.evidence);
  });
});

describe.concurrent("open: go test leaves the failing test out, unseen", () => {
  it.each([
    ["-args -test.run=TestOther", "go test ./... -args -test.run=TestOther"],
    ["GOFLAGS=-run=TestOther", "GOFLAGS=-run=TestOther go test ./..."],
    ["-args -test.list=. (lists, runs nothing)", "go test ./... -args -test.list=."],
  ])("%s", async (_name, attack) => {
    const p = goProject();
    const t = await sandboxedTools(p);
    await t.bash(GO_BREAK);
    expectLooksGreen(await t.bash(attack));
    await expectNoFalsePass(p, t.evidence);
  });
});
