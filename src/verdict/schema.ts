// The verdict document: field names and values of the documented format teams already use.
import { z } from "zod";

/** Status of a verdict: the library's `unknown` is `incomplete` here. */
export const verdictStatusSchema = z.enum(["passed", "failed", "incomplete"]);

/** State of the JUnit report (snake_case values of the documented format). */
export const junitStateSchema = z.enum(["ok", "missing_junit", "malformed_junit", "no_testsuite", "empty_suite", "stale_junit", "not_applicable"]);

/** A gate finding (pytest-cov's threshold) reported apart from the test outcome. */
export const gateSchema = z.object({
  kind: z.literal("coverage"),
  passed: z.boolean(),
  detail: z.string(),
});

/** One judged runner invocation inside the verdict. */
export const verdictRunSchema = z.object({
  kind: z.enum(["pytest", "go", "django", "unittest"]),
  runner: z.string(),
  outcome: z.enum(["passed", "failed", "unknown"]),
  passed: z.array(z.string()),
  failed: z.array(z.string()),
  reasons: z.array(z.string()),
});

/** The zod schema of `verdict.json` (schemaVersion 1). */
export const verdictSchema = z.object({
  schemaVersion: z.literal(1),
  status: verdictStatusSchema,
  reasons: z.array(z.string()),
  runnerExit: z.number().int().nullable(),
  truncatedLog: z.boolean(),
  junit: junitStateSchema,
  tests: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  gates: z.array(gateSchema),
  logSha256: z.string().regex(/^[0-9a-f]{64}$/),
  junitSha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  bytes: z.number().int().nonnegative(),
  command: z.string(),
  instrumentedCommand: z.string().nullable(),
  cwd: z.string(),
  log: z.string(),
  junitPath: z.string().nullable(),
  startedAt: z.string(),
  durationMs: z.number().int().nonnegative(),
  timedOut: z.boolean(),
  runs: z.array(verdictRunSchema),
});

/** The verdict document. */
export type Verdict = z.infer<typeof verdictSchema>;

/** Status codes of `agent-evidence run`. */
export const VERDICT_EXIT = { passed: 0, failed: 1, incomplete: 2, passedWithFailedGate: 3 } as const;

/** The exit status for a verdict: 0 passed, 1 failed, 2 incomplete, 3 passed with a failed gate. */
export function verdictExitCode(verdict: Pick<Verdict, "status" | "gates">): number {
  switch (verdict.status) {
    case "passed":
      return verdict.gates.some((g) => !g.passed) ? VERDICT_EXIT.passedWithFailedGate : VERDICT_EXIT.passed;
    case "failed":
      return VERDICT_EXIT.failed;
    case "incomplete":
      return VERDICT_EXIT.incomplete;
    default: {
      const never: never = verdict.status;
      return never;
    }
  }
}
