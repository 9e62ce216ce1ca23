// A filtered run (-k, --deselect, go -run) proves only the ids it printed: never the whole file or
// directory it was given, whose deselected tests may still fail. Real pytest and go on small projects.
import { afterEach, describe, expect, it } from "vitest";

import { makeProject, observedBash, type TempProject } from "./ledger-helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function calcProject(): TempProject {
  const project = makeProject({
    "calc.py": "def add(a, b):\n    return a + b\n\n\ndef mean(xs):\n    return sum(xs)\n",
    "tests/test_calc.py":
      "from calc import add, mean\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n",
    "conftest.py": "import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n",
  });
  cleanups.push(() => project.cleanup());
  return project;
}

describe("a filtered pytest run", () => {
  it.each([
    ["-k under -q (no ids printed)", "python3 -m pytest -q -p no:cacheprovider -k add tests", []],
    ["-k with -rA", "python3 -m pytest -rA -p no:cacheprovider -k add tests", ["tests/test_calc.py::test_add"]],
    [
      "--deselect with -rA",
      "python3 -m pytest -rA -p no:cacheprovider --deselect tests/test_calc.py::test_mean tests",
      ["tests/test_calc.py::test_add"],
    ],
  ])("%s: the target is not verified, only the printed ids are", async (_name, command, ids) => {
    const bash = observedBash(calcProject());
    await bash.execute({ command });
    const [record] = bash.verificationRecords;
    expect({ target: record?.target, filtered: record?.filtered, verified: record?.verified, outcome: record?.outcome }).toEqual({
      target: "tests",
      filtered: true,
      verified: false,
      outcome: "passed",
    });
    expect(bash.verifiedTargets).toEqual(ids);
  });

  it("the same run unfiltered fails, and verifies nothing", async () => {
    const bash = observedBash(calcProject());
    await bash.execute({ command: "python3 -m pytest -rA -p no:cacheprovider tests" });
    expect(bash.verificationRecords.map((r) => [r.filtered, r.verified, r.outcome])).toEqual([[false, false, "failed"]]);
    expect(bash.verifiedTargets).toEqual([]);
  });

  it("an earlier whole-target pass is cleared by a filtered run of the same target", async () => {
    const project = calcProject();
    project.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef mean(xs):\n    return sum(xs) / len(xs)\n");
    const bash = observedBash(project);
    await bash.execute({ command: "python3 -m pytest -rA -p no:cacheprovider tests" });
    expect(bash.verifiedTargets).toContain("tests");
    await bash.execute({ command: "python3 -m pytest -rA -p no:cacheprovider -k add tests" });
    expect(bash.verifiedTargets).toEqual(["tests/test_calc.py::test_add"]);
  });
});

describe("a filtered go run", () => {
  it("go test -run verifies the tests it printed, not the package", async () => {
    const project = makeProject({
      "go.mod": "module example.com/calc\n\ngo 1.19\n",
      "calc_test.go":
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {}\n\nfunc TestMean(t *testing.T) { t.Fatal("broken") }\n',
    });
    cleanups.push(() => project.cleanup());
    const bash = observedBash(project, { env: { GOFLAGS: "-count=1", GOCACHE: `${project.scratch}/gocache`, HOME: project.scratch } });
    await bash.execute({ command: "go test -v -run TestAdd ./..." });
    const [record] = bash.verificationRecords;
    expect({ filtered: record?.filtered, verified: record?.verified }).toEqual({ filtered: true, verified: false });
    expect(bash.verifiedTargets).not.toContain("./...");
    expect(bash.verifiedTargets).toEqual(["example.com/calc::TestAdd"]);
  }, 60_000);
});

describe("a passing run with several targets", () => {
  it("is passed, and a target no printed id shows stays unverified with its reason", async () => {
    const project = makeProject({
      "a_test.py": "def test_a():\n    assert True\n",
      "b_test.py": "def test_b():\n    assert True\n",
      "empty_test.py": "",
    });
    cleanups.push(() => project.cleanup());
    const bash = observedBash(project);
    await bash.execute({ command: "python3 -m pytest -q -p no:cacheprovider a_test.py b_test.py empty_test.py" });
    expect(bash.verificationRecords.map((r) => [r.target, r.outcome, r.verified, r.reasons])).toEqual([
      ["a_test.py", "passed", false, ["target-not-proven"]],
      ["b_test.py", "passed", false, ["target-not-proven"]],
      ["empty_test.py", "passed", false, ["target-not-proven"]],
    ]);
    await bash.execute({ command: "python3 -m pytest -rA -p no:cacheprovider a_test.py b_test.py empty_test.py" });
    expect(bash.verificationRecords.slice(3).map((r) => [r.target, r.verified])).toEqual([
      ["a_test.py", true],
      ["b_test.py", true],
      ["empty_test.py", false],
    ]);
    expect(bash.verifiedTargets).toEqual(["a_test.py", "a_test.py::test_a", "b_test.py", "b_test.py::test_b"]);
  });
});
