// The journal against damage and forgery (issue 21, item 4): every line authenticated, replay
// streaming and fail-closed. A journal is made by a real ledger (BashEvidence over an in-process
// tool and a stub judge, so thousands of transitions take no processes); then it is torn, cut at
// every offset, corrupted at random, forged and reordered. Replay never throws, and whatever it
// cannot trust leaves every record unknown and no verified target.
import { appendFileSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

import type { LineJudge } from "../../src/evidence/ledger.js";
import type { Tool } from "../../src/host/tool.js";
import { BashEvidence } from "../../src/observation/bash-evidence.js";
import { defaultSealPath, type JournalState, lineMac, openJournal, readJournal, replayJournal } from "../../src/observation/journal.js";
import type { RunEvidence } from "../../src/types.js";
import { tempDirPath } from "../support/temp-dir.js";

const dir = tempDirPath("ae-journal-");
const workspace = join(dir, "ws");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const fresh = (): { journal: string; seal: string } => {
  counter += 1;
  return { journal: join(dir, `j${counter}.jsonl`), seal: join(dir, `j${counter}.seal`) };
};

/** A tool that runs nothing: every command "exits 0". */
const stubTool: Tool<{ command: string }, unknown> = {
  name: "bash",
  description: "stub",
  inputSchema: {} as Tool<{ command: string }, unknown>["inputSchema"],
  execute: () => Promise.resolve({ text: "ok\nExit code: 0" }),
};

/** Every recognised run passes with the ids of its targets. */
const passingJudge: LineJudge = ({ analysis }) => ({
  runs: analysis.invocations.map((inv): RunEvidence => ({
    kind: inv.kind,
    runner: inv.runner,
    targets: inv.targets,
    workspace: inv.workspace,
    filtered: false,
    baseline: false,
    outcome: "passed",
    passed: inv.targets.map((t) => `${t}::test_a`),
    failed: [],
    skipped: [],
    reasons: [],
    gates: [],
  })),
});

const evidence = (paths: { journal: string; seal: string }, restore = false): BashEvidence =>
  restore
    ? BashEvidence.fromJournal(paths.journal, stubTool, { workspace, realpath: false, judge: passingJudge, journalSeal: paths.seal })
    : new BashEvidence(stubTool, { workspace, realpath: false, judge: passingJudge, journal: paths.journal, journalSeal: paths.seal });

/** Runs `commands` through a fresh journaled BashEvidence; returns its live state. */
async function journalOf(
  paths: { journal: string; seal: string },
  commands: string[],
): Promise<{ verified: string[]; records: unknown[] }> {
  const bash = evidence(paths);
  for (const command of commands) await bash.execute({ command });
  await bash.close();
  return { verified: bash.verifiedTargets, records: bash.verificationRecords };
}

const distrusted = (state: JournalState): boolean =>
  state.verified.length === 0 && state.records.every((r) => r.applicability === "unknown");

describe("a journal written by the ledger", () => {
  it("replays to the live state, in lines that grow with the transitions, not with the history", async () => {
    const paths = fresh();
    const commands = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? `python -m pytest t${i % 8}.py` : `perl -pi -e '' f${i}.txt`));
    const live = await journalOf(paths, commands);
    const state = readJournal(paths.journal, { seal: paths.seal });
    expect({
      verified: [...new Set(state.verified.map((v) => v.key))].sort(),
      records: state.records,
      warnings: state.warnings,
      skipped: state.skipped,
    }).toEqual({ verified: live.verified, records: live.records, warnings: [], skipped: 0 });
    // Deltas: the longest line is a record, however long the history (the old format's state lines held every record).
    const longest = Math.max(
      ...readFileSync(paths.journal, "utf8")
        .split("\n")
        .map((l) => l.length),
    );
    expect(longest).toBeLessThan(1_200);
  });

  it("a journal longer than the reader's chunk replays the same (lines that span chunks)", async () => {
    const paths = fresh();
    const commands = Array.from({ length: 3_000 }, (_, i) =>
      i % 3 === 0 ? `python -m pytest tests/test_${"x".repeat(200)}_${i}.py` : `perl -pi -e '' f${i}.txt`,
    );
    const live = await journalOf(paths, commands);
    expect(readFileSync(paths.journal).length).toBeGreaterThan(2 * 1024 * 1024);
    const state = readJournal(paths.journal, { seal: paths.seal });
    expect([state.records, state.skipped]).toEqual([live.records, 0]);
  });

  it("a new BashEvidence refuses a journal that already holds events (their seqs would collide)", async () => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest t.py"]);
    expect(() => evidence(paths)).toThrow(/already holds events.*fromJournal/);
  });

  it("a journal without its seal cannot be authenticated: a clear E_IO error", async () => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest t.py"]);
    rmSync(paths.seal);
    expect(() => readJournal(paths.journal, { seal: paths.seal })).toThrow(/no seal/);
    expect(() => evidence(paths, true)).toThrow(/no seal/);
  });

  it("refuses a journal or a seal inside the workspace, where the agent's commands can write", () => {
    for (const options of [
      { journal: join(workspace, "ledger.jsonl") },
      { journal: join(dir, "outside.jsonl"), journalSeal: join(workspace, "sub", "seal") },
    ]) {
      expect(() => new BashEvidence(stubTool, { workspace, realpath: false, judge: passingJudge, ...options })).toThrow(
        /inside the workspace/,
      );
    }
  });

  it("the default seal lives under the state directory, never next to the journal", () => {
    const seal = defaultSealPath(join(dir, "x.jsonl"));
    expect(seal.startsWith(join(process.env.XDG_STATE_HOME ?? "/nonexistent", "agent-evidence", "journal-seals"))).toBe(true);
  });
});

