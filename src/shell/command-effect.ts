// What one simple command can change, from its words alone: the effect table of docs/shell.md. One
// table for the ledger (which measures what the table says cannot touch sources) and the audit (which
// cannot measure, and trusts the table). Pure: a parsed command in, its effect out. The effect algebra
// and the argument readers are in effect.ts, git's rows in git-effect.ts.
import { isOption, operands, writtenOperands } from "./command-facts.js";
import { combineEffects, type CommandEffect, has, literalPaths, NONE, patchBodyEffect, unknown, valueOf } from "./effect.js";
import { GIT_METADATA_EFFECT, gitEffect, gitReadEffect } from "./git-effect.js";
import {
  isDevice,
  isLiteralPath,
  isNoBuildVcs,
  isPlainSedScript,
  isReadOnlyCommand,
  isSafeAssignment,
  isStdioDup,
  isSystemProgram,
  readSedArguments,
  spellsSubstitution,
} from "./read-only.js";
import type { CommandAnalysis, Redirect, SimpleCommand } from "./types.js";
import { basename } from "./wrappers.js";
export { combineEffects, type CommandEffect, type EffectDependency } from "./effect.js";
export { GIT_METADATA_SUBCOMMANDS } from "./git-effect.js";

/**
 * The effect of one simple command (after wrapper stripping, its program at `nameIndex`). A code
 * substitution anywhere, an assignment that can make it run a program, a write through a non-literal
 * path or to a file descriptor of its own make it `unknown`; a redirect to a named file adds that path.
 * @example commandEffect(parse("ruff format --check .")) // { kind: "none" }
 * @example commandEffect(parse("sed -i s/a/b/ mod.py")) // { kind: "paths", paths: ["mod.py"] }
 */
export function commandEffect(command: SimpleCommand, nameIndex: number): CommandEffect {
  if (
    command.hasSubstitution ||
    command.words.some((w) => spellsSubstitution(w)) ||
    command.redirects.some((r) => spellsSubstitution(r.target))
  ) {
    return unknown("runs a command substitution");
  }
  if (command.assignments.some((a) => spellsSubstitution(a.value))) return unknown("runs a command substitution");
  const redirects = redirectEffect(command.redirects);
  if (command.words.length === 0) return redirects;
  if (!command.assignments.every((a) => isSafeAssignment(a.name)))
    return unknown(`an assignment (${command.assignments.map((a) => a.name).join(", ")}) can make it run a program`);
  // `bash -c '...'`: the inner commands are analysed one by one; the shell itself changes nothing.
  if (command.nested !== undefined) return command.nested.opaque ? unknown("an inner shell line that cannot be read") : redirects;
  const bare = { ...command, redirects: [] };
  const name = basename(command.words[nameIndex] ?? "");
  const args = command.words.slice(nameIndex + 1);
  // A read-only tee still writes its files (a log, a file under /tmp): they are named, for the path rule.
  const readOnly = isReadOnlyCommand(bare, nameIndex) && writtenOperands(name, args).every(isDevice);
  const own = readOnly
    ? name === "git"
      ? gitReadEffect(args)
      : NONE
    : programEffect(name, args, command.redirects, command.words[nameIndex] ?? "");
  return combineEffects(own, redirects);
}

// What the command's redirects write: nothing (input, a dup of stdout or stderr, a device), the
// literal files they name, or anything (`>&3` writes wherever `exec 3>` pointed, `> $F` anywhere).
function redirectEffect(redirects: readonly Redirect[]): CommandEffect {
  const paths: string[] = [];
  for (const r of redirects) {
    if (r.op === ">&" || r.op === "<&") {
      if (!isStdioDup(r.target)) return unknown(`writes to file descriptor ${r.target}`);
      continue;
    }
    if (!r.op.includes(">")) continue;
    if (r.fd !== null && r.fd > 2) return unknown(`opens file descriptor ${r.fd}`);
    if (isDevice(r.target)) continue;
    if (!isLiteralPath(r.target)) return unknown(`writes to ${r.target}, which is not a literal path`);
    paths.push(r.target);
  }
  return paths.length === 0 ? NONE : { kind: "paths", paths };
}

