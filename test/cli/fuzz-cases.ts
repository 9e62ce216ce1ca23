// Hostile input for every subcommand (issue: "bounded memory and a documented exit code"): each case
// is one command with one input slot (stdin, a FILE argument, --output, --junit, --log, --out,
// --report, a hook's transcript_path or state file, the settings file `hook install` reads) given one
// hostile input. Shared by test/cli/fuzz.test.ts.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import type { CliCommand } from "../../src/cli/exit-codes.js";
import type { MeasuredStdin } from "../support/measured-cli.js";
import { tempDirPath } from "../support/temp-dir.js";

/** The hostile inputs of the fuzz list, plus the path shapes a FILE can take. */
export type FuzzInput =
  | "2 GB stream"
  | "/dev/zero"
  | "random binary"
  | "invalid UTF-8"
  | "NUL bytes"
  | "a directory"
  | "a missing file"
  | "a missing directory"
  | "a FIFO with no writer"
  | "a 2 GB sparse file"
  | "a device (a link to /dev/null)";

/** An input that is a path. */
export type FuzzPath = Exclude<FuzzInput, "2 GB stream">;

/** The files the cases point at, made once per test file by {@link createFuzzInputs}. */
export interface FuzzInputs {
  root: string;
  /** The path of an input; each FIFO is new (a FIFO another case opened for writing would have a writer). */
  path(input: FuzzPath): string;
  /** The bytes of the three content inputs, for stdin. */
  bytes: Record<"random binary" | "invalid UTF-8" | "NUL bytes", Buffer>;
  /** An empty directory (a valid, empty `audit` input). */
  emptyDir: string;
  /** An empty regular file. */
  emptyFile: string;
  /** `TMPDIR` for the hooks, whose state directory then lives in root. */
  tmpdir: string;
  /** A verdict written by `run` (valid until a case points its log elsewhere). */
  verdictDir: string;
  /** Removes everything. */
  remove(): void;
}

// Deterministic "random" bytes (xorshift32): a failure reproduces.
function pseudoRandomBytes(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 1) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * Makes the input files: 1 MiB of binary, invalid UTF-8, NUL bytes, a directory, FIFOs, a sparse 2 GB
 * file. Outputs are never pointed at a real device: a writer that renamed over it would replace it
 * (as root, /dev/zero itself); "a device" is a link to /dev/null inside the test directory.
 */
