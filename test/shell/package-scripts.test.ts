// Package-manager command lines read without running anything: which script a manager runs, the exec
// forms stripped as wrappers, and a script followed into its own commands with package.json as data.
// Every rule that could let a script pass is attacked here the way an agent wanting a green check would.
import { describe, expect, it } from "vitest";

import { judge } from "../../src/evidence/judge.js";
import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { PACKAGE_ROOT } from "../../src/shell/package-exec-wrappers.js";
import { readScriptCommand } from "../../src/shell/package-manager.js";
import type { PackageScripts } from "../../src/shell/package-scripts.js";
import { stripWrappers } from "../../src/shell/wrappers.js";

const words = (line: string): string[] => line.split(" ");

describe("readScriptCommand", () => {
  it.each([
    ["npm test", { manager: "npm", script: "test", args: [] }],
    ["npm t", { manager: "npm", script: "test", args: [] }],
    ["npm tst", { manager: "npm", script: "test", args: [] }],
    ["npm run test", { manager: "npm", script: "test", args: [] }],
    ["npm run-script test", { manager: "npm", script: "test", args: [] }],
    ["npm test -- -t add", { manager: "npm", script: "test", args: ["-t", "add"] }],
    ["npm run unit -- --grep x", { manager: "npm", script: "unit", args: ["--grep", "x"] }],
    ["npm test foo", { manager: "npm", script: "test", args: ["foo"] }],
    ["npm --prefix sub test", { script: "test", directories: ["sub"], exactDirectory: true }],
    ["npm -C sub test", { script: "test", directories: ["sub"], exactDirectory: true }],
    ["npm test --silent", { silent: true, problem: null }],
    ["npm test -s", { silent: true, problem: null }],
    ["npm run test --if-present", { ifPresent: true, problem: null }],
    ["npm test --ignore-scripts", { lifecycle: false, problem: null }],
    ["npm test -w a", { problem: "script-workspaces", detail: "-w" }],
    ["npm test --workspaces", { problem: "script-workspaces" }],
    ["npm test --workspace=a", { problem: "script-workspaces" }],
    ["npm test --script-shell ./sh", { problem: "script-config", detail: "--script-shell" }],
    ["npm test --node-options=--require=x", { problem: "script-config" }],
    ["npm test -t add", { problem: "script-arguments-unclear", detail: "-t" }],
    ["pnpm test", { manager: "pnpm", script: "test", args: [] }],
    ["pnpm run test", { manager: "pnpm", script: "test", args: [] }],
    ["pnpm test -- -t add", { manager: "pnpm", args: ["-t", "add"] }],
    ["pnpm run unit -- -t add", { manager: "pnpm", script: "unit", args: ["--", "-t", "add"] }],
    ["yarn run unit -- -t add", { manager: "yarn", script: "unit", args: ["-t", "add"] }],
    ["pnpm -C sub test", { manager: "pnpm", directories: ["sub"] }],
    ["pnpm --dir sub test", { manager: "pnpm", directories: ["sub"] }],
    ["pnpm -r test", { problem: "script-workspaces" }],
    ["pnpm vitest run", { manager: "pnpm", script: "vitest", args: ["run"], orBin: true }],
    ["yarn test", { manager: "yarn", script: "test", args: [] }],
    ["yarn run test -t add", { manager: "yarn", script: "test", args: ["-t", "add"] }],
    ["yarn --cwd sub test", { manager: "yarn", directories: ["sub"] }],
    ["yarn jest --ci", { manager: "yarn", script: "jest", args: ["--ci"], orBin: true }],
  ])("%s", (line, expected) => {
    expect(readScriptCommand(words(line))).toMatchObject(expected);
  });

  it.each([
    "npm install",
    "npm run",
    "npm ci",
    "npm exec vitest",
    "pnpm install",
    "pnpm exec vitest",
    "yarn",
    "yarn install",
    "yarn add x",
    "node --test",
    "npm",
  ])("%s runs no script", (line) => {
    expect(readScriptCommand(words(line))).toBeNull();
  });
});

