// `agent-evidence run` as a library function: run the suite, keep the complete log, read the
// report, judge the whole log as it streams, and write the fail-closed verdict.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { analyzeCommand } from "../grammar/analyze-command.js";
import { createJudgeStream } from "../evidence/judge.js";
import { parseJunit, type JunitReport } from "../observers/junit.js";
import { createClippingScanner } from "./clipping.js";
import { decideVerdict } from "./decide.js";
import { instrumentPytest } from "./instrument.js";
import { createProgressCounter, renderProgress, shouldShowProgress } from "./progress.js";
import { runSuiteProcess } from "./run-process.js";
import { verdictSchema, type Verdict } from "./schema.js";

/** Options of {@link runVerdict}. */
export interface RunVerdictOptions {
  /** The command line, as given (run through `bash -c`). */
  command: string;
  cwd?: string;
  /** JUnit XML report to read; default `report.xml` when the run wrote it. */
  junit?: string;
  log?: string;
  out?: string;
  timeoutSeconds?: number;
  /** Add `--junitxml=<temp file>` to a recognised pytest command that writes no report (default true). */
  instrument?: boolean;
  /** Echo the output as it streams (default false in the library; the CLI passes process.stdout). */
  echo?: (chunk: string) => void;
  /** Progress display target (the CLI passes process.stderr on a TTY). */
  progress?: NodeJS.WriteStream;
}

/** Runs the suite and returns the verdict (also written to `out`, default `verdict.json`). */
export async function runVerdict(options: RunVerdictOptions): Promise<Verdict> {
  const cwd = resolve(options.cwd ?? ".");
  const logPath = resolve(cwd, options.log ?? "suite.log");
  const outPath = resolve(cwd, options.out ?? "verdict.json");
  const analysis = analyzeCommand(options.command, { cwd });
  const startedAt = new Date();
  // File mtimes can have a coarser resolution than the clock: allow one second of slack.
  const startedMs = Math.floor(startedAt.getTime() / 1000) * 1000 - 1000;

  const tempDir = mkdtempSync(join(tmpdir(), "agent-evidence-run-"));
  try {
    const plan = planReport(options, analysis, cwd, tempDir, logPath);
    const clipping = createClippingScanner();
    const stream = createJudgeStream(analysis, { cwd });
    const counter = createProgressCounter();
    const showProgress = options.progress !== undefined && shouldShowProgress(options.progress, process.env);
    const progressTimer = showProgress
      ? setInterval(() => options.progress?.write(`\r${renderProgress(Date.now() - startedAt.getTime(), counter.bytes, counter.passed, counter.failed)}`), 250)
      : undefined;
    const result = await runSuiteProcess({
      command: plan.command,
      cwd,
      logPath,
      timeoutSeconds: options.timeoutSeconds,
      onOutput: (chunk) => {
        clipping.push(chunk);
        stream.push(chunk);
        counter.push(chunk);
        options.echo?.(chunk);
      },
    }).finally(() => {
      if (progressTimer !== undefined) {
        clearInterval(progressTimer);
        options.progress?.write("\n");
      }
    });
    clipping.end();
    const judged = stream.end(result.exitCode ?? undefined);
    const { state, report, sha } = readReport(plan.path, plan.explicit || plan.instrumented, startedMs);

    const decision = decideVerdict({
      judged,
      runnerExit: result.exitCode,
      timedOut: result.timedOut,
      clippingMarker: clipping.clipped,
      missingFinalNewline: result.bytes > 0 && !clipping.endsWithNewline,
      junit: state,
      report,
    });
    const verdict: Verdict = {
      schemaVersion: 1,
      status: decision.status,
      reasons: decision.reasons,
      runnerExit: result.exitCode,
      truncatedLog: decision.truncatedLog,
      junit: state,
      tests: decision.tests,
      failures: decision.failures,
      errors: decision.errors,
      skipped: decision.skipped,
      gates: decision.gates,
      logSha256: result.logSha256,
      junitSha256: sha,
      bytes: result.bytes,
      command: options.command,
      instrumentedCommand: plan.instrumented ? plan.command : null,
      cwd,
      log: logPath,
      junitPath: plan.path !== null && !plan.path.startsWith(tempDir) ? plan.path : null,
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

interface ReportPlan {
  command: string;
  /** The report path to read, or null when no report applies. */
  path: string | null;
  /** The user named the report: it must exist. */
  explicit: boolean;
  instrumented: boolean;
}

function planReport(options: RunVerdictOptions, analysis: ReturnType<typeof analyzeCommand>, cwd: string, tempDir: string, logPath: string): ReportPlan {
  if (options.junit !== undefined) return { command: options.command, path: resolve(cwd, options.junit), explicit: true, instrumented: false };
  const written = analysis.invocations.flatMap((inv) => inv.reportFiles.map((file) => (isAbsolute(file) ? file : resolve(inv.workspace ?? cwd, file))));
  if (written.length === 1 && written[0] !== undefined) return { command: options.command, path: written[0], explicit: true, instrumented: false };
  if (options.instrument !== false) {
    // Kept beside the log so verify-verdict can re-hash it; a temp file when the path needs quoting.
    const besideLog = `${logPath}.junit.xml`;
    const target = /[\s'"\\$`]/.test(besideLog) ? join(tempDir, "junit.xml") : besideLog;
    const instrumented = instrumentPytest(options.command, analysis, target);
    if (instrumented !== null) {
      rmSync(target, { force: true });
      return { command: instrumented, path: target, explicit: true, instrumented: true };
    }
  }
  return { command: options.command, path: resolve(cwd, "report.xml"), explicit: false, instrumented: false };
}

function readReport(path: string | null, required: boolean, startedMs: number): { state: Verdict["junit"]; report: JunitReport | null; sha: string | null } {
  if (path === null) return { state: "not_applicable", report: null, sha: null };
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
    bytes = readFileSync(path);
  } catch {
    return { state: required ? "missing_junit" : "not_applicable", report: null, sha: null };
  }
  const sha = createHash("sha256").update(bytes).digest("hex");
  if (mtimeMs < startedMs) return { state: "stale_junit", report: null, sha };
  const report = parseJunit(bytes.toString("utf8"));
  if (report.status === "invalid") return { state: report.reason.includes("no <testsuite>") ? "no_testsuite" : "malformed_junit", report, sha };
  if (report.cases.length === 0) return { state: "empty_suite", report, sha };
  return { state: "ok", report, sha };
}
