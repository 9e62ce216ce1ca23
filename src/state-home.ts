// Where agent-evidence keeps state that the agent's commands must not write: the user's state
// directory, `$XDG_STATE_HOME/agent-evidence` (`~/.local/state/agent-evidence` without it). The bash
// sandbox hides the home directory, and Codex's workspace-write sandbox does not let commands write it.
import { homedir } from "node:os";
import { join } from "node:path";

/** The agent-evidence state directory (see the file comment). */
export function stateHome(): string {
  const xdg = process.env.XDG_STATE_HOME;
  return join(xdg !== undefined && xdg.startsWith("/") ? xdg : join(homedir(), ".local", "state"), "agent-evidence");
}
