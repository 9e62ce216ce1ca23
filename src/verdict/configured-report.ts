// A JUnit report path the project already configures for pytest (`--junitxml` in its ini file's
// `addopts`, or in PYTEST_ADDOPTS): `agent-evidence run` reads that report instead of adding its
// own `--junitxml`, which, coming last on the command line, would take its place (and a later CI
// step uploading the configured file would find none).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

import { parse as parseShellWords } from "shell-quote";

// pytest's config files, in the order it looks for them in each directory, the section that holds
// its options, and whether the file counts without that section (a pytest.ini always stops the
// search; a pyproject.toml, tox.ini or setup.cfg without the section does not).
const CONFIG_FILES: readonly { name: string; section: RegExp; always: boolean }[] = [
  { name: "pytest.ini", section: /^\s*\[pytest\]\s*$/m, always: true },
  { name: ".pytest.ini", section: /^\s*\[pytest\]\s*$/m, always: true },
  { name: "pyproject.toml", section: /^\s*\[tool\.pytest\.ini_options\]\s*$/m, always: false },
  { name: "tox.ini", section: /^\s*\[pytest\]\s*$/m, always: false },
  { name: "setup.cfg", section: /^\s*\[tool:pytest\]\s*$/m, always: false },
];

/** The `--junitxml` / `--junit-xml` value among pytest arguments, the last one winning, as pytest reads them. */
export function junitxmlFromArguments(words: readonly string[]): string | null {
  let found: string | null = null;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const eq = /^--junit-?xml=(.*)$/.exec(word);
    if (eq !== null) found = eq[1]!;
    else if ((word === "--junitxml" || word === "--junit-xml") && i + 1 < words.length) found = words[++i]!;
  }
  return found === "" ? null : found;
}

/** pytest splits `addopts` like a shell (shlex): words, with no expansion. */
export function splitAddopts(addopts: string): string[] {
  return parseShellWords(addopts).filter((word): word is string => typeof word === "string");
}

/** The `addopts` of a pytest config file's text (INI or pyproject.toml), or null. */
export function addoptsOf(name: string, text: string): string | null {
  const section = CONFIG_FILES.find((file) => file.name === name)?.section;
  if (section === undefined) return null;
  const match = section.exec(text);
  if (match === null) return null;
  const body = text.slice(match.index + match[0].length).split(/^\s*\[/m)[0] ?? "";
  if (name === "pyproject.toml") {
    const array = /^\s*addopts\s*=\s*\[([\s\S]*?)\]/m.exec(body);
    if (array !== null) return [...array[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? "").join(" ");
    const string = /^\s*addopts\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/m.exec(body);
    return string === null ? null : (string[1] ?? string[2] ?? null);
  }
  // INI: `addopts = ...` and its indented continuation lines.
  const lines = body.split("\n");
  const at = lines.findIndex((line) => /^addopts\s*[=:]/.test(line));
  if (at < 0) return null;
  const value = [lines[at]!.replace(/^addopts\s*[=:]\s*/, "")];
  for (const line of lines.slice(at + 1)) {
    if (!/^\s+\S/.test(line)) break;
    value.push(line.trim());
  }
  return value.join(" ");
}

/** The config file pytest would read for a run started in `dir`: the nearest one with its section. */
export function findPytestConfig(dir: string): { path: string; addopts: string | null } | null {
  for (let at = resolve(dir); ; at = dirname(at)) {
    for (const { name, section, always } of CONFIG_FILES) {
      const path = join(at, name);
      if (!existsSync(path)) continue;
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        continue;
      }
      if (always || section.test(text)) return { path, addopts: addoptsOf(name, text) };
    }
    if (dirname(at) === at) return null;
  }
}

/**
 * The report a pytest run started in `dir` writes by configuration, resolved against `dir` (pytest
 * resolves it in the directory it was started in): PYTEST_ADDOPTS wins over the config file, as
 * it comes after it on pytest's command line.
 */
export function configuredJunitxml(dir: string, env: NodeJS.ProcessEnv): string | null {
  const fromEnv = env.PYTEST_ADDOPTS === undefined ? null : junitxmlFromArguments(splitAddopts(env.PYTEST_ADDOPTS));
  if (fromEnv !== null) return resolve(dir, fromEnv);
  const addopts = findPytestConfig(dir)?.addopts ?? null;
  const fromConfig = addopts === null ? null : junitxmlFromArguments(splitAddopts(addopts));
  return fromConfig === null ? null : resolve(dir, fromConfig);
}
