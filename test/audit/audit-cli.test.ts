import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";

import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import type { SessionAudit } from "../../src/audit/audit-transcript.js";
import { runCli } from "../../src/cli/program.js";
import { tempDirPath } from "../support/temp-dir.js";
import { captureRealRuns, type RealRuns } from "./transcripts/real-runs.js";
import { toJsonl } from "./transcripts/records.js";
import { buildScenarios, type Scenario, toClaudeRecords, toCodexRecords } from "./transcripts/scenarios.js";

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], stdin = ""): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  vi.spyOn(process, "stdin", "get").mockReturnValue(Readable.from([Buffer.from(stdin, "utf8")]) as unknown as typeof process.stdin);
  const status = await runCli(args);
  vi.restoreAllMocks();
  process.exitCode = undefined;
  return { status, stdout, stderr };
}

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

let runs: RealRuns;
let scenarios: Scenario[];
let dir: string;
beforeAll(() => {
  runs = captureRealRuns();
  scenarios = buildScenarios(runs);
  dir = tempDirPath("audit-cli-");
  mkdirSync(join(dir, "claude", "nested"), { recursive: true });
  mkdirSync(join(dir, "codex"));
  scenarios.forEach((scenario, i) => {
    writeFileSync(join(dir, "claude", "nested", `${String(i).padStart(3, "0")}.jsonl`), toJsonl(toClaudeRecords(scenario.steps)));
    writeFileSync(join(dir, "codex", `${String(i).padStart(3, "0")}.jsonl`), toJsonl(toCodexRecords(scenario.steps, runs.dir)));
  });
  writeFileSync(join(dir, "codex", "notes.txt"), "not a transcript");
});

