import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";

const workspaces = (line: string, cwd?: string): (string | null)[] =>
  analyzeCommand(line, cwd === undefined ? {} : { cwd }).invocations.map((i) => i.workspace);

describe("workspace of each invocation", () => {
  it.each([
    ["no cd: the starting directory", "pytest", undefined, ["."]],
    ["a given cwd", "pytest", "/repo", ["/repo"]],
    ["a trailing slash in cwd is dropped", "pytest", "/repo/", ["/repo"]],
    ["cd DIR &&", "cd sub && pytest", undefined, ["sub"]],
    ["cd DIR && with a cwd", "cd pkg && python -m pytest -q tests/", "/repo", ["/repo/pkg"]],
    ["cd DIR;", "cd sub; pytest", "/repo", ["/repo/sub"]],
    ["cd DIR newline", "cd sub\npytest", "/repo", ["/repo/sub"]],
    ["cd -- DIR", "cd -- sub && pytest", "/repo", ["/repo/sub"]],
    ["cd -P DIR", "cd -P sub && pytest", "/repo", ["/repo/sub"]],
    ["chained cds", "cd a && cd b && pytest", "/repo", ["/repo/a/b"]],
    ["cd .. normalised", "cd a; cd ../b; pytest", "/repo", ["/repo/b"]],
    ["cd ./sub/ normalised", "cd ./sub/ && pytest", undefined, ["sub"]],
    ["an absolute cd", "cd /abs/dir && pytest", "/repo", ["/abs/dir"]],
    ["a quoted directory", 'cd "my dir" && pytest', "/repo", ["/repo/my dir"]],
    ["pushd", "pushd sub && pytest", "/repo", ["/repo/sub"]],
    ["pushd then popd", "pushd sub; popd; pytest", "/repo", ["/repo"]],
    ["a cd inside a subshell does not leak", "(cd sub && pytest); pytest", "/repo", ["/repo/sub", "/repo"]],
    ["a cd inside a group does leak", "{ cd sub; }; pytest", "/repo", ["/repo/sub"]],
    ["a cd inside bash -c does not leak", 'bash -c "cd sub && pytest"; pytest', "/repo", ["/repo/sub", "/repo"]],
    ["bash -c starts in the current directory", 'cd sub && bash -c "pytest"', "/repo", ["/repo/sub"]],
    ["a cd in a background list does not leak", "cd sub & pytest", "/repo", ["/repo"]],
    ["a cd in a pipeline stage does not leak", "cd sub | cat; pytest", "/repo", ["/repo"]],
    ["cd || exit keeps the directory", "cd sub || exit 1; pytest", "/repo", ["/repo/sub"]],
    ["uv run --directory", "uv run --directory sub pytest", "/repo", ["/repo/sub"]],
    ["poetry -C", "poetry -C sub run pytest", "/repo", ["/repo/sub"]],
    ["env -C", "env -C sub pytest", "/repo", ["/repo/sub"]],
    ["go test -C", "go test -C sub ./...", "/repo", ["/repo/sub"]],
    ["cd ~", "cd ~ && pytest", "/repo", [null]],
    ["cd ~/x", "cd ~/x && pytest", "/repo", [null]],
    ["cd -", "cd - && pytest", "/repo", [null]],
    ["cd $VAR", "cd $VAR && pytest", "/repo", [null]],
    ['cd "$(git rev-parse --show-toplevel)"', 'cd "$(git rev-parse --show-toplevel)" && pytest', "/repo", [null]],
    ["cd with no operand (HOME)", "cd && pytest", "/repo", [null]],
    ["cd with two operands", "cd a b && pytest", "/repo", [null]],
    ["a cd that may not have run", "make && cd sub; pytest", "/repo", [null]],
    ["|| after a cd: either directory", "cd a && pytest || pytest", "/repo", ["/repo/a", null]],
    ["a cd inside a loop", "for d in a b; do cd $d; done; pytest", "/repo", [null]],
    ["a cd inside an if", "if true; then cd a; fi; pytest", "/repo", [null]],
    ["pushd +1", "pushd +1 && pytest", "/repo", [null]],
    ["popd on an empty stack", "popd; pytest", "/repo", [null]],
    ["an unknown start stays unknown for relative cds", "cd ~; cd sub; pytest", "/repo", [null]],
    ["an absolute cd recovers from unknown", "cd ~; cd /srv; pytest", "/repo", ["/srv"]],
  ])("%s", (_name, line, cwd, expected) => {
    expect(workspaces(line, cwd)).toEqual(expected);
  });
});
