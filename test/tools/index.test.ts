import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { isEvidenceError } from "../../src/errors.js";
import {
  createApplyPatchTool,
  createBashTool,
  createFileReadTool,
  createFileWriteTool,
  createGitDiffTool,
  createGrepTool,
  defineTool,
  type Tool,
  TOOL_NAME_PATTERN,
} from "../../src/tools/index.js";
import { makeTempDir } from "../support/temp-dir.js";

let ws: { dir: string; cleanup: () => void };
beforeAll(() => {
  ws = makeTempDir("ae-index-");
});
afterAll(() => ws.cleanup());

const factories: [string, (cwd: string) => Tool<never, unknown>, string[]][] = [
  ["bash", (cwd) => createBashTool({ cwd, headless: false }) as Tool<never, unknown>, ["command"]],
  ["file_read", (cwd) => createFileReadTool({ cwd }) as Tool<never, unknown>, ["path"]],
  ["file_write", (cwd) => createFileWriteTool({ cwd }) as Tool<never, unknown>, ["path", "mode"]],
  ["apply_patch", (cwd) => createApplyPatchTool({ cwd }) as Tool<never, unknown>, ["patch"]],
  ["grep", (cwd) => createGrepTool({ cwd }) as Tool<never, unknown>, ["pattern"]],
  ["git_diff", (cwd) => createGitDiffTool({ cwd }) as Tool<never, unknown>, []],
];

describe("the native tool factories", () => {
  it.each(factories)("%s has a valid name and a JSON-schema input whose only required fields are %j", (name, create, required) => {
    const tool = create(ws.dir);
    const schema = z.toJSONSchema(tool.inputSchema) as { type: string; required?: string[] };
    expect({
      name: tool.name,
      valid: TOOL_NAME_PATTERN.test(tool.name),
      type: schema.type,
      required: schema.required ?? [],
      described: tool.description.length > 20,
    }).toEqual({
      name,
      valid: true,
      type: "object",
      required,
      described: true,
    });
  });

  it.each(factories)("%s accepts null for every optional field", (_name, create, required) => {
    const tool = create(ws.dir);
    const keys = Object.keys((tool.inputSchema as unknown as z.ZodObject).shape);
    const input = Object.fromEntries(keys.map((key) => [key, required.includes(key) ? (key === "mode" ? "overwrite" : "x") : null]));
    expect(tool.inputSchema.safeParse(input).success).toBe(true);
  });

  it.each(factories)("%s refuses a missing workspace with one EvidenceError sentence", (_name, create) => {
    let caught: unknown;
    try {
      create("/nonexistent/workspace");
    } catch (error) {
      caught = error;
    }
    expect(
      isEvidenceError(caught, "E_INVALID_OPTION") &&
        /option "cwd" is "\/nonexistent\/workspace"; accepted: the path of an existing directory/.test(caught.message),
    ).toBe(true);
  });

  it("defineTool turns an exception inside a tool into an error result", async () => {
    const tool = defineTool({
      name: "boom",
      description: "throws",
      inputSchema: z.object({}),
      run: () => Promise.reject(new Error("kaput")),
    });
    expect(await tool.execute({})).toEqual({ text: "Error: boom failed: kaput", isError: true });
  });
});
