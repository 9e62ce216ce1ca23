// Django's runners: `python tests/runtests.py` (Django's own suite), `manage.py test`,
// `django-admin test`, `python -m django test`. Results on stderr in unittest's format.
import { posix } from "node:path";

import { createDjangoParser } from "../observers/django.js";
import { unittestTargetCovers } from "../observers/target-match.js";
import { givenOptions, optionWords, readArgumentsWith } from "./arguments.js";
import {
  RUNNER_SPEC_VERSION,
  type RunnerArguments,
  type RunnerDefinition,
  type RunnerRecognition,
  type RunnerWords,
} from "./definition.js";
import { hasOption, type OptionTable, optionValues, type ScannedArgs } from "./option-scanner.js";
import { DJANGO_FAMILY } from "./target-families.js";
import { UNITTEST_VERDICT_RE } from "./unittest.js";

const integer = (next: string): boolean => /^\d+$/.test(next);

/** Django's own `tests/runtests.py`. */
export const DJANGO_RUNTESTS_OPTIONS: OptionTable = {
  clusters: true,
  valued: optionWords(`
    -v -k --verbosity --settings --tag --exclude-tag --start-after --start-at --selenium --selenium-hub
    --external-host --bisect --pair --durations --screenshots-dir
  `),
  optional: new Map([
    ["--parallel", (next) => integer(next) || next === "auto"],
    ["--shuffle", integer],
  ]),
};

/** `manage.py test` / `django-admin test` / `python -m django test`. */
export const DJANGO_MANAGE_OPTIONS: OptionTable = {
  clusters: true,
  valued: optionWords(`
    -v -k -t -p --verbosity --settings --pythonpath --tag --exclude-tag --top-level-directory --pattern --testrunner
    --durations
  `),
  optional: new Map([
    ["--parallel", (next) => integer(next) || next === "auto"],
    ["--shuffle", integer],
  ]),
};

function readDjango(scanned: ScannedArgs, result: RunnerArguments): void {
  result.selection = givenOptions(scanned, [
    "--tag",
    "--exclude-tag",
    "-k",
    "--start-after",
    "--start-at",
    "--bisect",
    "--pair",
    "-p",
    "--pattern",
  ]);
  if (hasOption(scanned, ["-h", "--help", "--version"])) result.runsTests = false;
  result.verbose = optionValues(scanned, ["-v", "--verbosity"]).some((v) => Number(v) >= 2);
}

function recognizeDjango({ words, program, python, workspaceName }: RunnerWords): RunnerRecognition | null {
  if (program === "django-admin" && words[1] === "test") return { end: 2, syntax: "manage" };
  if (python === null) return null;
  if ("module" in python)
    return python.module === "django" && words[python.next] === "test" ? { end: python.next + 1, syntax: "manage" } : null;
  const normalized = posix.normalize(python.script);
  if (/(^|\/)tests\/runtests\.py$/.test(normalized) || (normalized === "runtests.py" && workspaceName === "tests"))
    return { end: python.next, syntax: "runtests" };
  if (posix.basename(normalized) === "manage.py" && words[python.next] === "test") return { end: python.next + 1, syntax: "manage" };
  return null;
}

/** Django's test runners. */
export const djangoRunner: RunnerDefinition = {
  specVersion: RUNNER_SPEC_VERSION,
  kind: "django",
  recognize: recognizeDjango,
  readArguments: (args, syntax) =>
    readArgumentsWith(syntax === "runtests" ? DJANGO_RUNTESTS_OPTIONS : DJANGO_MANAGE_OPTIONS, args, readDjango),
  resultStream: "stderr",
  identityScope: "python",
  exitCodes: { 5: "no-tests-ran" },
  startErrors: [{ needle: "No module named", pattern: /: No module named django$/ }],
  createParser: () => createDjangoParser("django"),
  split: { by: "verdict-line", pattern: UNITTEST_VERDICT_RE },
  family: DJANGO_FAMILY,
  covers: unittestTargetCovers,
};