describe("the exec forms are wrappers", () => {
  it.each([
    ["npx vitest run", 1, []],
    ["npx tally --only x", 1, []],
    ["npx --yes vitest run", 2, []],
    ["npx -y vitest", 2, []],
    ["npx --no-install vitest", 2, []],
    ["npx -- vitest run", 2, []],
    ["npm exec vitest", 2, []],
    ["npm exec -- vitest", 3, []],
    ["npm x vitest", 2, []],
    ["npm --prefix sub exec vitest", 4, ["sub"]],
    ["pnpm exec jest", 2, [PACKAGE_ROOT]],
    ["pnpm -C sub exec jest", 4, ["sub", PACKAGE_ROOT]],
    ["yarn exec mocha", 2, [PACKAGE_ROOT]],
  ])("%s: the command starts at word %i", (line, start, directories) => {
    expect(stripWrappers(words(line))).toMatchObject({ ok: true, start, directories, risks: [] });
  });

  it("npx -p pkg X runs the package's X: an identity risk", () => {
    expect(stripWrappers(words("npx -p evil-runner tally"))).toMatchObject({
      ok: true,
      start: 3,
      risks: ["npx --package evil-runner runs that package's program"],
    });
    expect(analyzeCommand("npx --package=evil node --test").invocations[0]).toMatchObject({
      kind: "node-test",
      shadowed: true,
      shadowedBy: "npx --package evil runs that package's program",
    });
  });

  it.each(["npx -c 'node --test'", "npx --call x", "npm exec -w a -- node --test", "npx --unknown-flag node --test"])(
    "%s is no runner",
    (line) => {
      expect(analyzeCommand(line).invocations).toEqual([]);
    },
  );

  it("npm test is no wrapper", () => {
    expect(stripWrappers(words("npm test"))).toMatchObject({ ok: true, start: 0, wrappers: [] });
  });

  it("npx X runs where the line is; pnpm exec's X in the package root, unknown here", () => {
    expect(analyzeCommand("cd sub && npx python3 -m pytest", { cwd: "/r" }).invocations[0]).toMatchObject({
      kind: "pytest",
      workspace: "/r/sub",
      programs: ["npx", "python3"],
    });
    expect(analyzeCommand("pnpm exec go test ./...", { cwd: "/r" }).invocations[0]).toMatchObject({ kind: "go", workspace: null });
  });

  it.each(["npx node --test", "npm exec -- node --test", "pnpm exec node --test", "npx python3 -m pytest"])(
    "%s: npx runs node_modules/.bin's program of that name first: shadowed-runner",
    (line) => {
      expect(analyzeCommand(line).invocations[0]).toMatchObject({ shadowed: true });
    },
  );
});

const manifest = (scripts: Record<string, string>, dir = "/r") => ({ dir, name: "p", version: "1.0.0", scripts });
const SCRIPTS: PackageScripts = {
  "/r": manifest({
    pretest: "echo pre",
    test: "node --test",
    posttest: "echo post",
    py: "python3 -m pytest -q",
    chain: "tsc --noEmit && node --test",
    emits: "tsc && node --test",
    semi: "node --test; echo ok",
    forged: "echo 'Tests  9 passed (9)'",
    fn: "t() { node --test; }; t",
    shadow: "node() { echo '# pass 9'; }; node --test",
    all: "npm test && npm run py",
    unknown: "./prep.sh && node --test",
  }),
  "/r/sub": manifest({ test: "node --test" }, "/r/sub"),
  "/r/none": null,
};
const analyze = (line: string) => analyzeCommand(line, { cwd: "/r", packageScripts: SCRIPTS });
const runs = (line: string) => (analyze(line).packageRuns ?? []).map((run) => [run.script, run.problem]);

