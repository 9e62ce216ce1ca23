// JUnit XML reports (pytest --junitxml, gotestsum --junitfile, ...) -> ids and outcomes.
// saxes fails loudly on truncated, empty or malformed XML: such a report is `invalid`, never partial.
import { SaxesParser, type SaxesTagPlain } from "saxes";

/** The largest JUnit report read whole (`judge --junit`, the report of `run`): 48 MiB. */
export const MAX_JUNIT_REPORT_BYTES = 48 << 20;

/** One `<testcase>` and its outcome from its children (`failure`/`error` fail, `skipped` skips). */
export interface JunitCase {
  /** pytest node id when the report has `file` attributes (xunit1), else `classname::name`. */
  id: string;
  classname: string;
  name: string;
  file: string | null;
  outcome: "passed" | "failed" | "skipped";
}

/**
 * Totals as the suites' attributes state them, summed over the outermost `<testsuite>` elements (a
 * nested suite's counts are inside its parent's: node's junit reporter nests one per `describe`).
 */
export interface JunitTotals {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** A readable report. */
export interface JunitReportOk {
  status: "ok";
  cases: JunitCase[];
  passed: string[];
  failed: string[];
  skipped: string[];
  totals: JunitTotals;
  /** The suites' attribute counts disagree with the `<testcase>` children (children win). */
  countMismatch: boolean;
  /** The file is older than the run that should have written it. */
  stale: boolean;
}

/** An unreadable report: empty, truncated or not XML, or without a test suite. */
export interface JunitReportInvalid {
  status: "invalid";
  reason: string;
  stale: boolean;
}

/** What {@link parseJunit} returns. */
export type JunitReport = JunitReportOk | JunitReportInvalid;

/** When the report was written and when the run started (Date, epoch ms or ISO text); both optional. */
export interface JunitTiming {
  startedAt?: Date | number | string | undefined;
  mtime?: Date | number | string | undefined;
}

function toMs(value: Date | number | string | undefined): number | null {
  if (value === undefined) return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** True when both times are known and the report predates the run. */
export function isStaleReport(timing: JunitTiming): boolean {
  const started = toMs(timing.startedAt);
  const mtime = toMs(timing.mtime);
  return started !== null && mtime !== null && mtime < started;
}

/** Rebuilds a pytest node id from xunit1 `file` + `classname` + `name`; falls back to `classname::name`. */
export function junitCaseId(classname: string, name: string, file: string | null): string {
  if (file !== null && file.endsWith(".py")) {
    const module = file.slice(0, -3).split("/").join(".");
    if (classname === module) return `${file}::${name}`;
    if (classname.startsWith(`${module}.`))
      return `${file}::${classname
        .slice(module.length + 1)
        .split(".")
        .join("::")}::${name}`;
  }
  // pytest reports a collection error as a case with no classname, named by its dotted module path.
  if (classname === "" && /^\w+(?:\.\w+)*$/.test(name)) return `${name.split(".").join("/")}.py`;
  return classname === "" ? name : `${classname}::${name}`;
}

function attr(tag: SaxesTagPlain, name: string): string | null {
  const value = tag.attributes[name];
  return typeof value === "string" ? value : null;
}

/** Creates an incremental JUnit XML reader; `end()` reports `invalid` instead of throwing. */
export function createJunitParser(timing: JunitTiming = {}): { push(chunk: string): void; end(): JunitReport } {
  const parser = new SaxesParser();
  const cases: JunitCase[] = [];
  const totals: JunitTotals = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const stale = isStaleReport(timing);
  let current: JunitCase | null = null;
  let suites = 0;
  let depth = 0;
  // Cases inside a suite: the ones the suites' attributes count (node puts top-level tests outside any).
  const suitedIndex: boolean[] = [];
  let failure: string | null = null;
  let sawText = false;

  parser.on("opentag", (tag) => {
    switch (tag.name) {
      case "testsuite":
        suites += 1;
        depth += 1;
        if (depth === 1)
          for (const key of ["tests", "failures", "errors", "skipped"] as const) totals[key] += Number(attr(tag, key) ?? 0) || 0;
        return;
      case "testcase": {
        const classname = attr(tag, "classname") ?? "";
        const name = attr(tag, "name") ?? "";
        const file = attr(tag, "file");
        current = { id: junitCaseId(classname, name, file), classname, name, file, outcome: "passed" };
        return;
      }
      case "failure":
      case "error":
        if (current !== null) current.outcome = "failed";
        return;
      case "skipped":
        if (current !== null && current.outcome === "passed") current.outcome = "skipped";
        return;
      default:
        return;
    }
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "testsuite") depth -= 1;
    if (tag.name === "testcase" && current !== null) {
      cases.push(current);
      suitedIndex.push(depth > 0);
      current = null;
    }
  });
  // The first error ends the parse: saxes would go on reporting one per byte, and a megabyte of
  // binary given as a report took 12 s.
  const stop = new Error("junit parse stopped");
  parser.on("error", (error) => {
    failure ??= error.message;
    throw stop;
  });

  return {
    push(chunk: string): void {
      if (failure !== null) return;
      if (chunk.trim() !== "") sawText = true;
      try {
        parser.write(chunk);
      } catch (error) {
        if (error !== stop) throw error;
      }
    },
    end(): JunitReport {
      if (failure === null) {
        try {
          parser.close();
        } catch (error) {
          if (error !== stop) throw error;
        }
      }
      if (!sawText) return { status: "invalid", reason: "empty report", stale };
      if (failure !== null) return { status: "invalid", reason: `malformed XML: ${String(failure)}`, stale };
      // node's junit reporter writes top-level tests straight under <testsuites>: cases count as a suite.
      if (suites === 0 && cases.length === 0) return { status: "invalid", reason: "no <testsuite> element", stale };
      const passed = cases.filter((c) => c.outcome === "passed").map((c) => c.id);
      const failed = cases.filter((c) => c.outcome === "failed").map((c) => c.id);
      const skipped = cases.filter((c) => c.outcome === "skipped").map((c) => c.id);
      const suited = cases.filter((_, i) => suitedIndex[i] === true);
      const countMismatch =
        totals.tests !== suited.length ||
        totals.failures + totals.errors !== suited.filter((c) => c.outcome === "failed").length ||
        totals.skipped !== suited.filter((c) => c.outcome === "skipped").length;
      return { status: "ok", cases, passed, failed, skipped, totals, countMismatch, stale };
    },
  };
}

/** Parses a whole JUnit XML report (see {@link createJunitParser}). */
export function parseJunit(xml: string, timing: JunitTiming = {}): JunitReport {
  const parser = createJunitParser(timing);
  parser.push(xml);
  return parser.end();
}
