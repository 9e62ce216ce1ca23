// The capture harness's truth for jest: the runner's own aggregated results (what its `--json`
// prints), handed to a `--testResultsProcessor`, which prints nothing (`--json --outputFile` would
// add a `Test results written to:` line and move jest's other output to stderr). One JSON document
// per run, to the file the shim (bin/jest) names.
import { writeFileSync } from "node:fs";

export default function writeTruth(results) {
  const out = process.env.AE_JEST_TRUTH_OUT;
  if (out !== undefined && out !== "") {
    const suites = results.testResults.map((suite) => ({
      file: suite.testFilePath,
      execError:
        suite.testExecError === undefined || suite.testExecError === null
          ? null
          : String(suite.testExecError.message ?? suite.testExecError),
      tests: suite.testResults.map((test) => ({ ancestors: test.ancestorTitles, title: test.title, status: test.status })),
    }));
    writeFileSync(out, `${JSON.stringify({ success: results.success, interrupted: results.wasInterrupted, suites })}\n`);
  }
  return results;
}