describe("agent-evidence audit", () => {
  it("prints one JSON line per session (directories searched recursively for *.jsonl) and the summary on stderr", async () => {
    const run = await cli(["audit", join(dir, "claude"), join(dir, "codex"), "--jobs", "1", "--no-progress"]);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as SessionAudit);
    expect(run.status).toBe(0);
    expect(lines.map((audit) => audit.claims.map((claim) => claim.label))).toEqual(
      [...scenarios, ...scenarios].map((scenario) => [scenario.label]),
    );
    expect(lines.map((audit) => audit.format)).toEqual([...scenarios.map(() => "claude-code"), ...scenarios.map(() => "codex")]);
    expect(run.stderr).toMatch(new RegExp(`^sessions\\s+${2 * scenarios.length}\\n`));
    expect(run.stderr).toMatch(/\nclaim labels\s+backed 4, stale 8, contradicted 4, unsupported 4, unclear 2, disclosed 2\n/);
    expect(run.stderr).toMatch(/\nmasked runs\s+4 /);
  });

  it("--summary alone prints only the table on stdout", async () => {
    const run = await cli(["audit", dir, "--summary", "--no-progress"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(new RegExp(`^sessions\\s+${2 * scenarios.length}\\n`));
    expect(run.stdout).not.toContain("{");
  });

  it("--report writes a self-contained HTML page linking each problem session to its command and sentence", async () => {
    const report = join(dir, "report.html");
    const run = await cli(["audit", join(dir, "claude"), "--summary", "--report", report, "--no-progress"]);
    expect(run.status).toBe(0);
    const html = readFileSync(report, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain('href="#s0-command"');
    expect(html).toContain('id="s0-claim0"');
    expect(html).toContain("&ldquo;All tests pass&rdquo;");
    expect(html).toContain(`<code>${runs.failingSuite.command}</code>`);
  });

  it.each([
    ["no path", ["audit"]],
    ["a missing path", ["audit", "/nonexistent/agent-evidence/x.jsonl"]],
    ["a bad --jobs", ["audit", ".", "--jobs", "0"]],
    ["an unknown option", ["audit", ".", "--bogus"]],
    ["hook without a subcommand", ["hook"]],
    ["an unknown hook", ["hook", "bogus-stop"]],
    ["hook install without --client", ["hook", "install"]],
    ["hook install with a bad --client", ["hook", "install", "--client", "vim"]],
    ["hook claude-stop with an argument", ["hook", "claude-stop", "extra"]],
  ])("exits 64 with one line on a usage error: %s", async (_name, args) => {
    const run = await cli(args);
    expect({
      status: run.status,
      stdout: run.stdout,
      lines: run.stderr.trim().split("\n").length,
      prefix: run.stderr.startsWith("agent-evidence: "),
    }).toEqual({ status: 64, stdout: "", lines: 1, prefix: true });
  });
});

describe("agent-evidence hook via the CLI", () => {
  it("claude-stop reads stdin and prints the block decision", async () => {
    const transcript = join(dir, "claude", "nested", "000.jsonl");
    const run = await cli(
      ["hook", "claude-stop"],
      JSON.stringify({
        session_id: `cli-${Date.now()}`,
        transcript_path: transcript,
        cwd: "/w",
        hook_event_name: "Stop",
        stop_hook_active: false,
      }),
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const output = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect({ keys: Object.keys(output), decision: output.decision, mentionsFailure: output.reason.includes("failed") }).toEqual({
      keys: ["decision", "reason"],
      decision: "block",
      mentionsFailure: true,
    });
  });

  it("codex-stop allows with {} when nothing is wrong", async () => {
    const transcript = join(dir, "codex", "007.jsonl");
    const run = await cli(
      ["hook", "codex-stop"],
      JSON.stringify({
        session_id: `cli-${Date.now()}`,
        turn_id: "t",
        transcript_path: transcript,
        cwd: runs.dir,
        hook_event_name: "Stop",
        model: "m",
        permission_mode: "default",
        stop_hook_active: false,
        last_assistant_message: "Fixed `sub`; all tests pass.",
      }),
    );
    expect(run).toEqual({ status: 0, stdout: "{}\n", stderr: "" });
  });
});

describe("agent-evidence hook install", () => {
  it("--dry-run prints the merged settings as pure JSON on stdout and writes nothing", async () => {
    const project = tempDirPath("hook-install-");
    const run = await cli(["hook", "install", "--command", "agent-evidence", "--client", "codex", "--project", project, "--dry-run"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(`agent-evidence: ${join(project, ".codex", "hooks.json")} (dry run, would change)\n`);
    expect(JSON.parse(run.stdout)).toEqual({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "agent-evidence hook codex-stop", timeout: 60 }] }] },
    });
    expect(existsSync(join(project, ".codex"))).toBe(false);
  });

  it("merges into existing Claude Code settings, keeps a backup, and is idempotent", async () => {
    const project = tempDirPath("hook-install-");
    mkdirSync(join(project, ".claude"));
    const settings = join(project, ".claude", "settings.json");
    const original = {
      permissions: { allow: ["Bash(npm test)"] },
      hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] },
    };
    writeFileSync(settings, JSON.stringify(original));
    const first = await cli(["hook", "install", "--command", "agent-evidence", "--client", "claude", "--project", project]);
    expect(first).toEqual({ status: 0, stdout: `${settings}: hooks installed (backup: ${settings}.agent-evidence.bak)\n`, stderr: "" });
    expect(JSON.parse(readFileSync(`${settings}.agent-evidence.bak`, "utf8"))).toEqual(original);
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({
      permissions: { allow: ["Bash(npm test)"] },
      hooks: {
        Stop: [
          { hooks: [{ type: "command", command: "notify-send done" }] },
          { hooks: [{ type: "command", command: "agent-evidence hook claude-stop", timeout: 60 }] },
        ],
        PostToolUse: [
          {
            matcher: "Bash|Edit|Write|MultiEdit|NotebookEdit",
            hooks: [{ type: "command", command: "agent-evidence hook claude-post-tool-use", timeout: 60 }],
          },
        ],
        PostToolUseFailure: [
          { matcher: "Bash", hooks: [{ type: "command", command: "agent-evidence hook claude-post-tool-use", timeout: 60 }] },
        ],
      },
    });
    const second = await cli(["hook", "install", "--command", "agent-evidence", "--client", "claude", "--project", project]);
    expect(second).toEqual({ status: 0, stdout: `${settings}: hooks already installed, nothing changed\n`, stderr: "" });
  });

  it("--strict installs the Stop hook with --strict, in place of the one without it (and back), never both", async () => {
    const project = tempDirPath("hook-install-");
    const settings = join(project, ".codex", "hooks.json");
    const stopCommands = (): unknown =>
      (JSON.parse(readFileSync(settings, "utf8")) as { hooks: { Stop: { hooks: { command: string }[] }[] } }).hooks.Stop.flatMap((group) =>
        group.hooks.map((hook) => hook.command),
      );
    expect((await cli(["hook", "install", "--command", "agent-evidence", "--client", "codex", "--project", project])).status).toBe(0);
    expect(stopCommands()).toEqual(["agent-evidence hook codex-stop"]);
    expect(
      (await cli(["hook", "install", "--command", "agent-evidence", "--client", "codex", "--project", project, "--strict"])).status,
    ).toBe(0);
    expect(stopCommands()).toEqual(["agent-evidence hook codex-stop --strict"]);
    expect(
      (await cli(["hook", "install", "--command", "agent-evidence", "--client", "codex", "--project", project, "--strict"])).stdout,
    ).toBe(`${settings}: hooks already installed, nothing changed\n`);
    expect((await cli(["hook", "install", "--command", "agent-evidence", "--client", "codex", "--project", project])).status).toBe(0);
    expect(stopCommands()).toEqual(["agent-evidence hook codex-stop"]);
    const claude = await cli([
      "hook",
      "install",
      "--command",
      "agent-evidence",
      "--client",
      "claude",
      "--project",
      project,
      "--strict",
      "--dry-run",
    ]);
    expect(JSON.parse(claude.stdout)).toMatchObject({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "agent-evidence hook claude-stop --strict", timeout: 60 }] }] },
    });
  });

  it("refuses a settings file that is not JSON (exit 1, file untouched)", async () => {
    const project = tempDirPath("hook-install-");
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "settings.json"), "{ nope");
    const run = await cli(["hook", "install", "--command", "agent-evidence", "--client", "claude", "--project", project]);
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: "" });
    expect(run.stderr).toMatch(/^agent-evidence: hook install: .*settings\.json is not valid JSON/);
    expect(readFileSync(join(project, ".claude", "settings.json"), "utf8")).toBe("{ nope");
  });
});

