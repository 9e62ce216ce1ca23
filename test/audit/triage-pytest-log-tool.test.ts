import { describe, expect, it } from "vitest";

import { createParsePytestLogTool, parsePytestLogTool } from "../../src/audit/triage-pytest-log-tool.js";
import { isEvidenceError } from "../../src/errors.js";

describe("parse_pytest_log tool", () => {
  it("has the documented name and says what it is not", () => {
    expect(parsePytestLogTool.name).toBe("parse_pytest_log");
    expect(parsePytestLogTool.description).toMatch(/not a verdict/);
    expect(parsePytestLogTool.description).toMatch(/zero matches prove nothing/);
  });

  it("returns the triage as text and data", async () => {
    const result = await parsePytestLogTool.execute({ log: "FAILED t.py::a\nE  x" });
    const data = { failed: ["FAILED t.py::a"], errors: [" x"], assertions: [], failureCount: 1 };
    expect(result).toEqual({ text: JSON.stringify(data), data });
  });

  it("the input schema accepts { log } and rejects anything else", () => {
    expect(parsePytestLogTool.inputSchema.safeParse({ log: "x" }).success).toBe(true);
    expect(parsePytestLogTool.inputSchema.safeParse({ log: 3 }).success).toBe(false);
  });

  it.each([
    ["a missing log", {}],
    ["a non-string log", { log: 42 }],
    ["no object", "FAILED x"],
  ])("returns a clear error as data for %s", async (_name, input) => {
    // The agent loop may hand over anything; the tool answers with data instead of throwing.
    const result = await parsePytestLogTool.execute(input as { log: string });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error: invalid input for parse_pytest_log: /);
  });

  it("returns a clear error over the size limit and accepts a log at the limit", async () => {
    const tool = createParsePytestLogTool({ maxLogChars: 10 });
    expect(await tool.execute({ log: "x".repeat(11) })).toEqual({
      text: "Error: parse_pytest_log: the log is 11 characters, over the limit of 10. Pass a smaller part of it (for example the short test summary at the end).",
      isError: true,
    });
    expect((await tool.execute({ log: "FAILED 123" })).isError).toBeUndefined();
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects maxLogChars %s at construction", (maxLogChars) => {
    let thrown: unknown;
    try {
      createParsePytestLogTool({ maxLogChars });
    } catch (error) {
      thrown = error;
    }
    expect(isEvidenceError(thrown, "E_INVALID_OPTION")).toBe(true);
  });
});
