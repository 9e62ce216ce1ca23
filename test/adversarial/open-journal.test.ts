// Open attacks on the journal: kept inside the workspace, it is the agent's to edit, and replay trusts
// every line (the journal is not authenticated: issue 21). Each is a false pass after a restart today;
// kept failing on purpose until the library closes them.
import { join } from "node:path";
import { describe, it } from "vitest";
import { BashEvidence } from "../../src/evidence/bash-evidence.js";
import { agentView, expectNoFalsePass, nativeBash, PYTEST_BREAK, PYTEST_RUN, pytestProject, sandboxedTools, useAttackHarness } from "./harness.js";

useAttackHarness();

// What an agent that read its journal would run as its last call: bring back the last state that had
// verified targets, and leave a torn line behind it, so the state the ledger writes once the call ends
// joins the torn line and is skipped on replay (the torn-line repair runs only when a journal is opened).
const REPLAY_STATE = [
  "import json, sys",
  "path = sys.argv[1]",
  "lines = open(path).read().splitlines()",
  "best = [l for l in lines if json.loads(l).get('type') == 'state' and json.loads(l)['verified']][-1]",
  "open(path, 'a').write(best + '\\n{\"type\":')",
  "",
].join("\n");
// ... or cut the journal back to just after that state, dropping the invalidations (the same torn end).
const CUT_AFTER_STATE = [
  "import json, sys",
  "path = sys.argv[1]",
  "lines = open(path).read().splitlines()",
  "last = max(i for i, l in enumerate(lines) if json.loads(l).get('type') == 'state' and json.loads(l)['verified'])",
  "open(path, 'w').write('\\n'.join(lines[: last + 1]) + '\\n{\"type\":')",
  "",
].join("\n");

describe("open: a journal inside the workspace, edited by the agent's bash, then a restart", () => {
  it.each([
    ["the last verified state appended again, then a torn line that swallows the ledger's next state", REPLAY_STATE],
    ["the invalidations cut off the end, then the same torn line", CUT_AFTER_STATE],
  ])("%s", async (_name, script) => {
    const p = pytestProject({ planted: { "fix_journal.py": script } });
    const journal = join(p.dir, ".evidence.jsonl");
    const first = await sandboxedTools(p, { journal });
    await first.bash(PYTEST_RUN);
    await first.bash(PYTEST_BREAK);
    await first.bash("python3 fix_journal.py .evidence.jsonl");
    await first.close();
    await expectNoFalsePass(p, agentView(p, BashEvidence.fromJournal(journal, nativeBash(p), { workspace: p.dir })).evidence);
  });
});
