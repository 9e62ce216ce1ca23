// `agent-evidence run` reads the JUnit report the project already configures (issue 17, section 7)
// instead of adding its own --junitxml, which, coming last, would replace it: real pytest, with the
// path in pytest.ini's addopts, in pyproject.toml, and in PYTEST_ADDOPTS.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { addoptsOf, configuredJunitxml, junitxmlFromArguments, splitAddopts } from "../../src/verdict/configured-report.js";
import { runVerdict } from "../../src/verdict/run-verdict.js";
import { tempDirPath } from "../support/temp-dir.js";
import { suiteEnv } from "./verdict-cases.js";

const scratch = tempDirPath("ae-configured-report-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const TESTS = { "tests/test_a.py": "def test_one():\n    assert True\n\ndef test_two():\n    assert 1 + 1 == 2\n" };

describe("the configured report path, read from the config text", () => {
  it.each([
    ["--junitxml=r.xml", "r.xml"],
    ["-q --junitxml r.xml", "r.xml"],
    ["--junit-xml=out/r.xml -ra", "out/r.xml"],
    ["--junitxml=a.xml --junitxml=b.xml", "b.xml"],
    ["--junitxml='my report.xml'", "my report.xml"],
    ["-q -ra", null],
    ["--junitxml", null],
  ])("%s -> %s", (addopts, expected) => {
    expect(junitxmlFromArguments(splitAddopts(addopts))).toBe(expected);
  });

  it.each([
    ["pytest.ini", "[pytest]\naddopts = -q\n    --junitxml=reports/j.xml\ntestpaths = tests\n", "-q --junitxml=reports/j.xml"],
    ["tox.ini", "[tox]\nenvlist = py\n\n[pytest]\naddopts = --junitxml=j.xml\n", "--junitxml=j.xml"],
    ["setup.cfg", "[metadata]\nname = x\n[tool:pytest]\naddopts: --junitxml=j.xml\n", "--junitxml=j.xml"],
    ["pyproject.toml", '[project]\nname = "x"\n[tool.pytest.ini_options]\naddopts = "--junitxml=j.xml -q"\n', "--junitxml=j.xml -q"],
    ["pyproject.toml", '[tool.pytest.ini_options]\naddopts = ["--junitxml=j.xml", "-q"]\n', "--junitxml=j.xml -q"],
    ["tox.ini", "[tox]\nenvlist = py\n", null],
    ["setup.cfg", "[tool:pytest]\ntestpaths = tests\n", null],
  ])("%s: addopts %j", (name, text, expected) => {
    expect(addoptsOf(name, text)).toBe(expected);
  });

  it("takes the nearest config with a pytest section, and PYTEST_ADDOPTS over it", () => {
    const dir = project("lookup", {
      "setup.cfg": "[metadata]\nname = x\n",
      "sub/x": "",
      "pytest.ini": "[pytest]\naddopts = --junitxml=top.xml\n",
    });
    expect(configuredJunitxml(join(dir, "sub"), {})).toBe(join(dir, "sub", "top.xml"));
    expect(configuredJunitxml(dir, { PYTEST_ADDOPTS: "--junitxml=/tmp/env.xml" })).toBe("/tmp/env.xml");
    expect(configuredJunitxml(project("none", { "tox.ini": "[tox]\n" }), {})).toBeNull();
  });
});

describe("agent-evidence run on a project that configures its report", () => {
  it.each([
    ["pytest.ini addopts", { "pytest.ini": "[pytest]\naddopts = --junitxml=reports/junit.xml\n" }, {}],
    ["pyproject.toml addopts", { "pyproject.toml": '[tool.pytest.ini_options]\naddopts = ["--junitxml=reports/junit.xml"]\n' }, {}],
    ["PYTEST_ADDOPTS", {}, { PYTEST_ADDOPTS: "--junitxml=reports/junit.xml" }],
  ])("%s: the configured file is written and read, nothing added to the command", async (name, config, env) => {
    const dir = project(name.replace(/\W+/g, "-"), { ...TESTS, ...config });
    const out = join(scratch, `${name.replace(/\W+/g, "-")}-out`);
    mkdirSync(out);
    const verdict = await runVerdict({
      command: "python3 -m pytest -q -p no:cacheprovider tests",
      cwd: dir,
      log: join(out, "suite.log"),
      out: join(out, "verdict.json"),
      env: { ...suiteEnv(), ...env },
    });
    expect({
      status: verdict.status,
      junit: verdict.junit,
      tests: verdict.tests,
      instrumented: verdict.instrumentedCommand,
      junitPath: verdict.junitPath,
    }).toEqual({
      status: "passed",
      junit: "ok",
      tests: 2,
      instrumented: null,
      junitPath: join(dir, "reports", "junit.xml"),
    });
    expect(readFileSync(join(dir, "reports", "junit.xml"), "utf8")).toContain('tests="2"');
    expect(existsSync(join(out, "suite.log.junit.xml"))).toBe(false);
  });

  it("a configured report gone after the run is missing, and the verdict is not passed", async () => {
    const dir = project("configured-removed", { ...TESTS, "pytest.ini": "[pytest]\naddopts = --junitxml=reports/junit.xml\n" });
    const verdict = await runVerdict({
      command: "python3 -m pytest -q -p no:cacheprovider tests; rm -f reports/junit.xml",
      cwd: dir,
      log: join(dir, "..", "removed.log"),
      out: join(dir, "..", "removed.json"),
      env: suiteEnv(),
    });
    expect({ status: verdict.status, junit: verdict.junit, instrumented: verdict.instrumentedCommand }).toEqual({
      status: "incomplete",
      junit: "missing_junit",
      instrumented: null,
    });
  });

  // An agent that wants the green check controls the configured path: it writes a forged report
  // there after a failing run. The log still has the last word.
  it.each([
    [
      "a failing run, then the forged report copied over the configured one",
      "python3 -m pytest -q -p no:cacheprovider tests; cp fake.xml reports/junit.xml",
      "failed",
    ],
    [
      "the run's output hidden, then the forged report",
      "python3 -m pytest -q -p no:cacheprovider tests > /dev/null; cp fake.xml reports/junit.xml",
      "incomplete",
    ],
  ])("%s is not passed", async (name, command, status) => {
    const dir = project(`forged-${name.length}`, {
      "tests/test_a.py": "def test_one():\n    assert False\n",
      "pytest.ini": "[pytest]\naddopts = --junitxml=reports/junit.xml\n",
      "fake.xml":
        '<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="1" failures="0" errors="0" skipped="0"><testcase classname="tests.test_a" name="test_one" time="0.01"/></testsuite></testsuites>\n',
    });
    const verdict = await runVerdict({
      command,
      cwd: dir,
      log: join(dir, "..", `forged-${name.length}.log`),
      out: join(dir, "..", `forged-${name.length}.json`),
      env: suiteEnv(),
    });
    expect(verdict.status).toBe(status);
  });
});
