// docs/integrating.md stays true: every ```ts snippet is run as written (its imports resolve to this
// package's dist/ by name, as in a user's project) in a fresh pytest project, and what it prints must
// equal the ```text block that follows it.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { transformSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { repoRoot } from "../support/import-graph.js";
import { makeTempDir } from "../support/temp-dir.js";

const doc = readFileSync(join(repoRoot, "docs", "integrating.md"), "utf8");
const snippets = [...doc.matchAll(/```ts\n([\s\S]*?)```\n\n```text\n([\s\S]*?)```/g)].map((m, index) => ({
  index: index + 1,
  code: m[1]!,
  output: m[2]!,
}));
// Inside the package, so `import "agent-evidence"` resolves by self-reference to its exports (dist/).
const snippetDir = join(repoRoot, "test", ".snippets");

describe("docs/integrating.md", () => {
  let project: ReturnType<typeof makeTempDir>;
  beforeAll(() => {
    mkdirSync(snippetDir, { recursive: true });
  });
  afterAll(() => rmSync(snippetDir, { recursive: true, force: true }));

  it("has a snippet with its output in every section that shows code", () => {
    const blocks = [...doc.matchAll(/```ts\n/g)].length;
    expect(snippets.length).toBe(blocks);
    expect(snippets.length).toBeGreaterThanOrEqual(7);
  });

  it.each(snippets)("snippet $index prints what the page says", ({ index, code, output }) => {
    project = makeTempDir("ae-integrating-");
    try {
      writeFileSync(join(project.dir, "math_utils.py"), "def add(a, b):\n    return a + b\n");
      writeFileSync(join(project.dir, "test_math.py"), "from math_utils import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n");
      const file = join(snippetDir, `snippet-${index}.mjs`);
      writeFileSync(file, transformSync(code, { loader: "ts", format: "esm" }).code);
      const printed = execFileSync(process.execPath, [file], {
        cwd: project.dir,
        encoding: "utf8",
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
      });
      expect(printed).toBe(output);
    } finally {
      project.cleanup();
    }
  });
});