export function createFuzzInputs(): FuzzInputs {
  const root = tempDirPath("ae-fuzz-");
  const bytes = {
    "random binary": pseudoRandomBytes(1 << 20, 0x5eed),
    // Lone continuation bytes, overlong forms, a truncated sequence, surrogates encoded in UTF-8.
    "invalid UTF-8": Buffer.concat(
      Array.from({ length: 2048 }, () =>
        Buffer.from([0x46, 0x41, 0x49, 0x4c, 0x45, 0x44, 0x20, 0xff, 0xfe, 0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xe2, 0x82, 0x0a]),
      ),
    ),
    "NUL bytes": Buffer.concat([
      Buffer.from("============ 1 passed in 0.01s ============\n"),
      Buffer.alloc(1 << 16),
      Buffer.from('\0{\0"a\0\n\0'),
    ]),
  };
  const paths: Record<Exclude<FuzzPath, "a FIFO with no writer">, string> = {
    "/dev/zero": "/dev/zero",
    "random binary": join(root, "binary.bin"),
    "invalid UTF-8": join(root, "invalid-utf8.txt"),
    "NUL bytes": join(root, "nul.bin"),
    "a directory": join(root, "a-directory"),
    "a missing file": join(root, "missing.txt"),
    "a missing directory": join(root, "missing-dir", "file.txt"),
    "a 2 GB sparse file": join(root, "sparse-2g.bin"),
    "a device (a link to /dev/null)": join(root, "device-link"),
  };
  writeFileSync(paths["random binary"], bytes["random binary"]);
  writeFileSync(paths["invalid UTF-8"], bytes["invalid UTF-8"]);
  writeFileSync(paths["NUL bytes"], bytes["NUL bytes"]);
  mkdirSync(paths["a directory"]);
  writeFileSync(join(paths["a directory"], "inside.jsonl"), "");
  symlinkSync("/dev/null", paths["a device (a link to /dev/null)"]);
  let fifos = 0;
  const path = (input: FuzzPath): string => {
    if (input !== "a FIFO with no writer") return paths[input];
    const fifo = join(root, `fifo-${(fifos += 1)}`);
    execFileSync("mkfifo", [fifo]);
    return fifo;
  };
  writeFileSync(paths["a 2 GB sparse file"], "");
  truncateSync(paths["a 2 GB sparse file"], 2 * 1024 ** 3);
  const emptyDir = join(root, "empty-dir");
  mkdirSync(emptyDir);
  const emptyFile = join(root, "empty.txt");
  writeFileSync(emptyFile, "");
  const hookTmp = join(root, "tmp");
  mkdirSync(hookTmp);
  const verdictDir = join(root, "verdict");
  mkdirSync(verdictDir);
  return {
    root,
    path,
    bytes,
    emptyDir,
    emptyFile,
    tmpdir: hookTmp,
    verdictDir,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** What a case must end with. */
export interface FuzzExpectation {
  status: number;
  /** The one stderr line that explains it (matched against the first line); omitted: any or none. */
  stderr?: RegExp;
  /** The stdout, when it matters: exact (a hook's allow) or a pattern (verify-verdict's problems). */
  stdout?: string | RegExp;
  /** Wall-clock bound, ms, node's start included (the hooks: "an allow within 2 s"). */
  withinMs?: number;
}

/** One subcommand x one input. */
export interface FuzzCase {
  command: CliCommand;
  /** Where the input goes: "stdin", "FILE", "--junit", "transcript_path", ... */
  slot: string;
  input: FuzzInput;
  args: (inputs: FuzzInputs) => string[];
  stdin?: (inputs: FuzzInputs) => MeasuredStdin;
  /** Prepares files the case needs (runs just before it). */
  setup?: (inputs: FuzzInputs) => void;
  /** A command that reads all of a 2 GB stream needs longer than the hang limit on a loaded machine. */
  slow?: true;
  expected: FuzzExpectation;
}

const TWO_GB = 2 * 1024 ** 3;
const stream2g = (): MeasuredStdin => ({ kind: "zeros", bytes: TWO_GB });
const CONTENT = ["random binary", "invalid UTF-8", "NUL bytes"] as const;

// The reason each unreadable path shape is given in `cannot read PATH (REASON)`.
const UNREADABLE: Partial<Record<FuzzInput, string>> = {
  "/dev/zero": "ENOTREGULAR",
  "a directory": "EISDIR",
  "a missing file": "ENOENT",
  "a FIFO with no writer": "ENOTREGULAR",
  "a device (a link to /dev/null)": "ENOTREGULAR",
};

// triage and patch: stdin or FILE, read whole up to 48 MiB.
function readerCases(command: "triage" | "patch", base: string[]): FuzzCase[] {
  const cases: FuzzCase[] = [
    {
      command,
      slot: "stdin",
      input: "2 GB stream",
      args: () => base,
      stdin: stream2g,
      expected: { status: 65, stderr: new RegExp(`^agent-evidence: ${command}: stdin is larger than 48 MiB; not read$`) },
    },
    ...CONTENT.map((input): FuzzCase => ({
      command,
      slot: "stdin",
      input,
      args: () => base,
      stdin: (inputs) => ({ kind: "bytes", bytes: inputs.bytes[input] }),
      expected: { status: 0 },
    })),
    ...CONTENT.map((input): FuzzCase => ({
      command,
      slot: "FILE",
      input,
      args: (inputs) => [...base, inputs.path(input)],
      expected: { status: 0 },
    })),
    {
      command,
      slot: "FILE",
      input: "a 2 GB sparse file",
      args: (inputs) => [...base, inputs.path("a 2 GB sparse file")],
      expected: { status: 65, stderr: new RegExp(`^agent-evidence: ${command}: \\S+sparse-2g\\.bin is larger than 48 MiB; not read$`) },
    },
  ];
  for (const [input, reason] of Object.entries(UNREADABLE) as [FuzzPath, string][]) {
    cases.push({
      command,
      slot: "FILE",
      input,
      args: (inputs) => [...base, inputs.path(input)],
      expected: { status: 64, stderr: new RegExp(`^agent-evidence: ${command}: cannot read \\S+ \\(${reason}\\)$`) },
    });
  }
  return cases;
}

const JUDGE = ["judge", "--command", "python -m pytest -q"];
// What the judge makes of each content: the invalid UTF-8 holds `FAILED ...` lines; the rest proves nothing.
const JUDGED: Record<(typeof CONTENT)[number], number> = { "random binary": 2, "invalid UTF-8": 1, "NUL bytes": 2 };

function judgeCases(): FuzzCase[] {
  const cases: FuzzCase[] = [
    // judge streams its output (memory flat in its size): all 2 GB are read, and nothing proves a pass.
    { command: "judge", slot: "stdin", input: "2 GB stream", args: () => JUDGE, stdin: stream2g, slow: true, expected: { status: 2 } },
    ...CONTENT.map((input): FuzzCase => ({
      command: "judge",
      slot: "stdin",
      input,
      args: () => JUDGE,
      stdin: (inputs) => ({ kind: "bytes", bytes: inputs.bytes[input] }),
      expected: { status: JUDGED[input] },
    })),
    ...CONTENT.map((input): FuzzCase => ({
      command: "judge",
      slot: "--output",
      input,
      args: (inputs) => [...JUDGE, "--output", inputs.path(input)],
      expected: { status: JUDGED[input] },
    })),
    ...CONTENT.map((input): FuzzCase => ({
      command: "judge",
      slot: "--junit",
      input,
      args: (inputs) => [...JUDGE, "--output", inputs.emptyFile, "--junit", inputs.path(input)],
      expected: { status: 2 },
    })),
    {
      command: "judge",
      slot: "--junit",
      input: "a 2 GB sparse file",
      args: (inputs) => [...JUDGE, "--output", inputs.emptyFile, "--junit", inputs.path("a 2 GB sparse file")],
      expected: { status: 65, stderr: /^agent-evidence: judge: --junit \S+ is larger than 48 MiB; not read$/ },
    },
  ];
  for (const [input, reason] of Object.entries(UNREADABLE) as [FuzzPath, string][]) {
    cases.push({
      command: "judge",
      slot: "--output",
      input,
      args: (inputs) => [...JUDGE, "--output", inputs.path(input)],
      expected: { status: 64, stderr: new RegExp(`^agent-evidence: judge: cannot read --output \\S+ \\(${reason}\\)$`) },
    });
    cases.push({
      command: "judge",
      slot: "--junit",
      input,
      args: (inputs) => [...JUDGE, "--output", inputs.emptyFile, "--junit", inputs.path(input)],
      expected: { status: 64, stderr: new RegExp(`^agent-evidence: judge: cannot read --junit \\S+ \\(${reason}\\)$`) },
    });
  }
  return cases;
}

const verdictPath = (inputs: FuzzInputs): string => join(inputs.verdictDir, "verdict.json");
const slug = (text: string): string => text.replace(/\W+/g, "-");
// `run --cmd true` with its log and verdict in a directory of its own (cases run side by side).
const runTrue = (inputs: FuzzInputs, dir: string): string[] => {
  mkdirSync(dir, { recursive: true });
  return ["run", "--cmd", "true", "--cwd", dir, "--log", join(dir, "suite.log"), "--verdict", join(dir, "verdict.json")];
};
const runIn =
  (name: string) =>
  (inputs: FuzzInputs): string[] =>
    runTrue(inputs, join(inputs.root, `run-${slug(name)}`));
// A copy of the base verdict whose log is another path: the log must be hashed without blocking or reading forever.
const withLogPath = (input: FuzzPath): string => `log-${slug(input)}.json`;
const verdictWithLog =
  (input: FuzzPath) =>
  (inputs: FuzzInputs): void => {
    const verdict = JSON.parse(readFileSync(verdictPath(inputs), "utf8")) as object;
    writeFileSync(join(inputs.verdictDir, withLogPath(input)), JSON.stringify({ ...verdict, log: inputs.path(input) }));
  };

function verifyCases(): FuzzCase[] {
  const cases: FuzzCase[] = [
    {
      command: "verify-verdict",
      slot: "stdin",
      input: "2 GB stream",
      args: (inputs) => ["verify-verdict", verdictPath(inputs)],
      stdin: stream2g,
      expected: { status: 0 },
    },
  ];
  const verdictProblems: [FuzzPath, string][] = [
    ...CONTENT.map((input): [FuzzPath, string] => [input, "verdict does not parse"]),
    ["/dev/zero", "cannot read \\S+ \\(ENOTREGULAR\\)"],
    ["a directory", "cannot read \\S+ \\(EISDIR\\)"],
    ["a missing file", "cannot read \\S+ \\(ENOENT\\)"],
    ["a FIFO with no writer", "cannot read \\S+ \\(ENOTREGULAR\\)"],
    ["a 2 GB sparse file", "\\S+ is larger than 48 MiB; not read"],
  ];
  for (const [input, problem] of verdictProblems) {
    cases.push({
      command: "verify-verdict",
      slot: "VERDICT",
      input,
      args: (inputs) => ["verify-verdict", inputs.path(input)],
      expected: { status: 1, stdout: new RegExp(`^\\{"ok":false,"problems":\\["${problem}`) },
    });
  }
  const logProblems: [FuzzPath, string][] = [
    ["/dev/zero", "log unreadable: \\S+ \\(ENOTREGULAR\\)"],
    ["a directory", "log unreadable: \\S+ \\(EISDIR\\)"],
    ["a FIFO with no writer", "log unreadable: \\S+ \\(ENOTREGULAR\\)"],
    ["random binary", "log changed: "],
  ];
  for (const [input, problem] of logProblems) {
    cases.push({
      command: "verify-verdict",
      slot: "the verdict's log",
      input,
      setup: verdictWithLog(input),
      args: (inputs) => ["verify-verdict", join(inputs.verdictDir, withLogPath(input))],
      expected: { status: 1, stdout: new RegExp(`^\\{"ok":false,"problems":\\["${problem}`) },
    });
  }
  return cases;
}

// What an output path can be that no output may be written to, and the code it is refused with.
const OUTPUT_REFUSALS: readonly (readonly [FuzzPath, string])[] = [
  ["a missing directory", "ENOENT"],
  ["a directory", "EISDIR"],
  ["a FIFO with no writer", "ENOTREGULAR"],
  ["a device (a link to /dev/null)", "ENOTREGULAR"],
];

// verify-bundle: DIR is each path shape (its manifest.json then cannot be read), or a bundle whose
// manifest.json is a link to each hostile input.
function verifyBundleCases(): FuzzCase[] {
  const problem = (pattern: string): FuzzExpectation => ({ status: 1, stdout: new RegExp(`^\\{"ok":false,"problems":\\["${pattern}`) });
  const cases: FuzzCase[] = [
    {
      command: "verify-bundle",
      slot: "stdin",
      input: "2 GB stream",
      args: (inputs) => ["verify-bundle", inputs.emptyDir],
      stdin: stream2g,
      expected: problem("cannot read \\S+manifest\\.json \\(ENOENT\\)"),
    },
  ];
  const asDir: [FuzzPath, string][] = [
    ...CONTENT.map((input): [FuzzPath, string] => [input, "ENOTDIR"]),
    ["/dev/zero", "ENOTDIR"],
    ["a directory", "ENOENT"],
    ["a missing file", "ENOENT"],
    ["a missing directory", "ENOENT"],
    ["a FIFO with no writer", "ENOTDIR"],
    ["a 2 GB sparse file", "ENOTDIR"],
    ["a device (a link to /dev/null)", "ENOTDIR"],
  ];
  for (const [input, code] of asDir)
    cases.push({
      command: "verify-bundle",
      slot: "DIR",
      input,
      args: (inputs) => ["verify-bundle", inputs.path(input)],
      expected: problem(`cannot read \\S+manifest\\.json \\(${code}\\)`),
    });
  const asManifest: [FuzzPath, string][] = [
    ...CONTENT.map((input): [FuzzPath, string] => [input, "manifest does not parse"]),
    ["/dev/zero", "cannot read \\S+ \\(ENOTREGULAR\\)"],
    ["a directory", "cannot read \\S+ \\(EISDIR\\)"],
    ["a missing file", "cannot read \\S+ \\(ENOENT\\)"],
    ["a FIFO with no writer", "cannot read \\S+ \\(ENOTREGULAR\\)"],
    ["a 2 GB sparse file", "\\S+ is larger than 16 MiB; not read"],
  ];
  const bundleDir = (inputs: FuzzInputs, input: FuzzPath): string => join(inputs.root, `bundle-${slug(input)}`);
  for (const [input, pattern] of asManifest) {
    const setup = (inputs: FuzzInputs): void => {
      mkdirSync(bundleDir(inputs, input), { recursive: true });
      rmSync(join(bundleDir(inputs, input), "manifest.json"), { force: true });
      symlinkSync(inputs.path(input), join(bundleDir(inputs, input), "manifest.json"));
    };
    cases.push({
      command: "verify-bundle",
      slot: "the bundle's manifest",
      input,
      setup,
      args: (inputs) => ["verify-bundle", bundleDir(inputs, input)],
      expected: problem(pattern),
    });
  }
  return cases;
}

function auditCases(): FuzzCase[] {
  const cases: FuzzCase[] = [
    {
      command: "audit",
      slot: "stdin",
      input: "2 GB stream",
      args: (inputs) => ["audit", inputs.emptyDir],
      stdin: stream2g,
      expected: { status: 0 },
    },
    ...CONTENT.map((input): FuzzCase => ({
      command: "audit",
      slot: "PATH",
      input,
      args: (inputs) => ["audit", "--no-progress", inputs.path(input)],
      expected: { status: 0 },
    })),
    {
      command: "audit",
      slot: "PATH",
      input: "a directory",
      args: (inputs) => ["audit", "--no-progress", inputs.path("a directory")],
      expected: { status: 0 },
    },
    {
      command: "audit",
      slot: "PATH",
      input: "a missing file",
      args: (inputs) => ["audit", inputs.path("a missing file")],
      expected: { status: 64, stderr: /^agent-evidence: audit: cannot read \S+ \(ENOENT\)$/ },
    },
  ];
  for (const [input, reason] of [
    ["/dev/zero", "ENOTREGULAR"],
    ["a FIFO with no writer", "ENOTREGULAR"],
    ["a 2 GB sparse file", "EFBIG"],
  ] as const) {
    cases.push({
      command: "audit",
      slot: "PATH",
      input,
      args: (inputs) => ["audit", "--no-progress", inputs.path(input)],
      expected: { status: 1, stderr: new RegExp(`^agent-evidence: audit: cannot read \\S+ \\(${reason}\\)$`) },
    });
  }
  for (const [input, reason] of OUTPUT_REFUSALS) {
    cases.push({
      command: "audit",
      slot: "--report",
      input,
      args: (inputs) => ["audit", "--no-progress", "--report", inputs.path(input), inputs.emptyDir],
      expected: { status: 73, stderr: new RegExp(`^agent-evidence: audit: cannot write --report \\S+ \\(${reason}\\)$`) },
    });
  }
  return cases;
}

function runCases(): FuzzCase[] {
  const cases: FuzzCase[] = [
    { command: "run", slot: "stdin", input: "2 GB stream", args: runIn("stdin"), stdin: stream2g, expected: { status: 2 } },
  ];
  for (const [flag, file] of [
    ["--log", "log"],
    ["--verdict", "verdict"],
  ] as const) {
    for (const [input, reason] of OUTPUT_REFUSALS) {
      cases.push({
        command: "run",
        slot: flag,
        input,
        args: (inputs) => {
          const args = runIn(`${flag} ${input}`)(inputs);
          args[args.indexOf(flag) + 1] = inputs.path(input);
          return args;
        },
        expected: { status: 73, stderr: new RegExp(`^agent-evidence: run: cannot write the ${file} file \\S+ \\(${reason}\\)$`) },
      });
    }
  }
  // --junit names the report the run must write; `true` writes none, so each is a fail-closed incomplete.
  for (const input of [
    ...CONTENT,
    "/dev/zero",
    "a directory",
    "a missing file",
    "a FIFO with no writer",
    "a 2 GB sparse file",
    "a device (a link to /dev/null)",
  ] as const) {
    cases.push({
      command: "run",
      slot: "--junit",
      input,
      args: (inputs) => [...runIn(`--junit ${input}`)(inputs), "--junit", inputs.path(input)],
      expected: { status: 2 },
    });
  }
  for (const input of ["/dev/zero", "a missing file", "a FIFO with no writer"] as const) {
    cases.push({
      command: "run",
      slot: "--cwd",
      input,
      args: (inputs) => ["run", "--cmd", "true", "--cwd", inputs.path(input)],
      expected: { status: 64, stderr: /^agent-evidence: --cwd \S+ is not a directory$/ },
    });
  }
  return cases;
}

const payload = (inputs: FuzzInputs, transcript: string, session = "fuzz"): Buffer =>
  Buffer.from(
    JSON.stringify({
      session_id: `${session}-${Math.random().toString(36).slice(2)}`,
      transcript_path: transcript,
      cwd: inputs.root,
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "All tests pass.",
    }),
  );
const ALLOW = { claude: "", codex: "{}\n" } as const;
// The hooks must never trap an agent: an allow well within the clients' hook timeout (Claude Code's
// default is 60 s). Only a runaway fails this; how fast a hook is, bench/ measures.
const HOOK_MS = 20_000;

function stopCases(client: "claude" | "codex"): FuzzCase[] {
  const command = `hook ${client}-stop` as const;
  const args = (): string[] => ["hook", `${client}-stop`];
  const allow = { status: 0, stdout: ALLOW[client], withinMs: HOOK_MS };
  const cases: FuzzCase[] = [
    {
      command,
      slot: "stdin",
      input: "2 GB stream",
      args,
      stdin: stream2g,
      expected: {
        ...allow,
        stderr: new RegExp(`^agent-evidence hook ${client}-stop: stdin is larger than 16 MiB; not read, allowing the stop$`),
      },
    },
    ...CONTENT.map((input): FuzzCase => ({
      command,
      slot: "stdin",
      input,
      args,
      stdin: (inputs) => ({ kind: "bytes", bytes: inputs.bytes[input] }),
      expected: allow,
    })),
  ];
  // What the hook says on stderr about each transcript: malformed lines are skipped, the rest is not read.
  const notes: [FuzzPath, RegExp][] = [
    ...CONTENT.map((input): [FuzzPath, RegExp] => [input, /^agent-evidence: skipped \d+ malformed transcript line/]),
    ["/dev/zero", /^agent-evidence: cannot read the transcript \S+ \(ENOTREGULAR\): judging the final message alone, not blocking$/],
    ["a directory", /^agent-evidence: cannot read the transcript \S+ \(EISDIR\)/],
    ["a missing file", /^agent-evidence: cannot read the transcript \S+ \(ENOENT\)/],
    ["a FIFO with no writer", /^agent-evidence: cannot read the transcript \S+ \(ENOTREGULAR\)/],
    ["a 2 GB sparse file", /^agent-evidence: the transcript is larger than 32 MiB: read its last 32 MiB$/],
  ];
  for (const [input, note] of notes) {
    cases.push({
      command,
      slot: "transcript_path",
      input,
      args,
      stdin: (inputs) => ({ kind: "bytes", bytes: payload(inputs, inputs.path(input)) }),
      expected: { ...allow, stderr: note },
    });
  }
  // The state file lives where the agent can write: a FIFO planted there must not block the hook.
  cases.push({
    command,
    slot: "state file",
    input: "a FIFO with no writer",
    setup: (inputs) => plantStateFifo(inputs, `${client}-planted`),
    args,
    stdin: (inputs) => ({
      kind: "bytes",
      bytes: Buffer.from(
        JSON.stringify({
          session_id: `${client}-planted`,
          transcript_path: inputs.path("NUL bytes"),
          cwd: inputs.root,
          hook_event_name: "Stop",
        }),
      ),
    }),
    expected: allow,
  });
  return cases;
}

function plantStateFifo(inputs: FuzzInputs, session: string): void {
  const dir = join(inputs.tmpdir, "agent-evidence-hooks");
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, `${session}.json`), { force: true });
  execFileSync("mkfifo", [join(dir, `${session}.json`)]);
}

