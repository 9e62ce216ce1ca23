// grep: search file contents in the workspace. ripgrep first, then `git grep`, then a JS walk; the
// order is an option so every fallback can be tested, and every engine returns the same shape.
import { createRequire } from "node:module";

import { z } from "zod/v4";

import { EvidenceError } from "../errors.js";
import { defineTool, type Tool, type ToolResult } from "../host/tool.js";
import { globToRegExp, matchesGlob } from "./glob.js";
import {
  type EngineResult,
  type GrepEngine,
  type GrepMatch,
  type GrepQuery,
  searchWithGitGrep,
  searchWithJs,
  searchWithRipgrep,
} from "./grep-engines.js";
import { directoryOption, optionsObject, positiveIntegerOption, rejectUnknownOptions, stringOption } from "./options.js";
import { resolveInWorkspace } from "./workspace-path.js";

export type { GrepEngine, GrepMatch } from "./grep-engines.js";

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions {
  /** The workspace searched. */
  cwd: string;
  /** Tool name (default `grep`). */
  name?: string;
  /** Engines to try, in order (default `["ripgrep", "git-grep", "js"]`). */
  engines?: GrepEngine[];
  /** The ripgrep binary (default: `rgPath` of the optional `@vscode/ripgrep` package). */
  rgPath?: string;
  /** Matches returned per call (default 200); the model may ask for fewer. */
  maxResults?: number;
  /** Characters of each matching line shown (default 300). */
  maxLineChars?: number;
  /** Timeout per engine run in ms (default 30,000). */
  timeoutMs?: number;
}

/** Input of grep. */
export interface GrepInput {
  pattern: string;
  path?: string | null | undefined;
  glob?: string | null | undefined;
  ignoreCase?: boolean | null | undefined;
  fixedStrings?: boolean | null | undefined;
  maxResults?: number | null | undefined;
}

/** An engine that was skipped, and why. */
export interface GrepFallback {
  engine: GrepEngine;
  reason: string;
}

/** `data` of grep. */
export type GrepData =
  | { status: "ok"; engine: GrepEngine; matches: GrepMatch[]; truncated: boolean; fallbacks: GrepFallback[] }
  | { status: "error"; engine: GrepEngine | null; message: string; fallbacks: GrepFallback[] };

/** The input schema of grep. */
export const grepInputSchema = z.object({
  pattern: z.string().min(1).describe("Regular expression (or literal text with fixedStrings)."),
  path: z.string().nullish().describe("Directory or file to search, relative to the workspace (default: all of it)."),
  glob: z.string().nullish().describe('Only files matching this glob, e.g. "*.py" (file name) or "src/**/*.ts" (path).'),
  ignoreCase: z.boolean().nullish(),
  fixedStrings: z.boolean().nullish().describe("Treat the pattern as literal text."),
  maxResults: z.number().int().positive().nullish(),
});

const ENGINES: readonly GrepEngine[] = ["ripgrep", "git-grep", "js"];

/** The ripgrep binary shipped by the optional `@vscode/ripgrep` dependency, or undefined when it is not installed. */
export function defaultRgPath(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return (require("@vscode/ripgrep") as { rgPath?: string }).rgPath;
  } catch {
    return undefined;
  }
}

function enginesOption(value: unknown): GrepEngine[] {
  if (value === undefined) return [...ENGINES];
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => ENGINES.includes(item as GrepEngine)) &&
    new Set(value).size === value.length;
  if (!ok) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `createGrepTool option "engines" is ${JSON.stringify(value)}; accepted: a non-empty list of distinct names from ${ENGINES.join(", ")}.`,
    );
  }
  return value as GrepEngine[];
}

function render(matches: GrepMatch[], truncated: boolean, maxLineChars: number): string {
  if (matches.length === 0) return "No matches.";
  const lines = matches.map(
    ({ path, line, text }) =>
      `${path}:${line}:${text.length > maxLineChars ? `${text.slice(0, maxLineChars)} [... line clipped ...]` : text}`,
  );
  if (truncated) lines.push(`[... more matches not shown; the first ${matches.length} are listed. Narrow the pattern, path or glob ...]`);
  return lines.join("\n");
}

