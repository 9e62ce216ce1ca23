// Binds the bash grammar (loaded on first use) to the pure shell analysis (src/shell/analyze-command.ts):
// a synchronous analyzeCommand().
import { analyzeCommandLine } from "../shell/analyze-command.js";
import type { AnalyzeOptions } from "../shell/analyze-parsed.js";
import type { CommandAnalysis } from "../shell/types.js";
import { bashParser } from "./bash-grammar.js";

/**
 * Analyses one bash command line: statements, commands, test-runner invocations and their workspaces.
 * @throws {EvidenceError} E_GRAMMAR when the line needs the grammar and its file is missing or unreadable.
 * @example analyzeCommand("cd pkg && python -m pytest -q tests/", { cwd: "/repo" }).invocations[0].workspace // "/repo/pkg"
 */
export function analyzeCommand(line: string, options: AnalyzeOptions = {}): CommandAnalysis {
  return analyzeCommandLine(line, bashParser, options);
}
