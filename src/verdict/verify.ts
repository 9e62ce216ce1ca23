// Re-hashes the files a verdict names and says whether the verdict still matches them.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { verdictSchema, type Verdict } from "./schema.js";

/** The result of {@link verifyVerdictFile}. */
export interface VerifyVerdictResult {
  ok: boolean;
  problems: string[];
  verdict: Verdict | null;
}

function sha256File(path: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return null;
  }
}

/** Checks a verdict.json: it parses against the schema and the log (and report) hash as recorded. */
export function verifyVerdictFile(path: string): VerifyVerdictResult {
  let verdict: Verdict;
  try {
    verdict = verdictSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  } catch (error) {
    return { ok: false, problems: [`verdict does not parse: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`], verdict: null };
  }
  const problems: string[] = [];
  const logHash = sha256File(verdict.log);
  if (logHash === null) problems.push(`log missing: ${verdict.log}`);
  else if (logHash !== verdict.logSha256) problems.push(`log changed: ${verdict.log}`);
  if (verdict.junitPath !== null && verdict.junitSha256 !== null) {
    const reportHash = sha256File(verdict.junitPath);
    if (reportHash === null) problems.push(`report missing: ${verdict.junitPath}`);
    else if (reportHash !== verdict.junitSha256) problems.push(`report changed: ${verdict.junitPath}`);
  }
  return { ok: problems.length === 0, problems, verdict };
}
