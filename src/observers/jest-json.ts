// jest's `--json` results (what `--json --outputFile=FILE` writes) read as a report of cases, in the
// shape of a JUnit report, so `agent-evidence run` checks it against the log the same way. Pure.
import type { JunitCase, JunitReport } from "./junit.js";

interface JestAssertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
}

interface JestSuite {
  name?: unknown;
  status?: unknown;
  testExecError?: unknown;
  assertionResults?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const count = (value: unknown): number => (typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0);

// `root`-relative path of a suite file as jest names it (absolute), so ids read `test/a.test.js::...`.
function relativeTo(root: string | null, file: string): string {
  if (root === null) return file;
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}

/**
 * Reads jest's JSON results. Cases are `file::describe > test` (the file relative to `root` when it
 * lies below it); passed, failed, and pending, skipped, todo or disabled as skipped; a suite that
 * failed to run is one failed case of its file. Totals are jest's own counts (`numTotalTests`,
 * `numFailedTests`, suites that failed to run as errors, pending and todo as skipped): a report
 * whose cases disagree with them is flagged as in a JUnit report. Text that is not such JSON is
 * `invalid`.
 */
export function parseJestJsonReport(text: string, root: string | null = null): JunitReport {
  if (text.trim() === "") return { status: "invalid", reason: "empty report", stale: false };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { status: "invalid", reason: `malformed JSON: ${(error as Error).message}`, stale: false };
  }
  if (!isRecord(data) || !Array.isArray(data.testResults) || typeof data.numTotalTests !== "number") {
    return { status: "invalid", reason: "no <testsuite> element (not jest's --json results)", stale: false };
  }
  const cases: JunitCase[] = [];
  let suiteErrors = 0;
  for (const entry of data.testResults as unknown[]) {
    if (!isRecord(entry)) continue;
    const suite = entry as JestSuite;
    const file = relativeTo(root, typeof suite.name === "string" ? suite.name : "");
    const assertions = Array.isArray(suite.assertionResults) ? (suite.assertionResults as unknown[]).filter(isRecord) : [];
    if (assertions.length === 0 && (suite.status === "failed" || (suite.testExecError !== undefined && suite.testExecError !== null))) {
      suiteErrors += 1;
      cases.push({ id: file, classname: file, name: "", file, outcome: "failed" });
      continue;
    }
    for (const raw of assertions) {
      const assertion = raw as JestAssertion;
      const ancestors = Array.isArray(assertion.ancestorTitles)
        ? assertion.ancestorTitles.filter((t): t is string => typeof t === "string")
        : [];
      const title = typeof assertion.title === "string" ? assertion.title : "";
      const name = [...ancestors, title].join(" > ");
      const outcome = assertion.status === "passed" ? "passed" : assertion.status === "failed" ? "failed" : "skipped";
      cases.push({ id: `${file}::${name}`, classname: file, name, file, outcome });
    }
  }
  const passed = cases.filter((c) => c.outcome === "passed").map((c) => c.id);
  const failed = cases.filter((c) => c.outcome === "failed").map((c) => c.id);
  const skipped = cases.filter((c) => c.outcome === "skipped").map((c) => c.id);
  const totals = {
    tests: count(data.numTotalTests),
    failures: count(data.numFailedTests),
    errors: count(data.numRuntimeErrorTestSuites),
    skipped: count(data.numPendingTests) + count(data.numTodoTests),
  };
  const countMismatch =
    totals.tests !== cases.length - suiteErrors ||
    totals.failures !== failed.length - suiteErrors ||
    totals.errors !== suiteErrors ||
    totals.skipped !== skipped.length ||
    count(data.numPassedTests) !== passed.length;
  return { status: "ok", cases, passed, failed, skipped, totals, countMismatch, stale: false };
}
