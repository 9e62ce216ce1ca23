// `agent-evidence run` as a library function: run the suite, keep the complete log, read the
// report, judge the whole log as it streams, and write the fail-closed verdict.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { analyzeCommand } from "../grammar/analyze-command.js";
import { createJudgeStream } from "../evidence/judge.js";
import { createClippingScanner } from "../evidence/clipping.js";
import { decideVerdict } from "./decide.js";
import { createProgressCounter, renderProgress, shouldShowProgress, type ProgressTarget } from "./progress.js";
import { planReport, readReportFile, stampFile } from "./report-file.js";
import { runSuiteProcess } from "./run-process.js";
import { verdictSchema, type Verdict } from "./schema.js";

/** Options of {@link runVerdict}. */
export interface RunVerdictOptions {
  /** The command line, as given (run through `bash -c`). */
  command: string;
  /** Directory to run in (default: the current directory). Relative paths below resolve against it. */
  cwd?: string | undefined;
  /** JUnit XML report to read; default `report.xml` when the run wrote it. */
  junit?: string | undefined;
  /** Where to keep the complete output (default `suite.log`). */
  log?: string | undefined;
  /** Where to write the verdict (default `verdict.json`). */
  out?: string | undefined;
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
}

const PROGRESS_INTERVAL_MS = 250;
const CLEAR_LINE = "\r\u001b[2K";

/**
 * Runs the suite and returns the verdict (also written to `out`, default `verdict.json`).
 * @example const v = await runVerdict({ command: "python -m pytest -q", cwd: "repo" }); v.status // "passed" | "failed" | "incomplete"
 */
export async function runVerdict(options: RunVerdictOptions): Promise<Verdict> {
  const cwd = resolve(options.cwd ?? ".");
  const env = options.env ?? process.env;
  const logPath = resolve(cwd, options.log ?? "suite.log");
  const outPath = resolve(cwd, options.out ?? "verdict.json");
  const analysis = analyzeCommand(options.command, { cwd });
  const tempDir = mkdtempSync(join(tmpdir(), "agent-evidence-run-"));
  try {
    const plan = planReport(options, analysis, cwd, tempDir, logPath);
    const before = stampFile(plan.path);
    const startedAt = new Date();
    const clipping = createClippingScanner();
    const stream = createJudgeStream(analysis, { cwd });
    const counter = createProgressCounter();
    const progress = options.progress !== undefined && shouldShowProgress(options.progress, env) ? options.progress : undefined;
    const draw = (): void => {
      progress?.write(`${CLEAR_LINE}${renderProgress(Date.now() - startedAt.getTime(), counter.bytes, counter.passed, counter.failed)}`);
    };
    draw();
    const progressTimer = progress === undefined ? undefined : setInterval(draw, PROGRESS_INTERVAL_MS);
    const result = await runSuiteProcess({
      command: plan.command,
      cwd,
      logPath,
      timeoutSeconds: options.timeoutSeconds,
      env,
      onOutput: (chunk) => {
        clipping.push(chunk);
        stream.push(chunk);
        if (progress !== undefined) counter.push(chunk);
        if (options.echo !== undefined && options.echoBytes === undefined) {
          // The progress line is redrawn by the timer; output never lands after it on one line.
          if (progress !== undefined) progress.write(CLEAR_LINE);
          options.echo(chunk);
        }
      },
      onBytes: (chunk) => {
        if (options.echoBytes === undefined) return;
        if (progress !== undefined) progress.write(CLEAR_LINE);
        options.echoBytes(chunk);
      },
    }).finally(() => {
      if (progressTimer !== undefined) clearInterval(progressTimer);
      progress?.write(CLEAR_LINE);
    });
    clipping.end();
    // A killed run has no exit status of its own: the judge must not read 124 as the runner's.
    const judged = stream.end(result.timedOut ? null : result.exitCode);
    const reading = readReportFile(plan, before, startedAt.getTime());

    const decision = decideVerdict({
      judged,
      runnerExit: result.exitCode,
      timedOut: result.timedOut,
      clippingMarker: clipping.clipped,
      missingFinalNewline: result.bytes > 0 && !clipping.endsWithNewline,
      junit: reading.state,
      report: reading.report,
    });
    const verdict: Verdict = {
      schemaVersion: 1,
      status: decision.status,
      reasons: decision.reasons,
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
      runs: judged.runs.map((run) => ({ kind: run.kind, runner: run.runner, outcome: run.outcome, passed: run.passed, failed: run.failed, reasons: run.reasons })),
    };
    const checked = verdictSchema.parse(verdict);
    writeFileSync(outPath, JSON.stringify(checked, null, 2) + "\n");
    return checked;
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}
