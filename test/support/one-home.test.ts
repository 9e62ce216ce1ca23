// test/support is the one home of temp dirs and git fixtures: no other test file makes a temp dir
// or spells git's isolation itself (STYLE.md, "One home for test helpers").
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

const TEST = join(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "fixtures" || name === "node_modules" || name.startsWith(".")) return [];
    return statSync(path).isDirectory() ? sources(path) : name.endsWith(".ts") ? [path] : [];
  });
}

// Scripts a test writes for another program to run, where the suite's helpers cannot be imported.
const FOREIGN_SCRIPTS = new Set(["packaging/installed-app.test.ts"]);

// Test files (outside test/support, the home) whose code matches `pattern`.
function callers(pattern: RegExp): string[] {
  return sources(TEST)
    .map((file) => relative(TEST, file))
    .filter((file) => !file.startsWith("support/") && !FOREIGN_SCRIPTS.has(file))
    .filter((file) => pattern.test(readFileSync(join(TEST, file), "utf8")));
}

describe("test/support is the only home", () => {
  it("of temp dirs: only support/temp-dir.ts calls mkdtemp", () => {
    expect(callers(/\bmkdtemp(Sync)?\(/)).toEqual([]);
  });

  it("of git fixtures: only test/support names git's author", () => {
    expect(callers(/GIT_AUTHOR_NAME|user\.email=/)).toEqual([]);
  });
});
