// The harness itself: every case was captured, and the truth hooks recorded what ran.
import { beforeAll, describe, expect, it } from "vitest";

import { ensureCaptured, loadCapture } from "./capture.js";
import { CAPTURE_CASES } from "./capture-cases.js";

beforeAll(async () => {
  await ensureCaptured();
});

describe("capture harness", () => {
  it.each(CAPTURE_CASES.filter((c) => c.truth !== "none").map((c) => c.name))("%s recorded a truth", (name) => {
    const run = loadCapture(name);
    expect(run.truth).not.toBeNull();
  });

  it("captured every case with an exit status", () => {
    const statuses = CAPTURE_CASES.map((c) => typeof loadCapture(c.name).exitCode);
    expect(new Set(statuses)).toEqual(new Set(["number"]));
  });
});
