// `agent-evidence run` as a library function: run the suite, keep the complete log, read the
// report, judge the whole log as it streams, and write the fail-closed verdict.
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { createJudgeStream } from "../evidence/judge.js";
import { checkOutputFile, NamedFileError, writeFileReplacing } from "../io/named-files.js";
import { analyzeWithPackageScripts } from "../observation/package-scripts.js";
import type { ReasonCode } from "../reasons.js";
import { stateHome } from "../state-home.js";
import { decideVerdict } from "./decide.js";
import { createProgressCounter, createProgressLine, type ProgressTarget, renderProgress, shouldShowProgress } from "./progress.js";
import { planReport, readReportFile, stampFile } from "./report-file.js";
import { runSuiteProcess } from "./run-process.js";
import { type Verdict, verdictSchema } from "./schema.js";

/** Options of {@link runVerdict}. */
export interface RunVerdictOptions {
  /** The command line, as given (run through `bash -c`). */
  command: string;
  /** Directory to run in (default: the current directory). Relative paths below resolve against it. */
  cwd?: string | undefined;
  /** JUnit XML report to read; default `report.xml` when the run wrote it. */
  junit?: string | undefined;
  /**
   * The directory of the run's artefacts: `suite.log`, `verdict.json` and the JUnit report `run`
   * adds (`suite.log.junit.xml`), created when missing. Default: a new directory under the state
   * home (`$XDG_STATE_HOME/agent-evidence/runs/<time>-<pid>`), never the repository under test.
   */
  outDir?: string | undefined;
  /** Where to keep the complete output (default `suite.log` in `outDir`). */
  log?: string | undefined;
  /** Where to write the verdict (default `verdict.json` in `outDir`). */
  out?: string | undefined;
  /** Told where the log and the verdict go, once both are known to be writable and before the suite starts. */
  onArtefacts?: ((paths: { dir: string | null; log: string; verdict: string }) => void) | undefined;
  /** Kill the whole process group after this many seconds. */
  timeoutSeconds?: number | undefined;
  /** Add `--junitxml=<file>` to a recognised pytest command that writes no report (default true). */
  instrument?: boolean | undefined;
  /** Echo the output as it streams (the CLI echoes to stderr so stdout holds only the verdict). */
  echo?: ((chunk: string) => void) | undefined;
  /**
   * Echo the output's bytes as they stream, instead of `echo`: for a byte sink such as a file
   * descriptor, so 1 GiB of output is not decoded and encoded again on its way out.
   */
  echoBytes?: ((chunk: Uint8Array) => void) | undefined;
  /** Progress display target; shown only when it is a TTY and `env.CI` is unset (the CLI passes process.stderr). */
  progress?: ProgressTarget | undefined;
  /** Environment of the suite and of the progress decision (default `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
  /**
   * Aborting stops the suite (its whole process group) and the verdict is `incomplete` with reason
   * `interrupted` (the CLI aborts on SIGINT, SIGTERM and SIGHUP).
   */
  signal?: AbortSignal | undefined;
}

// The sha256 of no bytes: the log of a run that has not written any yet.
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

const verdictFileName = (path: string): string => `the verdict file ${path}`;

// The artefact directory, made with its parents; what stands in the way is a NamedFileError (73).
function makeOutputDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "EIO";
    throw new NamedFileError("write", code, dir, `cannot write the output directory ${dir} (${code})`, { cause: error });
  }
  if (!statSync(dir).isDirectory()) throw new NamedFileError("write", "ENOTDIR", dir, `cannot write the output directory ${dir} (ENOTDIR)`);
}

/** Writes the verdict so that a reader sees the old file or the new one, never a torn one. */
function writeVerdictFile(path: string, verdict: Verdict): void {
  writeFileReplacing(path, JSON.stringify(verdict, null, 2) + "\n", verdictFileName(path));
}

const PROGRESS_INTERVAL_MS = 250;

/** The artefact directory a run gets when none is named: under the state home, outside any repository. */
function defaultRunDirectory(now: Date = new Date()): string {
  return join(stateHome(), "runs", `${now.toISOString().replace(/[:.]/g, "-")}-${process.pid}`);
}

/** Where a run's log and verdict go: `log` and `out` as named, else in `outDir` (see {@link RunVerdictOptions.outDir}). */
function runArtefactPaths(options: Pick<RunVerdictOptions, "cwd" | "outDir" | "log" | "out">): {
  dir: string | null;
  logPath: string;
  outPath: string;
} {
  const cwd = resolve(options.cwd ?? ".");
  const needsDir = options.log === undefined || options.out === undefined;
  const dir = options.outDir !== undefined ? resolve(cwd, options.outDir) : needsDir ? defaultRunDirectory() : null;
  return {
    dir,
    logPath: options.log !== undefined ? resolve(cwd, options.log) : join(dir!, "suite.log"),
    outPath: options.out !== undefined ? resolve(cwd, options.out) : join(dir!, "verdict.json"),
  };
}

/**
 * Runs the suite and returns the verdict (also written to `out`, default `verdict.json` in
 * `outDir`). A log or verdict path that cannot be written (a missing directory, a directory, a FIFO,
 * a device) throws a NamedFileError before the suite starts.
 * @example const v = await runVerdict({ command: "python -m pytest -q", cwd: "repo" }); v.status // "passed" | "failed" | "incomplete"
 */
