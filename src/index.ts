/**
 * agent-evidence: the public API most users need, every export listed by name: the evidence tools
 * for an agent (`evidenceTools`, or `BashEvidence` around your own bash tool), the judge of captured
 * output (`judge`, `createJudgeStream`, `hasPassEvidence`), the command-line analysis they rest on
 * (`analyzeCommand`), and the errors. Everything else is a subpath entry by audience:
 * `agent-evidence/shell`, `/runners`, `/patches`, `/evidence`, `/tools`, `/verdict`, `/audit`,
 * `/candidates`, `/testing`, and the framework adapters `/ai-sdk`, `/openai-agents`, `/langchain`,
 * `/mcp` (so this entry pulls in no framework). Importing it loads nothing heavy: the bash grammar is
 * read on the first call that parses a command line, synchronously, or early by `await ready()`.
 */

// Shapes and errors
export type { Outcome, RunnerKind, GateFinding, RunEvidence, Applicability, VerificationRecord } from "./types.js";
export { EvidenceError, isEvidenceError } from "./errors.js";
export type { EvidenceErrorCode } from "./errors.js";
export { NamedFileError } from "./io/named-files.js";

// The evidence tools for an agent, and BashEvidence around a bash tool of your own
export { evidenceTools, EVIDENCE_TOOL_NAMES } from "./observation/evidence-tools.js";
export type { EvidenceToolsOptions, EvidenceToolset, EvidenceToolName, EvidenceView } from "./observation/evidence-tools.js";
export { defineTool } from "./host/tool.js";
export type { Tool, ToolContext, ToolResult } from "./host/tool.js";
export { BashEvidence } from "./observation/bash-evidence.js";
export type { BashEvidenceOptions, BashLikeInput, ResultExtractor } from "./observation/bash-evidence.js";
export type { ObservedToolContext } from "./host/tool.js";

// Judging captured output
export { judge, createJudgeStream } from "./evidence/judge.js";
export type { JudgeInput, JudgeJunitXml, JudgeReport, JudgeResult, JudgeStream, JudgeStreamOptions } from "./evidence/judge.js";
export { hasPassEvidence } from "./evidence/has-pass-evidence.js";
export type { HasPassEvidenceOptions } from "./evidence/has-pass-evidence.js";

// The command-line analysis (the rest of it: agent-evidence/shell)
export { analyzeCommand } from "./grammar/analyze-command.js";
export { ready } from "./grammar/bash-grammar.js";
export type { AnalyzeOptions, CommandAnalysis, TestInvocation } from "./shell/index.js";
