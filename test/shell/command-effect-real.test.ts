// Issue 15, acceptance point 1: every row of the effect table (src/shell/command-effect.ts, and the
// read-only programs of src/shell/read-only.ts) against a real command run by bash in a real git
// repository. The classification is asserted for every case; the disk for every case whose effect is
// known: a hash of the whole tree (untracked files too, .git/ apart) before and after says what the
// command really changed. The cases are in command-effect-cases.ts and read-only-cases.ts.
import { execFile, spawnSync } from "node:child_process";
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join, posix } from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { inertPathReason } from "../../src/evidence/test-inputs.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { EFFECT_PROGRAMS, GIT_METADATA_SUBCOMMANDS, lineEffect } from "../../src/shell/command-effect.js";
import { READ_ONLY_GIT_SUBCOMMANDS, READ_ONLY_GO_SUBCOMMANDS, READ_ONLY_PROGRAMS } from "../../src/shell/read-only.js";
import { createEffectFixture, NODE_MODULES } from "../support/effect-fixture.js";
import { GIT_ENV } from "../support/git.js";
import { tempDirPath } from "../support/temp-dir.js";
import { changedPaths, readTreeState } from "../support/tree-state.js";
import { CASES as PROGRAM_CASES, type EffectCase, type ExpectedEffect } from "./command-effect-cases.js";
import { READ_ONLY_CASES } from "./read-only-cases.js";

const run = promisify(execFile);
const CASES = [...PROGRAM_CASES, ...READ_ONLY_CASES];

/** The table's verdict on a line, without the free-text reason of `unknown`. */
function classify(line: string): ExpectedEffect {
  const effect = lineEffect(analyzeCommand(line));
  return effect.kind === "unknown" ? { kind: "unknown" } : effect;
}

// Placeholders in a case, for the classification alone (no server, no directory) or for a real run.
const fill = (text: string, url: string, tmp: string): string => text.replaceAll("{URL}", url).replaceAll("{TMP}", tmp);
const fillEffect = (effect: ExpectedEffect, url: string, tmp: string): ExpectedEffect =>
  effect.kind === "paths" ? { ...effect, paths: effect.paths.map((p) => fill(p, url, tmp)) } : effect;

const available = new Map<string, boolean>();
// `command -v` for a program, `test -x` for a path, an import for `python3:module`.
function isAvailable(need: string): boolean {
  if (!available.has(need)) {
    // `python3:ruff`, but not the builtin `:`.
    const [program, module] = /^[^:]+:[^:]+$/.test(need) ? need.split(":") : [need];
    const script =
      module !== undefined ? `${program} -c 'import ${module}'` : need.includes("/") ? `test -x ${need}` : `command -v '${need}'`;
    available.set(
      need,
      spawnSync("bash", ["-c", script], {
        cwd: NODE_MODULES,
        env: { ...process.env, PATH: `${NODE_MODULES}/.bin:${process.env.PATH ?? ""}` },
        stdio: "ignore",
      }).status === 0,
    );
  }
  return available.get(need)!;
}

// Why the disk part of a case does not run, or null.
function notRun(c: EffectCase): string | null {
  if (c.skip !== undefined) return c.skip;
  const missing = (c.needs ?? (["python -m", "shell"].includes(c.program) ? [] : [c.program])).filter((need) => !isAvailable(need));
  return missing.length === 0 ? null : `${missing.join(", ")} not installed`;
}

// A build output by the documented rule: a new file under target/, dist/ or __pycache__/, bytecode, a
// compiled binary, or the Cargo.lock a cargo build writes when there is none; never a change to a file that was there.
const BUILD_OUTPUT = /^(?:target|dist)(?:\/|$)|(?:^|\/)__pycache__(?:\/|$)|\.pyc$|^Cargo\.lock$/;
async function isBuildOutput(repo: string, path: string): Promise<boolean> {
  if (BUILD_OUTPUT.test(path)) return true;
  const head = await readFile(join(repo, path)).catch(() => Buffer.alloc(0));
  return head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
}

// A changed path is one the command named, a path under it, or a directory leading to it (`mkdir -p
// a/b` creates `a`, `rmdir -p a/b` removes it, a patch adding `new/x.py` creates `new`).
const isNamed = (changed: string, named: readonly string[]): boolean =>
  named.some((n) => {
    const name = posix.normalize(n).replace(/\/$/, "");
    return name === "." || changed === name || changed.startsWith(`${name}/`) || name.startsWith(`${changed}/`);
  });

let root = "";
let template = "";
let url = "";
let server: Server | undefined;
let env: NodeJS.ProcessEnv = {};

