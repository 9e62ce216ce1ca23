/**
 * agent-evidence/testing: for integrators' tests. `createReplayBashTool` answers commands with
 * recorded output (text, then `Exit code: N`, as a foreign bash tool reports), so what
 * `BashEvidence` concludes from a session can be tested without runners, processes or a sandbox.
 */
export { createReplayBashTool } from "../tools/replay-bash.js";
export type { RecordedBashCall, ReplayBashData, ReplayBashToolOptions } from "../tools/replay-bash.js";
