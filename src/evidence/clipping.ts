// The one clipping rule. A tool host that cuts a tool result inserts a note where it cut; output with
// such a note is not the runner's whole output and never proves a pass. The judge stream reads every
// line of an output against it (`judge-host-notes.ts`, in the same pass as its other signals;
// `agent-evidence run` asks the judge stream), and the transcript readers read whole tool results
// (`containsClippingNote`). Each note names the host and where its wording comes from (public
// sources, read for this table; see docs/runners.md).

/** One note a tool host inserts when it clips output. */
export interface ClippingNote {
  /** Who prints it. */
  host: string;
  /** Where the wording comes from. */
  source: string;
  /** A line as the host prints it (used by the tests that insert notes into real output). */
  example: string;
  /** Matches the note anywhere in a line. */
  pattern: RegExp;
}

/** Every host clipping note the library knows. */
export const CLIPPING_NOTES: readonly ClippingNote[] = [
  // Generic notes, and the ones `agent-evidence run` always read.
  { host: "generic", source: "agent-evidence run (first release)", example: "[output truncated]", pattern: /\[(?:output )?truncated\]/i },
  { host: "generic", source: "agent-evidence run (first release)", example: "... (truncated)", pattern: /\.\.\. ?\(truncated\)/i },
  {
    host: "generic",
    source: "agent-evidence run (first release)",
    example: "[exceeded max output length]",
    pattern: /max(?:imum)? output (?:length|limit)/i,
  },
  {
    host: "generic",
    source: "agent-evidence run (first release)",
    example: "<truncated 120 lines>",
    pattern: /<truncated \d[\d,]* (?:lines|bytes|characters|chars)>/i,
  },
  {
    host: "generic",
    source: "agent-evidence run (first release)",
    example: "output was truncated",
    pattern: /output (?:was |has been )?(?:truncated|clipped)\b/i,
  },
  {
    host: "generic",
    source: "judge (first release)",
    example: "[ ... 1234 more characters truncated ... ]",
    pattern:
      /\[\s*(?:\.\.\.\s*)?\d[\d,]* (?:more )?(?:characters?|chars|bytes|lines|tokens) (?:truncated|omitted|elided)(?:\s*\.\.\.)?\s*\]/i,
  },
  {
    host: "generic",
    source: "judge (first release)",
    example: "[truncated 500 chars]",
    pattern: /\[truncated(?: \d[\d,]* (?:characters?|chars|bytes|lines))?\]/i,
  },
  // Claude Code (closed source: wording from published transcripts and issue threads).
  {
    host: "claude-code",
    source: "Bash tool output over BASH_MAX_OUTPUT_LENGTH; seen in published transcripts",
    example: "... [638 lines truncated] ...",
    pattern: /\[\d[\d,]* lines truncated\]/,
  },
  {
    host: "claude-code",
    source: "tool error head and tail; anthropics/claude-code issue #805",
    example: "... [480572 characters truncated] ...",
    pattern: /\[\d[\d,]* characters truncated\]/,
  },
  {
    host: "claude-code",
    source: "large tool results saved to disk (v2.1.2+); anthropics/claude-code issues #17944, #23948",
    example: "<persisted-output>",
    pattern: /<persisted-output>|Output too large \([^)]*\)\. Full output saved to:/,
  },
  {
    host: "claude-code",
    source: "background task output",
    example: "[Truncated. Full output: /tmp/task.log]",
    pattern: /\[Truncated\. Full output: /,
  },
  {
    host: "claude-code",
    source: "cleared old tool results",
    example: "[Old tool result content cleared]",
    pattern: /\[Old tool result content cleared\]/,
  },
  // OpenAI Codex CLI.
  {
    host: "codex",
    source: "openai/codex codex-rs/core/src/truncate.rs, utils/output-truncation (format_output_for_model_body)",
    example: "Total output lines: 4210",
    pattern: /^Total output lines: \d+\s*$/,
  },
  {
    host: "codex",
    source: "openai/codex PR #28467",
    example: "Warning: truncated output (original token count: 52000)",
    pattern: /truncated output \(original token count/,
  },
  {
    host: "codex",
    source: "openai/codex codex-rs/utils/string/src/truncate.rs (format_truncation_marker); issue #35226",
    example: "…252144 tokens truncated…",
    pattern: /…\d[\d,]* (?:tokens|chars) truncated…/,
  },
  {
    host: "codex",
    source: "openai/codex codex-rs/core/src/truncate.rs (late 2025, PR #4740)",
    example: "[... omitted 120 of 4210 lines ...]",
    pattern: /\[\.\.\. omitted \d+ of \d+ lines \.\.\.\]/,
  },
  {
    host: "codex",
    source: "openai/codex codex-rs/core/src/truncate.rs (late 2025)",
    example: "[... output truncated to fit 10240 bytes ...]",
    pattern: /\[\.\.\. output truncated to fit \d+ bytes \.\.\.\]/,
  },
  {
    host: "codex",
    source: "openai/codex codex-cli (TypeScript) create-truncating-collector.ts; issue #509",
    example: "[Output truncated: too many lines or bytes]",
    pattern: /\[Output truncated: too many lines or bytes\]/,
  },
  // OpenHands.
  {
    host: "openhands",
    source:
      "All-Hands-AI/OpenHands openhands/events/observation/commands.py (_maybe_truncate), events/serialization/event.py (truncate_content)",
    example: "[... Observation truncated due to length ...]",
    pattern: /\[\.\.\. Observation truncated due to length \.\.\.\]/,
  },
  {
    host: "openhands",
    source: "All-Hands-AI/OpenHands openhands/runtime/utils/bash.py",
    example: "[Previous command outputs are truncated. Showing the last 120 lines of the output below.]",
    pattern: /\[Previous command outputs are truncated\./,
  },
  // OpenHands, SWE-agent and mini-swe-agent.
  {
    host: "openhands, swe-agent",
    source: "openhands-aci editor/prompts.py; OpenHands software-agent-sdk utils/truncate.py; SWE-agent sweagent/agent/agents.py",
    example: "<response clipped><NOTE>Due to the max output limit, only part of the full response has been shown to you.</NOTE>",
    pattern: /<response clipped>/,
  },
  {
    host: "swe-agent, mini-swe-agent",
    source: "SWE-agent config/bash_only.yaml; mini-swe-agent src/minisweagent/config/default.yaml",
    example: "The output of your last command was too long.",
    pattern: /The output of your last command was too long/,
  },
  {
    host: "swe-agent, mini-swe-agent",
    source: "SWE-agent config/bash_only.yaml; mini-swe-agent default.yaml (<elided_chars>, <output_head>, <output_tail>)",
    example: "<elided_chars>",
    pattern: /<\/?(?:elided_chars|output_head|output_tail|observation_head|observation_tail)>|\d[\d,]* characters elided/,
  },
  // Cline and Roo Code.
  {
    host: "cline",
    source: "cline sdk/packages/core/src/extensions/tools/executors/output-limits.ts",
    example: "[... output truncated: 91234 chars total. Refine the command (grep, head, tail) to view the elided middle ...]",
    pattern: /\[\.\.\. output truncated: \d+ chars total/,
  },
  {
    host: "cline",
    source: "cline apps/vscode/src/hosts/vscode/terminal/VscodeTerminalProcess.ts",
    example: "... (120 lines truncated) ...",
    pattern: /\.\.\. \(\d+ lines truncated\) \.\.\.|\.\.\. \(output truncated\) \.\.\./,
  },
  {
    host: "cline",
    source: "cline sdk/.../session/services/message-builder.ts",
    example: "...[truncated 4000 chars]...",
    pattern: /\[truncated \d+ chars/,
  },
  {
    host: "roo-code",
    source: "RooCodeInc/Roo-Code src/integrations/misc/extract-text.ts, OutputInterceptor.ts",
    example: "[...120 lines omitted...]",
    pattern: /\[\.\.\.\d+ (?:characters|lines|bytes) omitted\.\.\.\]|Output \([^)]*\) persisted\. Artifact ID:/,
  },
  // This library's own bash tool: its model-visible text (the judge is meant to read the raw log).
  {
    host: "agent-evidence",
    source: "src/tools/bash-render.ts",
    example: "[... 1288895 bytes of stdout clipped ...]",
    pattern: /\[\.\.\. \d[\d,]* bytes of (?:stdout|stderr) clipped \.\.\.\]|\[the raw output exceeded \d+ bytes/,
  },
];

/**
 * Substrings one of which every note contains (case-sensitive, so no regex per line): a line is
 * tested against the patterns only when it holds one. A test checks that every note has one.
 */
export const CLIPPING_NEEDLES: readonly string[] = [
  "runcat",
  "RUNCAT",
  "mitted",
  "lided",
  "lipped",
  "utput length",
  "utput limit",
  "oo long",
  "ersisted",
  "otal output lines",
  "content cleared",
  "output_head",
  "output_tail",
  "observation_head",
];

// pytest's own assertion-rewrite note inside a failure report is not the host's.
const RUNNER_OWN = [/\.\.\.Full output truncated \(\d+ lines? hidden\)/, /Full output truncated \(\d+ lines? hidden\)/];

const NEEDLE_RE = new RegExp(CLIPPING_NEEDLES.map((needle) => needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"));

/** True when one line holds a tool host's clipping note. */
export function isClippingNoteLine(line: string): boolean {
  if (!NEEDLE_RE.test(line)) return false;
  if (RUNNER_OWN.some((re) => re.test(line))) return false;
  return CLIPPING_NOTES.some((note) => note.pattern.test(line));
}

/** True when any line of `text` holds a clipping note (for a whole tool result, such as a transcript's). */
export function containsClippingNote(text: string): boolean {
  if (!NEEDLE_RE.test(text)) return false;
  for (const line of text.split("\n")) if (isClippingNoteLine(line.replace(/\r$/, ""))) return true;
  return false;
}
