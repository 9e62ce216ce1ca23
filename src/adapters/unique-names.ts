// Every framework keys tools by name, so a duplicate would silently shadow a tool.
import { EvidenceError } from "../errors.js";
import type { Tool } from "../host/tool.js";

/** Throws an {@link EvidenceError} `E_DUPLICATE_TOOL` when two tools share a name. */
export function assertUniqueToolNames(adapter: string, tools: readonly Tool<unknown, unknown>[]): void {
  // Checked through `unknown`: Array.isArray on a readonly array type narrows to any[].
  const list: unknown = tools;
  if (!Array.isArray(list)) throw new EvidenceError("E_INVALID_OPTION", `${adapter} needs an array of tools; got ${typeof tools}.`);
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name))
      throw new EvidenceError("E_DUPLICATE_TOOL", `${adapter}: two tools are named ${JSON.stringify(tool.name)}; names must be unique.`);
    seen.add(tool.name);
  }
}
