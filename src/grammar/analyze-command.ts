// Binds the bash grammar (loaded on first use) to the pure shell analysis: a synchronous analyzeCommand().
import { analyzeParsed, type AnalyzeOptions } from "../shell/analyze-parsed.js";
import { parseCommandLine } from "../shell/parse-command-line.js";
import type { CommandAnalysis } from "../shell/types.js";
import { bashParser } from "./bash-grammar.js";

/**
 * Analyses one bash command line: statements, commands, test-runner invocations and their workspaces.
 * @example analyzeCommand("cd pkg && python -m pytest -q tests/", { cwd: "/repo" }).invocations[0].workspace // "/repo/pkg"
 */
export function analyzeCommand(line: string, options: AnalyzeOptions = {}): CommandAnalysis {
  return analyzeParsed(parseCommandLine(line, bashParser()), options);
}