describe("a torn last line, then a restart", () => {
  it("the torn line and the restart's next event are both seen: the target cleared before the crash stays cleared", async () => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest tests"]);
    // A crash in the middle of the next write (the line is a prefix of a real one).
    appendFileSync(paths.journal, `${"a".repeat(64)} {"type":"invalidate","comm`);
    const restored = evidence(paths, true);
    expect([
      restored.verifiedTargets,
      restored.verificationRecords.map((r) => r.applicability),
      restored.restoreWarnings.length > 0,
    ]).toEqual([[], ["unknown"], true]);
    await restored.execute({ command: "perl -pi -e 's/1/2/' a.py" });
    await restored.close();
    const again = readJournal(paths.journal, { seal: paths.seal });
    expect([again.verified, again.records.map((r) => [r.applicability, r.postTestCommands])]).toEqual([
      [],
      [["unknown", ["perl -pi -e 's/1/2/' a.py"]]],
    ]);
    expect(readFileSync(paths.journal, "utf8").includes("\n\n")).toBe(false);
  });

  it("after a restart that distrusted the journal, later runs are trusted again", async () => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest a.py"]);
    appendFileSync(paths.journal, "garbage\n");
    const restored = evidence(paths, true);
    await restored.execute({ command: "python -m pytest b.py" });
    await restored.close();
    const state = readJournal(paths.journal, { seal: paths.seal });
    expect(state.records.map((r) => [r.target, r.applicability])).toEqual([
      ["a.py", "unknown"],
      ["b.py", "current"],
    ]);
    expect(state.verified.map((v) => v.key)).toEqual(["b.py", "b.py::test_a"]);
  });
});

describe("forgery", () => {
  it.each([
    [
      "an unauthenticated line",
      (_key: Buffer, _prev: string) => `${JSON.stringify({ type: "verified", verified: [{ family: "python", key: "tests" }] })}`,
    ],
    [
      "a line with a made-up hmac",
      () => `${"0".repeat(64)} ${JSON.stringify({ type: "verified", verified: [{ family: "python", key: "tests" }] })}`,
    ],
    [
      "a line signed with another key",
      (_key: Buffer, prev: string) => {
        const json = JSON.stringify({ type: "verified", verified: [{ family: "python", key: "tests" }] });
        return `${lineMac(Buffer.alloc(32, 7), prev, json)} ${json}`;
      },
    ],
  ])("%s appended by the agent restores no target", async (_name, forge) => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest tests", "perl -pi -e 's/1/2/' module.py"]);
    const before = readJournal(paths.journal, { seal: paths.seal });
    expect(before.verified).toEqual([]);
    appendFileSync(paths.journal, `${forge(Buffer.alloc(0), before.tip.mac)}\n`);
    const state = readJournal(paths.journal, { seal: paths.seal });
    expect([state.verified, state.skipped]).toEqual([[], 1]);
  });

  it("an invalidation cut out of the middle: every later line fails its hmac, and nothing is trusted", async () => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest a.py", "perl -pi -e 's/1/2/' module.py", "python -m pytest b.py"]);
    const lines = readFileSync(paths.journal, "utf8").split("\n");
    const kept = lines.filter((line) => !line.includes('"type":"invalidate"'));
    expect(kept.length).toBe(lines.length - 1);
    writeFileSync(paths.journal, kept.join("\n"));
    expect(distrusted(readJournal(paths.journal, { seal: paths.seal }))).toBe(true);
  });

  it("two lines swapped: nothing is trusted", async () => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest a.py", "perl -pi -e 's/1/2/' module.py", "python -m pytest b.py"]);
    const lines = readFileSync(paths.journal, "utf8").split("\n");
    const at = lines.findIndex((line) => line.includes('"type":"invalidate"'));
    [lines[at], lines[at + 1]] = [lines[at + 1] ?? "", lines[at] ?? ""];
    writeFileSync(paths.journal, lines.join("\n"));
    expect(distrusted(readJournal(paths.journal, { seal: paths.seal }))).toBe(true);
  });

  it("the tail cut off at a line boundary (the invalidation gone): the seal's tip says so", async () => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest a.py", "perl -pi -e 's/1/2/' module.py"]);
    const text = readFileSync(paths.journal, "utf8");
    const cut = text.lastIndexOf('"type":"invalidate"');
    truncateSync(paths.journal, text.lastIndexOf("\n", cut) + 1);
    const state = readJournal(paths.journal, { seal: paths.seal });
    expect([distrusted(state), state.warnings.join(" ")]).toEqual([true, expect.stringMatching(/cut short/)]);
  });
});