// Short options that take a value, per program: their value is no file operand.
const VALUE_OPTIONS: Record<string, readonly string[]> = {
  cp: ["-t", "-S", "--target-directory", "--suffix"],
  mv: ["-t", "-S", "--target-directory", "--suffix"],
  sed: ["-e", "-f", "-l", "--expression", "--file", "--line-length"],
};

function fileOperands(name: string, args: readonly string[]): string[] {
  const takesValue = Object.hasOwn(VALUE_OPTIONS, name) ? VALUE_OPTIONS[name]! : [];
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!;
    if (a === "--") {
      out.push(...args.slice(i + 1));
      break;
    }
    if (takesValue.includes(a)) {
      if (a === "-t" || a === "--target-directory") out.push(args[i + 1] ?? "");
      i += 1;
    } else if (!isOption(a)) out.push(a);
    else if (a.startsWith("--target-directory=")) out.push(a.slice("--target-directory=".length));
  }
  return out.filter((a) => a !== "");
}

// A program that reads and prints its version or help, nothing else (a bare name PATH finds).
const isVersionOrHelp = (args: readonly string[]): boolean =>
  args.length === 1 && ["--version", "-V", "--help", "-h", "version", "help"].includes(args[0]!);

type ProgramRule = (args: readonly string[], redirects: readonly Redirect[]) => CommandEffect;

