// Host git calls through the helper process give what runHostGit gives (bytes out, bytes in, exit
// codes, stderr, a git that cannot start), and a helper that is broken, dies or answers nonsense
// leaves every call to runHostGit.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { type HostGitOptions, runHostGit } from "../../src/tools/host-git.js";
import { createHostGitRunner, type HostGitRunner } from "../../src/tools/host-git-runner.js";
import { makeProject, type TempProject } from "../evidence/ledger-helpers.js";

const projects: TempProject[] = [];
const runners: HostGitRunner[] = [];
afterEach(() => {
  for (const r of runners.splice(0)) r.close();
  for (const p of projects.splice(0)) p.cleanup();
});

function repository(): string {
  const p = makeProject({ "a.txt": "alpha\n" });
  projects.push(p);
  execFileSync("git", ["init", "-q"], { cwd: p.dir });
  return p.dir;
}

// Binary bytes with every byte value, NULs and invalid UTF-8 among them.
const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));

const CALLS: [string, string[], HostGitOptions][] = [
  ["stdin in, an object id out", ["hash-object", "-w", "--stdin"], { input: BINARY }],
  ["a listing with NULs", ["ls-files", "-z", "--others"], {}],
  ["a failure: exit code and stderr", ["cat-file", "-p", "0123456789012345678901234567890123456789"], {}],
  ["an unknown command", ["no-such-command"], {}],
  ["config and environment as given", ["config", "--get", "core.pager"], { env: { GIT_DIR: "no-such-dir" } }],
];

const view = (r: { exitCode: number; stdout: Buffer; stderr: string; errorCode: string | undefined }): unknown => ({
  exitCode: r.exitCode,
  stdout: r.stdout.toString("hex"),
  stderr: r.stderr,
  errorCode: r.errorCode,
});

describe("host git through the helper", () => {
  it.each(CALLS)("%s: the same as runHostGit", async (_name, args, options) => {
    const dir = repository();
    const runner = createHostGitRunner();
    runners.push(runner);
    expect(view(await runner.run(dir, args, options))).toEqual(view(await runHostGit(dir, args, options)));
    expect(runner.answered).toBe(1);
  });

  it("bytes out, whole: a blob with every byte value", async () => {
    const dir = repository();
    const runner = createHostGitRunner();
    runners.push(runner);
    const id = (await runner.run(dir, ["hash-object", "-w", "--stdin"], { input: BINARY })).stdout.toString("utf8").trim();
    expect((await runner.run(dir, ["cat-file", "blob", id])).stdout.equals(BINARY)).toBe(true);
  });

  it("a directory that does not exist: the same as runHostGit", async () => {
    const runner = createHostGitRunner();
    runners.push(runner);
    const missing = join(repository(), "missing");
    expect(view(await runner.run(missing, ["status"]))).toEqual(view(await runHostGit(missing, ["status"])));
    expect(runner.answered).toBe(1);
  });

  it("calls at once get their own answers", async () => {
    const dir = repository();
    const runner = createHostGitRunner();
    runners.push(runner);
    const inputs = Array.from({ length: 20 }, (_, i) => `object ${i}\n`);
    const ids = await Promise.all(inputs.map((input) => runner.run(dir, ["hash-object", "--stdin"], { input })));
    const direct = await Promise.all(inputs.map((input) => runHostGit(dir, ["hash-object", "--stdin"], { input })));
    expect([ids.map((r) => r.stdout.toString()), runner.answered]).toEqual([direct.map((r) => r.stdout.toString()), 20]);
  });

  it.each([
    ["a helper that exits at once", "process.exit(3)"],
    ["a helper that answers nonsense", "process.stdin.on('data', () => process.stdout.write('nonsense\\n'))"],
    [
      "a helper that answers a call nobody made",
      "process.stdin.on('data', () => process.stdout.write(JSON.stringify({ id: 999, exitCode: 0, stdout: '', stderr: '' }) + '\\n'))",
    ],
    ["a helper that is not JavaScript", "this is not javascript"],
  ])("%s: every call goes to runHostGit", async (_name, helperScript) => {
    const dir = repository();
    const runner = createHostGitRunner({ helperScript });
    runners.push(runner);
    for (const [, args, options] of CALLS)
      expect(view(await runner.run(dir, args, options))).toEqual(view(await runHostGit(dir, args, options)));
    expect(runner.answered).toBe(0);
  });

  it("never keeps the process alive: a script that makes a call and never closes the runner ends", () => {
    const script = `import { createHostGitRunner } from ${JSON.stringify(join(import.meta.dirname, "../../dist/tools/host-git-runner.js"))};
const r = await createHostGitRunner().run(process.cwd(), ["--version"]);
process.stdout.write(String(r.exitCode));`;
    expect(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repository(), encoding: "utf8", timeout: 60_000 }),
    ).toBe("0");
  });
});