function postToolUseCases(): FuzzCase[] {
  const command = "hook claude-post-tool-use";
  const args = (): string[] => ["hook", "claude-post-tool-use"];
  const ok = { status: 0, stdout: "", withinMs: HOOK_MS };
  return [
    {
      command,
      slot: "stdin",
      input: "2 GB stream",
      args,
      stdin: stream2g,
      expected: { ...ok, stderr: /^agent-evidence hook claude-post-tool-use: nothing recorded: stdin is larger than 16 MiB; not read$/ },
    },
    ...CONTENT.map((input): FuzzCase => ({
      command,
      slot: "stdin",
      input,
      args,
      stdin: (inputs) => ({ kind: "bytes", bytes: inputs.bytes[input] }),
      expected: ok,
    })),
    {
      command,
      slot: "state file",
      input: "a FIFO with no writer",
      setup: (inputs) => plantStateFifo(inputs, "post-planted"),
      args,
      stdin: () => ({
        kind: "bytes",
        bytes: Buffer.from(
          JSON.stringify({
            session_id: "post-planted",
            hook_event_name: "PostToolUse",
            tool_name: "Bash",
            tool_input: { command: "pytest" },
            tool_response: { stdout: "1 passed" },
          }),
        ),
      }),
      expected: ok,
    },
  ];
}

