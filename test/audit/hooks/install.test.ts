// How `hook install` names agent-evidence in the hook commands it writes (hookExecutable), and which
// commands `hook uninstall` takes for its own (isOwnHookCommand), on real files and links.
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { hookExecutable, isOwnHookCommand, removeHookSettings, shellWord } from "../../../src/audit/hooks/install.js";
import { tempDirPath } from "../../support/temp-dir.js";

const root = tempDirPath("hook-executable-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

function executable(path: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/usr/bin/env node\n");
  chmodSync(path, 0o755);
  return path;
}

const main = executable(join(root, "pkg", "dist", "cli", "main.js"));
const bin = join(root, "bin");
mkdirSync(bin);
symlinkSync(main, join(bin, "agent-evidence"));
const other = executable(join(root, "other", "agent-evidence"));

describe("hookExecutable", () => {
  it("is the bare name when the first agent-evidence on PATH is this copy (through its bin link)", () => {
    expect(hookExecutable(main, ["/nonexistent", bin].join(delimiter))).toEqual({ kind: "on-path", command: "agent-evidence" });
  });

  it("is this copy's absolute path when PATH has none, or another copy comes first", () => {
    expect(hookExecutable(main, "/nonexistent")).toEqual({ kind: "absolute", command: main, reason: "not-on-path" });
    expect(hookExecutable(main, undefined)).toEqual({ kind: "absolute", command: main, reason: "not-on-path" });
    expect(hookExecutable(main, [join(root, "other"), bin].join(delimiter))).toEqual({
      kind: "absolute",
      command: main,
      reason: "other-copy-on-path",
      found: other,
    });
  });

  it("skips relative PATH entries (they depend on where the client runs the hook) and files that are not executable", () => {
    const plain = join(root, "plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "agent-evidence"), "not executable");
    expect(hookExecutable(main, ["bin", plain].join(delimiter))).toEqual({ kind: "absolute", command: main, reason: "not-on-path" });
  });

  it("runs a CLI file that is not executable through node, quoted for the shell", () => {
    const spaced = join(root, "it's here", "main.js");
    mkdirSync(join(spaced, ".."));
    writeFileSync(spaced, "");
    expect(hookExecutable(spaced, "/nonexistent").command).toBe(`node '${root}/it'\\''s here/main.js'`);
    expect(shellWord("/a/b-c_d.js")).toBe("/a/b-c_d.js");
    expect(shellWord("$(rm -rf ~)")).toBe("'$(rm -rf ~)'");
  });
});

describe("isOwnHookCommand and removeHookSettings", () => {
  it("know every form install writes, and nothing else", () => {
    for (const command of [
      "agent-evidence hook claude-stop",
      "agent-evidence hook codex-stop --strict",
      "/usr/lib/node_modules/agent-evidence/dist/cli/main.js hook claude-post-tool-use",
      "node '/w/my app/node_modules/agent-evidence/dist/cli/main.js' hook claude-stop",
      "npx --no-install agent-evidence hook codex-stop",
    ]) {
      expect(isOwnHookCommand(command), command).toBe(true);
    }
    for (const command of [
      "notify-send done",
      "agent-evidence audit .",
      "my-agent-evidence-wrapper",
      "agent-evidence hook claude-stop && rm -rf /",
      42,
    ])
      expect(isOwnHookCommand(command), String(command)).toBe(false);
  });

  it("returns the very same object when nothing of ours is there (no rewrite, no backup)", () => {
    const settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] }, model: "x" };
    expect(removeHookSettings(settings)).toBe(settings);
    expect(removeHookSettings({ model: "x" })).toEqual({ model: "x" });
    expect(() => removeHookSettings({ hooks: [] })).toThrow(/not an object/);
  });

  it("drops the hooks key it emptied, and keeps the keys' order otherwise", () => {
    expect(
      removeHookSettings({ a: 1, hooks: { Stop: [{ hooks: [{ type: "command", command: "agent-evidence hook codex-stop" }] }] } }),
    ).toEqual({ a: 1 });
    const kept = removeHookSettings({
      hooks: { Stop: [{ hooks: [{ command: "agent-evidence hook claude-stop" }] }, { hooks: [{ command: "x" }] }] },
      z: 1,
    });
    expect(Object.keys(kept)).toEqual(["hooks", "z"]);
    expect(kept.hooks).toEqual({ Stop: [{ hooks: [{ command: "x" }] }] });
  });
});
