// Bounded input (issue 21, item 7): the built CLI on inputs an agent or a broken pipe can hand it. Each
// command reads at most its cap and exits with a documented code; the hooks allow (or record nothing)
// and exit 0 on anything they cannot read. Peak memory is read with /usr/bin/time.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = resolve(import.meta.dirname, "../../dist/cli/main.js");
const MAX_RSS_KB = 200 * 1024;
let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ae-bounded-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Runs `sh -c line` under /usr/bin/time; the CLI is `$CLI`. Returns the exit status, stdout, stderr and peak RSS (KiB).
function measured(line: string): { status: number | null; stdout: string; stderr: string; rssKb: number; ms: number } {
  const started = Date.now();
  const result = spawnSync("/usr/bin/time", ["-f", "RSS %M", "sh", "-c", line], { encoding: "utf8", env: { ...process.env, CLI: `${process.execPath} ${cli}` }, maxBuffer: 1 << 24 });
  const rss = /RSS (\d+)\s*$/.exec(result.stderr);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, rssKb: rss === null ? Number.NaN : Number(rss[1]), ms: Date.now() - started };
}

describe("patch and triage read at most their cap", () => {
  it.each([
    ["patch paths /dev/zero", "$CLI patch paths /dev/zero"],
    ["patch on 2 GB of stdin", "head -c 2G /dev/zero | $CLI patch paths"],
    ["triage /dev/zero", "$CLI triage /dev/zero"],
    ["triage on 2 GB of stdin", "head -c 2G /dev/zero | $CLI triage"],
  ])("%s: exit 65, one line, bounded memory", (_name, line) => {
    const result = measured(line);
    expect(result.status).toBe(65);
    expect(result.stderr).toMatch(/is larger than 48 MiB; not read/);
    expect(result.rssKb).toBeLessThan(MAX_RSS_KB);
  });

  it.each([
    ["triage on binary input", "head -c 1M /dev/urandom | $CLI triage", 0],
    ["triage on invalid UTF-8 and NUL bytes", "printf 'FAILED \\377\\376 a\\0b\\n' | $CLI triage", 0],
    ["patch on binary input", "head -c 1M /dev/urandom | $CLI patch paths", 0],
  ])("%s: exit %s", (_name, line, status) => {
    const result = measured(line);
    expect(result.status).toBe(status);
    expect(result.rssKb).toBeLessThan(MAX_RSS_KB);
  });
});

describe("the Stop hook on a transcript it cannot read whole", () => {
  const stop = (transcript: string): ReturnType<typeof measured> => {
    const payload = JSON.stringify({ session_id: `s-${Math.random().toString(36).slice(2)}`, transcript_path: transcript, cwd: dir, hook_event_name: "Stop", stop_hook_active: false });
    writeFileSync(join(dir, "payload.json"), payload);
    return measured(`$CLI hook claude-stop < ${join(dir, "payload.json")}`);
  };

  it("/dev/zero: allows at once, exit 0, says why", () => {
    const result = stop("/dev/zero");
    expect([result.status, result.stdout]).toEqual([0, ""]);
    expect(result.stderr).toContain("(ENOTREGULAR)");
    expect(result.ms).toBeLessThan(2_000 + 1_500); // the node start is part of it
    expect(result.rssKb).toBeLessThan(MAX_RSS_KB);
  });

  it("a FIFO: never opened, allows", () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const result = stop(fifo);
    expect([result.status, result.stdout]).toEqual([0, ""]);
    expect(result.stderr).toContain("(ENOTREGULAR)");
  });

  it("a 2 GB file: reads its end only, allows, bounded memory", () => {
    const big = join(dir, "big.jsonl");
    writeFileSync(big, "");
    truncateSync(big, 2 * 1024 ** 3);
    const result = stop(big);
    expect([result.status, result.stdout]).toEqual([0, ""]);
    expect(result.stderr).toContain("read its last 32 MiB");
    expect(result.rssKb).toBeLessThan(MAX_RSS_KB);
  });

  it("a payload over 16 MiB on stdin: allows (Codex gets {}), records nothing", () => {
    const stopResult = measured("head -c 20M /dev/zero | $CLI hook codex-stop");
    expect([stopResult.status, stopResult.stdout]).toEqual([0, "{}\n"]);
    expect(stopResult.stderr).toContain("larger than 16 MiB");
    const post = measured("head -c 20M /dev/zero | $CLI hook claude-post-tool-use");
    expect([post.status, post.stdout]).toEqual([0, ""]);
    expect(post.stderr).toContain("nothing recorded");
  });
});
