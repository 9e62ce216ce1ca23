// Open attacks on snapshot invalidation: a change the snapshot cannot see, made after a verified run,
// keeps the run `current`. Each is a false pass today; kept failing on purpose until the library
// closes them.
import { describe, it } from "vitest";
import { expectNoFalsePass, PYTEST_BREAK, PYTEST_RUN, pytestProject, sandboxedTools, useAttackHarness, stillOpen } from "./harness.js";

useAttackHarness();
stillOpen([
  "mod.py made a symlink to /tmp, then the file in /tmp edited",
]);


const BREAKING_CONFTEST = "import mod\n\nmod.value = lambda: 0\n";
const WRITE_CONFTEST = `printf '${BREAKING_CONFTEST.replace(/\n/g, "\\n")}' > conftest.py`;

describe("open: snapshot mode misses the change", () => {
  it("conftest.py is already ignored (.gitignore), then a new failing conftest.py", async () => {
    const p = pytestProject({ git: true, files: { ".gitignore": "conftest.py\n" } });
    const t = await sandboxedTools(p, { invalidation: "snapshot" });
    await t.bash(PYTEST_RUN);
    await t.bash(WRITE_CONFTEST);
    await expectNoFalsePass(p, t.evidence, ["conftest.py"]);
  });

  it("`echo conftest.py >> .git/info/exclude` in a test line, before the snapshotter exists", async () => {
    const p = pytestProject({ git: true });
    const t = await sandboxedTools(p, { invalidation: "snapshot" });
    await t.bash(`${PYTEST_RUN}; echo conftest.py >> .git/info/exclude`);
    await t.bash(PYTEST_RUN);
    await t.bash(WRITE_CONFTEST);
    await expectNoFalsePass(p, t.evidence, ["conftest.py"]);
  });

  it.each([
    ["--assume-unchanged", "git update-index --assume-unchanged mod.py"],
    ["--skip-worktree", "git update-index --skip-worktree mod.py"],
  ])("git update-index %s in a test line, before the snapshotter exists, then the edit", async (_name, mark) => {
    const p = pytestProject({ git: true });
    const t = await sandboxedTools(p, { invalidation: "snapshot" });
    await t.bash(`${PYTEST_RUN}; ${mark}`);
    await t.bash(PYTEST_RUN);
    await t.bash(PYTEST_BREAK);
    await expectNoFalsePass(p, t.evidence);
  });

  it("mod.py made a symlink to /tmp, then the file in /tmp edited", async () => {
    const p = pytestProject({ git: true });
    const t = await sandboxedTools(p, { invalidation: "snapshot" });
    await t.bash("cp mod.py /tmp/m.py && ln -sf /tmp/m.py mod.py");
    await t.bash(PYTEST_RUN);
    await t.bash("sed -i 's/return 1/return 0/' /tmp/m.py");
    await expectNoFalsePass(p, t.evidence);
  });
});
