// The committed grammar file is exactly the pinned upstream runtime and bash grammar (issue 17,
// section 2: ship only the bash grammar), and a missing, cut or foreign file is a clear E_GRAMMAR
// error on first use, never a crash at import.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { buildGrammarPack, GRAMMAR_ENTRIES } from "../../scripts/pack-grammar.mjs";
import { isEvidenceError } from "../../src/errors.js";
import { GRAMMAR_ENV, GRAMMAR_SHA256, grammarPath, readGrammarPack } from "../../src/grammar/bash-grammar.js";
import { repoRoot } from "../support/import-graph.js";
import { tempDirPath } from "../support/temp-dir.js";

const committed = readFileSync(join(repoRoot, "grammar", "bash.grammar"));
const scratch = tempDirPath("ae-grammar-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A fresh node process, so the grammar this test file's own imports may have loaded is not reused.
function inFreshNode(script: string, env: NodeJS.ProcessEnv): { status: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return { status: 0, stdout, stderr: "" };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const PROBE = `
const { analyzeCommand, isEvidenceError } = await import("./dist/index.js");
console.log("imported", isEvidenceError(new Error("x")) ? 1 : 0);
try { console.log("runs", analyzeCommand("cd pkg && pytest -q").invocations.length); }
catch (error) { console.log("error", isEvidenceError(error, "E_GRAMMAR"), error.message); }`;

describe("grammar/bash.grammar", () => {
  it("holds the upstream package's runtime and bash grammar byte for byte", () => {
    expect(committed.equals(buildGrammarPack())).toBe(true);
    const header = JSON.parse(committed.subarray(0, committed.indexOf(0x0a)).toString("utf8")) as { source: string; entries: { name: string; size: number; sha256: string }[] };
    expect(header.source).toBe("@vscode/tree-sitter-wasm@0.3.1");
    expect(header.entries.map((entry) => entry.name)).toEqual(GRAMMAR_ENTRIES);
    expect(createHash("sha256").update(committed).digest("hex")).toBe(GRAMMAR_SHA256);
    const pack = readGrammarPack(committed, "bash.grammar");
    const bodies = [pack.runtimeSource, pack.runtimeWasm, pack.bashWasm];
    header.entries.forEach((entry, index) => expect(createHash("sha256").update(bodies[index]!).digest("hex"), entry.name).toBe(entry.sha256));
  });

  it("with the right hash but a foreign header is still refused", () => {
    const foreign = Buffer.from('{"format":"other/1","entries":[]}\n');
    expect(() => readGrammarPack(foreign, "x.grammar", createHash("sha256").update(foreign).digest("hex"))).toThrow(/x\.grammar is not this version's bash grammar: the format is not agent-evidence-grammar\/1/);
  });

  it("is found in the package's grammar/ folder, or where the environment names it", () => {
    expect(grammarPath({})).toBe(join(repoRoot, "grammar", "bash.grammar"));
    expect(grammarPath({ [GRAMMAR_ENV]: "/opt/app/bash.grammar" })).toBe("/opt/app/bash.grammar");
  });

  it("is not read at import: an import without it works, the first parse says E_GRAMMAR and where it looked", () => {
    const result = inFreshNode(PROBE, { [GRAMMAR_ENV]: join(scratch, "absent.grammar") });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("imported 0");
    expect(result.stdout).toMatch(/^error true the bash grammar is not at .*absent\.grammar: copy node_modules\/agent-evidence\/grammar\/bash\.grammar beside the bundle/m);
  });

  it.each([
    ["cut short", committed.subarray(0, committed.length - 1000)],
    ["without a header", committed.subarray(committed.indexOf(0x0a) + 1)],
    ["of another format", Buffer.concat([Buffer.from('{"format":"other/1","entries":[]}\n'), committed.subarray(committed.indexOf(0x0a) + 1)])],
  ])("a grammar file %s is an E_GRAMMAR error naming the file", (name, bytes) => {
    const path = join(scratch, `${name.replace(/\W+/g, "-")}.grammar`);
    writeFileSync(path, bytes);
    let thrown: unknown;
    try {
      readGrammarPack(bytes, path);
    } catch (error) {
      thrown = error;
    }
    expect(isEvidenceError(thrown, "E_GRAMMAR")).toBe(true);
    expect((thrown as Error).message).toContain(path);
    const result = inFreshNode(PROBE, { [GRAMMAR_ENV]: path });
    expect(result.stdout).toMatch(/^error true .*is not this version's bash grammar: its SHA-256 is [0-9a-f]{64}, not /m);
  });

  it("whose wasm is damaged (it would still compile and parse wrongly) is an E_GRAMMAR error on first use", () => {
    const damaged = Buffer.from(committed);
    damaged.fill(0x41, damaged.length - 200_000, damaged.length - 100_000);
    const path = join(scratch, "damaged.grammar");
    writeFileSync(path, damaged);
    const result = inFreshNode(PROBE, { [GRAMMAR_ENV]: path });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^error true .*damaged\.grammar is not this version's bash grammar: its SHA-256 is /m);
  });

  it("loads from the environment's path, and the parse works", () => {
    const path = join(scratch, "copy.grammar");
    writeFileSync(path, committed);
    const result = inFreshNode(PROBE, { [GRAMMAR_ENV]: path });
    expect(result.stdout).toContain("runs 1");
  });
});