// `hook install --project P` and `hook uninstall --project P`: P/.claude/settings.json is the input.
function installCases(): FuzzCase[] {
  return [...settingsCases("hook install"), ...settingsCases("hook uninstall")];
}

function settingsCases(command: "hook install" | "hook uninstall"): FuzzCase[] {
  const project = (inputs: FuzzInputs, input: FuzzInput): string =>
    join(inputs.root, `project-${command.replace(" ", "-")}-${slug(input)}`);
  const settingsAs =
    (input: FuzzPath) =>
    (inputs: FuzzInputs): void => {
      const dir = join(project(inputs, input), ".claude");
      mkdirSync(dir, { recursive: true });
      rmSync(join(dir, "settings.json"), { force: true, recursive: true });
      if (input !== "a missing file") symlinkSync(inputs.path(input), join(dir, "settings.json"));
    };
  const args =
    (input: FuzzInput) =>
    (inputs: FuzzInputs): string[] => [...command.split(" "), "--client", "claude", "--project", project(inputs, input), "--dry-run"];
  const cases: FuzzCase[] = [
    {
      command,
      slot: "stdin",
      input: "2 GB stream",
      setup: settingsAs("a missing file"),
      args: args("a missing file"),
      stdin: stream2g,
      expected: { status: 0 },
    },
  ];
  const refusals: [FuzzPath, string][] = [
    ...CONTENT.map((input): [FuzzPath, string] => [input, "\\S+ is not valid JSON"]),
    ["/dev/zero", "cannot read \\S+ \\(ENOTREGULAR\\)"],
    ["a directory", "cannot read \\S+ \\(EISDIR\\)"],
    ["a FIFO with no writer", "cannot read \\S+ \\(ENOTREGULAR\\)"],
    ["a 2 GB sparse file", "\\S+ is larger than 16 MiB; not read"],
  ];
  for (const [input, message] of refusals) {
    cases.push({
      command,
      slot: "settings file",
      input,
      setup: settingsAs(input),
      args: args(input),
      expected: { status: 1, stderr: new RegExp(`^agent-evidence: ${command}: ${message}`) },
    });
  }
  cases.push({
    command,
    slot: "settings file",
    input: "a missing file",
    setup: settingsAs("a missing file"),
    args: args("a missing file"),
    expected: { status: 0 },
  });
  return cases;
}

