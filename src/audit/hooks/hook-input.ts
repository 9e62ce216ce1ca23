// The hook JSON clients write on stdin, read defensively: every field is checked, none trusted.
import { EvidenceError } from "../../errors.js";

/** The fields agent-evidence reads from a hook payload (Claude Code and Codex share these names). */
export interface HookInput {
  sessionId: string;
  /** Null when absent or null (Codex may give none). */
  transcriptPath: string | null;
  cwd: string | null;
  hookEventName: string | null;
  stopHookActive: boolean;
  /** Codex's Stop payload (and recent Claude Code): the final assistant message. */
  lastAssistantMessage: string | null;
  toolName: string | null;
  toolInput: Record<string, unknown>;
  /** PostToolUse: the tool's result (Bash: `{stdout, stderr, interrupted, ...}`). */
  toolResponse: unknown;
  toolUseId: string | null;
  /** PostToolUseFailure: the failure text. */
  error: string | null;
  isInterrupt: boolean;
}

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Parses a hook payload; throws an `EvidenceError` `E_INVALID_INPUT` naming the problem when it is not a JSON object. */
export function parseHookInput(text: string): HookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EvidenceError("E_INVALID_INPUT", `hook input is not JSON (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
  if (!isRecord(value)) throw new EvidenceError("E_INVALID_INPUT", "hook input is not a JSON object");
  return {
    sessionId: str(value.session_id) ?? "unknown",
    transcriptPath: str(value.transcript_path),
    cwd: str(value.cwd),
    hookEventName: str(value.hook_event_name),
    stopHookActive: value.stop_hook_active === true,
    lastAssistantMessage: str(value.last_assistant_message),
    toolName: str(value.tool_name),
    toolInput: isRecord(value.tool_input) ? value.tool_input : {},
    toolResponse: value.tool_response,
    toolUseId: str(value.tool_use_id),
    error: str(value.error),
    isInterrupt: value.is_interrupt === true,
  };
}
