// The commands issue 2's acceptance section names, each with what analysis and attribution must say.
import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import type { ExitAttributionStatus, TestInvocation } from "../../src/shell/index.js";
import { attributeExit } from "../../src/shell/index.js";

interface Case {
  line: string;
  exit: number | null;
  output?: string;
  invocations: Partial<TestInvocation>[];
  statuses: ExitAttributionStatus[];
}

const cases: [string, Case][] = [
  [
    "pytest -q 2>&1 | tail -3",
    { line: "pytest -q 2>&1 | tail -3", exit: 0, invocations: [{ runner: "pytest", args: ["-q"], targets: ["."] }], statuses: ["masked"] },
  ],
  ["pytest | tee out.log", { line: "pytest | tee out.log", exit: 0, invocations: [{ runner: "pytest" }], statuses: ["masked"] }],
  ["pytest; echo done", { line: "pytest; echo done", exit: 0, invocations: [{ runner: "pytest" }], statuses: ["masked"] }],
  ["pytest || true", { line: "pytest || true", exit: 0, invocations: [{ runner: "pytest" }], statuses: ["masked"] }],
  ["pytest && git push (push failed)", { line: "pytest && git push", exit: 1, invocations: [{ runner: "pytest" }], statuses: ["masked"] }],
  [
    "pytest && git push (all passed)",
    { line: "pytest && git push", exit: 0, invocations: [{ runner: "pytest" }], statuses: ["success-implied"] },
  ],
  [
    "set -o pipefail; pytest | tail -1",
    { line: "set -o pipefail; pytest | tail -1", exit: 1, invocations: [{ runner: "pytest" }], statuses: ["trusted"] },
  ],
  [
    "pytest -q && echo OK || echo BROKEN",
    {
      line: "pytest -q && echo OK || echo BROKEN",
      exit: 0,
      output: "BROKEN",
      invocations: [{ runner: "pytest" }],
      statuses: ["failure-implied"],
    },
  ],
  [
    "ruff check . && pytest -q",
    { line: "ruff check . && pytest -q", exit: 1, invocations: [{ runner: "pytest", commandIndex: 1 }], statuses: ["masked"] },
  ],
  ["pytest -q &", { line: "pytest -q &", exit: 0, invocations: [{ runner: "pytest" }], statuses: ["masked"] }],
  [
    'bash -c "pytest || true"',
    {
      line: 'bash -c "pytest || true"',
      exit: 0,
      invocations: [{ runner: "pytest", commandIndex: 1, text: "pytest" }],
      statuses: ["masked"],
    },
  ],
  [
    "(cd sub && pytest) 2>&1 | tee log",
    { line: "(cd sub && pytest) 2>&1 | tee log", exit: 0, invocations: [{ runner: "pytest", workspace: "sub" }], statuses: ["masked"] },
  ],
  [
    "git stash && pytest -q; git stash pop",
    { line: "git stash && pytest -q; git stash pop", exit: 0, invocations: [{ runner: "pytest", afterStash: true }], statuses: ["masked"] },
  ],
  [
    "a heredoc followed by pytest on the next line",
    {
      line: "cat > conftest.py <<'EOF'\nimport pytest\npytest.main()\nEOF\npytest -q",
      exit: 1,
      invocations: [{ runner: "pytest", commandIndex: 1 }],
      statuses: ["trusted"],
    },
  ],
  [
    "for f in a b; do pytest $f; done",
    {
      line: "for f in a b; do pytest $f; done",
      exit: 0,
      invocations: [{ runner: "pytest", targets: ["$f"], repeated: true }],
      statuses: ["masked"],
    },
  ],
  [
    "pytest(){ echo 5 passed; }; pytest",
    { line: "pytest(){ echo 5 passed; }; pytest", exit: 0, invocations: [{ runner: "pytest", shadowed: true }], statuses: ["masked"] },
  ],
  [
    "PATH=./fake:$PATH pytest",
    { line: "PATH=./fake:$PATH pytest", exit: 0, invocations: [{ runner: "pytest", shadowed: true }], statuses: ["masked"] },
  ],
];

describe("issue 2 acceptance commands", () => {
  it.each(cases)("%s", (_name, c) => {
    const analysis = analyzeCommand(c.line);
    expect(
      analysis.invocations.map((invocation, i) =>
        Object.fromEntries(Object.keys(c.invocations[i] ?? {}).map((key) => [key, invocation[key as keyof TestInvocation]])),
      ),
    ).toEqual(c.invocations);
    expect(attributeExit(analysis, c.exit, c.output === undefined ? {} : { output: c.output }).map((a) => a.status)).toEqual(c.statuses);
  });

  it("the README example", () => {
    const analysis = analyzeCommand("cd pkg && python -m pytest -q tests/ 2>&1 | tail -5", { cwd: "/repo" });
    expect(analysis.invocations).toEqual([
      {
        kind: "pytest",
        runner: "python -m pytest",
        args: ["-q", "tests/"],
        targets: ["tests/"],
        filtered: false,
        selection: [],
        runsTests: true,
        shadowed: false,
        shadowedBy: null,
        programs: ["python"],
        pathLookup: true,
        output: "direct",
        window: { lines: 5 },
        workspace: "/repo/pkg",
        reportFiles: [],
        pathFirst: "/repo/pkg",
        json: false,
        verbose: false,
        repeated: false,
        afterStash: false,
        commandIndex: 1,
        text: "python -m pytest -q tests/ 2>&1",
      },
    ]);
    expect(attributeExit(analysis, 0)).toEqual([{ status: "masked", runnerExit: null, reason: "pipe-without-pipefail" }]);
  });
});
