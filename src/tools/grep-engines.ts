// The three grep engines behind one result shape: ripgrep (from @vscode/ripgrep), `git grep`, and a
// plain JS walk. An engine that cannot run here says "unavailable" and the next one is tried.
import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { createInterface } from "node:readline";

import type { execa as Execa } from "execa";

import { errorMessage } from "../host/tool.js";
import { type IgnoreRule, isIgnored, parseGitignore } from "./gitignore.js";
import { runHostGit, startHostGit } from "./host-git.js";
import { loadExeca } from "./load-execa.js";

/** The grep engines, in the default fallback order. */
export type GrepEngine = "ripgrep" | "git-grep" | "js";

/** One matching line. */
export interface GrepMatch {
  /** Workspace-relative path with `/` separators. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The line without its line break. */
  text: string;
}

/** One search, as every engine receives it. */
export interface GrepQuery {
  workspace: string;
  /** Workspace-relative directory or file to search (`.` for everything). */
  scope: string;
  pattern: string;
  ignoreCase: boolean;
  fixedStrings: boolean;
  /** Stop after this many accepted matches (one more is read to know there are more). */
  limit: number;
  /** Keeps a match only when its path passes (the glob filter). */
  accept: (path: string) => boolean;
  timeoutMs: number;
}

/** What an engine did. */
export type EngineResult =
  { status: "ok"; matches: GrepMatch[]; more: boolean } | { status: "unavailable"; reason: string } | { status: "error"; message: string };

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** Reads `path\0...` records from a child's stdout, stopping the child once the limit is passed. */
async function collectLines(
  child: ReturnType<typeof Execa>,
  query: GrepQuery,
  parse: (line: string) => GrepMatch | undefined,
): Promise<{ matches: GrepMatch[]; more: boolean }> {
  const matches: GrepMatch[] = [];
  let more = false;
  if (child.stdout === null) return { matches, more };
  const reader = createInterface({ input: child.stdout, crlfDelay: Infinity });
  for await (const line of reader) {
    const match = parse(line);
    if (match === undefined || !query.accept(match.path)) continue;
    if (matches.length >= query.limit) {
      more = true;
      child.kill();
      break;
    }
    matches.push(match);
  }
  reader.close();
  return { matches, more };
}

/** ripgrep with JSON output, sorted by path so every run lists matches in the same order. */
export async function searchWithRipgrep(query: GrepQuery, rgPath: string | undefined): Promise<EngineResult> {
  if (rgPath === undefined) return { status: "unavailable", reason: "@vscode/ripgrep is not installed" };
  const args = ["--json", "--sort", "path", "--hidden", "--glob", "!.git", "--no-config", "--no-messages"];
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.fixedStrings) args.push("--fixed-strings");
  args.push("--regexp", query.pattern, "--", query.scope);
  const execa = await loadExeca();
  const child = execa(rgPath, args, {
    cwd: query.workspace,
    reject: false,
    buffer: { stdout: false, stderr: true },
    timeout: query.timeoutMs,
    stdin: "ignore",
  });
  const collected = collectLines(child, query, (line) => {
    if (!line.startsWith('{"type":"match"')) return undefined;
    const event = JSON.parse(line) as {
      data: { path: { text?: string; bytes?: string }; lines: { text?: string; bytes?: string }; line_number: number };
    };
    const raw = event.data.path.text ?? Buffer.from(event.data.path.bytes ?? "", "base64").toString("utf8");
    const text = event.data.lines.text ?? Buffer.from(event.data.lines.bytes ?? "", "base64").toString("utf8");
    return {
      path: toPosix(relative(query.workspace, join(query.workspace, raw))),
      line: event.data.line_number,
      text: text.replace(/\r?\n$/, ""),
    };
  });
  const [result, { matches, more }] = await Promise.all([child, collected]);
  if (result.code === "ENOENT" || result.code === "EACCES")
    return { status: "unavailable", reason: `${rgPath} cannot run (${result.code})` };
  if (!more && result.exitCode === 2 && matches.length === 0)
    return { status: "error", message: String(result.stderr).trim() || (result.shortMessage ?? `exit code ${result.exitCode}`) };
  return { status: "ok", matches, more };
}

