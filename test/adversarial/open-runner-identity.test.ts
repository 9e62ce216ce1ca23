// Open attacks on runner identity: each is a false pass today (a `verified` + `current` record or a
// verified target while a fresh run of the real tests fails). Each one still open is listed in stillOpen (harness.ts): its test must fail until the library closes it.
// suite that passes, until the library closes them; the report lists each reproduction.
import { describe, it } from "vitest";
import {
  expectLooksGreen,
  expectNoFalsePass,
  PYTEST_BREAK,
  PYTEST_RUN,
  pytestProject,
  sandboxedTools,
  useAttackHarness, stillOpen } from "./harness.js";

useAttackHarness();
stillOpen([
  "the source replaced by a symlink to a good copy in the sandbox's private /tmp (dangling on the host)",
]);


describe("open: a pytest run that is not the real pytest on the workspace's code", () => {
  it("a shell script at .venv/bin/pytest (a virtualenv's bin is trusted, whoever wrote it)", async () => {
    const p = pytestProject({ replay: true });
    p.write(".venv/bin/pytest", `#!/bin/sh\nexec cat '${p.dir}/.good.txt'\n`);
    const t = await sandboxedTools(p);
    await t.bash(`${PYTEST_BREAK} && chmod +x .venv/bin/pytest`);
    expectLooksGreen(await t.bash(".venv/bin/pytest -rA test_mod.py"));
    await expectNoFalsePass(p, t.evidence);
  });

  it.each([
    ["a pytest.py", { "pytest.py": "print(open('.good.txt').read(), end='')\n" }],
    ["a pytest/ package", { "pytest/__init__.py": "", "pytest/__main__.py": "print(open('.good.txt').read(), end='')\n" }],
  ])("%s in the directory `python3 -m pytest` puts first on sys.path", async (_name, files) => {
    const p = pytestProject({ replay: true, planted: files });
    const t = await sandboxedTools(p);
    await t.bash(PYTEST_BREAK);
    expectLooksGreen(await t.bash(PYTEST_RUN));
    await expectNoFalsePass(p, t.evidence);
  });

  it("the source replaced by a symlink to a good copy in the sandbox's private /tmp (dangling on the host)", async () => {
    const p = pytestProject();
    const t = await sandboxedTools(p);
    await t.bash("cp mod.py /tmp/good_mod.py && ln -sf /tmp/good_mod.py mod.py");
    expectLooksGreen(await t.bash(PYTEST_RUN));
    await expectNoFalsePass(p, t.evidence);
  });
});
