// Issue 16 acceptance: rankCandidates' per-test table (fail-to-pass, pass-to-pass, pass-to-fail,
// fail-to-fail, and the ids only one side has) against an independent computation from the runner's
// own structured report, on the base and on 29 generated candidate patches of two fixture projects
// (a pytest project, a go module). Real git worktrees (runCandidates), real evidenceTools bash and
// file_write (sandboxed), real pytest and go. The independent side (cross-check-reports.ts) runs the
// runner itself in the same worktrees, after the library is done with them, asks for the structured
// report (pytest --junitxml, go test -json) and reads it with its own parsers: no expected table is
// written down here, every expectation comes from the reports.
//
// One test file per project (cross-check-pytest.test.ts, cross-check-go.test.ts) calls crossCheck:
// each project's candidates get their own worker and their own hook budget (on a loaded CI machine the
// two projects in one beforeAll went past 300 s).
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { rankCandidates, type RankedCandidate } from "../../src/candidates/rank.js";
import { type RunCandidateOptions, type RunCandidateResult, runCandidates } from "../../src/candidates/run-candidate.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { tempDirPath } from "../support/temp-dir.js";
import { type CrossTable, crossTable, goReport, pytestReport, type RunnerReport } from "./cross-check-reports.js";
import { createRepo, removeAll } from "./git-fixture.js";

// ---------------------------------------------------------------------------------------------
// The fixture projects. Each has bugs on purpose, so the base has failures to fix.

const PY_CALC =
  "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a // b\n";
const PY_STRS = 'def upper(s):\n    return s.upper()\n\n\ndef rev(s):\n    return s\n\n\ndef join(parts):\n    return "-".join(parts)\n';
const PY_TEST_CALC = [
  "import pytest\n\nfrom calc import add, div, mul, sub\n\n\n",
  "def test_add():\n    assert add(2, 3) == 5\n\n\n",
  "def test_sub():\n    assert sub(5, 3) == 2\n\n\n",
  "def test_mul():\n    assert mul(2, 3) == 6\n\n\n",
  '@pytest.mark.parametrize("a,b,q", [(6, 3, 2), (7, 2, 3)])\ndef test_div(a, b, q):\n    assert div(a, b) == q\n',
].join("");
const PY_TEST_STRS = [
  "from strs import join, rev, upper\n\n\n",
  'def test_upper():\n    assert upper("ab") == "AB"\n\n\n',
  'def test_rev():\n    assert rev("ab") == "ba"\n\n\n',
  'class TestJoin:\n    def test_two(self):\n        assert join(["a", "b"]) == "a-b"\n\n    def test_none(self):\n        assert join([]) == ""\n',
].join("");
const PY_FILES = {
  "calc.py": PY_CALC,
  "strs.py": PY_STRS,
  "tests/test_calc.py": PY_TEST_CALC,
  "tests/test_strs.py": PY_TEST_STRS,
  "conftest.py": "",
  ".gitignore": "__pycache__/\n.pytest_cache/\n",
};

const GO_CALC =
  "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n\n// Mul multiplies.\nfunc Mul(a, b int) int {\n\tif b > 2 {\n\t\treturn a + b\n\t}\n\treturn a * b\n}\n";
const GO_CALC_TEST = [
  'package calc\n\nimport "testing"\n\n',
  'func TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf("Add(2, 3) = %d", got)\n\t}\n}\n\n',
  'func TestSub(t *testing.T) {\n\tif got := Sub(5, 3); got != 2 {\n\t\tt.Fatalf("Sub(5, 3) = %d", got)\n\t}\n}\n\n',
  "func TestMul(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tname    string\n\t\ta, b, p int\n\t}{",
  '{"small", 2, 2, 4}, {"big", 3, 4, 12}',
  '} {\n\t\tc := c\n\t\tt.Run(c.name, func(t *testing.T) {\n\t\t\tif got := Mul(c.a, c.b); got != c.p {\n\t\t\t\tt.Fatalf("Mul(%d, %d) = %d", c.a, c.b, got)\n\t\t\t}\n\t\t})\n\t}\n}\n',
].join("");
const GO_STRS =
  'package strs\n\nimport "strings"\n\n// Upper upper-cases.\nfunc Upper(s string) string { return strings.ToUpper(s) }\n\n// Rev reverses.\nfunc Rev(s string) string { return s }\n\n// Join joins with dashes.\nfunc Join(parts []string) string { return strings.Join(parts, "-") }\n';
