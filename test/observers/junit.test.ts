// JUnit XML: pytest's own reports from the captured runs against the hook truth, plus the ways a
// report can lie (truncated, empty, garbage, attribute counts that disagree, stale).
import { beforeAll, describe, expect, it } from "vitest";

import { junitCaseId, type JunitReport, parseJunit } from "../../src/observers/index.js";
import { ensureCaptured, loadCapture } from "../support/capture.js";

beforeAll(async () => {
  await ensureCaptured();
});

function okReport(report: JunitReport) {
  if (report.status !== "ok") throw new Error(`expected a readable report, got ${report.reason}`);
  return report;
}

describe("pytest's own JUnit reports", () => {
  it.each(["py9-rA-all", "py7-xdist-rA", "py9-node-ids", "py7-cov-gate", "py9-collect-error-rA"])(
    "%s: failed and skipped ids equal the hook truth",
    (name) => {
      const run = loadCapture(name);
      const report = okReport(parseJunit(run.junitXml ?? ""));
      const truth = run.truth!;
      // JUnit writes a non-strict XPASS as a plain pass, so those ids move from skipped to passed there.
      const xpassed = truth.skipped.filter((id) => !report.skipped.includes(id));
      expect({ passed: [...report.passed].sort(), failed: [...report.failed].sort(), skipped: [...report.skipped].sort() }).toEqual({
        passed: [...truth.passed, ...xpassed].sort(),
        failed: truth.failed,
        skipped: truth.skipped.filter((id) => !xpassed.includes(id)),
      });
    },
  );

  it.each([0.2, 0.5, 0.9, 0.999])("a report cut at %s of its length is invalid", (fraction) => {
    const xml = loadCapture("py9-rA-all").junitXml ?? "";
    expect(parseJunit(xml.slice(0, Math.floor(xml.length * fraction))).status).toEqual("invalid");
  });
});

describe("reports that must not be trusted", () => {
  it.each([
    ["empty", "", "invalid"],
    ["whitespace", "  \n", "invalid"],
    ["garbage", "this is not xml", "invalid"],
    ["unclosed tags", '<testsuite tests="10"><testcase name="a" classname="c">', "invalid"],
    ["no suite", "<report><x/></report>", "invalid"],
    ["a suite", '<testsuite tests="1" failures="0" errors="0" skipped="0"><testcase classname="c" name="a"/></testsuite>', "ok"],
  ])("%s -> %s", (_name, xml, status) => {
    expect(parseJunit(xml).status).toEqual(status);
  });

  it("children win over attribute counts, and the mismatch is flagged", () => {
    const report = okReport(
      parseJunit(
        '<testsuites><testsuite tests="0" failures="0" errors="0"><testcase classname="example.com/p" name="TestMain"><failure message="exit 1"/></testcase></testsuite></testsuites>',
      ),
    );
    expect({ failed: report.failed, passed: report.passed, countMismatch: report.countMismatch }).toEqual({
      failed: ["example.com/p::TestMain"],
      passed: [],
      countMismatch: true,
    });
  });

  it("a collection error with no testcase children counts as no tests and mismatches", () => {
    const report = okReport(parseJunit('<testsuite errors="1" failures="0" tests="0" skipped="0"></testsuite>'));
    expect({ cases: report.cases.length, countMismatch: report.countMismatch, totals: report.totals }).toEqual({
      cases: 0,
      countMismatch: true,
      totals: { tests: 0, failures: 0, errors: 1, skipped: 0 },
    });
  });

  it.each([
    ["older than the run", "2026-01-01T10:00:00Z", "2026-01-01T09:59:59Z", true],
    ["written after the start", "2026-01-01T10:00:00Z", "2026-01-01T10:00:05Z", false],
    ["no start time given", undefined, "2026-01-01T09:00:00Z", false],
  ])("stale when %s", (_name, startedAt, mtime, stale) => {
    const report = parseJunit('<testsuite tests="0"></testsuite>', { startedAt, mtime });
    expect(report.stale).toEqual(stale);
  });
});

describe("node --test's junit reporter", () => {
  // As node 20 writes it: top-level tests straight under <testsuites>, one nested <testsuite> per
  // describe whose counts include its inner suites' tests.
  const NODE_REPORT = [
    "<testsuites>",
    '<testcase name="adds" classname="test"/>',
    '<testcase name="later" classname="test"><skipped type="todo" message="true"/></testcase>',
    '<testsuite name="multiplication" tests="2" failures="0" errors="0" skipped="0">',
    '<testcase name="multiplies" classname="test"/>',
    '<testsuite name="by zero" tests="1" failures="0" errors="0" skipped="0"><testcase name="gives zero" classname="test"/></testsuite>',
    "</testsuite>",
    "</testsuites>",
  ].join("\n");

  it("reads top-level cases and counts nested suites once", () => {
    const report = okReport(parseJunit(NODE_REPORT));
    expect({ passed: report.passed, skipped: report.skipped, totals: report.totals, countMismatch: report.countMismatch }).toEqual({
      passed: ["test::adds", "test::multiplies", "test::gives zero"],
      skipped: ["test::later"],
      totals: { tests: 2, failures: 0, errors: 0, skipped: 0 },
      countMismatch: false,
    });
  });

  it("an outer suite whose count leaves out a nested case is a mismatch", () => {
    const report = okReport(parseJunit(NODE_REPORT.replace('name="multiplication" tests="2"', 'name="multiplication" tests="1"')));
    expect(report.countMismatch).toBe(true);
  });

  it("a report of top-level cases only is readable; one with no case and no suite is not", () => {
    expect(parseJunit('<testsuites><testcase name="a" classname="test"/></testsuites>').status).toEqual("ok");
    expect(parseJunit("<testsuites></testsuites>")).toMatchObject({ status: "invalid", reason: "no <testsuite> element" });
  });
});

describe("junitCaseId", () => {
  it.each([
    ["tests.test_a.TestC", "test_x[caf\\xe9]", "tests/test_a.py", "tests/test_a.py::TestC::test_x[caf\\xe9]"],
    ["tests.test_a", "test_y", "tests/test_a.py", "tests/test_a.py::test_y"],
    ["tests.test_a.TestC", "test_z", null, "tests.test_a.TestC::test_z"],
    ["example.com/p", "TestA/sub", null, "example.com/p::TestA/sub"],
    ["", "tests_broken.test_collect_error", null, "tests_broken/test_collect_error.py"],
  ])("%s / %s / %s -> %s", (classname, name, file, id) => {
    expect(junitCaseId(classname, name, file)).toEqual(id);
  });
});
