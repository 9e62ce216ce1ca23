// The shell analysis' entry: one bash command line to its statements, commands, test-runner
// invocations and workspaces, with the parser handed in (src/grammar/analyze-command.ts binds the
// loaded grammar to it as analyzeCommand()).
import { type AnalyzeOptions, analyzeParsed } from "./analyze-parsed.js";
import { expandScriptRuns } from "./package-scripts.js";
import { type BashParser, parseCommandLine } from "./parse-command-line.js";
import { parsePlainWords } from "./plain-words.js";
import type { CommandAnalysis } from "./types.js";

/** How many script levels a package-manager run is followed into (`npm test` running `npm run unit`...). */
const MAX_SCRIPT_DEPTH = 4;

/**
 * Analyses one command line with the parser `loadParser` returns, asked for only when the line is
 * more than plain words.
 * @example analyzeCommandLine("pytest -q", () => parser).invocations[0].kind // "pytest"
 */
export function analyzeCommandLine(line: string, loadParser: () => BashParser, options: AnalyzeOptions = {}): CommandAnalysis {
  // A line of plain words gets the grammar's tree without the grammar (plain-words.ts), so a short
  // call such as `agent-evidence judge --command pytest` never loads it. Any other line loads it
  // before parsing: a missing grammar is then the loader's error here, not a parser's throw that
  // parseCommandLine would read as a line it could not parse.
  const grammar = parsePlainWords(line) === null ? loadParser() : undefined;
  const parser: BashParser = { parse: (text) => parsePlainWords(text) ?? (grammar ?? loadParser()).parse(text) };
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
