// Where `agent-evidence run` adds a runner's JUnit report argument, per runner definition.
import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { instrumentRun } from "../../src/verdict/instrument.js";

const REPORT = "/tmp/out/report.xml";
const NODE_REPORTERS = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=${REPORT}`;

function instrument(line: string): string | null {
  return instrumentRun(line, analyzeCommand(line), REPORT);
}

describe("instrumentRun", () => {
  it.each([
    ["python -m pytest -q tests", `python -m pytest -q tests --junitxml=${REPORT}`],
    ["cd sub && pytest -q | tail -5", `cd sub && pytest -q --junitxml=${REPORT} | tail -5`],
    // node reads its options only before the first file: they go right after `node`.
    ["node --test sub/", `node ${NODE_REPORTERS} --test sub/`],
    ["timeout 60 node --test test/a.test.js", `timeout 60 node ${NODE_REPORTERS} --test test/a.test.js`],
    ["env MODE=node node --test", `env MODE=node node ${NODE_REPORTERS} --test`],
  ])("%s -> %s", (line, expected) => {
    expect(instrument(line)).toEqual(expected);
  });

  it.each([
    // The run chose its reporters (or where they write): adding ours would change what it prints.
    "node --test --test-reporter=tap sub/",
    "node --test --test-reporter-destination=out.txt sub/",
    // Two runs, a report the run writes already, arguments after `--`.
    "pytest a; pytest b",
    "pytest --junitxml=mine.xml",
    "pytest -- tests",
  ])("%s is left as it is", (line) => {
    expect(instrument(line)).toBeNull();
  });
});
