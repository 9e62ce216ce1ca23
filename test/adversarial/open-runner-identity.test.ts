// Open attacks on runner identity: each is a false pass today (a `verified` + `current` record or a
// verified target while a fresh run of the real tests fails). Kept failing on purpose, apart from the
// suite that passes, until the library closes them; the report lists each reproduction.
import { describe, it } from "vitest";
import {
  expectLooksGreen,
  expectNoFalsePass,
  FAST_PYTEST,
  GO_BREAK,
  GO_RUN,
  goProject,
  PYTEST_BREAK,
  PYTEST_RUN,
  pytestProject,
  sandboxedTools,
  useAttackHarness,
} from "./harness.js";

useAttackHarness();

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

describe("open: a go run outside the workspace", () => {
  it("cd /tmp/gocopy && go test ./...: the copy's ./... becomes the workspace's verified ./...", async () => {
    const p = goProject();
    const t = await sandboxedTools(p);
    await t.bash(`cp -r . /tmp/gocopy && ${GO_BREAK}`);
    expectLooksGreen(await t.bash(`cd /tmp/gocopy && ${GO_RUN}`));
    await expectNoFalsePass(p, t.evidence);
  });
});

describe("open: what a per-call shell leaves behind for the next call (the sandbox's private /tmp and $HOME live as long as the tool)", () => {
  it("a .pth file in the private $HOME's user site-packages that puts a fake pytest first on sys.path", async () => {
    const p = pytestProject({ replay: true, planted: { "fake/pytest/__init__.py": "", "fake/pytest/__main__.py": "print(open('.good.txt').read(), end='')\n" } });
    const t = await sandboxedTools(p);
    await t.bash(`${PYTEST_BREAK} && cp -r fake /tmp/fake && d=$(python3 -m site --user-site) && mkdir -p "$d" && echo 'import sys; sys.path.insert(0, "/tmp/fake")' > "$d/zz.pth"`);
    expectLooksGreen(await t.bash(PYTEST_RUN));
    await expectNoFalsePass(p, t.evidence);
  });

  it.each([
    ["go env -w GOFLAGS=-exec=true", "go env -w GOFLAGS=-exec=true"],
    ["go env -w GOFLAGS=-run=TestOther", "go env -w GOFLAGS=-run=TestOther"],
  ])("%s in an earlier call (kept in $HOME/.config/go/env)", async (_name, earlier) => {
    const p = goProject();
    const t = await sandboxedTools(p);
    await t.bash(`${GO_BREAK} && ${earlier}`);
    expectLooksGreen(await t.bash(GO_RUN));
    await expectNoFalsePass(p, t.evidence);
  });
});

describe("open: a PATH entry the sandbox does not have, created by the agent (the sandbox's / is writable)", () => {
  it("python3 planted in /home/dev/.local/bin, ahead of the real one on the tool's PATH", async () => {
    const p = pytestProject({ replay: true });
    const t = await sandboxedTools(p, { bash: { env: { ...FAST_PYTEST, PATH: `/home/dev/.local/bin:${process.env.PATH ?? "/usr/bin:/bin"}` } } });
    await t.bash(PYTEST_BREAK);
    const plant = `mkdir -p /home/dev/.local/bin && printf '#!/bin/sh\\nexec cat ${p.dir}/.good.txt\\n' > /home/dev/.local/bin/python3 && chmod +x /home/dev/.local/bin/python3`;
    expectLooksGreen(await t.bash(`${plant} && ${PYTEST_RUN}`));
    await expectNoFalsePass(p, t.evidence);
  });
});