/** Creates the grep tool. Throws an EvidenceError for a wrong option. */
export function createGrepTool(options: GrepToolOptions): Tool<GrepInput, GrepData> {
  const tool = "createGrepTool";
  optionsObject(tool, options);
  rejectUnknownOptions(tool, options, ["cwd", "name", "engines", "rgPath", "maxResults", "maxLineChars", "timeoutMs"]);
  const workspace = directoryOption(tool, "cwd", options.cwd);
  const name = stringOption(tool, "name", options.name, "grep");
  const engines = enginesOption(options.engines);
  const rgPath = options.rgPath === undefined ? defaultRgPath() : stringOption(tool, "rgPath", options.rgPath, "rg");
  const maxResults = positiveIntegerOption(tool, "maxResults", options.maxResults, 200);
  const maxLineChars = positiveIntegerOption(tool, "maxLineChars", options.maxLineChars, 300);
  const timeoutMs = positiveIntegerOption(tool, "timeoutMs", options.timeoutMs, 30_000);

  const runEngine = (engine: GrepEngine, query: GrepQuery): Promise<EngineResult> => {
    switch (engine) {
      case "ripgrep":
        return searchWithRipgrep(query, rgPath);
      case "git-grep":
        return searchWithGitGrep(query);
      case "js":
        return searchWithJs(query);
      default: {
        const never: never = engine;
        throw new Error(`unknown engine ${String(never)}`);
      }
    }
  };

  return defineTool<GrepInput, GrepData>({
    name,
    title: "Search files",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    description:
      `Search file contents in the workspace. Prints "path:line:text" per match, at most ${maxResults} matches. ` +
      "The pattern is a regular expression unless fixedStrings is set; .gitignore'd files and .git are skipped.",
    inputSchema: grepInputSchema,
    async run(input): Promise<ToolResult<GrepData>> {
      const fallbacks: GrepFallback[] = [];
      const scope = await resolveInWorkspace(workspace, input.path ?? ".");
      if (!scope.ok)
        return { text: scope.message, isError: true, data: { status: "error", engine: null, message: scope.message, fallbacks } };
      if (!scope.exists) {
        const message = `Error: ${scope.relative} does not exist.`;
        return { text: message, isError: true, data: { status: "error", engine: null, message, fallbacks } };
      }
      const glob =
        input.glob == null || input.glob === "" ? undefined : { regex: globToRegExp(input.glob), hasSlash: input.glob.includes("/") };
      const query: GrepQuery = {
        workspace,
        scope: scope.relative,
        pattern: input.pattern,
        ignoreCase: input.ignoreCase === true,
        fixedStrings: input.fixedStrings === true,
        limit: Math.min(input.maxResults ?? maxResults, maxResults),
        accept: glob === undefined ? () => true : (path) => matchesGlob(path, glob.regex, glob.hasSlash),
        timeoutMs,
      };
      for (const engine of engines) {
        const result = await runEngine(engine, query);
        switch (result.status) {
          case "unavailable":
            fallbacks.push({ engine, reason: result.reason });
            continue;
          case "error":
            return {
              text: `Error: ${result.message}`,
              isError: true,
              data: { status: "error", engine, message: result.message, fallbacks },
            };
          case "ok": {
            const matches = [...result.matches].sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
            return {
              text: render(matches, result.more, maxLineChars),
              data: { status: "ok", engine, matches, truncated: result.more, fallbacks },
            };
          }
          default: {
            const never: never = result;
            throw new Error(`unknown engine result ${JSON.stringify(never)}`);
          }
        }
      }
      const message = `no grep engine could run here (${fallbacks.map((f) => `${f.engine}: ${f.reason}`).join("; ")}).`;
      return { text: `Error: ${message}`, isError: true, data: { status: "error", engine: null, message, fallbacks } };
    },
  });
}
