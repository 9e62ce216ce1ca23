import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";

const classes = (line: string): [string, boolean][] => analyzeCommand(line).commands.map((c) => [c.name, c.readOnly]);

describe("readOnly classification of every command", () => {
  it.each([
    [
      "a pipeline of filters",
      "pytest -q 2>&1 | tail -3 | head -1",
      [
        ["pytest", false],
        ["tail", true],
        ["head", true],
      ],
    ],
    [
      "grep and wc",
      "grep -rn TODO src | wc -l",
      [
        ["grep", true],
        ["wc", true],
      ],
    ],
    [
      "tee to a log",
      "pytest | tee out.log",
      [
        ["pytest", false],
        ["tee", true],
      ],
    ],
    [
      "tee to a source file",
      "echo x | tee src/app.py",
      [
        ["echo", true],
        ["tee", false],
      ],
    ],
    [
      "cat, sort, uniq",
      "cat a.txt | sort | uniq",
      [
        ["cat", true],
        ["sort", true],
        ["uniq", true],
      ],
    ],
    ["sort -o writes", "sort -o out.txt in.txt", [["sort", false]]],
    ["uniq IN OUT writes", "uniq in.txt out.txt", [["uniq", false]]],
    [
      "echo and printf",
      "echo hi; printf '%s\\n' x",
      [
        ["echo", true],
        ["printf", true],
      ],
    ],
    ["echo into a file", "echo x > src/a.py", [["echo", false]]],
    ["echo to /dev/null", "echo x > /dev/null", [["echo", true]]],
    ["an fd duplication", "echo x 1>&2", [["echo", true]]],
    [
      "true, cd, pushd, set",
      "true; cd a; pushd b; set -e",
      [
        ["true", true],
        ["cd", true],
        ["pushd", true],
        ["set", true],
      ],
    ],
    ["an assignment alone", "X=1", [["", true]]],
    ["sed -n reads", "sed -n 1,5p file.py", [["sed", true]]],
    ["sed -i edits", "sed -i 's/a/b/' src/app.py", [["sed", false]]],
    [
      "git read commands",
      "git status && git diff && git log -1",
      [
        ["git", true],
        ["git", true],
        ["git", true],
      ],
    ],
    ["git commit writes", "git commit -am x", [["git", false]]],
    [
      "git stash writes, git stash list reads",
      "git stash; git stash list",
      [
        ["git", false],
        ["git", true],
      ],
    ],
    ["git branch listing", "git branch -a", [["git", true]]],
    ["rm writes", "rm -rf build", [["rm", false]]],
    ["black reformats", "black .", [["black", false]]],
    ["python runs anything", "python script.py", [["python", false]]],
    [
      "find reads, find -delete writes",
      "find . -name x; find . -name y -delete",
      [
        ["find", true],
        ["find", false],
      ],
    ],
    ["a substitution may write", "ls $(rm x)", [["ls", false]]],
    [
      "command -v reads, command rm writes",
      "command -v pytest; command rm x",
      [
        ["command", true],
        ["command", false],
      ],
    ],
    ["wrapped filters", "timeout 5 tail -f log", [["tail", true]]],
    [
      "go vet reads, go build writes",
      "go vet ./...; go build ./...",
      [
        ["go", true],
        ["go", false],
      ],
    ],
    // go list stamps the packages with `git status`, which runs the repository's core.fsmonitor.
    [
      "go list runs git, unless -buildvcs=false",
      "go list ./...; go list -buildvcs=false ./...",
      [
        ["go", false],
        ["go", true],
      ],
    ],
    // Another repository's config (its core.fsmonitor) is not the one the audit watches.
    [
      "git on another repository",
      "git -C ../other status; git --git-dir=../other/.git log; git --work-tree=/tmp diff",
      [
        ["git", false],
        ["git", false],
        ["git", false],
      ],
    ],
    [
      "bash -c: the nested commands are classified",
      "bash -c 'tail x; rm y'",
      [
        ["bash", true],
        ["tail", true],
        ["rm", false],
      ],
    ],
    ["every command of an opaque line is a possible edit", 'cat "x', [["cat", false]]],
  ])("%s", (_name, line, expected) => {
    expect(classes(line)).toEqual(expected);
  });

  it("lists the commands of every construct in line order", () => {
    const analysis = analyzeCommand("a && (b | c); { d; }; for x in 1; do e; done; f(){ g; }; bash -c 'h; i'; j &");
    expect(analysis.commands.map((c) => [c.index, c.name])).toEqual([
      [0, "a"],
      [1, "b"],
      [2, "c"],
      [3, "d"],
      [4, "e"],
      [5, "g"],
      [6, "bash"],
      [7, "h"],
      [8, "i"],
      [9, "j"],
    ]);
  });
});