/** `git grep` over tracked and untracked (not ignored) files, with PCRE patterns, through the host git runner. */
export async function searchWithGitGrep(query: GrepQuery): Promise<EngineResult> {
  const inside = await runHostGit(query.workspace, ["rev-parse", "--is-inside-work-tree"]);
  if (inside.errorCode === "ENOENT") return { status: "unavailable", reason: "git is not installed" };
  if (inside.exitCode !== 0 || inside.stdout.toString("utf8").trim() !== "true")
    return { status: "unavailable", reason: "the workspace is not a git work tree" };
  const args = ["grep", "--no-color", "-n", "-z", "-I", "--untracked", "--full-name", "--no-column"];
  if (query.ignoreCase) args.push("-i");
  args.push(query.fixedStrings ? "-F" : "-P", "-e", query.pattern, "--", query.scope);
  const prefix = toPosix(
    relative((await runHostGit(query.workspace, ["rev-parse", "--show-toplevel"])).stdout.toString("utf8").trim(), query.workspace),
  );
  const { child } = await startHostGit(query.workspace, args, {
    config: ["core.quotePath=false", "grep.fallbackToNoIndex=false"],
    hostLocale: true,
    timeoutMs: query.timeoutMs,
  });
  const collected = collectLines(child, query, (line) => {
    const [file, number, ...rest] = line.split("\0");
    if (file === undefined || number === undefined) return undefined;
    // --full-name prints paths from the repository root; make them workspace-relative again.
    const path = prefix === "" ? file : toPosix(relative(prefix, file));
    return { path, line: Number(number), text: rest.join("\0") };
  });
  const [result, { matches, more }] = await Promise.all([child, collected]);
  const stderr = String(result.stderr);
  if (/PCRE|not compiled/i.test(stderr) && matches.length === 0) return { status: "unavailable", reason: "git grep lacks PCRE support" };
  if (!more && result.exitCode !== 0 && result.exitCode !== 1)
    return { status: "error", message: stderr.trim() || (result.shortMessage ?? `exit code ${result.exitCode}`) };
  return { status: "ok", matches, more };
}

const MAX_JS_FILE_BYTES = 16 * 1024 * 1024;

// The .gitignore files of the workspace directories above the search scope also apply inside it.
async function ancestorRules(workspace: string, scope: string): Promise<IgnoreRule[]> {
  const parts = scope === "." ? [] : scope.split("/");
  const rules: IgnoreRule[] = [];
  for (let depth = 0; depth < parts.length; depth += 1) {
    const base = parts.slice(0, depth).join("/");
    const text = await readFile(join(workspace, base, ".gitignore"), "utf8").catch(() => "");
    rules.push(...parseGitignore(text, base));
  }
  return rules;
}

/** A JS walk (no `.git`, no symlinks followed, binaries skipped) with a JS RegExp. */
export async function searchWithJs(query: GrepQuery): Promise<EngineResult> {
  let regex: RegExp;
  try {
    const source = query.fixedStrings ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : query.pattern;
    regex = new RegExp(source, query.ignoreCase ? "i" : "");
  } catch (error) {
    return { status: "error", message: `invalid regular expression: ${errorMessage(error)}` };
  }
  const matches: GrepMatch[] = [];
  const rules = await ancestorRules(query.workspace, query.scope);
  const stack = [join(query.workspace, query.scope)];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    const info = await lstat(current).catch(() => undefined);
    if (info === undefined || info.isSymbolicLink()) continue;
    const path = toPosix(relative(query.workspace, current));
    if (path !== "" && isIgnored(rules, path, info.isDirectory())) continue;
    if (info.isDirectory()) {
      const names = (await readdir(current).catch(() => [] as string[]))
        .filter((name) => name !== ".git")
        .sort()
        .reverse();
      if (names.includes(".gitignore")) {
        rules.push(...parseGitignore(await readFile(join(current, ".gitignore"), "utf8").catch(() => ""), path));
      }
      for (const name of names) stack.push(join(current, name));
      continue;
    }
    if (!info.isFile() || info.size > MAX_JS_FILE_BYTES) continue;
    if (!query.accept(path)) continue;
    const bytes = await readFile(current).catch(() => undefined);
    if (bytes === undefined || bytes.subarray(0, 8_192).includes(0)) continue;
    const lines = bytes.toString("utf8").split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (const [index, raw] of lines.entries()) {
      const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (!regex.test(text)) continue;
      if (matches.length >= query.limit) return { status: "ok", matches, more: true };
      matches.push({ path, line: index + 1, text });
    }
  }
  return { status: "ok", matches, more: false };
}
