// Evidence bundles (issue 16, item 7): every recorded run's log kept past the bash tool's retention,
// exported with a manifest of hashes, and a tampered, missing or added file found by re-hashing.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { EvidenceError } from "../../src/errors.js";
import type { Tool } from "../../src/host/tool.js";
import { verifyEvidenceBundle } from "../../src/observation/bundle.js";
import { evidenceTools } from "../../src/observation/evidence-tools.js";
import { FAST_PYTEST, makeProject, PYTEST_FILES, type TempProject } from "../evidence/ledger-helpers.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const made of projects.splice(0)) made.cleanup();
});

function toolset(options: { logsDir?: string; logRetention?: number } = {}) {
  const p = makeProject(PYTEST_FILES);
  projects.push(p);
  const made = evidenceTools(["bash"], {
    cwd: p.dir,
    headless: false,
    ...(options.logsDir === undefined ? {} : { logsDir: options.logsDir }),
    limits: { bash: { tempDir: p.scratch, env: FAST_PYTEST, logRetention: options.logRetention ?? 16 } },
  });
  const bash = made.tools[0] as unknown as Tool<{ command: string }, unknown>;
  return { p, bash, evidence: made.evidence };
}

describe("exportBundle", () => {
  it("keeps the log of every recorded run, past the bash tool's log retention", async () => {
    const { p, bash, evidence } = toolset({ logRetention: 1 });
    await bash.execute({ command: "python -m pytest -rA t.py" });
    for (let i = 0; i < 3; i++) await bash.execute({ command: `echo call ${i}` });
    await bash.execute({ command: "python -m pytest -q t.py" });
    const dir = join(p.scratch, "bundle");
    const bundle = await evidence.exportBundle(dir);
    const seqs = evidence.verificationRecords.map((r) => r.seq);
    expect(bundle.manifest.logs.map((l) => l.records)).toEqual(seqs.map((seq) => [seq]));
    expect(bundle.manifest.missingLogs).toEqual([]);
    const first = readFileSync(join(dir, bundle.manifest.logs[0]!.path), "utf8");
    expect(first).toMatch(/PASSED t\.py::test_a/);
    expect(JSON.parse(readFileSync(join(dir, "records.json"), "utf8"))).toEqual(evidence.verificationRecords);
    expect(JSON.parse(readFileSync(join(dir, "tests.json"), "utf8"))).toEqual(evidence.testView());
    expect(verifyEvidenceBundle(dir)).toEqual({ ok: true, problems: [], manifest: bundle.manifest });
    await evidence.close();
  });

  it("a tampered, deleted or added file is found, and a manifest that does not parse", async () => {
    const { p, bash, evidence } = toolset();
    await bash.execute({ command: "python -m pytest -rA t.py" });
    const dir = join(p.scratch, "bundle");
    const { manifest } = await evidence.exportBundle(dir);
    const log = join(dir, manifest.logs[0]!.path);
    writeFileSync(log, readFileSync(log, "utf8").replace("1 passed", "2 passed"));
    expect(verifyEvidenceBundle(dir).problems).toEqual([`changed: ${manifest.logs[0]!.path}`]);
    rmSync(log);
    writeFileSync(join(dir, "logs", "forged.log"), "5 passed in 0.01s\n");
    expect(verifyEvidenceBundle(dir).problems).toEqual([`missing: ${manifest.logs[0]!.path}`, "not in the manifest: logs/forged.log"]);
    writeFileSync(join(dir, "manifest.json"), "{");
    expect(verifyEvidenceBundle(dir)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^manifest does not parse/)],
      manifest: null,
    });
    await evidence.close();
  });

  it("a kept log changed before the export is left out and said so", async () => {
    const logsDir = makeProject({}).scratch;
    const { p, bash, evidence } = toolset({ logsDir });
    await bash.execute({ command: "python -m pytest -rA t.py" });
    appendFileSync(join(logsDir, "run-1.log"), "\n9 passed in 0.01s\n");
    const dir = join(p.scratch, "bundle");
    const { manifest } = await evidence.exportBundle(dir);
    expect(manifest.logs).toEqual([]);
    expect(manifest.missingLogs.map((m) => m.records)).toEqual([[1]]);
    expect(manifest.missingLogs[0]?.reason).toMatch(/changed after the run was recorded/);
    expect(verifyEvidenceBundle(dir).ok).toBe(true);
    await evidence.close();
    // A caller's logsDir outlives the evidence.
    expect(readFileSync(join(logsDir, "run-1.log"), "utf8")).toMatch(/9 passed/);
    rmSync(logsDir, { recursive: true, force: true });
  });

  it("refuses a logsDir inside the workspace, and a directory that is not empty", async () => {
    const p = makeProject(PYTEST_FILES);
    projects.push(p);
    expect(() => evidenceTools(["bash"], { cwd: p.dir, headless: false, logsDir: join(p.dir, "logs") })).toThrow(/inside the workspace/);
    const { bash, evidence } = toolset();
    await bash.execute({ command: "python -m pytest -rA t.py" });
    const full = join(p.scratch, "full");
    mkdirSync(full);
    writeFileSync(join(full, "x"), "");
    await expect(evidence.exportBundle(full)).rejects.toThrow(EvidenceError);
    await evidence.close();
  });
});