describe("agent-evidence hook install: the command the hooks run", () => {
  it("calls this copy by its absolute path when PATH has no agent-evidence, and says so on stderr", async () => {
    const project = tempDirPath("hook-install-");
    const saved = process.env.PATH;
    process.env.PATH = dirname(process.execPath);
    try {
      const run = await cli(["hook", "install", "--client", "codex", "--project", project]);
      expect(run.status).toBe(0);
      const [command] = (
        JSON.parse(readFileSync(join(project, ".codex", "hooks.json"), "utf8")) as { hooks: { Stop: { hooks: { command: string }[] }[] } }
      ).hooks.Stop[0]!.hooks.map((hook) => hook.command);
      expect(command).toMatch(/^(?:node )?'?\/\S*\/cli\/main\.js'? hook codex-stop$/);
      expect(run.stderr).toMatch(/^agent-evidence: hook install: agent-evidence is not on PATH; the hooks call .*main\.js/);
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe("agent-evidence hook uninstall", () => {
  it("removes only agent-evidence's hooks, keeps a backup, and gives back the settings as they were", async () => {
    const project = tempDirPath("hook-uninstall-");
    mkdirSync(join(project, ".claude"));
    const settings = join(project, ".claude", "settings.json");
    const original = {
      permissions: { allow: ["Bash(npm test)"] },
      hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] },
    };
    writeFileSync(settings, JSON.stringify(original));
    expect((await cli(["hook", "install", "--client", "claude", "--project", project, "--strict"])).status).toBe(0);
    const installed = JSON.parse(readFileSync(settings, "utf8")) as { hooks: Record<string, { hooks: unknown[] }[]> };
    // A foreign hook in the same group as ours stays.
    installed.hooks.PostToolUse![0]!.hooks.push({ type: "command", command: "my-logger" });
    writeFileSync(settings, JSON.stringify(installed));
    const dry = await cli(["hook", "uninstall", "--client", "claude", "--project", project, "--dry-run"]);
    expect(dry.status).toBe(0);
    const expected = {
      ...original,
      hooks: {
        ...original.hooks,
        PostToolUse: [{ matcher: "Bash|Edit|Write|MultiEdit|NotebookEdit", hooks: [{ type: "command", command: "my-logger" }] }],
      },
    };
    expect(JSON.parse(dry.stdout)).toEqual(expected);
    const run = await cli(["hook", "uninstall", "--client", "claude", "--project", project]);
    expect(run.stdout).toMatch(new RegExp(`^${settings.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: hooks removed \\(backup: `));
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual(expected);
    const again = await cli(["hook", "uninstall", "--client", "claude", "--project", project]);
    expect(again).toEqual({ status: 0, stdout: `${settings}: hooks not installed, nothing changed\n`, stderr: "" });
  });

  it("leaves no file behind where there was none, and refuses a settings file that is not JSON", async () => {
    const project = tempDirPath("hook-uninstall-");
    expect((await cli(["hook", "uninstall", "--client", "codex", "--project", project])).status).toBe(0);
    expect(existsSync(join(project, ".codex"))).toBe(false);
    mkdirSync(join(project, ".codex"));
    writeFileSync(join(project, ".codex", "hooks.json"), "[1]");
    const run = await cli(["hook", "uninstall", "--client", "codex", "--project", project]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^agent-evidence: hook uninstall: .*hooks\.json is not a JSON object/);
  });
});