// Checkers in check mode, version control, builds and file writers. Every program not listed here
// (and not read-only, read-only.ts) may change anything: scripts, make, formatters, interpreters.
const PROGRAMS: Record<string, ProgramRule> = {
  ruff: (args) => {
    const sub = args.find((a) => !isOption(a));
    if (isVersionOrHelp(args) || sub === "version" || sub === "rule" || sub === "linter" || sub === "config") return NONE;
    if (sub === "format") return has(args, "--check", "--diff") ? NONE : unknown("ruff format rewrites the files");
    if (sub !== undefined && sub !== "check" && !/[./]/.test(sub)) return unknown(`ruff ${sub}`);
    if (has(args, "--fix", "--unsafe-fixes", "--add-noqa", "--watch", "-w", "--output-file", "-o"))
      return unknown("ruff check fixes or writes files");
    // `fix = true` in its configuration makes `ruff check` fix.
    return has(args, "--no-fix", "--diff") ? NONE : { kind: "none", dependsOn: "project-config" };
  },
  black: (args) => (has(args, "--check", "--diff") || isVersionOrHelp(args) ? NONE : unknown("black rewrites the files")),
  isort: (args) =>
    has(args, "--check-only", "--check", "-c", "--diff") || isVersionOrHelp(args) ? NONE : unknown("isort rewrites the files"),
  prettier: (args) =>
    isVersionOrHelp(args)
      ? NONE
      : has(args, "--write", "-w") || !has(args, "--check", "-c", "--list-different", "-l")
        ? unknown("prettier without --check prints or writes the files")
        : { kind: "none", dependsOn: "project-code" },
  eslint: (args) => {
    if (isVersionOrHelp(args)) return NONE;
    if (has(args, "--fix", "--init", "--cache-location")) return unknown("eslint fixes or writes files");
    const output = valueOf(args, "-o", "--output-file");
    const own: CommandEffect = { kind: "none", dependsOn: "project-code" };
    return output === undefined ? own : combineEffects(own, literalPaths([output], "eslint --output-file"));
  },
  mypy: (args) =>
    args.some((a) => /report|junit|--install-types|--cache-dir|--non-interactive/.test(a))
      ? unknown("mypy writes reports or installs packages")
      : { kind: "none", dependsOn: "project-code" },
  pyright: (args) => (has(args, "--createstub", "--writebaseline") ? unknown("pyright writes stubs or a baseline") : NONE),
  basedpyright: (args) => (has(args, "--createstub", "--writebaseline") ? unknown("basedpyright writes stubs or a baseline") : NONE),
  flake8: (args) => (has(args, "--output-file") ? unknown("flake8 writes a report") : { kind: "none", dependsOn: "project-code" }),
  pylint: (args) => (has(args, "--output") ? unknown("pylint writes a report") : { kind: "none", dependsOn: "project-code" }),
  pycodestyle: () => NONE,
  pydocstyle: () => NONE,
  shellcheck: () => NONE,
  yamllint: () => NONE,
  hadolint: () => NONE,
  actionlint: () => NONE,
  tsc: (args) => {
    if (isVersionOrHelp(args) || has(args, "-v", "--showConfig", "--listFilesOnly")) return NONE;
    if (has(args, "-b", "--build", "--init", "-w", "--watch")) return unknown("tsc --build, --init or --watch");
    // `tsBuildInfoFile` in the project's tsconfig names where an incremental check writes.
    if (has(args, "--noEmit")) return { kind: "none", dependsOn: "project-config" };
    if (!has(args, "--outDir", "--outFile")) return unknown("tsc without --noEmit or --outDir may write JavaScript beside the sources");
    // JavaScript under dist/ is a build output; anywhere else (`--outDir lib`, `--outDir .`) a runner can load it instead of the TypeScript.
    const outputs = ["--outDir", "--outFile", "--declarationDir", "--tsBuildInfoFile"].flatMap((o) => valueOf(args, o) ?? []);
    if (outputs.every(isUnderDist)) return { kind: "build-outputs", dependsOn: "project-config" };
    return combineEffects(literalPaths(outputs, "tsc --outDir"), { kind: "none", dependsOn: "project-config" });
  },
  gofmt: (args) => (has(args, "-w") ? unknown("gofmt -w rewrites the files") : NONE),
  go: (args) => {
    if (args.some((a) => /^--?(toolexec|vettool|exec|overlay|modfile)/.test(a))) return unknown("runs a program go is told to run");
    const sub = args[0];
    // go stamps what it builds (and lists) with `git status`: that writes .git/index and runs the repository's hooks.
    const vcs = args.some(isNoBuildVcs) ? NONE : GIT_METADATA_EFFECT;
    if (sub === "build" || sub === "install") {
      // go's flags take one or two dashes and `=`: `-o out`, `--o out`, `-o=out`, `--o=out`.
      const output = valueOf(
        args.map((a) => a.replace(/^--?o(=|$)/, "-o$1")),
        "-o=",
        "-o",
      );
      return combineEffects(output === undefined ? { kind: "build-outputs" } : literalPaths([output], "go build -o"), vcs);
    }
    if (sub === "list") return vcs;
    return unknown(`go ${sub ?? ""}`.trim());
  },
  cargo: (args) => {
    const sub = args.find((a) => !isOption(a));
    if (isVersionOrHelp(args)) return NONE;
    if (sub === "fmt") return has(args, "--check") ? NONE : unknown("cargo fmt rewrites the files");
    // Build scripts and procedural macros are code from the project. Its outputs: target/, and Cargo.lock
    // when there is none (or it lags Cargo.toml), as `cargo test` would resolve and write it. Not `--target-dir DIR`.
    if (
      (sub === "build" || sub === "check" || sub === "clippy" || sub === "doc") &&
      !has(args, "--fix", "--allow-dirty", "--out-dir", "--artifact-dir", "--target-dir")
    )
      return { kind: "build-outputs", dependsOn: "project-code" };
    return unknown(`cargo ${sub ?? ""}`.trim());
  },
  "golangci-lint": (args) =>
    args[0] === "run" && !has(args, "--fix")
      ? { kind: "none", dependsOn: "project-config" }
      : isVersionOrHelp(args) || args[0] === "version"
        ? NONE
        : unknown("golangci-lint without run, or with --fix"),
  uv: (args) =>
    args[0] === "build"
      ? { kind: "build-outputs", dependsOn: "project-code" }
      : isVersionOrHelp(args)
        ? NONE
        : unknown(`uv ${args[0] ?? ""}`.trim()),
  curl: (args) =>
    args.some(
      (a) =>
        /^-[a-zA-Z]*[oODcKT]/.test(a) ||
        /^--(output|remote-name|dump-header|cookie-jar|config|trace|libcurl|etag-save|hsts|alt-svc|upload-file|create-dirs)/.test(a),
    )
      ? unknown("curl writes, uploads or reads a config")
      : NONE,
  wget: (args) =>
    args.some((a) => a === "--spider" || a === "-qO-" || a === "-O-") ||
    (valueOf(args, "-O", "--output-document") === "-" && !has(args, "-o", "-a"))
      ? NONE
      : unknown("wget saves what it fetches"),
  pip: (args) =>
    ["list", "show", "freeze", "check", "--version", "-V", "help"].includes(args[0] ?? "") ? NONE : unknown(`pip ${args[0] ?? ""}`.trim()),
  pip3: (args) =>
    ["list", "show", "freeze", "check", "--version", "-V", "help"].includes(args[0] ?? "") ? NONE : unknown(`pip ${args[0] ?? ""}`.trim()),
  npm: (args) =>
    ["ls", "list", "view", "info", "outdated", "--version", "-v", "help", "config", "prefix", "root", "bin"].includes(args[0] ?? "") &&
    !(args[0] === "config" && args[1] !== "get" && args[1] !== "list")
      ? NONE
      : unknown(`npm ${args[0] ?? ""}`.trim()),
  node: (args) =>
    isVersionOrHelp(args) || (args.length === 2 && (args[0] === "--check" || args[0] === "-c")) ? NONE : unknown("node runs a program"),
  tee: (args) =>
    literalPaths(
      writtenOperands("tee", args).filter((a) => !isDevice(a)),
      "tee",
    ),
  sed: (args) => sedEffect(args),
  cp: (args) => {
    if (makesBackups(args)) return unknown("cp makes backups of the files it replaces");
    const files = fileOperands("cp", args);
    const target = valueOf(args, "-t", "--target-directory");
    if (has(args, "-s", "--symbolic-link", "-l", "--link")) return unknown("cp makes links");
    return literalPaths(target !== undefined ? [target] : files.slice(-1), "cp");
  },
  mv: (args) => (makesBackups(args) ? unknown("mv makes backups of the files it replaces") : literalPaths(fileOperands("mv", args), "mv")),
  rm: (args) => literalPaths(operands(args), "rm"),
  rmdir: (args) => literalPaths(operands(args), "rmdir"),
  touch: (args) =>
    args.some((a) => /^-[a-z]*[rd]$/.test(a) || a.startsWith("--reference") || a.startsWith("--date"))
      ? unknown("touch with a reference or date")
      : literalPaths(operands(args), "touch"),
  mkdir: (args) =>
    literalPaths(
      operands(args).filter((a) => a !== valueOf(args, "-m", "--mode")),
      "mkdir",
    ),
  apply_patch: (_args, redirects) => patchBodyEffect(redirects, "apply_patch"),
  "apply-patch": (_args, redirects) => patchBodyEffect(redirects, "apply_patch"),
  patch: (args, redirects) => {
    if (has(args, "--dry-run")) return NONE;
    const strip = valueOf(args, "-p", "--strip") ?? args.find((a) => /^-p\d+$/.test(a))?.slice(2);
    if (strip === undefined || !/^\d+$/.test(strip) || args.some((a) => !isOption(a) && a !== strip))
      return unknown("patch without -pN reading a heredoc");
    // `-o FILE`, `-r FILE`, `-B PREFIX`, `-z SUFFIX`... write files the patch does not name.
    if (!args.every((a) => a === strip || /^(?:-p\d*|--strip=\d+)$/.test(a) || PATCH_OPTIONS.has(a)))
      return unknown("patch with an option that writes other files");
    // A hunk that fails leaves FILE.rej and FILE.orig beside it (so does -b): named with the file.
    const effect = patchBodyEffect(redirects, "patch", Number(strip));
    return effect.kind === "paths" ? { ...effect, paths: effect.paths.flatMap((p) => [p, `${p}.orig`, `${p}.rej`]) } : effect;
  },
  git: (args, redirects) => gitEffect(args, redirects),
};