describe("lines of the wrong shape, even when authenticated", () => {
  it.each([
    ["null", "null"],
    ["a number", "42"],
    ["an array", "[1,2]"],
    ["no type", '{"record":{"seq":1}}'],
    ["a record without its record", '{"type":"record"}'],
    ["a record whose seq is not a number", '{"type":"record","record":{"seq":"1","postTestCommands":[],"postTestEdits":[]}}'],
    ["a verified whose entries have no key", '{"type":"verified","verified":[{"family":"python"}]}'],
    ["a begin without its call", '{"type":"begin","command":"x","measured":true}'],
    ["an invalidate whose edits are not strings", '{"type":"invalidate","edits":[1]}'],
    ["the old format's state line", '{"type":"state","verified":[],"records":[]}'],
  ])("%s is skipped, counted, and distrusts what came before", async (_name, json) => {
    const paths = fresh();
    await journalOf(paths, ["python -m pytest tests"]);
    const tip = readJournal(paths.journal, { seal: paths.seal }).tip;
    const opened = openJournal(paths.journal, { seal: paths.seal });
    opened.journal.close();
    // Sign the wrong-shape line with the real key, as a buggy or older writer would.
    const key = Buffer.from(/key ([0-9a-f]{64})/.exec(readFileSync(paths.seal, "latin1"))?.[1] ?? "", "hex");
    const prev = readJournal(paths.journal, { seal: paths.seal }).tip.mac;
    expect(prev).not.toBe(tip.mac);
    appendFileSync(paths.journal, `${lineMac(key, prev, json)} ${json}\n`);
    const state = readJournal(paths.journal, { seal: paths.seal });
    expect([state.records.length, state.skipped, distrusted(state)]).toEqual([1, 1, true]);
  });
});

