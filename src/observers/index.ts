// The output parsers' public names: runner parsers, the JUnit reader and target coverage.
export type { FinalSummary, ForgeryKind, ForgerySignal, MarkerKind, OutputParser, ParsedRunOutput, RunMarker } from "./types.js";
export { stripAnsi } from "./lines.js";
export { IdTable, mergeOutcomeIds } from "./id-table.js";
export type { OutcomeIds } from "./id-table.js";
export { createPytestParser, parsePytest, parsePytestSummaryBody, splitPytestIdMessage } from "./pytest.js";
export { createGoTestParser, parseGoTest } from "./go-test.js";
export { createNodeTestParser, NODE_TEST_ID_SEPARATOR, parseNodeTest } from "./node-test.js";
export { createVitestParser, parseVitest, VITEST_ID_SEPARATOR } from "./vitest.js";
export { createJestParser, JEST_FILE_SEPARATOR, JEST_NAME_SEPARATOR, parseJest } from "./jest.js";
export { createMochaParser, MOCHA_ID_SEPARATOR, parseMocha } from "./mocha.js";
export { CARGO_ID_SEPARATOR, createCargoParser, parseCargo } from "./cargo.js";
export { createDjangoParser, parseDjango, readUnittestStatus, unittestId } from "./django.js";
export { createJunitParser, isStaleReport, junitCaseId, parseJunit } from "./junit.js";
export type { JunitCase, JunitReport, JunitReportInvalid, JunitReportOk, JunitTiming, JunitTotals } from "./junit.js";
export {
  goPackageMatches,
  goTargetCovers,
  isWholeWorkspaceTarget,
  pytestTargetCovers,
  unittestLabel,
  unittestTargetCovers,
} from "./target-match.js";