/** The programs the effect table has a row for (read-only programs aside: read-only.ts). */
export const EFFECT_PROGRAMS: readonly string[] = Object.keys(PROGRAMS);

// A program given by a relative path is the project's own file, unless a package manager put it there.
const MANAGED_BIN = /^(?:\.\/)?(?:\.?venv|\.tox\/[^/]+|node_modules\/\.bin)\/(?:bin\/)?[^/]+$/;

// The effect of a program other than a read-only one, from its name and arguments.
function programEffect(name: string, args: readonly string[], redirects: readonly Redirect[], word: string): CommandEffect {
  if (word.includes("/") && !isSystemProgram(word) && !MANAGED_BIN.test(word)) return unknown(`runs ${word}, a file someone wrote`);
  const rule = Object.hasOwn(PROGRAMS, name) ? PROGRAMS[name] : undefined;
  if (rule !== undefined) return rule(args, redirects);
  const python = /^python(\d+(\.\d+)?)?$/.test(name);
  if (python && args[0] === "-m" && args[1] !== undefined) {
    const module = args[1];
    // `python -m` puts the working directory first on sys.path: a module of the project can stand in.
    if (module === "py_compile" || module === "compileall") return { kind: "build-outputs", dependsOn: "project-code" };
    const inner = Object.hasOwn(PROGRAMS, module) ? PROGRAMS[module] : undefined;
    if (
      inner !== undefined &&
      ["ruff", "black", "isort", "mypy", "pyright", "flake8", "pylint", "pycodestyle", "pydocstyle", "pip"].includes(module)
    ) {
      return combineEffects(inner(args.slice(2), redirects), { kind: "none", dependsOn: "project-code" });
    }
  }
  if (!word.includes("/") && isVersionOrHelp(args)) return NONE;
  return unknown(`runs ${name}`);
}

