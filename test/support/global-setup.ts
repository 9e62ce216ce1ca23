// vitest globalSetup: captures the real runners' output on the fixture projects once per suite run.
// Under CI (a fresh clone) that is always a new capture; locally, captures whose inputs hash
// (fixtures and harness) is unchanged are reused, unless AE_FRESH_CAPTURE=1.
import { ensureCaptured } from "./capture.js";

export default async function captureRunners(): Promise<void> {
  await ensureCaptured({ fresh: process.env.CI !== undefined || process.env.AE_FRESH_CAPTURE === "1" });
}
