// What a persistent shell remembers between tool calls, as far as it decides what a run proves: the
// directory earlier lines `cd`-ed into, the functions and aliases they defined, the PATH entries
// they put in front, and what else they changed about which runner runs (a sourced script, `hash -p`,
// `export PYTHONPATH=...`: runner-identity.ts).
// A bash tool that keeps one bash process alive across calls (Anthropic's bash tool, most "session"
// shells) runs `pytest(){ echo "5 passed"; }` in one call and `pytest` in the next; the second line
// alone looks like a real run. Pure: the caller feeds each line's analysis in order.
import { posix } from "node:path";

import { builtinRunners, type RunnerRegistry } from "../runners/registry.js";
import { type IdentityRisk, NOT_FOUND_HANDLER, runnerInterpreter } from "./runner-identity.js";
import { findSessionEffects, startsBackgroundJob, waitsForAllJobs } from "./shadowing.js";
import type { CommandAnalysis, TestInvocation } from "./types.js";
import { isDirectoryName } from "./workspace.js";

/** What the session holds now (for diagnostics and tests). */
export interface ShellSessionState {
  /** The directory the shell is in (null: not known). */
  cwd: string | null;
  functions: string[];
  aliases: string[];
  /** PATH entries in front of the old PATH that may hold a planted runner. */
  riskyPathEntries: string[];
  /** What earlier lines changed that can make a runner something else (kept for the rest of the session). */
  identityRisks: IdentityRisk[];
  /** An earlier line left a job running (`cmd &`, `nohup`, `setsid`) and no completed `wait` has ended it. */
  backgroundJobs: boolean;
  /** An earlier line's bare `exec` sent the shell's output elsewhere (`exec > >(filter)`), for the rest of the session. */
  outputRedirect: string | null;
}

/**
 * The shell state that outlives a line. `shadow` marks the invocations of a new line that an
 * earlier line's definitions reach; `record` takes in what a line leaves defined once it has run.
 */
export class ShellSession {
  readonly #workspace: string | null;
  readonly #functions = new Set<string>();
  readonly #aliases = new Set<string>();
  readonly #riskyPath: string[] = [];
  readonly #risks: IdentityRisk[] = [];
  #cwd: string | null;
  #jobs = false;
  #outputRedirect: string | null = null;

  readonly #runners: RunnerRegistry;

  /** `workspace`: absolute directory the shell starts in (PATH entries inside it count as planted); `runners`: whose identity scopes apply. */
  constructor(workspace: string | null, runners: RunnerRegistry = builtinRunners) {
    this.#runners = runners;
    this.#workspace = workspace === null ? null : posix.normalize(workspace);
    this.#cwd = this.#workspace;
  }

  /** The directory the next line starts in, as far as known (null: an earlier `cd` left it unknown). */
  get cwd(): string | null {
    return this.#cwd;
  }

  /** An earlier line may have left a job running that can still change files (see {@link ShellSessionState}). */
  get backgroundJobs(): boolean {
    return this.#jobs;
  }

