/**
 * agent-evidence/runners: the runners' output parsers, the JUnit XML reader, which ids cover a
 * target, and the observer registry (`createObserverRegistry`, seeded with `builtinObservers`) that
 * `judge`, `BashEvidence` and `evidenceTools` take to know a runner this package does not ship.
 */
export {
  stripAnsi,
  IdTable,
  mergeOutcomeIds,
  createPytestParser,
  parsePytest,
  createGoTestParser,
  parseGoTest,
  createDjangoParser,
  parseDjango,
  createJunitParser,
  parseJunit,
  isStaleReport,
  pytestTargetCovers,
  goTargetCovers,
  unittestTargetCovers,
  builtinObservers,
  createObserverRegistry,
  pytestObserver,
  goTestObserver,
  djangoObserver,
  unittestObserver,
} from "../observers/index.js";
export type {
  OutcomeIds,
  FinalSummary,
  ForgeryKind,
  ForgerySignal,
  MarkerKind,
  OutputParser,
  ParsedRunOutput,
  RunMarker,
  JunitCase,
  JunitReport,
  JunitReportInvalid,
  JunitReportOk,
  JunitTiming,
  JunitTotals,
  ObservedInvocation,
  ObserverRegistry,
  RunnerObserver,
} from "../observers/index.js";
