// The error result for input that fails a tool's schema, worded as defineTool words it, for the
// adapters whose framework would otherwise throw (LangChain) or has no schema check of its own.
import type { z } from "zod/v4";
import type { ToolResult } from "../tools/tool.js";

/** `Error: invalid input for NAME: path: message; ...` as an error result. */
export function invalidInputResult(name: string, error: z.ZodError): ToolResult {
  const problems = error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`);
  return { text: `Error: invalid input for ${name}: ${problems.join("; ")}`, isError: true };
}
