// Package-manager scripts (`npm test`, `pnpm run test`, `yarn test`) as data: what package.json said
// (read by the caller, src/observation/package-scripts.ts), and what one script run of a line runs. The
// analysis follows a resolved script as the `sh -c` line the manager really starts. Pure.
import type { ScriptReasonCode } from "../reasons.js";
import { numberSimpleCommands } from "./flatten.js";
import { type PackageManager, readScriptCommand } from "./package-manager.js";
import type { ParsedLine } from "./types.js";
import { resolveDirectory } from "./workspace.js";
import { basename } from "./wrappers.js";

/** One package.json as a package manager reads it. */
export interface PackageManifest {
  /** The directory that holds the package.json (absolute, or as the analysis's cwd is written). */
  dir: string;
  name: string | null;
  version: string | null;
  /** The `scripts` object: only string values. */
  scripts: Readonly<Record<string, string>>;
  /** Why the package's npm configuration may change how scripts run (`.npmrc` sets `script-shell`), or null. */
  configRisk?: string | null;
  /** Programs in the package's `node_modules/.bin` folders (npm puts them first on a script's PATH) that are not a symlink into the package of that name. */
  plantedBins?: readonly string[];
}

/**
 * The package.json a package manager finds from each directory a line's script runs start in
 * (searching upward, unless `--prefix` names the package), or null when there is none. Keys are the
 * directories as the analysis writes them ({@link PackageScriptRun.directory}).
 */
export type PackageScripts = Readonly<Record<string, PackageManifest | null>>;

/** A script run of the line (`npm test`) and what it runs. */
export interface PackageScriptRun {
  /** The package manager's command, in `CommandAnalysis.commands`. */
  commandIndex: number;
  manager: PackageManager;
  /** The script's name (`test`). */
  script: string;
  /** Where the manager starts looking for package.json, or null when unknown. */
  directory: string | null;
  /** `--prefix DIR`: package.json is in `directory` itself, not searched for upward. */
  exactDirectory: boolean;
  /** The package's directory, when its package.json was read: the scripts run there. */
  packageDir: string | null;
  /** The `sh -c` lines the manager runs, in order (`pretest`, `test` with its arguments, `posttest`); `script` is package.json's text. */
  lines: { event: string; script: string; text: string }[];
  /** The line the analysis follows in their place (`(pre) && (test args) && (post)`), or null when the run cannot be followed. */
  nestedText: string | null;
  /** npm `--silent`: no banner. */
  silent: boolean;
  /** The line holds the script's own commands in place of the manager's (src/grammar/analyze-command.ts expands them). */
  expanded: boolean;
  /** The name and version the banner shows (`pkg@1.0.0`), when package.json has both. */
  packageId: string | null;
  /** Why no run inside it proves anything (a reason code, docs/runners.md), or null. */
  problem: ScriptReasonCode | null;
  /** What {@link problem} is about: an option, a program, a path. */
  detail?: string;
}

/**
 * Reads a package manager's script run from a command's words (the manager first) where the line's
 * directory is `cwd`, with what `scripts` says; null when the words run no script.
 */
export function readScriptRun(
  words: readonly string[],
  cwd: string | null,
  commandIndex: number,
  scripts: PackageScripts | undefined,
): PackageScriptRun | null {
  const command = readScriptCommand(words);
  if (command === null) return null;
  let directory = cwd;
  for (const dir of command.directories) directory = resolveDirectory(directory, dir);
  const run: PackageScriptRun = {
    commandIndex,
    manager: command.manager,
    script: command.script,
    directory,
    exactDirectory: command.directories.length > 0 && (command.manager === "npm" || command.manager === "pnpm"),
    packageDir: null,
    lines: [],
    nestedText: null,
    silent: command.silent,
    expanded: false,
    packageId: null,
    problem: command.problem,
    ...(command.detail === undefined ? {} : { detail: command.detail }),
  };
  if (run.problem !== null) return run;
  if (directory === null) return fail(run, "script-not-resolved", "the directory is not known");
  const manifest = scripts?.[directory];
  if (manifest === undefined) return fail(run, "script-not-resolved", directory);
  if (manifest === null) return fail(run, "script-no-package", directory);
  run.packageDir = manifest.dir;
  run.packageId = manifest.name !== null && manifest.version !== null ? `${manifest.name}@${manifest.version}` : null;
  if (manifest.configRisk !== undefined && manifest.configRisk !== null) return fail(run, "script-config", manifest.configRisk);
  const main = manifest.scripts[command.script];
  if (main === undefined) {
    // `pnpm vitest` / `yarn vitest` with no script of that name runs the program from node_modules/.bin.
    if (command.orBin) {
      const text = renderArgs([command.script, ...command.args]);
      run.lines = [{ event: "", script: text, text }];
      run.nestedText = run.lines[0]!.text;
      return run;
    }
    return fail(run, "script-missing", command.script);
  }
  const withArgs = command.args.length === 0 ? main : `${main} ${renderArgs(command.args)}`;
  const lifecycle = command.lifecycle;
  const pre = lifecycle ? manifest.scripts[`pre${command.script}`] : undefined;
  const post = lifecycle ? manifest.scripts[`post${command.script}`] : undefined;
  run.lines = [
    ...(pre === undefined ? [] : [{ event: `pre${command.script}`, script: pre, text: pre }]),
    { event: command.script, script: main, text: withArgs },
    ...(post === undefined ? [] : [{ event: `post${command.script}`, script: post, text: post }]),
  ];
  // Each script is its own `sh -c`: a subshell each, so nothing one defines or sets reaches the next.
  run.nestedText = run.lines.map((line) => `(\n${line.text}\n)`).join(" && ");
  return run;
}

function fail(run: PackageScriptRun, problem: ScriptReasonCode, detail: string): PackageScriptRun {
  run.problem = problem;
  run.detail = detail;
  return run;
}

/** The programs that a package's `node_modules/.bin` may stand in for, among the given basenames. */
export function plantedPrograms(manifest: PackageManifest | null | undefined, programs: readonly string[]): string[] {
  const planted = new Set(manifest?.plantedBins ?? []);
  return programs.map(basename).filter((program) => planted.has(program));
}

/** The directory a package manager's script run starts from, for a resolver: null when unknown. */
export function scriptDirectories(runs: readonly PackageScriptRun[]): string[] {
  return [...new Set(runs.filter((run) => run.problem === "script-not-resolved" && run.directory !== null).map((run) => run.directory!))];
}

// npm quotes each argument it appends for sh; the analysis only needs a line sh reads the same way.
function renderArgs(args: readonly string[]): string {
  return args.map((arg) => (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/**
 * The line with each followed script run's command holding, as its nested line, what the manager
 * runs (`parse` reads the text); null when no run of `runs` waits for it. The input is not changed.
 */
export function expandScriptRuns(
  parsed: ParsedLine,
  runs: readonly PackageScriptRun[],
  parse: (text: string) => ParsedLine,
): ParsedLine | null {
  const pending = runs.filter(
    (run) => !run.expanded && (run.problem === null || run.problem === "script-not-expanded") && run.nestedText !== null,
  );
  if (pending.length === 0) return null;
  const copy = structuredClone(parsed);
  const commands = [...numberSimpleCommands(copy).keys()];
  for (const run of pending) {
    const command = commands[run.commandIndex];
    if (command === undefined || command.nested !== undefined) continue;
    command.nested = parse(run.nestedText!);
    command.script = run.nestedText!;
  }
  return copy;
}
