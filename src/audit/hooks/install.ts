// `agent-evidence hook install`: merges agent-evidence's hooks into a client's settings file.
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join } from "node:path";

import { EvidenceError } from "../../errors.js";
import { NamedFileError, readRegularFile } from "../../io/named-files.js";
import type { HookClient } from "./stop.js";

/** Options of {@link installHooks}. */
export interface InstallHooksOptions {
  client: HookClient;
  /** Install into this project's settings instead of the user's. */
  project?: string;
  /** Show the change without writing. */
  dryRun?: boolean;
  /** The user's home directory (default: `os.homedir()`). */
  home?: string;
  /** How the hook runs agent-evidence, as shell words (default: `agent-evidence`; the CLI passes {@link hookExecutable}'s). */
  executable?: string;
  /** Install the Stop hook as `hook <client>-stop --strict`. */
  strict?: boolean;
}

/** How the hooks call agent-evidence, and why that way. */
export type HookExecutable =
  | { kind: "on-path"; command: "agent-evidence" }
  | { kind: "absolute"; command: string; reason: "not-on-path" | "other-copy-on-path"; found?: string };

const isExecutableFile = (path: string): boolean => {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const realOrNull = (path: string): string | null => {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
};

/** `text` as one word for the POSIX shell a client runs hook commands with. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * How a hook should call the CLI at `cliMain` (this `dist/cli/main.js`): the bare `agent-evidence`
 * when the first one on `pathVariable` is this same file (after links), else this file by its
 * absolute path (through `node` when it is not executable). A project-local install is not on the
 * PATH a client runs hooks with, and a bare name there fails every call with "command not found".
 * Relative PATH entries are skipped: they depend on the directory the client runs the hook in.
 * @example hookExecutable("/usr/lib/node_modules/agent-evidence/dist/cli/main.js", process.env.PATH).command // "agent-evidence"
 */
export function hookExecutable(cliMain: string, pathVariable: string | undefined): HookExecutable {
  const self = realOrNull(cliMain) ?? cliMain;
  const absolute = isExecutableFile(cliMain) ? shellWord(cliMain) : `node ${shellWord(cliMain)}`;
  for (const dir of (pathVariable ?? "").split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue;
    const candidate = join(dir, "agent-evidence");
    if (!isExecutableFile(candidate)) continue;
    // The shell runs the first hit: it is this CLI, or another copy the hooks must not call.
    return realOrNull(candidate) === self
      ? { kind: "on-path", command: "agent-evidence" }
      : { kind: "absolute", command: absolute, reason: "other-copy-on-path", found: candidate };
  }
  return { kind: "absolute", command: absolute, reason: "not-on-path" };
}

/** What {@link installHooks} did (or would do, with `dryRun`). */
export interface InstallHooksResult {
  path: string;
  /** The file's text before (null when it did not exist). */
  before: string | null;
  after: string;
  changed: boolean;
  /** Where the previous file was copied, or null (no file, no change, or a dry run). */
  backup: string | null;
}

interface HookEntry {
  event: string;
  matcher?: string;
  command: string;
  /** The entry's other form (the Stop hook with or without `--strict`), rewritten in place rather than run twice. */
  replaces?: string;
}

/** The settings file a client reads hooks from: Claude Code `settings.json`, Codex `hooks.json`. */
export function hookSettingsPath(client: HookClient, project: string | undefined, home: string): string {
  switch (client) {
    case "claude":
      return join(project ?? home, ".claude", "settings.json");
    case "codex":
      return join(project ?? home, ".codex", "hooks.json");
    default: {
      const unreachable: never = client;
      return unreachable;
    }
  }
}

function stopEntry(command: string, strict: boolean): HookEntry {
  return strict
    ? { event: "Stop", command: `${command} --strict`, replaces: command }
    : { event: "Stop", command, replaces: `${command} --strict` };
}

function entriesFor(client: HookClient, executable: string, strict: boolean): HookEntry[] {
  switch (client) {
    case "claude": {
      const post = `${executable} hook claude-post-tool-use`;
      return [
        stopEntry(`${executable} hook claude-stop`, strict),
        { event: "PostToolUse", matcher: "Bash|Edit|Write|MultiEdit|NotebookEdit", command: post },
        { event: "PostToolUseFailure", matcher: "Bash", command: post },
      ];
    }
    case "codex":
      return [stopEntry(`${executable} hook codex-stop`, strict)];
    default: {
      const unreachable: never = client;
      return unreachable;
    }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function hasCommand(groups: unknown[], command: string): boolean {
  return groups.some(
    (group) => isRecord(group) && Array.isArray(group.hooks) && group.hooks.some((hook) => isRecord(hook) && hook.command === command),
  );
}

// The groups with one command rewritten (its group, matcher and timeout kept).
function replaceCommand(groups: unknown[], from: string, to: string): unknown[] {
  const rewrite = (hook: unknown): unknown => (isRecord(hook) && hook.command === from ? { ...hook, command: to } : hook);
  return groups.map((group) =>
    isRecord(group) && Array.isArray(group.hooks) ? { ...group, hooks: (group.hooks as unknown[]).map(rewrite) } : group,
  );
}

/**
 * Merges the entries into a settings object (other keys and hooks kept; an entry already there is not
 * added twice; the Stop hook installed without `--strict` becomes the strict one, and back).
 */
export function mergeHookSettings(
  settings: Record<string, unknown>,
  client: HookClient,
  executable = "agent-evidence",
  strict = false,
): Record<string, unknown> {
  if (settings.hooks !== undefined && !isRecord(settings.hooks))
    throw new EvidenceError("E_INVALID_INPUT", "its `hooks` key is not an object");
  const hooks: Record<string, unknown> = { ...settings.hooks };
  for (const entry of entriesFor(client, executable, strict)) {
    const existing = hooks[entry.event];
    if (existing !== undefined && !Array.isArray(existing))
      throw new EvidenceError("E_INVALID_INPUT", `its \`hooks.${entry.event}\` key is not a list`);
    const groups: unknown[] = existing === undefined ? [] : [...(existing as unknown[])];
    if (hasCommand(groups, entry.command)) continue;
    if (entry.replaces !== undefined && hasCommand(groups, entry.replaces)) {
      hooks[entry.event] = replaceCommand(groups, entry.replaces, entry.command);
      continue;
    }
    groups.push({
      ...(entry.matcher === undefined ? {} : { matcher: entry.matcher }),
      hooks: [{ type: "command", command: entry.command, timeout: 60 }],
    });
    hooks[entry.event] = groups;
  }
  return { ...settings, hooks };
}

/** The largest settings file read: 16 MiB. */
export const MAX_SETTINGS_BYTES = 16 << 20;

// The settings text, or null when there is no file; a FIFO, a device, a directory or an oversized
// file throws (one line: `cannot read PATH (ENOTREGULAR)`), and the file is left alone.
function readSettings(path: string): string | null {
  try {
    return readRegularFile(path, { cap: MAX_SETTINGS_BYTES }).toString("utf8");
  } catch (error) {
    if (error instanceof NamedFileError && error.code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Adds the Stop (and, for Claude Code, PostToolUse / PostToolUseFailure) hooks to the client's
 * settings file, merging with what is there and copying the old file to `<file>.agent-evidence.bak`.
 * Throws an `EvidenceError` `E_INVALID_INPUT` when the existing file is not a JSON object, and a
 * `NamedFileError` when it is not a regular file it can read.
 */
export function installHooks(options: InstallHooksOptions): InstallHooksResult {
  const path = hookSettingsPath(options.client, options.project, options.home ?? homedir());
  return rewriteSettings(
    path,
    options.dryRun === true,
    (settings) => mergeHookSettings(settings, options.client, options.executable, options.strict === true),
    true,
  );
}

// Reads the settings file as a JSON object, applies `change`, and writes the result with a backup of
// the old file; a missing file is `{}` (written only when `createMissing`).
function rewriteSettings(
  path: string,
  dryRun: boolean,
  change: (settings: Record<string, unknown>) => Record<string, unknown>,
  createMissing: boolean,
): InstallHooksResult {
  const before = readSettings(path);
  let settings: unknown = {};
  if (before !== null && before.trim() !== "") {
    try {
      settings = JSON.parse(before);
    } catch (error) {
      throw new EvidenceError(
        "E_INVALID_INPUT",
        `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix or move it first`,
        { cause: error },
      );
    }
  }
  if (!isRecord(settings)) throw new EvidenceError("E_INVALID_INPUT", `${path} is not a JSON object; fix or move it first`);
  let merged: Record<string, unknown>;
  try {
    merged = change(settings);
  } catch (error) {
    throw new EvidenceError("E_INVALID_INPUT", `${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const after = `${JSON.stringify(merged, null, 2)}\n`;
  const changed = before === null ? createMissing : JSON.stringify(settings) !== JSON.stringify(merged);
  if (dryRun || !changed) return { path, before, after, changed, backup: null };
  let backup: string | null = null;
  if (before !== null) {
    backup = `${path}.agent-evidence.bak`;
    if (existsSync(backup)) backup = `${path}.agent-evidence.${Date.now()}.bak`;
    copyFileSync(path, backup);
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, after);
  return { path, before, after, changed, backup };
}

// A command agent-evidence's installer wrote, whatever it called agent-evidence by: the bare name, a
// path to the CLI (quoted or through node), `npx --no-install agent-evidence`.
const OWN_COMMAND = /(?:^|[\s/'])(?:agent-evidence|main\.js)'? hook (?:claude-stop|codex-stop|claude-post-tool-use)(?: --strict)?$/;

/** True when `command` is one of the hook commands {@link installHooks} writes. */
export const isOwnHookCommand = (command: unknown): boolean => typeof command === "string" && OWN_COMMAND.test(command);

/**
 * Removes agent-evidence's hooks from a settings object: every hook entry whose command is one of
 * ours, then groups left with no hooks and events left with no groups; everything else is kept as it is.
 */
export function removeHookSettings(settings: Record<string, unknown>): Record<string, unknown> {
  if (settings.hooks === undefined) return settings;
  if (!isRecord(settings.hooks)) throw new EvidenceError("E_INVALID_INPUT", "its `hooks` key is not an object");
  const hooks: Record<string, unknown> = {};
  let removed = 0;
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept = groups.flatMap((group): unknown[] => {
      if (!isRecord(group) || !Array.isArray(group.hooks)) return [group];
      const own = (group.hooks as unknown[]).filter((hook) => isRecord(hook) && isOwnHookCommand(hook.command));
      if (own.length === 0) return [group];
      removed += own.length;
      const rest = (group.hooks as unknown[]).filter((hook) => !own.includes(hook));
      return rest.length === 0 ? [] : [{ ...group, hooks: rest }];
    });
    if (kept.length > 0) hooks[event] = kept;
  }
  if (removed === 0) return settings;
  if (Object.keys(hooks).length > 0) return { ...settings, hooks };
  const { hooks: _emptied, ...others } = settings;
  return others;
}

/** Options of {@link uninstallHooks}. */
export type UninstallHooksOptions = Pick<InstallHooksOptions, "client" | "project" | "dryRun" | "home">;

/**
 * Removes agent-evidence's hooks from the client's settings file (other keys and hooks kept),
 * copying the old file to `<file>.agent-evidence.bak` first. No file, or none of our hooks in it:
 * nothing is written. Throws like {@link installHooks} on a file it cannot read as a JSON object.
 */
export function uninstallHooks(options: UninstallHooksOptions): InstallHooksResult {
  return rewriteSettings(
    hookSettingsPath(options.client, options.project, options.home ?? homedir()),
    options.dryRun === true,
    removeHookSettings,
    false,
  );
}
