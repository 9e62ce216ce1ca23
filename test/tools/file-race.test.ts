// The symlink-swap race: while the agent's bash swaps `d` between a directory and a symlink to a
// directory outside the workspace as fast as it can, the host-side file tools are called thousands of
// times. Not one call may read or write outside the workspace.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

import { createApplyPatchTool } from "../../src/tools/apply-patch.js";
import { createFileReadTool } from "../../src/tools/file-read.js";
import { createFileWriteTool } from "../../src/tools/file-write.js";
import { makeTempDir } from "../support/temp-dir.js";

const CALLS = 5_000;
const MAX_MS = 20_000;

let ws: { dir: string; cleanup: () => void };
let outside: { dir: string; cleanup: () => void };
beforeAll(() => {
  ws = makeTempDir("ae-race-ws-");
  outside = makeTempDir("ae-race-outside-");
  writeFileSync(join(outside.dir, "secret.txt"), "outside secret\n");
  mkdirSync(join(ws.dir, "d"));
  writeFileSync(join(ws.dir, "d", "secret.txt"), "inside\n");
});
afterAll(() => {
  ws.cleanup();
  outside.cleanup();
});

it(`${CALLS} file tool calls against a swapping symlink never leave the workspace`, async () => {
  const swapper = spawn(
    "bash",
    ["-c", `cd ${ws.dir}; while :; do rm -rf d; mkdir d; echo inside > d/secret.txt; rm -rf d; ln -s ${outside.dir} d; done`],
    { stdio: "ignore" },
  );
  const read = createFileReadTool({ cwd: ws.dir });
  const write = createFileWriteTool({ cwd: ws.dir, allowFileCreation: true });
  const patch = createApplyPatchTool({ cwd: ws.dir, allowFileCreation: true });
  const leaks: string[] = [];
  let calls = 0;
  let inside = 0;
  const started = Date.now();
  try {
    while (calls < CALLS && Date.now() - started < MAX_MS) {
      const n = calls;
      calls += 3;
      const [r, w, p] = await Promise.all([
        read.execute({ path: "d/secret.txt" }),
        write.execute({ path: `d/w${n % 7}.txt`, mode: "create", content: "written\n" }),
        n % 30 === 0
          ? patch.execute({
              patch: `diff --git a/d/p${n}.txt b/d/p${n}.txt\nnew file mode 100644\n--- /dev/null\n+++ b/d/p${n}.txt\n@@ -0,0 +1 @@\n+patched\n`,
            })
          : Promise.resolve({ text: "" }),
      ]);
      if (r.text.includes("outside secret")) leaks.push(`file_read: ${r.text}`);
      if (r.text.includes("inside")) inside += 1;
      void w;
      void p;
    }
  } finally {
    swapper.kill("SIGKILL");
  }
  expect(leaks).toEqual([]);
  expect(readdirSync(outside.dir)).toEqual(["secret.txt"]);
  // The race was real: reads inside the workspace did succeed between the swaps.
  expect(inside).toBeGreaterThan(0);
  expect(calls).toBeGreaterThan(300);
}, 60_000);