export async function runVerdict(options: RunVerdictOptions): Promise<Verdict> {
  const cwd = resolve(options.cwd ?? ".");
  const env = options.env ?? process.env;
  const { dir, logPath, outPath } = runArtefactPaths(options);
  if (dir !== null) makeOutputDirectory(dir);
  checkOutputFile(logPath, `the log file ${logPath}`);
  checkOutputFile(outPath, verdictFileName(outPath));
  options.onArtefacts?.({ dir, log: logPath, verdict: outPath });
  const analysis = analyzeWithPackageScripts(options.command, { cwd });
  const tempDir = mkdtempSync(join(tmpdir(), "agent-evidence-run-"));
  try {
    const plan = planReport(options, analysis, cwd, tempDir, logPath, env);
    const before = stampFile(plan.path);
    const startedAt = new Date();
    // Before the suite starts, any earlier verdict is replaced by `incomplete`: a run killed in the
    // middle (even by SIGKILL) leaves that, never the last run's `passed`.
    writeVerdictFile(
      outPath,
      verdictSchema.parse({
        schemaVersion: 1,
        status: "incomplete",
        reasons: ["run-not-finished"] satisfies ReasonCode[],
        runnerExit: null,
        truncatedLog: false,
        junit: "not_applicable",
        tests: 0,
        failures: 0,
        errors: 0,
        skipped: 0,
        gates: [],
        logSha256: EMPTY_SHA256,
        junitSha256: null,
        bytes: 0,
        command: options.command,
        instrumentedCommand: plan.instrumented ? plan.command : null,
        cwd,
        log: logPath,
        junitPath: null,
        startedAt: startedAt.toISOString(),
        durationMs: 0,
        timedOut: false,
        runs: [],
      } satisfies Verdict),
    );
    // The judge reads every line for a host's clipping note too (the one clipping rule).
    const stream = createJudgeStream(analysis, { cwd });
    let lastText = "";
    const counter = createProgressCounter();
    const progress = options.progress !== undefined && shouldShowProgress(options.progress, env) ? options.progress : undefined;
    const line = progress === undefined ? undefined : createProgressLine(progress);
    const draw = (): void => {
      line?.draw(renderProgress(Date.now() - startedAt.getTime(), counter.bytes, counter.passed, counter.failed));
    };
    draw();
    const progressTimer = progress === undefined ? undefined : setInterval(draw, PROGRESS_INTERVAL_MS);
    const result = await runSuiteProcess({
      command: plan.command,
      cwd,
      logPath,
      timeoutSeconds: options.timeoutSeconds,
      env,
      signal: options.signal,
      onOutput: (chunk) => {
        if (chunk !== "") lastText = chunk;
        stream.push(chunk);
        if (progress !== undefined) counter.push(chunk);
        if (options.echo !== undefined && options.echoBytes === undefined && chunk !== "") {
          // The progress line is redrawn by the timer; output never lands after it on one line.
          line?.yieldToOutput();
          options.echo(chunk);
          line?.outputEnded(chunk.endsWith("\n"));
        }
      },
      onBytes: (chunk) => {
        if (options.echoBytes === undefined || chunk.length === 0) return;
        line?.yieldToOutput();
        options.echoBytes(chunk);
        line?.outputEnded(chunk[chunk.length - 1] === 0x0a);
      },
    }).finally(() => {
      if (progressTimer !== undefined) clearInterval(progressTimer);
      line?.clear();
    });
    // A killed run has no exit status of its own: the judge must not read 124 as the runner's.
    const judged = stream.end(result.timedOut || result.aborted ? null : result.exitCode);
    const reading = readReportFile(plan, before, startedAt.getTime());

    const decision = decideVerdict({
      judged,
      runnerExit: result.exitCode,
      timedOut: result.timedOut,
      clippingMarker: stream.clippingNoteSeen,
      missingFinalNewline: result.bytes > 0 && !lastText.endsWith("\n"),
      junit: reading.state,
      report: reading.report,
    });
    // A stopped run never passes; what it showed failing still fails it.
    const status = result.aborted && decision.status === "passed" ? "incomplete" : decision.status;
    const verdict: Verdict = {
      schemaVersion: 1,
      status,
      reasons: result.aborted ? [...new Set([...decision.reasons, "interrupted"])] : decision.reasons,
      runnerExit: result.exitCode,
      truncatedLog: decision.truncatedLog,
      junit: reading.state,
      tests: decision.tests,
      failures: decision.failures,
      errors: decision.errors,
      skipped: decision.skipped,
      gates: decision.gates,
      logSha256: result.logSha256,
      junitSha256: reading.sha,
      bytes: result.bytes,
      command: options.command,
      instrumentedCommand: plan.instrumented ? plan.command : null,
      cwd,
      log: logPath,
      junitPath: plan.path !== null && reading.sha !== null && !plan.path.startsWith(tempDir) ? plan.path : null,
      startedAt: startedAt.toISOString(),
      durationMs: result.durationMs,
      timedOut: result.timedOut,
      runs: judged.runs.map((run) => ({
        kind: run.kind,
        runner: run.runner,
        outcome: run.outcome,
        passed: run.passed,
        failed: run.failed,
        reasons: run.reasons,
      })),
    };
    const checked = verdictSchema.parse(verdict);
    writeVerdictFile(outPath, checked);
    return checked;
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}
