// The hook state (the Codex block count) lives under the state directory, not the temp directories
// that Codex's workspace-write sandbox lets the agent's commands write (issue 21, item 6).
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { hookStatePath } from "../../../src/audit/hooks/state.js";
import { defaultSealPath } from "../../../src/observation/journal.js";
import { stateHome } from "../../../src/state-home.js";

describe("state that the agent's commands must not write", () => {
  it("the hook state defaults to <state home>/hooks, never the temp directory", () => {
    const path = hookStatePath("session-1");
    expect(path).toBe(join(stateHome(), "hooks", "session-1.json"));
    expect(path.startsWith(join(tmpdir(), "agent-evidence-hooks"))).toBe(false);
  });

  it("the state home follows an absolute XDG_STATE_HOME, and the journal seals live there too", () => {
    expect(stateHome()).toBe(join(process.env.XDG_STATE_HOME ?? "", "agent-evidence"));
    expect(defaultSealPath("/x/j.jsonl").startsWith(join(stateHome(), "journal-seals"))).toBe(true);
  });
});
