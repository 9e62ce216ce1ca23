// Open attacks on caches: a same-size edit whose mtime is put back (`touch -r`) is invisible to a cache
// keyed on mtime and size, so the runner answers for the old content: Python's __pycache__ bytecode,
// and go's test result cache for a file a test reads. Each is a false pass today (the fresh run,
// without those caches, fails); kept failing on purpose until the library closes them.
import { describe, expect, it } from "vitest";
import { expectLooksGreen, expectNoFalsePass, GO_RUN, goProject, PYTEST_RUN, pytestProject, sandboxedTools, useAttackHarness, stillOpen } from "./harness.js";

useAttackHarness();
stillOpen([
  "pytest: __pycache__ bytecode of the old mod.py",
  "go: the cached result of a test that reads calc/value.txt",
]);


// A package whose value comes from a data file: go's test cache keys such a file on mtime and size.
const DATA_CALC = 'package calc\n\nimport (\n\t"os"\n\t"strconv"\n\t"strings"\n)\n\n// Value is the number in value.txt.\nfunc Value() int {\n\tb, _ := os.ReadFile("value.txt")\n\tn, _ := strconv.Atoi(strings.TrimSpace(string(b)))\n\treturn n\n}\n';

describe("open: a stale cache answers for a same-size edit whose mtime was put back", () => {
  it("pytest: __pycache__ bytecode of the old mod.py", async () => {
    const p = pytestProject();
    const t = await sandboxedTools(p);
    await t.bash(PYTEST_RUN);
    await t.bash("cp -p mod.py /tmp/ref && sed -i 's/return 1/return 0/' mod.py && touch -r /tmp/ref mod.py");
    expectLooksGreen(await t.bash(PYTEST_RUN));
    await expectNoFalsePass(p, t.evidence);
  });

  it("go: the cached result of a test that reads calc/value.txt", async () => {
    const p = goProject({ files: { "calc/calc.go": DATA_CALC, "calc/value.txt": "1\n" }, sources: ["calc/value.txt"] });
    const t = await sandboxedTools(p);
    await t.bash(GO_RUN);
    await t.bash("cp -p calc/value.txt /tmp/ref && echo 0 > calc/value.txt && touch -r /tmp/ref calc/value.txt");
    const result = await t.bash(GO_RUN);
    expect(result.text).toContain("(cached)");
    expectLooksGreen(result);
    await expectNoFalsePass(p, t.evidence);
  });
});