const GO_STRS_TEST = [
  'package strs\n\nimport "testing"\n\n',
  'func TestUpper(t *testing.T) {\n\tif got := Upper("ab"); got != "AB" {\n\t\tt.Fatalf("Upper = %q", got)\n\t}\n}\n\n',
  'func TestRev(t *testing.T) {\n\tif got := Rev("ab"); got != "ba" {\n\t\tt.Fatalf("Rev = %q", got)\n\t}\n}\n\n',
  'func TestJoin(t *testing.T) {\n\tif got := Join([]string{"a", "b"}); got != "a-b" {\n\t\tt.Fatalf("Join = %q", got)\n\t}\n}\n',
].join("");
const GO_FILES = {
  "go.mod": "module example.com/xc\n\ngo 1.19\n",
  "calc/calc.go": GO_CALC,
  "calc/calc_test.go": GO_CALC_TEST,
  "strs/strs.go": GO_STRS,
  "strs/strs_test.go": GO_STRS_TEST,
};
const GO_REV_FIXED =
  "func Rev(s string) string {\n\tr := []rune(s)\n\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {\n\t\tr[i], r[j] = r[j], r[i]\n\t}\n\treturn string(r)\n}";

// ---------------------------------------------------------------------------------------------
// The candidate patches, generated from the fixture files by exact edits.