// The directory of the python3 on PATH, when PATH reaches it through pyenv's shims (a shell script
// per call, a third of a second each): the same interpreter, found directly.
async function pythonDirectory(): Promise<string[]> {
  const found = await run("python3", ["-c", "import os, sys; print(os.path.dirname(sys.executable))"]).then(
    (r) => r.stdout.trim(),
    () => "",
  );
  return found !== "" && !(process.env.PATH ?? "").split(":").includes(found) ? [found] : [];
}

beforeAll(async () => {
  root = tempDirPath("effect-real-");
  const home = process.env.HOME ?? "/root";
  env = {
    ...process.env,
    ...GIT_ENV,
    // Tools write their own state under HOME (npm's logs, pip's version check): a home of the suite's own.
    HOME: join(root, "home"),
    // rustup and pyenv find their toolchains through HOME unless told.
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(home, ".rustup"),
    CARGO_HOME: process.env.CARGO_HOME ?? join(home, ".cargo"),
    PYENV_ROOT: process.env.PYENV_ROOT ?? join(home, ".pyenv"),
    PATH: [`${NODE_MODULES}/.bin`, ...(await pythonDirectory()), process.env.PATH ?? ""].join(":"),
    // go writes its build cache, module cache and installed binaries here: outside the repository.
    GOCACHE: join(root, "gocache"),
    GOPATH: join(root, "gopath"),
    GOBIN: join(root, "gobin"),
    GOPROXY: "off",
    GOFLAGS: "",
    GOTOOLCHAIN: "local",
    CARGO_NET_OFFLINE: "true",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
    NO_COLOR: "1",
  };
  template = join(root, "template");
  await createEffectFixture(template, env);
  server = createServer((_req, res) => res.end("def add(a, b):\n    return a + b\n"));
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  const address = server.address();
  url = typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}` : "";
});

afterAll(async () => {
  await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())));
  // go makes its module cache read-only; make it writable before removing it.
  if (root !== "") {
    await run("chmod", ["-R", "u+w", root]).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  }
});

// A copy of the fixture repository (modes, times and links kept; `cp -a`'s owners, ACLs and xattrs
// cost four times as much), in a directory of its own: `{TMP}` for the case.
const copyTree = (from: string, to: string): Promise<unknown> => run("cp", ["-RP", "--preserve=mode,timestamps,links", from, to]);
async function copyFixture(): Promise<{ dir: string; repo: string }> {
  const dir = tempDirPath("case-", { parent: root });
  const repo = join(dir, "repo");
  await copyTree(template, repo);
  return { dir, repo };
}

// Runs a line with bash in the repository: its exit status (-1 when it was killed).
const runLine = (line: string, repo: string): Promise<number> =>
  run("bash", ["-c", line], { cwd: repo, env, timeout: 60_000, maxBuffer: 1 << 26 }).then(
    () => 0,
    (error: { code?: unknown }) => (typeof error.code === "number" ? error.code : -1),
  );

describe("every row of the effect table has a case run on disk", () => {
  // A case of known effect is one the disk part runs (where the program is installed); an `unknown`
  // case only checks the classification.
  const known = new Set(CASES.filter((c) => c.effect.kind !== "unknown").map((c) => c.program));
  it.each([...EFFECT_PROGRAMS])("%s", (program) => expect(known.has(program)).toBe(true));
  it.each([...READ_ONLY_PROGRAMS])("read-only %s", (program) => expect(known.has(program)).toBe(true));
  const git = CASES.filter((c) => c.program === "git").map((c) => c.line);
  it.each([
    ...GIT_METADATA_SUBCOMMANDS,
    ...READ_ONLY_GIT_SUBCOMMANDS,
    "branch",
    "remote",
    "checkout",
    "switch",
    "restore",
    "reset",
    "rm",
    "mv",
    "apply",
    "stash",
    "config",
  ])("git %s", (sub) => expect(git.some((line) => new RegExp(`^git (?:-\\S+ )*${sub}\\b`).test(line))).toBe(true));
  const go = CASES.filter((c) => c.program === "go").map((c) => c.line);
  it.each([...READ_ONLY_GO_SUBCOMMANDS, "build", "install", "list"])("go %s", (sub) =>
    expect(go.some((line) => line.startsWith(`go ${sub}`))).toBe(true),
  );
});

describe("what the table says each command changes", () => {
  it.each(CASES.map((c) => [`${c.program}: ${c.line}`, c] as const))("%s", (_name, c) => {
    expect(classify(fill(c.line, "http://127.0.0.1:8000", "/tmp/effect-case"))).toEqual(
      fillEffect(c.effect, "http://127.0.0.1:8000", "/tmp/effect-case"),
    );
  });
});

describe("what each command really changes on disk", () => {
  // The cases that must change nothing share one copy, run at once: a case's own writes land between
  // its own before and after, so a run where every case passes is one where none wrote anything, and
  // each ran in a tree as it was copied. The others get a copy each.
  let shared: Promise<{ dir: string; repo: string }> | undefined;
  const isShared = (c: EffectCase): boolean => c.effect.kind === "none" && c.setup === undefined && !c.line.includes("{TMP}");
  for (const c of CASES.filter((c) => c.effect.kind !== "unknown")) {
    const reason = notRun(c);
    it.skipIf(reason !== null).concurrent(`${c.program}: ${c.line}${reason === null ? "" : ` (not run: ${reason})`}`, async () => {
      const { dir, repo } = await (isShared(c) ? (shared ??= copyFixture()) : copyFixture());
      if (c.setup !== undefined) await run("bash", ["-c", c.setup], { cwd: repo, env });
      const line = fill(c.line, url, dir);
      const effect = fillEffect(c.effect, url, dir);
      const before = readTreeState(repo);
      const status = await runLine(line, repo);
      if (c.status !== "any") expect(status, `exit status of ${line}`).toBe(c.status ?? 0);
      const after = readTreeState(repo);
      const work = changedPaths(before.work, after.work);
      const git = changedPaths(before.git, after.git);
      // A command that runs git (a git command, go's build stamp) may write the repository's metadata,
      // unless the table says it writes nothing at all.
      const runsGit = effect.kind !== "none" && "dependsOn" in effect && effect.dependsOn === "repository-config";
      switch (effect.kind) {
        case "none":
          // A checker's own cache aside (`.eslintcache`, `.mypy_cache/`): nothing.
          expect(work.filter((p) => inertPathReason(p, repo) !== "cache")).toEqual([]);
          expect(git).toEqual([]);
          break;
        case "vcs-metadata":
          expect(work).toEqual([]);
          break;
        case "build-outputs": {
          expect(work.filter((p) => before.work.has(p))).toEqual([]);
          const outputs = await Promise.all(work.map(async (p) => [p, await isBuildOutput(repo, p)] as const));
          expect(outputs.filter(([, output]) => !output).map(([p]) => p)).toEqual([]);
          if (!runsGit) expect(git).toEqual([]);
          break;
        }
        case "paths":
          expect(work.filter((p) => !isNamed(p, effect.paths))).toEqual([]);
          if (!runsGit) expect(git).toEqual([]);
          break;
        case "unknown":
          throw new Error("a case of unknown effect is not run");
      }
      if (!isShared(c)) await rm(dir, { recursive: true, force: true });
    });
  }
});

// The table's fail-closed rows, shown on disk: a hook the repository's config names runs, and writes a source.
describe("what a repository's config makes a read run", () => {
  // core.fsmonitor names a program git runs before it compares the tree with the index.
  const HOOK = "#!/bin/sh\necho '# hooked' >> \"$HOOKED\"\n";

  it.concurrent("git -C another repository runs its fsmonitor: unknown, and mod.py changed", async () => {
    const { dir, repo } = await copyFixture();
    const other = join(dir, "other");
    await copyTree(template, other);
    await writeFile(join(dir, "hook.sh"), HOOK);
    await chmod(join(dir, "hook.sh"), 0o755);
    await run("git", ["config", "core.fsmonitor", join(dir, "hook.sh")], { cwd: other, env });
    const line = `HOOKED=${join(repo, "mod.py")} git -C ${other} status`;
    expect(classify(`git -C ${other} status`)).toEqual({ kind: "unknown" });
    const before = readTreeState(repo);
    await run("bash", ["-c", line], { cwd: repo, env });
    expect(changedPaths(before.work, readTreeState(repo).work)).toEqual(["mod.py"]);
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(!isAvailable("go")).concurrent(
    "go list runs git status, and with it the repository's fsmonitor: it depends on the repository's config",
    async () => {
      const { dir, repo } = await copyFixture();
      await writeFile(join(dir, "hook.sh"), HOOK);
      await chmod(join(dir, "hook.sh"), 0o755);
      await run("git", ["config", "core.fsmonitor", join(dir, "hook.sh")], { cwd: repo, env });
      expect(classify("go list ./...")).toEqual({ kind: "vcs-metadata", dependsOn: "repository-config" });
      expect(classify("go list -buildvcs=false ./...")).toEqual({ kind: "none" });
      const before = readTreeState(repo);
      await run("bash", ["-c", "go list -buildvcs=false ./..."], { cwd: repo, env: { ...env, HOOKED: join(repo, "notes.md") } });
      expect(changedPaths(before.work, readTreeState(repo).work)).toEqual([]);
      await run("bash", ["-c", "go list ./..."], { cwd: repo, env: { ...env, HOOKED: join(repo, "mod.py") } });
      expect(changedPaths(before.work, readTreeState(repo).work)).toEqual(["mod.py"]);
      await rm(dir, { recursive: true, force: true });
    },
  );
});