function mcpCases(): FuzzCase[] {
  const args = (inputs: FuzzInputs): string[] => ["mcp", "--cwd", inputs.emptyDir, "--sandbox", "none"];
  return [
    // One message (line) larger than 16 MiB: the server will not buffer it.
    {
      command: "mcp",
      slot: "stdin",
      input: "2 GB stream",
      args,
      stdin: stream2g,
      expected: { status: 65, stderr: /^agent-evidence: mcp: a message on stdin is larger than 8 MiB; not read$/m },
    },
    // Lines that are not JSON-RPC: each is rejected, and the server ends with its input.
    ...CONTENT.map((input): FuzzCase => ({
      command: "mcp",
      slot: "stdin",
      input,
      args,
      stdin: (inputs) => ({ kind: "bytes", bytes: inputs.bytes[input] }),
      expected: { status: 0 },
    })),
    ...(["/dev/zero", "a missing file", "a FIFO with no writer"] as const).map((input): FuzzCase => ({
      command: "mcp",
      slot: "--cwd",
      input,
      args: (inputs) => ["mcp", "--cwd", inputs.path(input)],
      stdin: () => ({ kind: "none" }),
      expected: {
        status: 64,
        stderr: /^agent-evidence: mcp: createBashTool option "cwd" is "\S+"; accepted: the path of an existing directory/,
      },
    })),
  ];
}

