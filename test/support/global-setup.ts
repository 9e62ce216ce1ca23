// vitest globalSetup: captures the real runners' output on the fixture projects once per suite run.
import { ensureCaptured } from "./capture.js";

export default async function captureRunners(): Promise<void> {
  await ensureCaptured({ fresh: true });
}
