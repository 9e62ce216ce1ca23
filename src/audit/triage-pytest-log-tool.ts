// The triage function as an agent tool. Problems the agent should see come back as data
// (`isError: true`), never as exceptions thrown into the agent loop.
import { z } from "zod/v4";

import { EvidenceError } from "../errors.js";
import { defineTool, type Tool } from "../host/tool.js";
import { type PytestLogTriageResult, triagePytestLog } from "./triage-pytest-log.js";

/** Input of the `parse_pytest_log` tool. */
export interface ParsePytestLogInput {
  log: string;
}

/** Options for {@link createParsePytestLogTool}. */
export interface ParsePytestLogToolOptions {
  /** Largest accepted log, in UTF-16 code units (JavaScript string length). Default 5,000,000. */
  maxLogChars?: number;
}

/** The default size limit of the `parse_pytest_log` tool, in characters. */
export const DEFAULT_MAX_LOG_CHARS = 5_000_000;

const DESCRIPTION = [
  "Extract marker lines from a pytest log: lines starting with FAILED, `E   ...` error lines, and lines containing AssertionError.",
  "This is triage, not a verdict: it does not say whether the run passed, failureCount is not a count of failed tests,",
  "there are no line numbers and no context, and zero matches prove nothing.",
].join(" ");

/** Creates the `parse_pytest_log` tool with an input size limit. */
export function createParsePytestLogTool(options: ParsePytestLogToolOptions = {}): Tool<ParsePytestLogInput, PytestLogTriageResult> {
  const maxLogChars = options.maxLogChars ?? DEFAULT_MAX_LOG_CHARS;
  if (!Number.isInteger(maxLogChars) || maxLogChars <= 0) {
    throw new EvidenceError(
      "E_INVALID_OPTION",
      `createParsePytestLogTool: maxLogChars is ${String(maxLogChars)}; accepted: a positive integer.`,
    );
  }
  return defineTool<ParsePytestLogInput, PytestLogTriageResult>({
    name: "parse_pytest_log",
    description: DESCRIPTION,
    inputSchema: z.object({ log: z.string().describe("The pytest output to scan, as text.") }),
    run({ log }) {
      if (log.length > maxLogChars) {
        return Promise.resolve({
          text: `Error: parse_pytest_log: the log is ${log.length} characters, over the limit of ${maxLogChars}. Pass a smaller part of it (for example the short test summary at the end).`,
          isError: true,
        });
      }
      const data = triagePytestLog(log);
      return Promise.resolve({ text: JSON.stringify(data), data });
    },
  });
}

/** The `parse_pytest_log` tool with the default size limit. */
export const parsePytestLogTool: Tool<ParsePytestLogInput, PytestLogTriageResult> = createParsePytestLogTool();
