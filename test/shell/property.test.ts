// Property tests: nothing a model or a fuzzer types can make the analysis throw or hang.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { attributeExit } from "../../src/shell/index.js";

const TOKENS = [
  "pytest",
  "python",
  "-m",
  "go",
  "test",
  "./...",
  "cd",
  "sub",
  "bash",
  "-c",
  "sh",
  "-lc",
  "set",
  "-e",
  "-o",
  "pipefail",
  "+e",
  "echo",
  "OK",
  "git",
  "stash",
  "pop",
  "timeout",
  "60",
  "uv",
  "run",
  "env",
  "A=1",
  "PATH=./x:$PATH",
  "tail",
  "-3",
  "tee",
  "log",
  "&&",
  "||",
  "|",
  "|&",
  ";",
  "&",
  "\n",
  "(",
  ")",
  "{",
  "}",
  "!",
  "2>&1",
  ">",
  ">>",
  "&>",
  "<",
  "<<EOF",
  "EOF",
  "<<<",
  "'",
  '"',
  "`",
  "$(",
  "$",
  "${X}",
  "\\",
  "#",
  "for",
  "in",
  "do",
  "done",
  "if",
  "then",
  "fi",
  "case",
  "esac",
  ";;",
  "while",
  "function",
  "f()",
  "-k",
  "-run",
  "^$",
  "--co",
  "manage.py",
  "tests/runtests.py",
  "exit",
  "1",
  "'a b'",
  '"$V"',
  "*",
  "~",
  "-",
];

const shellish = fc
  .array(fc.constantFrom(...TOKENS), { maxLength: 40 })
  .chain((tokens) =>
    fc
      .array(fc.constantFrom(" ", "", "  "), { minLength: tokens.length, maxLength: tokens.length })
      .map((gaps) => tokens.map((t, i) => t + gaps[i]!).join("")),
  );

function analyseFully(line: string): number {
  const started = performance.now();
  const analysis = analyzeCommand(line, { cwd: "/repo" });
  for (const exit of [0, 1, null]) attributeExit(analysis, exit, { output: "OK\nBROKEN" });
  JSON.stringify(analysis);
  return performance.now() - started;
}

describe("property: the analysis never throws and always finishes", () => {
  it("10,000 random strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite", maxLength: 120 }), (line) => {
        expect(analyseFully(line)).toBeLessThan(10_000);
      }),
      { numRuns: 10_000 },
    );
  });

  it("10,000 random mixtures of shell tokens", () => {
    fc.assert(
      fc.property(shellish, (line) => {
        expect(analyseFully(line)).toBeLessThan(10_000);
      }),
      { numRuns: 10_000 },
    );
  });

  it("every command index and invocation index agree", () => {
    fc.assert(
      fc.property(shellish, (line) => {
        const analysis = analyzeCommand(line);
        expect(analysis.commands.map((c) => c.index)).toEqual(analysis.commands.map((_c, i) => i));
        for (const invocation of analysis.invocations) expect(analysis.commands[invocation.commandIndex]?.invocation).toBe(invocation);
        expect(attributeExit(analysis, 0)).toHaveLength(analysis.invocations.length);
      }),
      { numRuns: 2_000 },
    );
  });
});
