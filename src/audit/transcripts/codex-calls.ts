// The inputs of Codex tool calls: shell argv and scripts, apply_patch bodies (as a tool or through
// the shell), code mode's JavaScript, and the working directory in <environment_context>. Pure.
import { asObject } from "./jsonl.js";
import { toolCallEffect } from "./tool-effect.js";

/** The function names Codex has used for its shell tool, from the legacy `shell` to unified exec. */
export const SHELL_FUNCTIONS: ReadonlySet<string> = new Set(["shell", "container.exec", "local_shell", "shell_command", "exec_command"]);

/** ["bash", "-lc", "pytest -q"] is the script "pytest -q"; other argv vectors are joined with quoting. */
export function commandText(command: unknown): string | undefined {
  if (typeof command === "string") return command;
  if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === "string")) return undefined;
  const argv = command;
  if (argv.length === 3 && /(?:^|[/\\])(?:ba|z|da)?sh(?:\.exe)?$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2];
  return argv.map((part) => (/^[\w./:=@%+-]+$/.test(part) ? part : `'${part.replace(/'/g, "'\\''")}'`)).join(" ");
}

/** apply_patch bodies name their files on "*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:". */
export function patchPaths(patch: string): string[] {
  return [
    ...new Set([...patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)].map((match) => match[1]!.trim())),
  ];
}

/**
 * The patch of a shell call that runs Codex's apply_patch: argv ["apply_patch", PATCH], or a script
 * that feeds it a heredoc. `whole` is true when the call does nothing else (Codex applies such a
 * call itself; it is an edit, not a command run).
 */
export function shellApplyPatch(command: unknown, script: string): { patch: string; whole: boolean } | undefined {
  if (
    Array.isArray(command) &&
    command.length === 2 &&
    /^(?:apply_patch|applypatch)$/.test(String(command[0])) &&
    typeof command[1] === "string"
  )
    return { patch: command[1], whole: true };
  if (!/\b(?:apply_patch|applypatch)\b/.test(script) || !script.includes("*** Begin Patch")) return undefined;
  const whole = /^\s*(?:cd \S+ && )?(?:apply_patch|applypatch) ?<< ?(['"]?)(\w+)\1\n[\s\S]*\n\2\s*$/.test(script);
  return { patch: script, whole };
}

/** Function arguments are a JSON string; a custom tool's input is raw text (then there are no fields). */
export function parseArguments(raw: string): Record<string, unknown> {
  try {
    return asObject(JSON.parse(raw)) ?? {};
  } catch {
    return {};
  }
}

/** The working directory an <environment_context> message names, if any. */
export function environmentCwd(text: string): string | undefined {
  if (!text.includes("<environment_context>")) return undefined;
  return /<cwd>([^<]+)<\/cwd>/.exec(text)?.[1]?.trim();
}

/** What a code mode `exec` script can do, read from its `tools.NAME(...)` calls. */
export interface CodeModeScript {
  /** How many exec_command / write_stdin calls the script text holds. */
  shellCalls: number;
  /** True when a nested call may edit outside the shell (apply_patch, an MCP write, an unknown tool). */
  otherEdits: boolean;
  /** True when the script can call tools in ways the text does not count (loops, computed names, aliases). */
  opaque: boolean;
}

/**
 * Scans a code mode script. Code mode runs JavaScript with no file system of its own: it changes
 * files only through the tools it calls, so the tools it names are its whole effect.
 * @example scanCodeModeScript('const r = await tools.exec_command({cmd: "pytest"}); text(r.output)') // { shellCalls: 1, otherEdits: false, opaque: false }
 */
export function scanCodeModeScript(script: string): CodeModeScript {
  let shellCalls = 0;
  let otherEdits = false;
  let named = 0;
  for (const match of script.matchAll(/\btools\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(["'`])([^"'`]+)\2\s*\])/g)) {
    named += 1;
    const name = match[1] ?? match[3]!;
    if (name === "exec_command" || name === "write_stdin") shellCalls += 1;
    else if (toolCallEffect(name, {}).kind === "edit") otherEdits = true;
  }
  const mentions = [...script.matchAll(/\btools\b/g)].length;
  const loops = /\b(?:for|while|do)\b|\.(?:map|forEach|reduce|flatMap|filter|some|every)\s*\(|\bPromise\.all/.test(script);
  return { shellCalls, otherEdits, opaque: loops || mentions !== named };
}
