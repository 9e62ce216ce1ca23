// Runs the Python reference implementation of the triage tool on many inputs in one process.
import { spawnSync } from "node:child_process";

import type { PytestLogTriageResult } from "../../src/audit/triage-pytest-log.js";

// The specification, written in Python: the TypeScript port must agree with it on every input.
const REFERENCE = String.raw`
import json, re, sys
E_RULE = re.compile(r"^E\s+")
def parse(log):
    failed, errors, assertions = [], [], []
    for raw in log.splitlines():
        line = raw.strip()
        if line.startswith("FAILED"):
            failed.append(line)
        elif E_RULE.match(line):
            errors.append(line[2:])
        elif "AssertionError" in line:
            assertions.append(line)
    count = len(failed) or len(assertions) or len(errors)
    return {"failed": failed, "errors": errors, "assertions": assertions, "failureCount": count}
sys.stdout.write(json.dumps([parse(s) for s in json.loads(sys.stdin.read())]))
`;

/** The Python reference's results for `logs`, in order (one python3 process for all of them). */
export function runPythonReference(logs: readonly string[]): PytestLogTriageResult[] {
  const result = spawnSync("python3", ["-c", REFERENCE], { input: JSON.stringify(logs), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python3 reference failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as PytestLogTriageResult[];
}
