// The one host git runner's environment policy: nothing from the user's home, no inherited GIT_*
// variable, only location variables from the caller, and each other difference a named setting.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { createHostGitInvocation, type HostGitLocation, runHostGit } from "../../src/tools/host-git.js";
import { makeTempDir } from "../support/temp-dir.js";

const cleanups: (() => void)[] = [];
const savedEnv = { ...process.env };
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

function temp(prefix: string): string {
  const made = makeTempDir(prefix);
  cleanups.push(made.cleanup);
  return made.dir;
}

function repository(): string {
  const dir = temp("ae-host-git-");
  execFileSync("git", ["init", "-q"], { cwd: dir });
  writeFileSync(join(dir, "a.txt"), "alpha\n");
  return dir;
}

const text = (result: { stdout: Buffer }): string => result.stdout.toString("utf8");

describe("runHostGit's environment", () => {
  it("reads nothing under the user's home: an excludes file there hides no file", async () => {
    const dir = repository();
    const home = temp("ae-host-git-home-");
    mkdirSync(join(home, ".config", "git"), { recursive: true });
    writeFileSync(join(home, ".config", "git", "ignore"), "a.txt\n");
    const status = ["status", "--porcelain", "--untracked-files=all"];
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: "", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
    // The planted file works on a git that keeps the home (even without a global config file).
    expect(execFileSync("git", status, { cwd: dir, env, encoding: "utf8" })).toBe("");
    Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: join(home, ".config") });
    expect(text(await runHostGit(dir, status))).toBe("?? a.txt\n");
  });

  it("drops every inherited GIT_* variable", async () => {
    const dir = repository();
    process.env.GIT_DIR = join(dir, "no-such-git-dir");
    process.env.GIT_CONFIG_PARAMETERS = "'core.pager'='touch owned'";
    const result = await runHostGit(dir, ["rev-parse", "--absolute-git-dir"]);
    expect([result.exitCode, text(result)]).toEqual([0, `${join(dir, ".git")}\n`]);
  });

  it("takes only location variables from the caller", async () => {
    const dir = repository();
    const global = join(temp("ae-host-git-config-"), "config");
    writeFileSync(global, "[user]\n\tname = planted\n");
    const smuggled = { GIT_CONFIG_GLOBAL: global } as HostGitLocation;
    expect((await runHostGit(dir, ["config", "--get", "user.name"], { env: smuggled })).exitCode).toBe(1);
    const other = temp("ae-host-git-other-");
    execFileSync("git", ["init", "-q"], { cwd: other });
    expect(text(await runHostGit(dir, ["rev-parse", "--absolute-git-dir"], { env: { GIT_DIR: join(other, ".git") } }))).toBe(
      `${join(other, ".git")}\n`,
    );
  });

  it("commits with the identity it is given", async () => {
    const dir = repository();
    const identity = { name: "agent-evidence", email: "agent-evidence@localhost" };
    expect((await runHostGit(dir, ["add", "a.txt"])).exitCode).toBe(0);
    expect((await runHostGit(dir, ["commit", "-q", "-m", "one"], { identity })).exitCode).toBe(0);
    expect(text(await runHostGit(dir, ["log", "-1", "--format=%an <%ae> %cn <%ce>"]))).toBe(
      "agent-evidence <agent-evidence@localhost> agent-evidence <agent-evidence@localhost>\n",
    );
  });
});

describe("createHostGitInvocation's named settings", () => {
  it.each<[string, Parameters<typeof createHostGitInvocation>[1], Record<string, string | undefined>]>([
    ["none", {}, { LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0", GIT_LITERAL_PATHSPECS: undefined, HOME: "/dev/null" }],
    ["optionalLocks", { optionalLocks: true }, { GIT_OPTIONAL_LOCKS: "1" }],
    ["literalPathspecs", { literalPathspecs: true }, { GIT_LITERAL_PATHSPECS: "1" }],
    ["hostLocale", { hostLocale: true }, { LC_ALL: process.env.LC_ALL }],
  ])("%s", (_name, settings, expected) => {
    const { env } = createHostGitInvocation(["status"], settings);
    expect(Object.fromEntries(Object.keys(expected).map((name) => [name, env[name]]))).toEqual(expected);
  });

  it("allowFileProtocol allows the file transport after every fixed setting", () => {
    const { file, args } = createHostGitInvocation(["clone"], { allowFileProtocol: true, config: ["core.quotePath=false"] });
    expect([file, args.slice(-5)]).toEqual(["git", ["-c", "protocol.file.allow=always", "-c", "core.quotePath=false", "clone"]]);
    expect(args.indexOf("protocol.file.allow=always")).toBeGreaterThan(args.indexOf("protocol.allow=never"));
  });
});
