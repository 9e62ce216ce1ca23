// The JUnit report of a verdict run: which file to read, and its state after the run
// (fresh, stale, missing, unreadable) in the verdict's snake_case vocabulary.
import { createHash } from "node:crypto";
import { rmSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

import { NamedFileError, readRegularFile } from "../io/named-files.js";
import { parseJestJsonReport } from "../observers/jest-json.js";
import { type JunitReport, MAX_JUNIT_REPORT_BYTES, parseJunit } from "../observers/junit.js";
import type { ReportFormat } from "../runners/definition.js";
import type { CommandAnalysis } from "../shell/types.js";
import { configuredJunitxml } from "./configured-report.js";
import { instrumentRun, singleReportingRun } from "./instrument.js";
import type { Verdict } from "./schema.js";

/** Which report a run is judged with, and what actually runs. */
export interface ReportPlan {
  /** The command that runs (the instrumented one when `instrumented`). */
  command: string;
  /** The report path to read, or null when no report applies. */
  path: string | null;
  /** The report must exist after the run (named by `--junit`, by the command, or instrumented). */
  required: boolean;
  instrumented: boolean;
  /** How to read it: JUnit XML, or jest's `--json` results (an instrumented jest run). */
  format: ReportFormat;
  /** The directory report paths are relative to (jest names its files absolute). */
  root: string;
}

/** A report file's identity before the run: a file the run did not touch is stale. */
export interface FileStamp {
  mtimeMs: number;
  ino: number;
  size: number;
}

/** What the report file held after the run. */
export interface ReportReading {
  state: Verdict["junit"];
  report: JunitReport | null;
  sha: string | null;
}

/**
 * Chooses the report: `--junit FILE`; else the one file the command names (`--junitxml=...`);
 * else, for a single recognised pytest run, the report its configuration already writes
 * (`--junitxml` in PYTEST_ADDOPTS or the ini file's `addopts`: adding ours would replace it); else
 * `--junitxml=<logPath>.junit.xml` added to the command (in `tempDir` when that path would need
 * quoting); else `report.xml` in `cwd` when the run writes it.
 */
export function planReport(
  options: { command: string; junit?: string | undefined; instrument?: boolean | undefined },
  analysis: CommandAnalysis,
  cwd: string,
  tempDir: string,
  logPath: string,
  env: NodeJS.ProcessEnv = process.env,
): ReportPlan {
  const junit = { format: "junit-xml" as const, root: cwd };
  if (options.junit !== undefined)
    return { command: options.command, path: resolve(cwd, options.junit), required: true, instrumented: false, ...junit };
  const written = analysis.invocations.flatMap((inv) =>
    inv.reportFiles.map((file) => (isAbsolute(file) ? file : resolve(inv.workspace ?? cwd, file))),
  );
  if (written.length === 1 && written[0] !== undefined)
    return { command: options.command, path: written[0], required: true, instrumented: false, ...junit };
  const reporting = singleReportingRun(analysis);
  const readsAddopts = reporting?.definition.report?.configuredIn === "pytest-addopts";
  const configured =
    reporting === null || !readsAddopts || written.length > 0 ? null : configuredJunitxml(reporting.run.workspace ?? cwd, env);
  if (configured !== null) return { command: options.command, path: configured, required: true, instrumented: false, ...junit };
  if (options.instrument !== false && !analysis.invocations.some((inv) => inv.shadowed)) {
    const format = reporting?.definition.report?.format ?? "junit-xml";
    const name = format === "jest-json" ? "report.json" : "junit.xml";
    const besideLog = `${logPath}.${name}`;
    const target = /[\s'"\\$`]/.test(besideLog) ? join(tempDir, name) : besideLog;
    const instrumented = instrumentRun(options.command, analysis, target);
    if (instrumented !== null) {
      // A report left by an earlier run must not pass for this one.
      rmSync(target, { force: true });
      return { command: instrumented, path: target, required: true, instrumented: true, format, root: reporting?.run.workspace ?? cwd };
    }
  }
  return { command: options.command, path: resolve(cwd, "report.xml"), required: false, instrumented: false, ...junit };
}

/** The file's stamp, or null when it does not exist. */
export function stampFile(path: string | null): FileStamp | null {
  if (path === null) return null;
  try {
    const st = statSync(path);
    return { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size };
  } catch {
    return null;
  }
}

/**
 * Reads the report after the run. Stale: the file is exactly as it was before the run, or older
 * than the run start (one second of slack for coarse file-system clocks). Only a regular file is a
 * report (a FIFO or a device there is none); one over {@link MAX_JUNIT_REPORT_BYTES} is not read and
 * counts as malformed.
 */
export function readReportFile(plan: ReportPlan, before: FileStamp | null, startedMs: number): ReportReading {
  if (plan.path === null) return { state: "not_applicable", report: null, sha: null };
  let bytes: Buffer;
  let after: FileStamp;
  try {
    const st = statSync(plan.path);
    after = { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size };
    bytes = readRegularFile(plan.path, { cap: MAX_JUNIT_REPORT_BYTES });
  } catch (error) {
    if (error instanceof NamedFileError && error.code === "EFBIG") return { state: "malformed_junit", report: null, sha: null };
    return { state: plan.required ? "missing_junit" : "not_applicable", report: null, sha: null };
  }
  const sha = createHash("sha256").update(bytes).digest("hex");
  const untouched = before !== null && before.mtimeMs === after.mtimeMs && before.ino === after.ino && before.size === after.size;
  if (untouched || after.mtimeMs < Math.floor(startedMs / 1000) * 1000 - 1000) return { state: "stale_junit", report: null, sha };
  const text = bytes.toString("utf8");
  const report = plan.format === "jest-json" ? parseJestJsonReport(text, plan.root) : parseJunit(text);
  if (report.status === "invalid")
    return { state: report.reason.startsWith("no <testsuite>") ? "no_testsuite" : "malformed_junit", report, sha };
  if (report.cases.length === 0) return { state: "empty_suite", report, sha };
  return { state: "ok", report, sha };
}