/** Replaces the one occurrence of `from` (a patch that silently did nothing would prove nothing). */
function edit(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`patch generator: ${JSON.stringify(from)} must occur exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

type Op = { write: string; content: string } | { bash: string };

interface Patch {
  label: string;
  /** One line: what the patch does. */
  what: string;
  ops: Op[];
  /**
   * `exact`: the library's table must equal the one computed from the reports, list for list.
   * `claims-only`: the library deliberately has no evidence for some ids the report decides (see
   * the "claims only" tests below); every outcome it does claim must be the report's.
   */
  compare: "exact" | "claims-only";
}

const py = {
  addFixed: edit(PY_CALC, "def add(a, b):\n    return a - b", "def add(a, b):\n    return a + b"),
  allFixed: edit(
    edit(PY_CALC, "def add(a, b):\n    return a - b", "def add(a, b):\n    return a + b"),
    "return a + b\n\n\ndef div",
    "return a * b\n\n\ndef div",
  ),
  revFixed: edit(PY_STRS, "def rev(s):\n    return s\n", "def rev(s):\n    return s[::-1]\n"),
};

const PY_PATCHES: Patch[] = [
  { label: "py-noop", what: "no change", ops: [], compare: "exact" },
  {
    label: "py-fix-all",
    what: "fixes add, mul and rev",
    ops: [
      { write: "calc.py", content: py.allFixed },
      { write: "strs.py", content: py.revFixed },
    ],
    compare: "exact",
  },
  { label: "py-fix-add", what: "fixes add only", ops: [{ write: "calc.py", content: py.addFixed }], compare: "exact" },
  {
    label: "py-fix-add-break-sub",
    what: "fixes add, breaks sub",
    ops: [{ write: "calc.py", content: edit(py.addFixed, "def sub(a, b):\n    return a - b", "def sub(a, b):\n    return b - a") }],
    compare: "exact",
  },
  {
    label: "py-break-one-param",
    what: "true division in div: breaks test_div[7-2-3] only",
    ops: [{ write: "calc.py", content: edit(PY_CALC, "a // b", "a / b") }],
    compare: "exact",
  },
  {
    label: "py-collect-test-syntax",
    what: "syntax error appended to tests/test_strs.py (collection error, session interrupted)",
    ops: [{ write: "tests/test_strs.py", content: `${PY_TEST_STRS}\n\ndef broken(:\n    pass\n` }],
    compare: "exact",
  },
  {
    label: "py-collect-code-syntax",
    what: "syntax error in calc.py (tests/test_calc.py fails to import)",
    ops: [{ write: "calc.py", content: edit(PY_CALC, "def div(a, b):", "def div(a, b:") }],
    compare: "exact",
  },
  {
    label: "py-timeout",
    what: "fixes add; rev sleeps 35 s (past the verify step's timeout)",
    ops: [
      { write: "calc.py", content: py.addFixed },
      {
        write: "strs.py",
        content: `import time\n\n\n${edit(PY_STRS, "def rev(s):\n    return s\n", "def rev(s):\n    time.sleep(35)\n    return s[::-1]\n")}`,
      },
    ],
    compare: "claims-only",
  },
  {
    label: "py-tests-assert",
    what: "tests only: test_add expects the buggy result",
    ops: [{ write: "tests/test_calc.py", content: edit(PY_TEST_CALC, "assert add(2, 3) == 5", "assert add(2, 3) == -1") }],
    compare: "exact",
  },
  {
    label: "py-tests-add",
    what: "tests only: adds a passing test_add_zero and a failing test_mul_one",
    ops: [
      {
        write: "tests/test_calc.py",
        content: `${PY_TEST_CALC}\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n\n\ndef test_mul_one():\n    assert mul(1, 1) == 1\n`,
      },
    ],
    compare: "exact",
  },
  {
    label: "py-tests-delete",
    what: "tests only: deletes test_rev and TestJoin::test_none",
    ops: [
      {
        write: "tests/test_strs.py",
        content: edit(
          edit(PY_TEST_STRS, 'def test_rev():\n    assert rev("ab") == "ba"\n\n\n', ""),
          '\n    def test_none(self):\n        assert join([]) == ""\n',
          "",
        ),
      },
    ],
    compare: "exact",
  },
  {
    label: "py-tests-rm-file",
    what: "tests only: removes tests/test_strs.py with rm",
    ops: [{ bash: "rm tests/test_strs.py" }],
    compare: "exact",
  },
  {
    label: "py-tests-rename",
    what: "tests only: renames test_sub to test_subtract",
    ops: [{ write: "tests/test_calc.py", content: edit(PY_TEST_CALC, "def test_sub():", "def test_subtract():") }],
    compare: "exact",
  },
  {
    label: "py-tests-new-file",
    what: "tests only: a new tests/test_extra.py (a class, a parametrized test, one failing case)",
    ops: [
      {
        write: "tests/test_extra.py",
        content:
          'import pytest\n\nfrom strs import upper\n\n\nclass TestUpperMore:\n    @pytest.mark.parametrize("s", ["x", "Y", "1"])\n    def test_idem(self, s):\n        assert upper(s) == s.upper()\n\n    def test_wrong(self):\n        assert upper("a") == "a"\n',
      },
    ],
    compare: "exact",
  },
  {
    label: "py-skip-xfail",
    what: "tests only: skips test_rev, marks test_mul xfail (it still fails)",
    ops: [
      { write: "tests/test_calc.py", content: edit(PY_TEST_CALC, "def test_mul():", "@pytest.mark.xfail\ndef test_mul():") },
      {
        write: "tests/test_strs.py",
        content: `import pytest\n${edit(PY_TEST_STRS, "def test_rev():", "@pytest.mark.skip\ndef test_rev():")}`,
      },
    ],
    compare: "exact",
  },
  {
    label: "py-xpass",
    what: "tests only: marks the passing test_sub xfail (non-strict XPASS)",
    ops: [{ write: "tests/test_calc.py", content: edit(PY_TEST_CALC, "def test_sub():", "@pytest.mark.xfail\ndef test_sub():") }],
    compare: "claims-only",
  },
  {
    label: "py-teardown-error",
    what: "fixes rev; test_upper gets a fixture whose teardown raises (PASSED and ERROR for one id)",
    ops: [
      { write: "strs.py", content: py.revFixed },
      {
        write: "tests/test_strs.py",
        content: `import pytest\n\n${edit(PY_TEST_STRS, 'def test_upper():\n    assert upper("ab") == "AB"', '@pytest.fixture\ndef noisy():\n    yield 1\n    raise RuntimeError("teardown")\n\n\ndef test_upper(noisy):\n    assert upper("ab") == "AB"')}`,
      },
    ],
    compare: "exact",
  },
];

const go = {
  addFixed: edit(GO_CALC, "func Add(a, b int) int { return a - b }", "func Add(a, b int) int { return a + b }"),
  mulFixed: edit(GO_CALC, "\tif b > 2 {\n\t\treturn a + b\n\t}\n", ""),
  revFixed: edit(GO_STRS, "func Rev(s string) string { return s }", GO_REV_FIXED),
};

const GO_PATCHES: Patch[] = [
  { label: "go-noop", what: "no change", ops: [], compare: "exact" },
  {
    label: "go-fix-all",
    what: "fixes Add, Mul and Rev",
    ops: [
      { write: "calc/calc.go", content: edit(go.mulFixed, "return a - b }\n\n// Sub", "return a + b }\n\n// Sub") },
      { write: "strs/strs.go", content: go.revFixed },
    ],
    compare: "exact",
  },
  {
    label: "go-fix-add-break-sub",
    what: "fixes Add, breaks Sub",
    ops: [
      {
        write: "calc/calc.go",
        content: edit(go.addFixed, "func Sub(a, b int) int { return a - b }", "func Sub(a, b int) int { return b - a }"),
      },
    ],
    compare: "exact",
  },
  {
    label: "go-fix-mul-big",
    what: "fixes Mul: the failing subtest TestMul/big and its parent pass",
    ops: [{ write: "calc/calc.go", content: go.mulFixed }],
    compare: "exact",
  },
  {
    label: "go-compile-code",
    what: "syntax error in calc/calc.go (calc fails to build, strs runs)",
    ops: [{ write: "calc/calc.go", content: `${GO_CALC}\nfunc Broken( {\n}\n` }],
    compare: "exact",
  },
  {
    label: "go-compile-test",
    what: "tests only: strs_test.go uses an undefined name (strs fails to build)",
    ops: [{ write: "strs/strs_test.go", content: edit(GO_STRS_TEST, 'Upper("ab")', "Upper(undefinedName)") }],
    compare: "exact",
  },
  {
    label: "go-timeout",
    what: "fixes Add; Rev sleeps 35 s (past the verify step's timeout)",
    ops: [
      { write: "calc/calc.go", content: go.addFixed },
      {
        write: "strs/strs.go",
        content: edit(
          edit(GO_STRS, 'import "strings"', 'import (\n\t"strings"\n\t"time"\n)'),
          "func Rev(s string) string { return s }",
          "func Rev(s string) string {\n\ttime.Sleep(35 * time.Second)\n\treturn s\n}",
        ),
      },
    ],
    compare: "claims-only",
  },
  {
    label: "go-tests-assert",
    what: "tests only: TestAdd expects the buggy result",
    ops: [{ write: "calc/calc_test.go", content: edit(GO_CALC_TEST, "got != 5", "got != -1") }],
    compare: "exact",
  },
  {
    label: "go-tests-add-delete",
    what: "tests only: adds TestNew (passes) and TestNewFail, deletes TestJoin",
    ops: [
      {
        write: "strs/strs_test.go",
        content: `${edit(GO_STRS_TEST, GO_STRS_TEST.slice(GO_STRS_TEST.indexOf("func TestJoin")), "")}func TestNew(t *testing.T) {\n\tif Upper("x") != "X" {\n\t\tt.Fatal("Upper")\n\t}\n}\n\nfunc TestNewFail(t *testing.T) {\n\tif Rev("xy") != "yx" {\n\t\tt.Fatal("Rev")\n\t}\n}\n`,
      },
    ],
    compare: "exact",
  },
  {
    label: "go-skip",
    what: "tests only: TestRev calls t.Skip",
    ops: [
      {
        write: "strs/strs_test.go",
        content: edit(GO_STRS_TEST, "func TestRev(t *testing.T) {\n", 'func TestRev(t *testing.T) {\n\tt.Skip("later")\n'),
      },
    ],
    compare: "exact",
  },
  {
    label: "go-panic",
    what: "Sub panics: the calc test binary dies in TestSub, TestMul never runs",
    ops: [
      {
        write: "calc/calc.go",
        content: edit(GO_CALC, "func Sub(a, b int) int { return a - b }", 'func Sub(a, b int) int { panic("sub") }'),
      },
    ],
    compare: "exact",
  },
  {
    label: "go-subtest-add",
    what: "tests only: adds a passing TestMul/zero case",
    ops: [
      {
        write: "calc/calc_test.go",
        content: edit(GO_CALC_TEST, '{"small", 2, 2, 4}, {"big", 3, 4, 12}', '{"small", 2, 2, 4}, {"big", 3, 4, 12}, {"zero", 0, 1, 0}'),
      },
    ],
    compare: "exact",
  },
];

// ---------------------------------------------------------------------------------------------
// Running it all

/** The verify step's timeout: well above a normal run on a loaded machine, well below the 35 s sleeps. */
const VERIFY_TIMEOUT_MS = 20_000;
const PY_VERIFY = { command: "python3 -m pytest -rA tests", timeoutMs: VERIFY_TIMEOUT_MS };
const GO_VERIFY = { command: "go test -v ./...", timeoutMs: VERIFY_TIMEOUT_MS };

const createToolset = (dir: string) => evidenceTools(["bash", "file_write"], { cwd: dir, allowFileCreation: true });
type Tools = ReturnType<typeof createToolset>["tools"];

// The agent applies the patch through the tools (file_write, or bash for rm), then checks the files.
function agentFor(patch: Patch): RunCandidateOptions<Tools, undefined>["agent"] {
  return async (tools, workspace) => {
    const call = (name: string, input: unknown) => tools.find((tool) => tool.name === name)!.execute(input as never);
    for (const op of patch.ops) {
      if ("bash" in op) {
        await call("bash", { command: op.bash });
        continue;
      }
      let exists = true;
      try {
        readFileSync(join(workspace.path, op.write));
      } catch {
        exists = false;
      }
      await call("file_write", { path: op.write, mode: exists ? "overwrite" : "create", content: op.content });
      if (readFileSync(join(workspace.path, op.write), "utf8") !== op.content)
        throw new Error(`${patch.label}: file_write did not write ${op.write}`);
    }
  };
}

interface Project {
  kind: "pytest" | "go";
  repo: string;
  patches: Patch[];
  base?: RunCandidateResult;
  results: Map<string, RunCandidateResult>;
  reports: Map<string, RunnerReport>;
  ranked: RankedCandidate[];
}

const BASE = { pytest: "py-base", go: "go-base" } as const;

/** How many candidate patches the two projects have together. */
export const CANDIDATE_COUNT = PY_PATCHES.length + GO_PATCHES.length;

// Runs `jobs` at most `limit` at a time.
async function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      out[index] = await jobs[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The comparisons

function reportOf(project: Project, label: string): RunnerReport {
  const report = project.reports.get(label);
  if (report === undefined) throw new Error(`no report for ${label}`);
  if (report.timedOut) throw new Error(`the direct run of ${label} did not finish:\n${report.output}`);
  return report;
}

function libraryTable(project: Project, label: string): CrossTable {
  const ranked = project.ranked.find((entry) => entry.label === label);
  if (ranked === undefined) throw new Error(`${label} was not ranked`);
  return ranked.tests;
}

// The library's view of one run, as a map like the report's: ids passing or failing in the evidence.
function libraryOutcomes(result: RunCandidateResult): Map<string, "passed" | "failed"> {
  const out = new Map<string, "passed" | "failed">();
  for (const entry of result.tests.tests)
    if (entry.state === "passing" || entry.state === "failing") out.set(entry.key, entry.state === "passing" ? "passed" : "failed");
  return out;
}

const sorted = (ids: Iterable<string>): string[] => [...ids].sort();

/** Registers the cross-check of one fixture project: its candidates, the reports, the comparisons. */
export function crossCheck(kind: "pytest" | "go"): void {
  const project: Project = {
    kind,
    repo: "",
    patches: kind === "pytest" ? PY_PATCHES : GO_PATCHES,
    results: new Map(),
    reports: new Map(),
    ranked: [],
  };
  let goCache = "";
  let runner = { python: "", go: "" };

  beforeAll(async () => {
    // The runners the sandboxed bash tool runs (it hides $HOME, so e.g. a pyenv shim there is not
    // the python3 it finds): the independent runs use the very same interpreter and go.
    const probe = evidenceTools(["bash"], { cwd: tmpdir() });
    const probed = await probe.tools[0]!.execute({ command: "python3 -c 'import sys; print(sys.executable)'; command -v go" } as never);
    await probe.evidence.close();
    const [python, goBinary] = probed.text.split("\n").map((line) => line.trim());
    if (python === undefined || !python.startsWith("/") || goBinary === undefined || !goBinary.startsWith("/"))
      throw new Error(`could not find the sandbox's runners: ${probed.text}`);
    runner = { python, go: goBinary };
    if (project.kind === "go") goCache = tempDirPath("ae-xcheck-gocache-");
    project.repo = project.kind === "pytest" ? await createRepo("xcheck-py", PY_FILES) : await createRepo("xcheck-go", GO_FILES);

    // The library's side: every candidate (and each base: an agent that does nothing, the same verify
    // step) through runCandidates. The timeout goes first so its wait overlaps the rest.
    const list: { project: Project; options: RunCandidateOptions<Tools, undefined> }[] = [];
    const verify = project.kind === "pytest" ? PY_VERIFY : GO_VERIFY;
    list.push({
      project,
      options: { repo: project.repo, label: BASE[project.kind], agent: () => Promise.resolve(), createToolset, verify },
    });
    for (const patch of project.patches)
      list.push({ project, options: { repo: project.repo, label: patch.label, agent: agentFor(patch), createToolset, verify } });
    list.sort((a, b) => Number(b.options.label.endsWith("-timeout")) - Number(a.options.label.endsWith("-timeout")));
    const settled = await runCandidates(
      list.map((entry) => entry.options),
      { concurrency: 2 },
    );
    const failures: string[] = [];
    settled.forEach((outcome, index) => {
      const { project, options } = list[index]!;
      if (outcome.status === "rejected") {
        failures.push(`${options.label}: ${String(outcome.reason)}`);
        const kept = (outcome.reason as { workspace?: { dispose(): Promise<void> } }).workspace;
        if (kept !== undefined) void kept.dispose();
      } else if (options.label === BASE[project.kind]) project.base = outcome.value;
      else project.results.set(options.label, outcome.value);
    });
    if (failures.length > 0) throw new Error(`candidates failed:\n${failures.join("\n")}`);

    // The independent side: the runner itself, in the same worktrees, for its structured report.
    const jobs: { project: Project; label: string; result: RunCandidateResult }[] = [];
    jobs.push({ project, label: BASE[project.kind], result: project.base! });
    for (const [label, result] of project.results) jobs.push({ project, label, result });
    jobs.sort((a, b) => Number(b.label.endsWith("-timeout")) - Number(a.label.endsWith("-timeout")));
    const reports = await pool(
      jobs.map(
        (job) => () =>
          job.project.kind === "pytest"
            ? pytestReport(runner.python, job.result.workspace.path)
            : goReport(runner.go, job.result.workspace.path, goCache),
      ),
      3,
    );
    jobs.forEach((job, index) => job.project.reports.set(job.label, reports[index]!));

    project.ranked = rankCandidates([...project.results.values()], { base: project.base! });
  }, 300_000);

  afterAll(async () => {
    const results = [...(project.base === undefined ? [] : [project.base]), ...project.results.values()];
    await Promise.all(results.map((result) => result.workspace.dispose()));
    await removeAll(project.repo);
    if (goCache !== "") await removeAll(goCache);
  }, 120_000);

  describe(`${project.kind} project`, () => {
    it("the base: the library's per-test outcomes are the report's, and the report has passes and failures", () => {
      expect(project.base!.verification.map((record) => record.timedOut)).toEqual([false]);
      const report = reportOf(project, BASE[project.kind]);
      const outcomes = [...report.outcomes.values()];
      expect(outcomes).toContain("passed");
      expect(outcomes).toContain("failed");
      expect(Object.fromEntries(libraryOutcomes(project.base!))).toEqual(Object.fromEntries(report.outcomes));
    });

    const exact = project.patches.filter((patch) => patch.compare === "exact");
    it.each(exact.map((patch) => [patch.label, patch] as const))(
      "%s: the library's table is the one computed from the two reports",
      (label) => {
        // One verify record that finished (a timed-out one would mean the machine was too slow for VERIFY_TIMEOUT_MS).
        expect(project.results.get(label)!.verification.map((record) => record.timedOut)).toEqual([false]);
        const expected = crossTable(reportOf(project, BASE[project.kind]).outcomes, reportOf(project, label).outcomes);
        expect(libraryTable(project, label)).toEqual(expected);
      },
    );

    // Claims only. Two kinds of candidate where the library deliberately has no evidence on ids the
    // report decides:
    // - the verify step's timeout killed the run (py-timeout, go-timeout; the direct run is let finish,
    //   so its report decides every test). pytest -rA printed no summary before the kill: the library
    //   has no id at all. go test -v printed the packages that finished before the kill (calc): the
    //   library takes their ids from the run's failure, the unfinished package (strs) has none;
    // - a non-strict XPASS (py-xpass): the library lists it as skipped, never passed (docs/runners.md),
    //   while JUnit writes it as a plain passing testcase and cannot tell it from a pass.
    // Compared: every id the library places on the candidate side (fail-to-pass, pass-to-pass and
    // candidate-only passes; pass-to-fail, fail-to-fail and candidate-only failures) has exactly that
    // outcome in the candidate's report, and the base outcome its cell implies in the base report; every
    // baseOnly id (the library's "no evidence on the candidate") is one the base report decides. So
    // the library never claims a pass or a failure the report does not show.
    const claimsOnly = project.patches.filter((patch) => patch.compare === "claims-only");
    it.each(claimsOnly.map((patch) => [patch.label, patch] as const))(
      "%s: every outcome the library claims is the report's; the rest is no evidence, never a pass",
      (label) => {
        const baseReport = reportOf(project, BASE[project.kind]).outcomes;
        const report = reportOf(project, label).outcomes;
        const table = libraryTable(project, label);
        if (label.endsWith("-timeout")) expect(project.results.get(label)!.verification.map((record) => record.timedOut)).toEqual([true]);
        type Outcome = "passed" | "failed";
        const claim = (now: Outcome, before: Outcome | undefined) => (id: string) => ({ id, now, before });
        const claimed = [
          ...table.failToPass.map(claim("passed", "failed")),
          ...table.passToPass.map(claim("passed", "passed")),
          ...table.passToFail.map(claim("failed", "passed")),
          ...table.failToFail.map(claim("failed", "failed")),
          ...table.candidateOnly.passed.map(claim("passed", undefined)),
          ...table.candidateOnly.failed.map(claim("failed", undefined)),
        ];
        // Each claim as the library makes it, beside what the two reports say of that id.
        expect(claimed.map(({ id }) => ({ id, now: report.get(id), before: baseReport.get(id) }))).toEqual(claimed);
        expect(sorted(table.baseOnly.filter((id) => !baseReport.has(id)))).toEqual([]);
        // Not vacuous: this candidate's report decides ids the library has no evidence on.
        const unclaimed = sorted([...report.keys()].filter((id) => !claimed.some((entry) => entry.id === id)));
        expect(unclaimed.length).toBeGreaterThan(0);
      },
    );

    it("every candidate's key status agrees with its report: green only when the direct run passed, red only when it failed", () => {
      const disagreements: string[] = [];
      for (const ranked of project.ranked) {
        const report = reportOf(project, ranked.label);
        const failed = [...report.outcomes.values()].includes("failed") || report.exitCode !== 0;
        if (ranked.status === "green" && failed) disagreements.push(`${ranked.label}: green, but the direct run exited ${report.exitCode}`);
        if (ranked.status === "red" && !failed) disagreements.push(`${ranked.label}: red, but the direct run passed`);
      }
      expect(disagreements).toEqual([]);
    });

    it("the ranking orders the exact candidates by the reports' regressions, then fixes", () => {
      const rankOf = new Map(project.ranked.map((entry) => [entry.label, entry.rank]));
      const baseReport = reportOf(project, BASE[project.kind]).outcomes;
      const scores = exact.map((patch) => {
        const table = crossTable(baseReport, reportOf(project, patch.label).outcomes);
        return { label: patch.label, regressions: table.passToFail.length, fixes: table.failToPass.length, rank: rankOf.get(patch.label)! };
      });
      const inversions: string[] = [];
      for (const a of scores)
        for (const b of scores) {
          const aBetter = a.regressions < b.regressions || (a.regressions === b.regressions && a.fixes > b.fixes);
          if (aBetter && !(a.rank < b.rank))
            inversions.push(
              `${a.label} (rank ${a.rank}, ${a.regressions} regressions, ${a.fixes} fixes) vs ${b.label} (rank ${b.rank}, ${b.regressions}, ${b.fixes})`,
            );
        }
      expect(inversions).toEqual([]);
    });
  });

  it(`${project.kind}: the reports put some id in every cell of the table`, () => {
    const all = project.patches.map((patch) => ({ project, patch }));
    const cells = new Map<string, number>();
    for (const { project, patch } of all) {
      const table = crossTable(reportOf(project, BASE[project.kind]).outcomes, reportOf(project, patch.label).outcomes);
      const counts = {
        failToPass: table.failToPass,
        passToPass: table.passToPass,
        passToFail: table.passToFail,
        failToFail: table.failToFail,
        candidateOnlyPassed: table.candidateOnly.passed,
        candidateOnlyFailed: table.candidateOnly.failed,
        baseOnly: table.baseOnly,
      };
      for (const [cell, ids] of Object.entries(counts))
        cells.set(`${project.kind} ${cell}`, (cells.get(`${project.kind} ${cell}`) ?? 0) + ids.length);
    }
    const empty = [...cells].filter(([, count]) => count === 0).map(([cell]) => cell);
    expect(empty).toEqual([]);
  });
}
