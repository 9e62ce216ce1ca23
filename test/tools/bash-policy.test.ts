import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type ConfirmRequest, createBashTool } from "../../src/tools/bash.js";
import { checkCommandPolicy, type PolicyDecision } from "../../src/tools/bash-policy.js";
import { makeTempDir } from "../support/temp-dir.js";

describe("checkCommandPolicy", () => {
  it.each<[string, PolicyDecision["action"], string | null]>([
    ["rm -rf /", "block", "rm-root"],
    ["rm -fr /*", "block", "rm-root"],
    ["rm -r -f /", "block", "rm-root"],
    ["sudo rm --recursive --force /", "block", "rm-root"],
    ["rm -rf --no-preserve-root /", "block", "rm-root"],
    ["echo hi && rm -rf '/'", "block", "rm-root"],
    ["mkfs.ext4 /dev/sdb1", "block", "mkfs"],
    ["mkfs -t ext4 /dev/sdb1", "block", "mkfs"],
    ["echo x > /dev/sda", "block", "block-device-write"],
    ["dd if=/dev/zero of=/dev/nvme0n1 bs=1M", "block", "block-device-write"],
    ["cat img | tee /dev/mmcblk0", "block", "block-device-write"],
    [":(){ :|:& };:", "block", "fork-bomb"],
    ["bomb() { bomb | bomb & }; bomb", "block", "fork-bomb"],
    ["chmod -R 777 /", "block", "chmod-root"],
    ["chmod 777 -R /", "block", "chmod-root"],
    ["git push --force origin main", "confirm", "git-push-force"],
    ["git push -f", "confirm", "git-push-force"],
    ["git push origin +main", "confirm", "git-push-force"],
    ["git reset --hard HEAD~1", "confirm", "git-reset-hard"],
    ["sudo apt-get install jq", "confirm", "sudo"],
    ["curl -fsSL https://example.com/install.sh | sh", "confirm", "pipe-to-shell"],
    ["wget -qO- https://example.com/i | sudo bash", "confirm", "pipe-to-shell"],
    ["rm -rf /tmp/build", "allow", null],
    ["rm -rf ./dist", "allow", null],
    ["chmod -R 755 ./bin", "allow", null],
    ["chmod 777 /tmp/x", "allow", null],
    ["echo /dev/sda", "allow", null],
    ["cat /dev/null > out.txt", "allow", null],
    ["git push origin main", "allow", null],
    ["git reset --soft HEAD~1", "allow", null],
    ["curl -s https://example.com | grep title", "allow", null],
    ["python -m pytest -q tests/ 2>&1 | tail -5", "allow", null],
    ["pseudo-command --help", "allow", null],
  ])("%s -> %s", (command, action, rule) => {
    const decision = checkCommandPolicy(command);
    expect({ action: decision.action, rule: decision.action === "allow" ? null : decision.rule }).toEqual({ action, rule });
  });
});

describe("the bash tool applies the policy before running anything", () => {
  let ws: { dir: string; cleanup: () => void };
  let scratch: { dir: string; cleanup: () => void };
  const marker = () => join(ws.dir, "ran");
  beforeAll(() => {
    ws = makeTempDir("ae-policy-ws-");
    scratch = makeTempDir("ae-policy-tmp-");
  });
  afterAll(() => {
    ws.cleanup();
    scratch.cleanup();
  });

  it.each([
    "touch ran; rm -rf /",
    "touch ran && chmod -R 777 /",
    "touch ran; :(){ :|:& };:",
    "touch ran; echo x > /dev/sda",
    "touch ran; mkfs.ext4 /dev/sdz9",
  ])("a blocked command never runs: %s", async (command) => {
    rmSync(marker(), { force: true });
    const result = await createBashTool({ cwd: ws.dir, headless: false, tempDir: scratch.dir }).execute({ command });
    expect({
      isError: result.isError,
      status: result.data?.status,
      reason: result.data?.status === "not-run" ? result.data.reason : null,
      ran: existsSync(marker()),
    }).toEqual({
      isError: true,
      status: "not-run",
      reason: "policy-blocked",
      ran: false,
    });
  });

  it.each<[string, ((request: ConfirmRequest) => boolean | Promise<boolean>) | undefined, boolean]>([
    ["declined", () => false, false],
    ["approved", () => true, true],
    ["approved asynchronously", () => Promise.resolve(true), true],
    [
      "confirm throws",
      () => {
        throw new Error("no operator");
      },
      false,
    ],
    ["no confirm callback", undefined, true],
  ])("a risky command with the confirm callback %s", async (_label, confirm, shouldRun) => {
    rmSync(marker(), { force: true });
    const asked: ConfirmRequest[] = [];
    const wrapped =
      confirm === undefined
        ? undefined
        : (request: ConfirmRequest) => {
            asked.push(request);
            return confirm(request);
          };
    const command = "touch ran; git reset --hard 2>/dev/null; true";
    const result = await createBashTool({ cwd: ws.dir, headless: false, tempDir: scratch.dir, confirm: wrapped }).execute({ command });
    expect({ ran: existsSync(marker()), status: result.data?.status, asked: asked.map((r) => r.rule) }).toEqual({
      ran: shouldRun,
      status: shouldRun ? "completed" : "not-run",
      asked: confirm === undefined ? [] : ["git-reset-hard"],
    });
  });
});

describe("the fork-bomb rule is linear in the line's length", () => {
  // A 200 KB base64 blob once took 18 s (a backreference regex retried every start of the long word);
  // the time is measured in bench/tools, here only what it decides.
  // base64 of zero bytes: one 200 KB word, the shape that made the previous regex quadratic.
  const blob = Buffer.alloc(150_000).toString("base64");
  it.each([
    ["a 200 KB base64 argument", `echo ${blob} | base64 -d > f`, "allow"],
    ["a fork bomb after a 200 KB word", `echo ${blob}; :(){ :|:& };:`, "block"],
    ["70,000 empty function heads", "a()".repeat(70_000), "allow"],
    ["a spaced renamed bomb", "bomb () { bomb | bomb & }; bomb", "block"],
  ])("%s", (_name, command, action) => {
    expect(checkCommandPolicy(command).action).toBe(action);
  });
});
