/**
 * agent-evidence/shell: bash command-line analysis. `analyzeCommand` reads the bash grammar on its
 * first call (or early, by `await ready()`); the rest is pure and takes a parser or a parsed line.
 */
export { analyzeCommand } from "../grammar/analyze-command.js";
export { ready } from "../grammar/bash-grammar.js";
export { parseCommandLine, analyzeParsed, attributeExit, stripWrappers, recognizeRunner, isReadOnlyCommand } from "../shell/index.js";
export { EXIT_ATTRIBUTION_REASONS } from "../reasons.js";
export type { ExitAttributionReason } from "../reasons.js";
export type {
  AnalyzeOptions,
  AttributeOptions,
  BashParser,
  SyntaxNode,
  SyntaxTree,
  AndOrList,
  AnalyzedCommand,
  CommandAnalysis,
  CommandNode,
  Compound,
  ExitAttribution,
  ExitAttributionStatus,
  Group,
  ParsedLine,
  Pipeline,
  Redirect,
  SimpleCommand,
  Statement,
  Subshell,
  TestInvocation,
} from "../shell/index.js";
export type { PackageManifest, PackageScripts, PackageScriptRun } from "../shell/package-scripts.js";