describe("damage at every offset and at random", () => {
  const paths = fresh();
  let original = "";
  let live: JournalState;
  it("builds the journal", async () => {
    await journalOf(paths, [
      "python -m pytest a.py",
      "perl -pi -e 's/1/2/' module.py",
      "python -m pytest b.py",
      "echo hi",
      "python -m pytest c.py d.py",
    ]);
    original = readFileSync(paths.journal, "utf8");
    live = readJournal(paths.journal, { seal: paths.seal });
    expect(live.verified.length).toBeGreaterThan(0);
  });

  const seal = (): { key: Buffer; tip: { lines: number; mac: string } } => {
    const text = readFileSync(paths.seal, "latin1");
    const match = /key ([0-9a-f]{64})\ntip (\d{12}) ([0-9a-f]{64})/.exec(text);
    return { key: Buffer.from(match?.[1] ?? "", "hex"), tip: { lines: Number(match?.[2]), mac: match?.[3] ?? "" } };
  };

  it("truncation at every offset: never a throw, and any cut short of the whole distrusts everything", () => {
    const s = seal();
    // The last byte is the final newline: without it every line is still whole, and the state is the live one.
    for (let end = 0; end < original.length - 1; end++) {
      const state = replayJournal(original.slice(0, end).split("\n"), s);
      expect(distrusted(state), `cut at ${end}`).toBe(true);
    }
    expect(replayJournal(original.slice(0, -1).split("\n"), s).verified).toEqual(live.verified);
    expect(replayJournal(original.split("\n"), s).verified).toEqual(live.verified);
  });

  it("3,000 random edits (bytes changed, cut, repeated): never a throw; the state is the live one or distrusted", () => {
    const s = seal();
    fc.assert(
      fc.property(fc.nat(original.length - 1), fc.nat(original.length), fc.string({ maxLength: 8 }), (at, cut, insert) => {
        const broken = original.slice(0, at) + insert + original.slice(Math.min(original.length, at + (cut % 16)));
        const state = replayJournal(broken.split("\n"), s);
        const same = JSON.stringify([state.records, state.verified]) === JSON.stringify([live.records, live.verified]);
        return same || distrusted(state);
      }),
      { numRuns: 3_000 },
    );
  });

  it("a line longer than any the journal writes is skipped, not held in memory whole", () => {
    const s = seal();
    const state = replayJournal([...original.split("\n"), null], s);
    expect([state.skipped, distrusted(state)]).toEqual([1, true]);
  });
});

describe("kill -9 in a write loop (20 times, through the built dist/)", () => {
  const DIST = join(import.meta.dirname, "..", "..", "dist", "index.js");

  // The child alternates a test run and an edit as fast as it can. Around each call it appends to a
  // side file (synced): `ran <i> <command>` when the tool runs the command, `done <i>` when the call returned.
  const childScript = (paths: { journal: string; seal: string }, side: string): string => `
import { openSync, writeSync, fsyncSync } from "node:fs";
import { BashEvidence } from ${JSON.stringify(DIST)};
const side = openSync(${JSON.stringify(side)}, "a");
const note = (text) => { writeSync(side, text + "\\n"); fsyncSync(side); };
let i = 0;
const tool = { name: "bash", description: "stub", inputSchema: {}, execute: async ({ command }) => { note("ran " + i + " " + command); return { text: "ok\\nExit code: 0" }; } };
const judge = ({ analysis }) => ({ runs: analysis.invocations.map((inv) => ({ kind: inv.kind, runner: inv.runner, targets: inv.targets, workspace: inv.workspace, filtered: false, baseline: false, outcome: "passed", passed: [], failed: [], skipped: [], reasons: [] })) });
const bash = new BashEvidence(tool, { workspace: ${JSON.stringify(workspace)}, realpath: false, judge, journal: ${JSON.stringify(paths.journal)}, journalSeal: ${JSON.stringify(paths.seal)} });
for (;; i++) {
  await bash.execute({ command: i % 2 === 0 ? "python -m pytest tests" : "perl -pi -e 's/1/2/' module.py" });
  note("done " + i);
  if (i === 1) process.stdout.write("READY\\n");
}
`;

  it("no throw, no completed record lost, and no target restored after an edit ran", async () => {
    const { spawn } = await import("node:child_process");
    for (let round = 0; round < 20; round++) {
      const paths = fresh();
      const side = `${paths.journal}.side`;
      const script = `${paths.journal}.mjs`;
      writeFileSync(script, childScript(paths, side));
      const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("READY")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`child exited early with ${code}`)));
      });
      await new Promise((r) => setTimeout(r, 20 + ((round * 37) % 200)));
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      const notes = readFileSync(side, "utf8").split("\n").slice(0, -1);
      const state = readJournal(paths.journal, { seal: paths.seal });
      const ran = notes.filter((n) => n.startsWith("ran "));
      const doneRuns = notes.filter((n) => n.startsWith("done ") && Number(n.split(" ")[1]) % 2 === 0).length;
      expect(ran.length, `round ${round}: the child made calls`).toBeGreaterThan(0);
      expect(state.records.length, `round ${round}: every returned test run has its record`).toBeGreaterThanOrEqual(doneRuns);
      if (state.verified.length > 0)
        expect(ran.at(-1), `round ${round}: a target restored although an edit ran after the last run`).toMatch(/pytest/);
      // A restart keeps appending, and what it restored stays consistent.
      const restored = evidence(paths, true);
      await restored.execute({ command: "perl -pi -e 's/1/2/' module.py" });
      await restored.close();
      expect(readJournal(paths.journal, { seal: paths.seal }).verified).toEqual([]);
    }
  }, 180_000);
});
