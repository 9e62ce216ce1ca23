// The suite's output echoed as it streams: as text (`echo`) or as the very bytes the suite wrote
// (`echoBytes`, what the CLI uses for stderr), never both.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { runVerdict } from "../../src/verdict/run-verdict.js";
import { tempDirPath } from "../support/temp-dir.js";

// A multi-byte character split by printf's separate writes, and a byte that is not UTF-8.
const COMMAND = "printf 'caf\\303'; sleep 0.1; printf '\\251 ok\\n\\377 end\\n'";

async function echoed(which: "echo" | "echoBytes"): Promise<{ text: string[]; bytes: Buffer; log: Buffer }> {
  const dir = tempDirPath("ae-verdict-echo-");
  try {
    const text: string[] = [];
    const bytes: Buffer[] = [];
    await runVerdict({
      command: COMMAND,
      cwd: dir,
      outDir: dir,
      env: { ...process.env, CI: "1" },
      ...(which === "echo"
        ? { echo: (chunk: string) => text.push(chunk) }
        : { echoBytes: (chunk: Uint8Array) => bytes.push(Buffer.from(chunk)), echo: (chunk: string) => text.push(chunk) }),
    });
    return { text, bytes: Buffer.concat(bytes), log: readFileSync(join(dir, "suite.log")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("echo", () => {
  it("echo receives the decoded text, whole characters only", async () => {
    const { text, log } = await echoed("echo");
    expect(text.join("")).toBe(log.toString("utf8"));
    expect(text.join("")).toContain("café ok");
  });

  it("echoBytes receives exactly the bytes of the log, and then echo is not called", async () => {
    const { text, bytes, log } = await echoed("echoBytes");
    expect(bytes.equals(log)).toBe(true);
    expect(bytes.includes(Buffer.from([0xff]))).toBe(true);
    expect(text).toEqual([]);
  });
});
