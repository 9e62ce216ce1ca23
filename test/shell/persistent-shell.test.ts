// A persistent shell remembers what earlier calls defined: ShellSession, and BashEvidence around a
// real bash process that lives across calls (as Anthropic's bash tool does) and around the native
// bash tool, which starts a new shell per call.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

import { afterEach, describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import type { Tool, ToolResult } from "../../src/host/tool.js";
import { PER_CALL_SHELL } from "../../src/host/tool.js";
import { BashEvidence, type BashLikeInput } from "../../src/observation/bash-evidence.js";
import { isPlantablePathEntry, ShellSession } from "../../src/shell/persistent-shell.js";
import { bashInputSchema } from "../../src/tools/bash.js";
import { FAST_PYTEST, makeProject, PYTEST_FILES, realBash, type TempProject } from "../evidence/ledger-helpers.js";
import { makeTempDir } from "../support/temp-dir.js";

const RUN = "python3 -m pytest -rA t.py";
const FORGED_SUMMARY = "============================== 1 passed in 0.01s ===============================";

/** One bash process for every call, like a persistent bash tool; stdout and stderr merged. */
function persistentBash(cwd: string): Tool<BashLikeInput, unknown> & { close(): void } {
  const child: ChildProcessWithoutNullStreams = spawn("bash", ["--norc", "--noprofile"], { cwd, env: { ...process.env, ...FAST_PYTEST } });
  let buffer = "";
  let waiting: ((text: string) => void) | null = null;
  let serial = 0;
  const onData = (chunk: Buffer): void => {
    buffer += chunk.toString("utf8");
    waiting?.(buffer);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return {
    name: "bash",
    description: "a persistent bash session",
    inputSchema: bashInputSchema,
    execute(input: BashLikeInput): Promise<ToolResult<unknown>> {
      serial += 1;
      const end = `__ae_end_${serial}__`;
      buffer = "";
      return new Promise((resolve) => {
        waiting = (text) => {
          const match = new RegExp(`${end} (\\d+)\\n`).exec(text);
          if (match === null) return;
          waiting = null;
          resolve({ text: `${text.slice(0, match.index)}Exit code: ${match[1]}` });
        };
        // The command runs in the shell itself (not a subshell), so its definitions stay.
        child.stdin.write(`${input.command}\necho "${end} $?"\n`);
      });
    },
    close(): void {
      child.kill();
    },
  };
}

const projects: TempProject[] = [];
const shells: { close(): void }[] = [];
afterEach(() => {
  for (const shell of shells.splice(0)) shell.close();
  for (const made of projects.splice(0)) made.cleanup();
});

function setUp(options: { shell?: "persistent" } = {}): { project: TempProject; bash: BashEvidence } {
  const project = makeProject(PYTEST_FILES);
  projects.push(project);
  const shell = persistentBash(project.dir);
  shells.push(shell);
  return { project, bash: new BashEvidence(shell, { workspace: project.dir, ...options }) };
}

describe("BashEvidence around a persistent bash process", () => {
  it("a function defined in an earlier call makes the later run unknown, not passed", async () => {
    const { bash } = setUp();
    await bash.execute({ command: `python3() { echo '${FORGED_SUMMARY}'; }` });
    const forged = await bash.execute({ command: RUN });
    // The shell really ran the function: the output is the forged summary.
    expect(forged.text).toContain(FORGED_SUMMARY);
    expect(forged.text).not.toContain("test session starts");
    const record = bash.verificationRecords.at(-1)!;
    expect([record.verified, record.outcome, record.reasons]).toEqual([false, "unknown", ["shadowed-runner"]]);
    expect(bash.verifiedTargets).toEqual([]);
  });

  it("the same with an alias made by eval, and with a PATH entry planted in the workspace", async () => {
    const { project, bash } = setUp();
    project.write("fake/python3", `#!/bin/sh\necho '${FORGED_SUMMARY}'\n`);
    await bash.execute({ command: "chmod +x fake/python3 && export PATH=./fake:$PATH" });
    await bash.execute({ command: RUN });
    expect(bash.verificationRecords.at(-1)!.reasons).toEqual(["shadowed-runner"]);
    const other = setUp();
    await other.bash.execute({ command: `eval "shopt -s expand_aliases; alias python3='echo ${FORGED_SUMMARY} #'"` });
    await other.bash.execute({ command: RUN });
    expect(other.bash.verificationRecords.at(-1)!.reasons).toEqual(["shadowed-runner"]);
  });

  it("after unset -f the real runner proves the target again", async () => {
    const { bash } = setUp();
    await bash.execute({ command: `python3() { echo '${FORGED_SUMMARY}'; }` });
    await bash.execute({ command: "unset -f python3" });
    const real = await bash.execute({ command: RUN });
    expect(real.text).toContain("test session starts");
    expect(bash.verificationRecords.at(-1)!.verified).toBe(true);
    expect(bash.verifiedTargets).toEqual(["t.py", "t.py::test_a"]);
  });

  it("an activated virtualenv, a toolchain PATH and other functions do not shadow", async () => {
    const { bash } = setUp();
    await bash.execute({ command: "helper() { :; }; export PATH=/opt/nothing/bin:$PATH; export PATH=$PWD/.venv/bin:$PATH" });
    await bash.execute({ command: RUN });
    expect(bash.verificationRecords.at(-1)!.verified).toBe(true);
  });

  it("told the shell persists, a later run starts where an earlier call's cd left the shell", async () => {
    // The workspace's t.py fails and sub/t.py passes: the run after `cd sub` proves sub/t.py, not t.py.
    const { project, bash } = setUp({ shell: "persistent" });
    project.write("t.py", "def test_a():\n    assert False\n");
    project.write("sub/t.py", "def test_b():\n    assert True\n");
    await bash.execute({ command: "cd sub" });
    await bash.execute({ command: RUN });
    expect(bash.verificationRecords.at(-1)!.workspace).toBe(`${project.dir}/sub`);
    expect(bash.verifiedTargets).toEqual(["sub/t.py", "sub/t.py::test_b"]);
    // A failing run after `cd ..` still moved the shell: the runner ran, so its cd did.
    await bash.execute({ command: `cd .. && ${RUN}` });
    expect(bash.verificationRecords.at(-1)!.workspace).toBe(project.dir);
    expect(bash.verificationRecords.at(-1)!.outcome).toBe("failed");
    // A failing run before a cd says nothing about that cd.
    await bash.execute({ command: `${RUN}; cd nowhere` });
    await bash.execute({ command: RUN });
    expect(bash.verificationRecords.at(-1)!.reasons).toContain("workspace-unknown");
    await bash.execute({ command: `cd ${project.dir}` });
    // A cd that may have failed leaves the directory unknown: nothing is placed until an absolute cd.
    await bash.execute({ command: "cd nowhere && echo moved" });
    await bash.execute({ command: `cd sub && ${RUN}` });
    expect(bash.verificationRecords.at(-1)!.reasons).toEqual(["workspace-unknown"]);
    await bash.execute({ command: `cd ${project.dir}/sub && ${RUN}` });
    expect(bash.verificationRecords.at(-1)!.verified).toBe(true);
  });

  it("not told, a run after an earlier call's cd is placed nowhere until an absolute cd", async () => {
    // The tool might start each call in the workspace or keep the shell in sub: either t.py may have run.
    const { project, bash } = setUp();
    project.write("sub/t.py", "def test_b():\n    assert True\n");
    await bash.execute({ command: "cd sub" });
    await bash.execute({ command: RUN });
    expect(bash.verificationRecords.at(-1)!.reasons).toEqual(["workspace-unknown"]);
    expect(bash.verifiedTargets).toEqual([]);
    await bash.execute({ command: `cd ${project.dir}/sub && ${RUN}` });
    expect(bash.verifiedTargets).toEqual(["sub/t.py", "sub/t.py::test_b"]);
    // Back in the workspace, lines start from it again.
    await bash.execute({ command: `cd ${project.dir}` });
    await bash.execute({ command: RUN });
    expect(bash.verificationRecords.at(-1)!.verified).toBe(true);
  });

  it("shell: per-call turns the memory off for a tool that starts a new shell per call", async () => {
    const project = makeProject(PYTEST_FILES);
    projects.push(project);
    const bash = new BashEvidence(realBash(project), { workspace: project.dir, shell: "persistent" });
    await bash.execute({ command: `python3() { echo '${FORGED_SUMMARY}'; }` });
    await bash.execute({ command: RUN });
    // Told the shell persists, BashEvidence stays closed even though this tool's shell did not.
    expect(bash.verificationRecords.at(-1)!.reasons).toEqual(["shadowed-runner"]);
    const perCall = new BashEvidence(realBash(project), { workspace: project.dir });
    await perCall.execute({ command: `python3() { echo '${FORGED_SUMMARY}'; }` });
    const real = await perCall.execute({ command: RUN });
    // The native bash tool says it starts a new shell per call: the definition is gone, the run is real.
    expect((realBash(project) as unknown as Record<symbol, unknown>)[PER_CALL_SHELL]).toBe(true);
    expect(real.text).toContain("test session starts");
    expect(perCall.verificationRecords.at(-1)!.verified).toBe(true);
  });

  it("rejects an unknown shell option", () => {
    const project = makeProject(PYTEST_FILES);
    projects.push(project);
    expect(() => new BashEvidence(realBash(project), { workspace: project.dir, shell: "forever" as "persistent" })).toThrow(/"shell"/);
  });
});

describe("ShellSession", () => {
  const runOf = (session: ShellSession, line: string): boolean =>
    session.shadow(analyzeCommand(line, { cwd: "/ws" })).invocations[0]!.shadowed;

  it("remembers functions and aliases until they are removed", () => {
    const session = new ShellSession("/ws");
    session.record(analyzeCommand("pytest() { :; }; alias go=true", { cwd: "/ws" }), true);
    expect(session.state).toEqual({
      cwd: "/ws",
      functions: ["pytest"],
      aliases: ["go"],
      riskyPathEntries: [],
      identityRisks: [],
      backgroundJobs: false,
      outputRedirect: null,
    });
    expect([runOf(session, "pytest t.py"), runOf(session, "go test ./..."), runOf(session, "python -m pytest")]).toEqual([
      true,
      true,
      false,
    ]);
    // A wrapper's name is looked up too.
    session.record(analyzeCommand("timeout() { :; }", { cwd: "/ws" }), true);
    expect(runOf(session, "timeout 60 python -m pytest")).toBe(true);
    session.record(analyzeCommand("unset -f pytest timeout; unalias -a", { cwd: "/ws" }), true);
    expect([runOf(session, "pytest t.py"), runOf(session, "go test ./..."), runOf(session, "timeout 60 python -m pytest")]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("a planted PATH entry reaches runners found through PATH, not one named by its path", () => {
    const session = new ShellSession("/ws");
    session.record(analyzeCommand("export PATH=/ws/tools:$PATH", { cwd: "/ws" }), true);
    expect([
      runOf(session, "pytest"),
      runOf(session, "/usr/bin/python3 -m pytest"),
      runOf(session, "timeout 5 /usr/bin/python3 -m pytest"),
    ]).toEqual([true, false, true]);
  });

  it("follows the directory: a cd that took effect, one that may have failed, one it cannot read", () => {
    const session = new ShellSession("/ws");
    const line = (text: string, completed: boolean): void => session.record(analyzeCommand(text, { cwd: session.cwd }), completed);
    line("cd sub", true);
    expect(session.cwd).toBe("/ws/sub");
    line("cd ../other && pytest", true);
    expect(session.cwd).toBe("/ws/other");
    line("echo no cd here", false);
    expect(session.cwd).toBe("/ws/other");
    // Only a leading `cd ... &&` chain is known to move the shell (as within a line).
    line("ls && cd /ws", true);
    expect(session.cwd).toBe(null);
    line("cd /ws/sub", true);
    expect(session.cwd).toBe("/ws/sub");
    line("cd missing && pytest", false);
    expect(session.cwd).toBe(null);
    line("cd sub", true);
    expect(session.cwd).toBe(null);
    line("cd /ws/sub", true);
    expect(session.cwd).toBe("/ws/sub");
    line('cd "$DIR"', true);
    expect(session.cwd).toBe(null);
    line("pushd /ws >/dev/null", true);
    expect(session.cwd).toBe("/ws");
  });

  it("leaves the analysis as it is when nothing reaches it", () => {
    const session = new ShellSession("/ws");
    const analysis = analyzeCommand("pytest t.py");
    expect(session.shadow(analysis)).toBe(analysis);
  });

  it.each<[string, string | null, boolean]>([
    ["./fake", "/ws", true],
    ["fake/bin", "/ws", true],
    [".", "/ws", true],
    ["$PWD/bin", "/ws", true],
    ["$(pwd)/bin", null, true],
    ["/ws/tools", "/ws", true],
    ["/ws", "/ws", true],
    ["/ws/../ws/x", "/ws", true],
    ["/wsx/bin", "/ws", false],
    ["/usr/local/go/bin", "/ws", false],
    ["/ws/tools", null, false],
    ["$HOME/.local/bin", "/ws", false],
    ["~/.cargo/bin", "/ws", false],
    ["$GOROOT/bin", "/ws", false],
    ["$PWD/.venv/bin", "/ws", false],
    ["/ws/venv/bin", "/ws", false],
    ['"$PWD/fake"', "/ws", true],
    ["/tmp/fakebin", "/ws", true],
    ["/var/tmp/x", null, true],
    ["/dev/shm", "/ws", true],
    ["$TMPDIR/bin", "/ws", true],
    ["$HOME/bin", "/ws", true],
    ["${HOME}/fake", "/ws", true],
    ["~/bin", "/ws", true],
    ["$HOME", "/ws", true],
    ["/root/bin", "/ws", true],
    ["/home/dev/bin", "/ws", true],
    ["/home/dev/.local/bin", "/ws", false],
    ["$HOME/go/bin", "/ws", false],
    ["~/.pyenv/shims", "/ws", false],
    ["$HOME/.nvm/versions/node/v20.19.0/bin", "/ws", false],
    ["$HOME/.local/bin/../../bin", "/ws", true],
    ["/tmpx/bin", "/ws", false],
  ])("PATH entry %s in workspace %s: plantable %s", (entry, workspace, expected) => {
    expect(isPlantablePathEntry(entry, workspace)).toBe(expected);
  });
});

describe("a job an earlier call left running (issue 21, item 1)", () => {
  it.each([
    ["sleep 5 &", true],
    ["(sleep 5 &)", true],
    ["bash -c 'sleep 5 &'", true],
    ["nohup sleep 5", true],
    ["setsid -f sleep 5", true],
    ["sleep 1 & wait", false],
    ["echo hi", false],
  ])("%s leaves a job running: %s", (line, expected) => {
    const session = new ShellSession("/ws");
    session.record(analyzeCommand(line, { cwd: "/ws" }), true);
    expect(session.backgroundJobs).toBe(expected);
  });

  it("a later completed `wait` ends them; one that failed does not", () => {
    const session = new ShellSession("/ws");
    session.record(analyzeCommand("sleep 5 &", { cwd: "/ws" }), true);
    session.record(analyzeCommand("wait", { cwd: "/ws" }), false);
    expect(session.backgroundJobs).toBe(true);
    session.record(analyzeCommand("wait", { cwd: "/ws" }), true);
    expect(session.backgroundJobs).toBe(false);
  });

  it("through a persistent bash: a job from an earlier call breaks the code after a later run, which is never current", async () => {
    const { project, bash } = setUp({ shell: "persistent" });
    // The job breaks the code once the test lets it (a file outside the workspace), so a slow run on a
    // busy machine never sees the change while it runs.
    const gate = makeTempDir("ae-job-gate-");
    shells.push({ close: gate.cleanup });
    await bash.execute({ command: `(while [ ! -e ${gate.dir}/go ]; do sleep 0.05; done; printf 'VALUE = 2\\n' > module.py) &` });
    await bash.execute({ command: RUN });
    const record = bash.verificationRecords.at(-1)!;
    expect([record.verified, record.applicability]).toEqual([true, "unknown"]);
    expect(bash.verifiedTargets).toEqual([]);
    // The job really broke the code.
    writeFileSync(`${gate.dir}/go`, "");
    for (let waited = 0; readFileSync(`${project.dir}/module.py`, "utf8") !== "VALUE = 2\n" && waited < 30_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(`${project.dir}/module.py`, "utf8")).toBe("VALUE = 2\n");
    // After a completed `wait` runs count again.
    await bash.execute({ command: "wait; printf 'VALUE = 1\\n' > module.py" });
    await bash.execute({ command: RUN });
    expect(bash.verificationRecords.at(-1)!.applicability).toBe("current");
  });
});
