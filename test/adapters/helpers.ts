// Shared fixtures of the adapter tests: a tiny pytest project and small real tools of the tool shape.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

import { z } from "zod/v4";

import { defineTool, type Tool } from "../../src/host/tool.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);

/** The command every adapter test asks its agent to run. */
export const PYTEST_COMMAND = "python3 -m pytest -rA -p no:cacheprovider test_x.py";

/** The node id the passing fixture test gets from pytest. */
export const PASSING_TEST = "test_x.py::test_ok";

/** A temp project with one passing pytest test. */
export function makePytestProject(): { dir: string; cleanup: () => void } {
  const project = makeTempDir("ae-adapters-");
  writeFileSync(join(project.dir, "test_x.py"), "def test_ok():\n    assert 1 + 1 == 2\n");
  return project;
}

/** A real tool: counts the bytes of `text` with `wc -c`, returning the count as data. */
export function createByteCountTool(): Tool<{ text: string }, { bytes: number }> {
  return defineTool({
    name: "byte_count",
    description: "Count the bytes of a text with wc -c.",
    inputSchema: z.object({ text: z.string() }),
    run: async ({ text }) => {
      const child = run("wc", ["-c"], { encoding: "utf8" });
      child.child.stdin?.end(text);
      const { stdout } = await child;
      const bytes = Number(stdout.trim());
      return { text: `${bytes} bytes`, data: { bytes } };
    },
  });
}

/** A real tool whose command fails: `ls` of a path that does not exist, reported as an error result. */
export function createFailingListTool(): Tool<{ path: string }, { exitCode: number }> {
  return defineTool({
    name: "list_dir",
    description: "List a directory with ls.",
    inputSchema: z.object({ path: z.string() }),
    run: async ({ path }) => {
      try {
        const { stdout } = await run("ls", [path], { encoding: "utf8" });
        return { text: stdout, data: { exitCode: 0 } };
      } catch (error) {
        const failure = error as { code?: number; stderr?: string };
        return {
          text: `Error: ls exited ${failure.code}: ${failure.stderr?.trim()}`,
          data: { exitCode: failure.code ?? -1 },
          isError: true,
        };
      }
    },
  });
}
