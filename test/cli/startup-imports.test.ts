// The CLI starts without loading any command's implementation: `--version`, `--help` and the hooks
// (which a client runs after every tool call) do not pay for tree-sitter, the judge or the audit.
// Commands load what they need with import() when they run.
import { describe, expect, it } from "vitest";

import { staticImports, walkImports } from "../support/import-graph.js";

const HEAVY = [
  "src/grammar/",
  "src/evidence/",
  "src/verdict/",
  "src/audit/",
  "src/demo/",
  "src/tools/",
  "src/candidates/",
  "src/adapters/",
];

describe("CLI start-up", () => {
  it("loads no command implementation before a command runs", () => {
    const reached = walkImports("src/cli/main.ts", staticImports);
    expect(reached).toContain("src/cli/run.ts");
    expect(reached.filter((file) => HEAVY.some((folder) => file.startsWith(folder)))).toEqual([]);
  });
});
