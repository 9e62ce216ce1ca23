// Re-hashes the files a verdict names and says whether the verdict still matches them.
import { hashRegularFile, NamedFileError, readRegularFile } from "../io/named-files.js";
import { type Verdict, verdictSchema } from "./schema.js";

/** The result of {@link verifyVerdictFile}. */
export interface VerifyVerdictResult {
  ok: boolean;
  problems: string[];
  verdict: Verdict | null;
}

/** The largest verdict.json read: 48 MiB (a verdict lists the ids of its runs; this is far above any). */
export const MAX_VERDICT_BYTES = 48 << 20;

// The file's hash, or why there is none: `missing` (ENOENT) or its code (`ENOTREGULAR`, `EISDIR`, ...).
// Only a regular file is hashed, in blocks: a log swapped for a FIFO or /dev/zero can not hang the check.
function sha256File(path: string): { sha: string } | { missing: true } | { code: string } {
  try {
    return { sha: hashRegularFile(path) };
  } catch (error) {
    const code = error instanceof NamedFileError ? error.code : "EIO";
    return code === "ENOENT" ? { missing: true } : { code };
  }
}

function checkFile(what: "log" | "report", path: string, expected: string, problems: string[]): void {
  const found = sha256File(path);
  if ("missing" in found) problems.push(`${what} missing: ${path}`);
  else if ("code" in found) problems.push(`${what} unreadable: ${path} (${found.code})`);
  else if (found.sha !== expected) problems.push(`${what} changed: ${path}`);
}

/** Checks a verdict.json: it parses against the schema and the log (and report) hash as recorded. */
export function verifyVerdictFile(path: string): VerifyVerdictResult {
  let verdict: Verdict;
  try {
    verdict = verdictSchema.parse(JSON.parse(readRegularFile(path, { cap: MAX_VERDICT_BYTES }).toString("utf8")));
  } catch (error) {
    if (error instanceof NamedFileError) return { ok: false, problems: [error.message], verdict: null };
    return {
      ok: false,
      problems: [`verdict does not parse: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`],
      verdict: null,
    };
  }
  const problems: string[] = [];
  checkFile("log", verdict.log, verdict.logSha256, problems);
  if (verdict.junitPath !== null && verdict.junitSha256 !== null) checkFile("report", verdict.junitPath, verdict.junitSha256, problems);
  return { ok: problems.length === 0, problems, verdict };
}