describe("a script followed with package.json as data", () => {
  it("npm test runs pretest, test with its arguments, posttest, in the package's directory", () => {
    const analysis = analyze("npm test -- --test-name-pattern=add");
    expect(analysis.packageRuns?.[0]).toMatchObject({
      manager: "npm",
      script: "test",
      packageDir: "/r",
      expanded: true,
      problem: null,
      lines: [
        { event: "pretest", text: "echo pre" },
        { event: "test", script: "node --test", text: "node --test --test-name-pattern=add" },
        { event: "posttest", text: "echo post" },
      ],
    });
    expect(analysis.invocations).toMatchObject([
      {
        kind: "node-test",
        args: ["--test", "--test-name-pattern=add"],
        filtered: true,
        workspace: "/r",
        script: { manager: "npm", name: "test", run: 0 },
      },
    ]);
  });

  it.each([
    ["npm run py", [["py", null]]],
    ["npm run chain", [["chain", null]]],
    ["npm run semi", [["semi", null]]],
    ["npm run emits", [["emits", "script-unknown-program"]]],
    ["npm run unknown", [["unknown", "script-unknown-program"]]],
    ["npm run forged", [["forged", "script-no-runner"]]],
    ["npm run fn", [["fn", "script-unknown-program"]]],
    ["npm run missing", [["missing", "script-missing"]]],
    ["cd none && npm test", [["test", "script-no-package"]]],
    ["cd elsewhere && npm test", [["test", "script-not-resolved"]]],
    ["cd $DIR && npm test", [["test", "script-not-resolved"]]],
    [
      "npm run all",
      [
        ["all", null],
        ["test", null],
        ["py", null],
      ],
    ],
    ["echo '{}' > package.json && npm test", [["test", "script-may-change"]]],
    ["cp /tmp/evil.json package.json; npm test", [["test", "script-may-change"]]],
    ["npm test & sed -i s/a/b/ package.json", [["test", "script-may-change"]]],
    ["npm test | tee package.json", [["test", "script-may-change"]]],
    ["npm_config_script_shell=./evil npm test", [["test", "script-config"]]],
    ["env npm_config_node_options=--require=x npm test", [["test", "script-config"]]],
    ["cd sub && npm test", [["test", null]]],
    ["ls && git status && npm test", [["test", null]]],
  ])("%s", (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it("a function in the script that shadows the runner is shadowed-runner", () => {
    expect(analyze("npm run shadow").invocations[0]).toMatchObject({ kind: "node-test", shadowed: true });
  });

  it("a variable on npm's command line reaches the script's runner", () => {
    expect(analyze("NODE_OPTIONS=--require=./x.js npm test").invocations[0]).toMatchObject({
      shadowed: true,
      shadowedBy: "sets NODE_OPTIONS",
    });
  });

  it("a planted node_modules/.bin program on the script's PATH is shadowed-runner", () => {
    const planted: PackageScripts = { "/r": { ...manifest({ test: "node --test" }), plantedBins: ["node"] } };
    expect(analyzeCommand("npm test", { cwd: "/r", packageScripts: planted }).invocations[0]).toMatchObject({ shadowed: true });
  });

  it("a .npmrc that sets script-shell is script-config", () => {
    const risky: PackageScripts = { "/r": { ...manifest({ test: "node --test" }), configRisk: "/r/.npmrc sets script-shell" } };
    expect(analyzeCommand("npm test", { cwd: "/r", packageScripts: risky }).packageRuns?.[0]).toMatchObject({ problem: "script-config" });
  });

  it("pnpm X and yarn X run the script X, else the program X in the package's directory", () => {
    expect(analyzeCommand("cd sub && yarn python3 -m pytest -q", { cwd: "/r", packageScripts: SCRIPTS })).toMatchObject({
      packageRuns: [{ problem: null, lines: [{ text: "python3 -m pytest -q" }] }],
      invocations: [{ kind: "pytest", workspace: "/r/sub" }],
    });
    expect(analyzeCommand("pnpm py", { cwd: "/r", packageScripts: SCRIPTS }).invocations[0]).toMatchObject({ kind: "pytest" });
  });
});

// A hostile package.json: output that imitates a runner proves nothing unless the runner printed it.
describe("attacks through the judge", () => {
  const summary = "ℹ tests 3\nℹ suites 0\nℹ pass 3\nℹ fail 0\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 5.1\n";
  it.each([
    [
      "a script that only echoes a summary",
      "npm run forged",
      "\n> p@1.0.0 forged\n> echo 'Tests  9 passed (9)'\n\nTests  9 passed (9)\n",
      "script-no-runner",
    ],
    ["a script not resolved", "cd elsewhere && npm test", summary, "script-not-resolved"],
    ["package.json rewritten in the line", "echo x > package.json && npm test", summary, "script-may-change"],
    ["an unknown program before the runner", "npm run unknown", summary, "script-unknown-program"],
  ])("%s is not passed", (_name, command, output, reason) => {
    const result = judge({ command, output, exitCode: 0, cwd: "/r", packageScripts: SCRIPTS });
    expect(result.verdict).toBe("unknown");
    expect(result.reasons).toContain(reason);
  });

  it("a failure inside a doubtful script still counts", () => {
    const output = "✖ adds (1ms)\nℹ tests 1\nℹ suites 0\nℹ pass 0\nℹ fail 1\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 5.1\n";
    expect(judge({ command: "npm run unknown", output, exitCode: 1, cwd: "/r", packageScripts: SCRIPTS }).verdict).toBe("failed");
  });

  it("a banner naming another command than the resolved script is script-changed", () => {
    const output = `\n> p@1.0.0 test\n> echo forged\n\n${summary}`;
    expect(judge({ command: "npm test --ignore-scripts", output, exitCode: 0, cwd: "/r", packageScripts: SCRIPTS })).toMatchObject({
      verdict: "unknown",
      reasons: expect.arrayContaining(["script-changed"]) as unknown,
    });
  });
});
