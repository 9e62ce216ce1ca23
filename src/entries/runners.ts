/**
 * agent-evidence/runners: the runner definitions (the built-ins, and the spec a runner of your own
 * implements), the registry `analyzeCommand`, `judge`, `BashEvidence` and `evidenceTools` take to
 * know it, the output parsers, the JUnit XML reader and which ids cover a target.
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
} from "../observers/index.js";
export { RUNNER_SPEC_VERSION } from "../runners/definition.js";
export { BUILTIN_RUNNERS, createRunnerRegistry } from "../runners/registry.js";
export { pytestRunner } from "../runners/pytest.js";
export { goTestRunner } from "../runners/go.js";
export { djangoRunner } from "../runners/django.js";
export { unittestRunner } from "../runners/unittest.js";
export { DJANGO_FAMILY, GO_FAMILY, PYTHON_FAMILY } from "../runners/target-families.js";
export type {
  ExitMeaning,
  IdentityScope,
  RunnerArguments,
  RunnerDefinition,
  RunnerRecognition,
  RunnerWords,
  ShareSplit,
  StartError,
  TargetFamily,
} from "../runners/definition.js";
export type { RunnerRegistry } from "../runners/registry.js";
export type { IdForm, IdList, PackedIdList, ParserOptions } from "../observers/id-list.js";
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
} from "../observers/index.js";
