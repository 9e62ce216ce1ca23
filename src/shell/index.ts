// The shell analysis, pure: parse a bash command line, find test-runner invocations, attribute exit statuses.
export { parseCommandLine, MAX_NESTED_SHELLS } from "./parse-command-line.js";
export type { BashParser, SyntaxNode, SyntaxTree } from "./syntax-tree.js";
export { analyzeParsed, renderWords } from "./analyze-parsed.js";
export type { AnalyzeOptions } from "./analyze-parsed.js";
export { attributeExit } from "./attribute-exit.js";
export type { AttributeOptions } from "./attribute-exit.js";
export { stripWrappers, basename } from "./wrappers.js";
export type { StrippedWrappers } from "./wrappers.js";
export { isReadOnlyCommand } from "./read-only.js";
export { commandEffect, combineEffects, lineEffect } from "./command-effect.js";
export type { CommandEffect, EffectDependency } from "./command-effect.js";
export { recognizeRunner } from "./recognize-runner.js";
export type { RunnerMatch } from "./recognize-runner.js";
export type {
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
} from "./types.js";
export { findShadowing, findSessionEffects } from "./shadowing.js";
export type { Shadowing, SessionEffects } from "./shadowing.js";
export { routeOutputs } from "./output-route.js";
export type { OutputRoute, OutputWindow, OutputRoutes } from "./output-route.js";