/** Every case: each subcommand with each input it reads. */
// `candidates rank` reads no stdin and no file: each WORKTREE must be a directory in a Git work tree.
function candidatesCases(): FuzzCase[] {
  const rank = (worktree: string, ...more: string[]): string[] => ["candidates", "rank", "--verify", "true", ...more, worktree];
  const cases: FuzzCase[] = [
    {
      command: "candidates rank",
      slot: "stdin",
      input: "2 GB stream",
      args: (inputs) => rank(inputs.emptyDir),
      stdin: stream2g,
      expected: { status: 64, stderr: /^agent-evidence: candidates rank: / },
    },
    {
      command: "candidates rank",
      slot: "WORKTREE",
      input: "a directory",
      args: (inputs) => rank(inputs.path("a directory")),
      expected: { status: 64, stderr: /^agent-evidence: candidates rank: .*not a git repository/i },
    },
  ];
  const notDirectories: FuzzPath[] = [
    ...CONTENT,
    "/dev/zero",
    "a missing file",
    "a missing directory",
    "a FIFO with no writer",
    "a 2 GB sparse file",
    "a device (a link to /dev/null)",
  ];
  for (const input of notDirectories) {
    cases.push({
      command: "candidates rank",
      slot: "WORKTREE",
      input,
      args: (inputs) => rank(inputs.path(input)),
      expected: { status: 64, stderr: /^agent-evidence: candidates rank: \S+ is not a directory$/ },
    });
  }
  return cases;
}

export function fuzzCases(): FuzzCase[] {
  return [
    ...candidatesCases(),
    ...readerCases("triage", ["triage"]),
    ...readerCases("patch", ["patch", "paths"]),
    ...judgeCases(),
    ...verifyCases(),
    ...verifyBundleCases(),
    ...auditCases(),
    ...runCases(),
    ...stopCases("claude"),
    ...stopCases("codex"),
    ...postToolUseCases(),
    ...installCases(),
    ...mcpCases(),
    { command: "demo", slot: "stdin", input: "2 GB stream", args: () => ["demo", "--json"], stdin: stream2g, expected: { status: 0 } },
    { command: "(no command)", slot: "stdin", input: "2 GB stream", args: () => [], stdin: stream2g, expected: { status: 0 } },
  ];
}

/** Runs `run` once so the verify-verdict cases have a real verdict to point elsewhere. */
export function writeBaseVerdict(inputs: FuzzInputs, cli: string): void {
  spawnSync(process.execPath, [cli, ...runTrue(inputs, inputs.verdictDir)], { stdio: "ignore" });
}
