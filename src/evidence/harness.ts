// The runner's harness: the files in the workspace that configure or hook a runner rather than hold
// code or tests. A conftest.py can turn a failure into a pass (`pytest_runtest_makereport`) or drop
// the failing test (`pytest_collection_modifyitems`); a pytest.ini can add `-k` to every run or
// change which functions are tests; a go TestMain can print `ok` whatever the tests did; a go.mod
// `replace` compiles another copy of a package. The runner's output is then real, and what it
// reports is not what the project's tests say. Pure: the file system is read by harness-scan.ts.
import { posix } from "node:path";

import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import type { CommandAnalysis } from "../shell/types.js";
import type { RunnerKind } from "../types.js";

/** Which runner family a harness file speaks to. */
export type HarnessFamily = "python" | "go";

/** A harness file's part that can change what a run reports (hashed by the scan). */
export interface HarnessContent {
  family: HarnessFamily;
  /** The text that matters: the whole file, or its runner's section. */
  content: string;
}

/** Harness baseline or scan: workspace-relative path to `<family>:<sha256 of its content>`. */
export type HarnessDigest = Record<string, string>;

/** What one live scan of the workspace found (harness-scan.ts). */
export interface WorkspaceScan {
  harness: HarnessDigest;
  /**
   * Workspace-relative links whose target lies outside the workspace, where the agent can write (a
   * scratch place, a home, or nothing that exists here: the sandbox's private /tmp). Sorted.
   */
  escapingLinks: string[];
}

// INI-style files where one section configures pytest: `[pytest]`, `[tool:pytest]`.
const INI_SECTIONS: Record<string, RegExp> = {
  "tox.ini": /^\[pytest\]\s*$/,
  "setup.cfg": /^\[tool:pytest\]\s*$/,
};

/** Could a file of this name be harness? (Cheap: the scan reads only these.) */
export function isHarnessCandidate(path: string): boolean {
  const name = posix.basename(path);
  return (
    name === "conftest.py" ||
    name === "pytest.ini" ||
    name === ".pytest.ini" ||
    name === "pyproject.toml" ||
    name in INI_SECTIONS ||
    name.endsWith("_test.go") ||
    name === "go.mod" ||
    name === "go.work"
  );
}

/**
 * The part of a candidate file that is harness, or null when it holds none: all of a conftest.py or
 * pytest.ini; pyproject.toml's `[tool.pytest...]` tables; tox.ini's `[pytest]` and setup.cfg's
 * `[tool:pytest]` sections; a `_test.go` file that defines `TestMain`; the `replace` directives of
 * go.mod and go.work.
 * @example harnessContent("pyproject.toml", "[project]\nname = 'x'\n") // null
 */
export function harnessContent(path: string, text: string): HarnessContent | null {
  const name = posix.basename(path);
  if (name === "conftest.py" || name === "pytest.ini" || name === ".pytest.ini") return { family: "python", content: text };
  if (name === "pyproject.toml") return section(text, (header) => /^\[\s*tool\.pytest(?:\.|\s*\])/.test(header), "python");
  const ini = INI_SECTIONS[name];
  if (ini !== undefined) return section(text, (header) => ini.test(header), "python");
  if (name.endsWith("_test.go")) return /\bfunc\s+TestMain\s*\(/.test(text) ? { family: "go", content: text } : null;
  if (name === "go.mod" || name === "go.work") return goReplaces(text);
  return null;
}

// The lines of every section whose header `matches`, up to the next header that does not.
function section(text: string, matches: (header: string) => boolean, family: HarnessFamily): HarnessContent | null {
  const kept: string[] = [];
  let inside = false;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed.startsWith("[")) inside = matches(trimmed);
    if (inside) kept.push(line);
  }
  return kept.length === 0 ? null : { family, content: kept.join("\n") };
}

// `replace a => b` lines and `replace ( ... )` blocks.
function goReplaces(text: string): HarnessContent | null {
  const kept: string[] = [];
  let block = false;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.replace(/\/\/.*$/, "").trim();
    if (block) {
      if (trimmed === ")") block = false;
      else if (trimmed !== "") kept.push(trimmed);
    } else if (/^replace\s*\($/.test(trimmed)) block = true;
    else if (/^replace\s/.test(trimmed)) kept.push(trimmed);
  }
  return kept.length === 0 ? null : { family: "go", content: kept.join("\n") };
}

/**
 * The harness files of `family` added, removed or changed between two digests, sorted.
 * @example changedHarness({ "conftest.py": "python:ab" }, {}, "python") // ["conftest.py"]
 */
export function changedHarness(baseline: HarnessDigest, now: HarnessDigest, family: HarnessFamily): string[] {
  const ofFamily = (digest: string | undefined): boolean => digest !== undefined && digest.startsWith(`${family}:`);
  const paths = new Set<string>();
  for (const [path, digest] of Object.entries(baseline)) if (ofFamily(digest) && now[path] !== digest) paths.add(path);
  for (const [path, digest] of Object.entries(now)) if (ofFamily(digest) && baseline[path] !== digest) paths.add(path);
  return [...paths].sort();
}

/** The harness family a runner reads, or null (Django and unittest load none of these files). */
export function harnessFamilyOf(kind: RunnerKind, runners: RunnerRegistry = builtinRunners): HarnessFamily | null {
  const family = runners.familyOf(kind).name;
  return family === "python" || family === "go" ? family : null;
}

/**
 * Marks the line's runs (in place, adding to what an earlier look found): each run whose harness
 * changed between `baseline` and the scan, and every run while a link leaves the workspace (the code
 * it tests is then elsewhere). `scan` null: the workspace could not be read, so every run that reads
 * a harness is marked.
 */
export function markWorkspaceScan(analysis: CommandAnalysis, baseline: HarnessDigest | null, scan: WorkspaceScan | null): void {
  const union = (a: readonly string[] | undefined, b: readonly string[]): string[] => [...new Set([...(a ?? []), ...b])].sort();
  for (const inv of analysis.invocations) {
    if (scan !== null && scan.escapingLinks.length > 0) inv.linksOutside = union(inv.linksOutside, scan.escapingLinks);
    const family = harnessFamilyOf(inv.kind);
    if (family === null) continue;
    const changed = baseline === null || scan === null ? [UNREADABLE_HARNESS] : changedHarness(baseline, scan.harness, family);
    if (changed.length > 0) inv.harnessChanged = union(inv.harnessChanged, changed);
  }
}

/** What {@link markWorkspaceScan} lists when the harness could not be read (then or now). */
export const UNREADABLE_HARNESS = "(the harness could not be read)";
