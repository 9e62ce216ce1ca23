// Recognises `bash -c '...'`, `sh -c`, `bash -lc`, `bash -euo pipefail -c` and reads the shell options they set.
import { basename, stripWrappers } from "./wrappers.js";

/** A `sh -c SCRIPT` style command: the script's word index and the options the inner shell starts with. */
export interface NestedShell {
  /** Index (in the command's words) of the script argument. */
  scriptIndex: number;
  errexit: boolean;
  pipefail: boolean;
}

const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "ash", "mksh"]);
// Single-letter flags that change nothing we track; `n` (no execution) and `s` (script from stdin) are refused.
const HARMLESS_FLAGS = new Set(["l", "i", "x", "v", "u", "f", "h", "B", "H", "p", "a", "b", "k", "m", "t", "C", "P", "T", "E"]);

/** Finds `bash -c SCRIPT` after wrappers; null for anything else (a script file, stdin, `-n`). */
export function detectNestedShell(words: readonly string[]): NestedShell | null {
  const stripped = stripWrappers(words);
  if (!stripped.ok || stripped.start >= words.length) return null;
  if (!SHELLS.has(basename(words[stripped.start]!))) return null;
  let command = false;
  let errexit = false;
  let pipefail = false;
  let i = stripped.start + 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--" || word === "-") {
      i++;
      break;
    }
    if (word.startsWith("--")) {
      if (!["--login", "--noprofile", "--norc", "--posix", "--restricted", "--noediting"].includes(word)) return null;
      continue;
    }
    if (!/^[-+]/.test(word) || word.length < 2) break;
    const on = word[0] === "-";
    for (const flag of word.slice(1)) {
      if (flag === "c" && on) command = true;
      else if (flag === "e") errexit = on;
      else if (flag === "o" || flag === "O") {
        const name = words[++i];
        if (name === undefined) return null;
        if (flag === "o" && name === "pipefail") pipefail = on;
        if (flag === "o" && name === "errexit") errexit = on;
      } else if (!HARMLESS_FLAGS.has(flag)) return null;
    }
  }
  if (!command || i >= words.length) return null;
  return { scriptIndex: i, errexit, pipefail };
}
