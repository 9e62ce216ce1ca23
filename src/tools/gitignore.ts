// A subset of .gitignore for the JS grep walk, so it skips what ripgrep and git grep skip in the common
// cases: per-directory files, `#` comments, `dir/` (directories only), anchored (`/x`, `a/b`) and
// name patterns. Negation (`!`) is not supported: such lines are ignored, which can only show more.
import { globToRegExp } from "./glob.js";

/** One compiled .gitignore line, relative to the directory holding the file. */
export interface IgnoreRule {
  /** Workspace-relative directory of the .gitignore ("" for the root). */
  base: string;
  regex: RegExp;
  anchored: boolean;
  directoryOnly: boolean;
}

/** Compiles the lines of one .gitignore found in workspace-relative directory `base`. */
export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
    const directoryOnly = line.endsWith("/");
    if (directoryOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    rules.push({ base, regex: globToRegExp(line), anchored, directoryOnly });
  }
  return rules;
}

/** True when a rule ignores the workspace-relative `path`. */
export function isIgnored(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean {
  return rules.some((rule) => {
    if (rule.directoryOnly && !isDirectory) return false;
    if (rule.base !== "" && !path.startsWith(`${rule.base}/`)) return false;
    const rest = rule.base === "" ? path : path.slice(rule.base.length + 1);
    return rule.regex.test(rule.anchored ? rest : rest.slice(rest.lastIndexOf("/") + 1));
  });
}
