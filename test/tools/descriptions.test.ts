// What the model is offered (issue 17, section 6): tool descriptions name no machine path (the
// workspace is "the workspace", so every candidate worktree gets the same prompt and prompt caching
// holds), and file_write offers only the modes it allows.
import { rmSync } from "node:fs";

import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { EVIDENCE_TOOL_NAMES, evidenceTools } from "../../src/observation/evidence-tools.js";
import { createFileWriteTool } from "../../src/tools/file-write.js";
import { tempDirPath } from "../support/temp-dir.js";

const a = tempDirPath("ae-desc-a-");
const b = tempDirPath("ae-desc-bb-");
afterAll(() => {
  rmSync(a, { recursive: true, force: true });
  rmSync(b, { recursive: true, force: true });
});

const modes = (schema: unknown): unknown =>
  (z.toJSONSchema(schema as z.ZodType) as unknown as { properties: { mode: { enum: string[] } } }).properties.mode.enum;

describe("tool descriptions", () => {
  it.each([false, "strict"] as const)("name no workspace path, and are the same for two workspaces (sandbox %s)", (sandbox) => {
    const first = evidenceTools([...EVIDENCE_TOOL_NAMES], { cwd: a, sandbox }).tools;
    const second = evidenceTools([...EVIDENCE_TOOL_NAMES], { cwd: b, sandbox }).tools;
    // The sandbox's own /tmp is the same on every machine; a workspace or home path is not.
    for (const tool of first) expect(tool.description, tool.name).not.toMatch(/ae-desc-|\/(?:home|root|work|Users)\b|\/tmp\//);
    expect(first.map((tool) => [tool.name, tool.description])).toEqual(second.map((tool) => [tool.name, tool.description]));
  });
});

describe("file_write's schema", () => {
  it("offers create only where files may be created; a create asked for anyway is refused with its reason", async () => {
    const closed = createFileWriteTool({ cwd: a });
    const open = createFileWriteTool({ cwd: a, allowFileCreation: true });
    expect(modes(closed.inputSchema)).toEqual(["overwrite", "str_replace"]);
    expect(modes(open.inputSchema)).toEqual(["create", "overwrite", "str_replace"]);
    const refused = await closed.execute({ path: "n.txt", mode: "create", content: "x" });
    expect(refused).toMatchObject({ isError: true, data: { completed: false, mode: "create" } });
    expect(refused.text).toMatch(/creating files is disabled for this tool/);
  });
});
