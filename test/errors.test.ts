// EvidenceError: recognised by its brand across copies of the package; every code documented and thrown.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it, vi } from "vitest";

import { EvidenceError, type EvidenceErrorCode, isEvidenceError } from "../src/errors.js";
import { repoRoot } from "./support/import-graph.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

// The union's members, read from its declaration.
const CODES = [...readFileSync(join(repoRoot, "src", "errors.ts"), "utf8").matchAll(/^ {2}\| "(E_[A-Z_]+)"/gm)].map(
  (m) => m[1]! as EvidenceErrorCode,
);

describe("isEvidenceError", () => {
  it("recognises an error of another copy of the module, where instanceof does not", async () => {
    vi.resetModules();
    const other = await import("../src/errors.js");
    expect(other.EvidenceError).not.toBe(EvidenceError);
    const error = new other.EvidenceError("E_IO", "cannot read x");
    expect([
      error instanceof EvidenceError,
      isEvidenceError(error),
      isEvidenceError(error, "E_IO"),
      isEvidenceError(error, "E_USAGE"),
    ]).toEqual([false, true, true, false]);
  });

  it("is false for an error that only looks like one", () => {
    const lookalike = Object.assign(new Error("x"), { name: "EvidenceError", code: "E_IO" });
    expect([isEvidenceError(lookalike), isEvidenceError(null), isEvidenceError("E_IO"), isEvidenceError({ code: "E_IO" })]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("holds for the candidate errors, subclasses of EvidenceError", async () => {
    const { CandidateAdoptError } = await import("../src/candidates/errors.js");
    expect(isEvidenceError(new CandidateAdoptError("does not apply"), "E_CANDIDATE_ADOPT")).toBe(true);
  });
});

describe("the error codes", () => {
  const text = sources(join(repoRoot, "src"))
    .filter((file) => !file.endsWith(join("src", "errors.ts")))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");

  it("are read from the union", () => {
    expect(CODES.length).toBeGreaterThan(10);
  });

  it.each(CODES)("%s is thrown somewhere in src/", (code) => {
    expect(new RegExp(`(?:new EvidenceError\\(|super\\()\\s*"${code}"`).test(text)).toBe(true);
  });

  it("each has a section in docs/errors.md, and each section names a code", () => {
    const doc = readFileSync(join(repoRoot, "docs", "errors.md"), "utf8");
    const sections = [...doc.matchAll(/^## `(E_[A-Z_]+)`$/gm)].map((m) => m[1]);
    expect(sections).toEqual(CODES);
  });
});
