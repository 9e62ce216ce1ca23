// The Python project managers' `run` wrappers (uv, poetry, pipenv, rye, pdm, hatch): the options
// each takes before the command it runs, the directories they move to, and hatch's `ENV:` prefix.
import type { StrippedWrappers } from "./wrappers.js";

/** The options of `uv run` (and uv's global options) that take the next word as their value. */
export const UV_VALUE_OPTIONS = new Set([
  "--with",
  "--with-editable",
  "--with-requirements",
  "--python",
  "-p",
  "--extra",
  "--no-extra",
  "--group",
  "--only-group",
  "--no-group",
  "--package",
  "--env-file",
  "--directory",
  "--project",
  "--index",
  "--default-index",
  "--index-url",
  "--extra-index-url",
  "--find-links",
  "-f",
  "--index-strategy",
  "--keyring-provider",
  "--resolution",
  "--prerelease",
  "--exclude-newer",
  "--link-mode",
  "--config-setting",
  "-C",
  "--no-binary-package",
  "--no-build-package",
  "--reinstall-package",
  "--upgrade-package",
  "-P",
  "--refresh-package",
  "--cache-dir",
  "--config-file",
  "--color",
  "--python-preference",
  "--allow-insecure-host",
  "--python-platform",
]);

// `<tool> [global options] run [options] [--] CMD`: unknown options are taken as flags without a value.
export function stripRunSubcommand(
  words: readonly string[],
  at: number,
  valued: Set<string>,
  into: StrippedWrappers,
  directoryOptions: Set<string>,
  refused: Set<string>,
): number {
  let i = at;
  let sawRun = false;
  while (i < words.length) {
    const word = words[i]!;
    if (!sawRun) {
      if (word === "run") {
        sawRun = true;
        i++;
        continue;
      }
      if (!word.startsWith("-")) return -1;
    } else if (word === "--") return i + 1;
    else if (!word.startsWith("-")) return i;
    if (refused.has(word)) return -1;
    const eq = word.indexOf("=");
    const option = eq > 0 ? word.slice(0, eq) : word;
    if (directoryOptions.has(option)) {
      const value = eq > 0 ? word.slice(eq + 1) : words[i + 1];
      if (value === undefined) return -1;
      into.directories.push(value);
    }
    i += eq < 0 && valued.has(word) ? 2 : 1;
  }
  return sawRun ? i : -1;
}

// `hatch [-e ENV] run [ENV:]CMD`: the `ENV:` prefix of the command word is handled by the caller.
export function stripHatch(words: readonly string[], at: number): number {
  let i = at;
  while (i < words.length && words[i] !== "run") {
    const word = words[i]!;
    if (word === "-e" || word === "--env" || word === "-p" || word === "--project" || word === "--data-dir" || word === "--cache-dir")
      i += 2;
    else if (word.startsWith("-")) i++;
    else return -1;
  }
  return i < words.length ? i + 1 : -1;
}

/** `hatch run test:pytest` -> `pytest`: the environment prefix of a hatch command word. */
export function stripHatchEnvironment(word: string): string {
  const match = /^[A-Za-z0-9_.+-]+:(.+)$/.exec(word);
  return match !== null && !match[1]!.startsWith(":") ? match[1]! : word;
}
