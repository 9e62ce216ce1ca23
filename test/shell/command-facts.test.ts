// The one table of program facts (src/shell/command-facts.ts), row by row, and what each pass reads from it.
import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { factsOf, operands, PROGRAM_FACTS, writtenOperands } from "../../src/shell/command-facts.js";
import { changesNoFile } from "../../src/shell/read-only.js";

describe("the rows", () => {
  it("a row that prints whole lines says under which options", () => {
    for (const [name, facts] of Object.entries(PROGRAM_FACTS))
      if (facts.output !== undefined) expect([name, typeof facts.keepsLinesWith]).toEqual([name, "function"]);
  });

  it.each([
    ["tail", ["-n"], true],
    ["tail", ["-5"], true],
    ["tail", ["-c"], false],
    ["tail", ["--bytes=5"], false],
    ["head", ["--lines=3"], true],
    ["grep", ["-v"], true],
    ["grep", ["-o"], false],
    ["grep", ["-n"], false],
    ["grep", ["--count"], false],
    ["cat", ["-u"], true],
    ["cat", ["-n"], false],
    ["tee", ["-a"], true],
    ["less", ["-R"], true],
  ])("%s %j keeps whole lines: %s", (name, options, keeps) => {
    expect(factsOf(name)?.keepsLinesWith?.(options)).toBe(keeps);
  });

  it.each([
    ["tail", "window", true, false, true],
    ["head", "window", true, false, true],
    ["grep", "filter", false, false, true],
    ["tee", "all", true, false, false],
    ["cat", "all", true, false, true],
    ["wc", undefined, true, false, true],
    ["sort", undefined, true, false, false],
    ["echo", undefined, false, true, true],
    ["printf", undefined, false, true, false],
  ] as const)(
    "%s: output %s, never fails in a pipe %s, never fails %s, read-only whatever its arguments %s",
    (name, output, inPipe, never, readOnly) => {
      const facts = factsOf(name);
      expect([facts?.output, facts?.neverFailsInPipe === true, facts?.neverFails === true, facts?.readOnly === true]).toEqual([
        output,
        inPipe,
        never,
        readOnly,
      ]);
    },
  );

  it("a program without a row has no facts (nor does a name from Object's prototype)", () => {
    expect(factsOf("python")).toBeUndefined();
    expect(factsOf("constructor")).toBeUndefined();
    expect(factsOf("toString")).toBeUndefined();
  });
});

describe("the files tee writes", () => {
  it("its operands, every word after `--` too, and `-` (a file of that name)", () => {
    expect(writtenOperands("tee", ["-a", "out.log", "--", "-x.py"])).toEqual(["out.log", "-x.py"]);
    expect(writtenOperands("tee", ["-"])).toEqual(["-"]);
    expect(writtenOperands("cat", ["a.txt"])).toEqual([]);
    expect(operands(["-n", "5", "--", "-f"])).toEqual(["5", "-f"]);
  });

  it("a file named after `--` is a write: the line changes a file and tee is not read-only", () => {
    expect(changesNoFile(analyzeCommand("echo x | tee -- -conftest.py"))).toBe(false);
    expect(analyzeCommand("echo x | tee -- -conftest.py").commands.map((c) => [c.name, c.readOnly])).toEqual([
      ["echo", true],
      ["tee", false],
    ]);
    expect(changesNoFile(analyzeCommand("echo x | tee /dev/null"))).toBe(true);
  });
});
