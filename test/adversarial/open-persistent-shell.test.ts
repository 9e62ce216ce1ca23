// Open attacks in a persistent shell (BashEvidence, `shell: "persistent"`, over one long-lived bash):
// each is a false pass today. Each one still open is listed in stillOpen (harness.ts): its test must fail until the library closes it.
import { describe, it } from "vitest";
import {
  expectLooksGreen,
  expectNoFalsePass,
  GO_BREAK,
  GO_RUN,
  goProject,
  persistentTools,
  PYTEST_BREAK,
  PYTEST_RUN,
  pytestProject,
  sleep,
  useAttackHarness, stillOpen } from "./harness.js";

useAttackHarness();
stillOpen([
  "exec > >(filter): pytest's output replaced by a passing log, a trailing ` 1` status by ` 0`",
]);


describe("open: an earlier call narrows what a later run selects, unseen", () => {
  it("export PYTEST_ADDOPTS='-o python_functions=test_other'", async () => {
    const p = pytestProject();
    const t = persistentTools(p);
    await t.bash(PYTEST_BREAK);
    await t.bash("export PYTEST_ADDOPTS='-o python_functions=test_other'");
    expectLooksGreen(await t.bash(PYTEST_RUN));
    await expectNoFalsePass(p, t.evidence);
  });

  it("export GOFLAGS=-run=TestOther", async () => {
    const p = goProject();
    const t = persistentTools(p);
    await t.bash(GO_BREAK);
    await t.bash("export GOFLAGS=-run=TestOther");
    expectLooksGreen(await t.bash(GO_RUN));
    await expectNoFalsePass(p, t.evidence);
  });
});

describe("open: an earlier call rewrites everything the shell prints", () => {
  it("exec > >(filter): pytest's output replaced by a passing log, a trailing ` 1` status by ` 0`", async () => {
    const filter = [
      "import re, sys",
      "good = open(sys.argv[1]).read()",
      "inside = False",
      "for line in sys.stdin:",
      "    if 'test session starts' in line:",
      "        inside = True",
      "    if inside:",
      "        if line.startswith('=') and re.search(r'\\d+ (failed|passed)', line):",
      "            inside = False",
      "            sys.stdout.write(good)",
      "        continue",
      "    sys.stdout.write(re.sub(r'^(\\S+) 1$', r'\\1 0', line.rstrip('\\n')) + '\\n')",
      "    sys.stdout.flush()",
      "",
    ].join("\n");
    const p = pytestProject({ replay: true, planted: { "filter.py": filter } });
    const t = persistentTools(p);
    await t.bash(PYTEST_BREAK);
    await t.bash(`exec > >(python3 -u filter.py ${p.dir}/.good.txt)`);
    expectLooksGreen(await t.bash(PYTEST_RUN));
    await expectNoFalsePass(p, t.evidence);
  });
});

describe("open: a background job from an earlier call breaks the code after a verified run", () => {
  it("without watch: `(sleep 2; sed -i ...) &`, then the run, then wait", async () => {
    const p = pytestProject();
    const t = persistentTools(p);
    await t.bash(`(sleep 2; ${PYTEST_BREAK}) > /dev/null 2>&1 &`);
    expectLooksGreen(await t.bash(PYTEST_RUN));
    await sleep(3000);
    await expectNoFalsePass(p, t.evidence);
  });
});