  /**
   * The analysis with every invocation an earlier line's definitions reach marked `shadowed`, and
   * every one `transformed` once an earlier `exec` sent the shell's output elsewhere (what the tool
   * captures is then whatever that filter printed).
   */
  shadow(analysis: CommandAnalysis): CommandAnalysis {
    const redirected = this.#outputRedirect !== null;
    if (!redirected && analysis.invocations.every((inv) => inv.shadowed || !this.#reaches(inv))) return analysis;
    const marked = new Map<TestInvocation, TestInvocation>();
    for (const inv of analysis.invocations) {
      const shadowed = inv.shadowed || !this.#reaches(inv) ? inv : { ...inv, shadowed: true, shadowedBy: this.#reason(inv) };
      marked.set(inv, redirected ? { ...shadowed, output: "transformed", window: null } : shadowed);
    }
    return {
      ...analysis,
      commands: analysis.commands.map((command) =>
        command.invocation === undefined ? command : { ...command, invocation: marked.get(command.invocation) ?? command.invocation },
      ),
      invocations: analysis.invocations.map((inv) => marked.get(inv) ?? inv),
    };
  }

  /**
   * Takes in what `analysis`'s line leaves defined in the shell (call after the line ran; the
   * analysis must have started from {@link cwd}). `completed`: the line exited 0, or a runner after
   * its leading `cd` chain ran, so the chain took effect; otherwise a line that moves the shell
   * leaves the directory unknown (its `cd` may have failed).
   */
  record(analysis: CommandAnalysis, completed: boolean): void {
    const end = analysis.endCwd === undefined ? null : analysis.endCwd;
    if (end !== this.#cwd) this.#cwd = completed ? end : null;
    // Statement by statement: a job started, or (in a completed line) a plain `wait` that outlived them all.
    if (analysis.parsed.opaque) this.#jobs = true;
    for (const statement of analysis.parsed.statements) {
      const alone = { ...analysis.parsed, statements: [statement] };
      if (startsBackgroundJob(alone)) this.#jobs = true;
      else if (completed && waitsForAllJobs(alone)) this.#jobs = false;
    }
    const effects = findSessionEffects(analysis.parsed);
    for (const name of effects.unsetFunctions) this.#functions.delete(name);
    for (const name of effects.unsetAliases) this.#aliases.delete(name);
    if (effects.unaliasAll) this.#aliases.clear();
    for (const name of effects.functions) this.#functions.add(name);
    for (const name of effects.aliases) this.#aliases.add(name);
    for (const entry of effects.pathEntries)
      if (isPlantablePathEntry(entry, this.#workspace) && !this.#riskyPath.includes(entry)) this.#riskyPath.push(entry);
    this.#outputRedirect ??= effects.outputRedirect;
    // Nothing undoes these as far as a line can show (a sourced script may have done anything).
    for (const risk of effects.risks) if (!this.#risks.some((r) => r.reason === risk.reason)) this.#risks.push(risk);
  }

  /** What the session holds now. */
  get state(): ShellSessionState {
    return {
      cwd: this.#cwd,
      functions: [...this.#functions].sort(),
      aliases: [...this.#aliases].sort(),
      riskyPathEntries: [...this.#riskyPath],
      identityRisks: this.#risks.map((r) => ({ ...r })),
      backgroundJobs: this.#jobs,
      outputRedirect: this.#outputRedirect,
    };
  }

  #reaches(inv: TestInvocation): boolean {
    return this.#reason(inv) !== null;
  }

  // Why an earlier line's definitions reach `inv`, or null.
  #reason(inv: TestInvocation): string | null {
    const program = inv.programs.find((p) => this.#functions.has(p) || this.#aliases.has(p));
    if (program !== undefined) return `${program} was redefined by an earlier call`;
    if (this.#functions.has(NOT_FOUND_HANDLER)) return `${NOT_FOUND_HANDLER} was defined by an earlier call`;
    if (inv.pathLookup && this.#riskyPath.length > 0) return `an earlier call put ${this.#riskyPath[0]!} in front of PATH`;
    const interpreter = runnerInterpreter(inv.kind, this.#runners);
    const risk = this.#risks.find((r) => r.scope === "any" || r.scope === interpreter);
    return risk === undefined ? null : `an earlier call: ${risk.reason}`;
  }
}

/**
 * A runner's own verdict means it ran: when every runner of the line comes after its last `cd`, that
 * `cd` took effect (the `completed` of {@link ShellSession.record}, for a line that did not exit 0).
 */
export function runnersFollowMoves(analysis: CommandAnalysis): boolean {
  const moves = analysis.commands.filter((c) => isDirectoryName(c.name)).map((c) => c.index);
  const lastMove = moves.length === 0 ? -1 : Math.max(...moves);
  return analysis.invocations.length > 0 && analysis.invocations.every((inv) => inv.commandIndex > lastMove);
}

// A virtualenv's own bin directory (`.venv/bin`, `venv/bin`): where `source .venv/bin/activate` points
// PATH too, and where the environment's real pytest lives.
const VENV_BIN = /(?:^|\/)\.?(?:venv|env)\/bin\/?$/;

// Scratch places any process may write (the sandbox's /tmp among them).
const SCRATCH = /^(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/shm|\/run\/user|\$TMPDIR|\$\{TMPDIR\})(?:\/|$)/;
// A home directory, spelled through a variable or as a path.
const HOME = /^(?:\$HOME|\$\{HOME\}|~|\/root|\/home\/[^/]+)(?:\/|$)/;
// Where toolchain installers put their bin directories inside a home: trusted like a toolchain.
const HOME_TOOL_BIN =
  /^(?:\.local\/bin|go\/bin|\.cargo\/bin|\.pyenv\/(?:shims|bin|versions\/[^/]+\/bin)|\.nvm\/versions\/node\/[^/]+\/bin|\.volta\/bin|\.bun\/bin|\.deno\/bin|\.asdf\/shims|\.local\/share\/mise\/shims|\.yarn\/bin|\.npm-global\/bin)\/?$/;

/**
 * May a PATH entry put in front by an earlier line hold a planted runner? Relative entries (`./fake`,
 * `bin`), the working directory (`$PWD/...`, `$(pwd)/...`), directories inside the workspace,
 * scratch places (`/tmp`, `/var/tmp`, `/dev/shm`, `$TMPDIR`) and a home's own directories
 * (`$HOME/bin`, `~/fake`) may; a virtualenv's bin directory, the bin directories toolchain installers
 * make in a home (`$HOME/.local/bin`, `~/go/bin`, `~/.cargo/bin`, pyenv and nvm), absolute directories
 * elsewhere (toolchains) and other variables (`$GOROOT/bin`) are how environments are set up and are
 * trusted. Within one line every PATH prepend still shadows the line's runners (see findShadowing).
 */
export function isPlantablePathEntry(entry: string, workspace: string | null): boolean {
  const value = entry.replace(/^["']|["']$/g, "");
  if (VENV_BIN.test(value)) return false;
  if (/^(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)(?:\/|$)/.test(value)) return true;
  if (SCRATCH.test(value)) return true;
  const home = HOME.exec(value);
  if (home !== null) return !HOME_TOOL_BIN.test(posix.normalize(value.slice(home[0].length) || "."));
  if (value.startsWith("$")) return false;
  if (!value.startsWith("/")) return true;
  if (workspace === null) return false;
  const path = posix.normalize(value);
  return path === workspace || path.startsWith(workspace.endsWith("/") ? workspace : `${workspace}/`);
}
