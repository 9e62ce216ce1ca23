// Binds the bash grammar (loaded on first use) to the pure shell analysis: a synchronous analyzeCommand().
import { analyzeParsed, type AnalyzeOptions } from "../shell/analyze-parsed.js";
import { parseCommandLine, type BashParser } from "../shell/parse-command-line.js";
import { parsePlainWords } from "../shell/plain-words.js";
import { expandScriptRuns } from "../shell/package-scripts.js";
import type { CommandAnalysis } from "../shell/types.js";
import { bashParser } from "./bash-grammar.js";

/**
 * Analyses one bash command line: statements, commands, test-runner invocations and their workspaces.
 * @example analyzeCommand("cd pkg && python -m pytest -q tests/", { cwd: "/repo" }).invocations[0].workspace // "/repo/pkg"
 */
export function analyzeCommand(line: string, options: AnalyzeOptions = {}): CommandAnalysis {
  // A line of plain words gets the grammar's tree without the grammar (src/shell/plain-words.ts), so a
  // short call such as `agent-evidence judge --command pytest` never loads it. Any other line loads
  // it before parsing: a missing grammar is then an E_GRAMMAR error here, not a parser's throw that
  // parseCommandLine would read as a line it could not parse.
  const grammar = parsePlainWords(line) === null ? bashParser() : undefined;
  const parser: BashParser = { parse: (text) => parsePlainWords(text) ?? (grammar ?? bashParser()).parse(text) };
  let parsed = parseCommandLine(line, parser);
  let analysis = analyzeParsed(parsed, options);
  // A script run found with its package.json known runs what that script says: the script (which may
  // run another script) is read as the `sh -c` line the manager starts, a few levels deep at most.
  for (let depth = 0; depth < MAX_SCRIPT_DEPTH && analysis.packageRuns !== undefined && !analysis.opaque; depth++) {
    const expanded = expandScriptRuns(parsed, analysis.packageRuns, (text) => parseCommandLine(text, parser));
    if (expanded === null) break;
    parsed = expanded;
    analysis = analyzeParsed(parsed, options);
  }
  return analysis;
}

const MAX_SCRIPT_DEPTH = 4;