// A path under dist/, the build's own directory (no `..` out of it).
const isUnderDist = (path: string): boolean => /^(?:\.\/)?dist(?:\/|$)/.test(path) && !path.split("/").includes("..");

// patch's options that write no file of their own.
const PATCH_OPTIONS = new Set([
  "-b",
  "--backup",
  "-N",
  "--forward",
  "-s",
  "--silent",
  "--quiet",
  "-f",
  "--force",
  "-t",
  "--batch",
  "-u",
  "--unified",
  "-E",
  "--remove-empty-files",
  "-R",
  "--reverse",
  "-l",
  "--ignore-whitespace",
  "--no-backup-if-mismatch",
]);

// cp and mv with `-b`, `--backup` or a backup suffix (`-S`) also write `FILE~` or `FILE.~1~`.
const makesBackups = (args: readonly string[]): boolean =>
  args.some((a) => /^-[a-zA-Z]*[bS]/.test(a) || a.startsWith("--backup") || a.startsWith("--suffix"));

// `sed -i SCRIPT FILES`: writes its files, when the script itself neither writes (`w`) nor runs (`e`).
function sedEffect(args: readonly string[]): CommandEffect {
  const sed = readSedArguments(args);
  if (!sed.inPlace) return unknown("sed with a script that writes or runs");
  if (sed.scriptFile) return unknown("sed with a script from a file");
  if (!sed.scripts.every(isPlainSedScript)) return unknown("sed with a script that writes or runs");
  // `-i.bak`, `-iE` (the suffix is `E`), `--in-place=.orig`: a backup beside each file; `-i 'bak/*'` puts it anywhere.
  const suffix = sedBackupSuffix(args);
  if (suffix.includes("*") || suffix.includes("/")) return unknown("sed -i with a backup name that is not a suffix");
  return literalPaths(suffix === "" ? sed.files : [...sed.files, ...sed.files.map((f) => f + suffix)], "sed -i");
}

// The backup suffix of `sed -i`: what follows the `i` of a short option cluster, or `--in-place=`.
function sedBackupSuffix(args: readonly string[]): string {
  for (const a of args) {
    if (a === "--") break;
    if (a.startsWith("--in-place=")) return a.slice("--in-place=".length);
    const short = /^-[a-zA-Z]*?i(.*)$/.exec(a);
    if (short !== null && !a.startsWith("--")) return short[1]!;
  }
  return "";
}

/**
 * The effect of a whole analysed line: its commands' effects combined. An unreadable line, a test run
 * (which may change anything it likes), or a command that may still run after the line ends (a
 * background job, a trap) with any effect at all make it `unknown`.
 * @example lineEffect(analyzeCommand("git add -A && git commit -m x")).kind // "vcs-metadata"
 */
export function lineEffect(analysis: Pick<CommandAnalysis, "opaque" | "commands">): CommandEffect {
  if (analysis.opaque) return unknown("the line cannot be read");
  let effect: CommandEffect = NONE;
  for (const command of analysis.commands) {
    if (command.outlivesLine === true && command.effect.kind !== "none" && command.invocation === undefined)
      return unknown(`${command.name || command.text} may run after the line ends`);
    effect = combineEffects(effect, command.effect);
    if (effect.kind === "unknown") return effect;
  }
  return effect;
}
