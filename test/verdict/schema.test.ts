// docs/verdict.schema.json is z.toJSONSchema of the exported schema, and the exit statuses by status.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";
import { z } from "zod/v4";

import { verdictExitCode, verdictJsonSchema, verdictSchema } from "../../src/verdict/schema.js";

describe("verdict schema", () => {
  it("docs/verdict.schema.json equals z.toJSONSchema(verdictSchema) (regenerate: node scripts/generate-verdict-schema.mjs)", () => {
    const onDisk: unknown = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../docs/verdict.schema.json"), "utf8"));
    expect(onDisk).toEqual(z.toJSONSchema(verdictSchema));
    expect(verdictJsonSchema()).toEqual(onDisk);
  });

  it.each([
    ["passed", [], 0],
    ["passed", [{ kind: "coverage", passed: true, detail: "Required test coverage of 80% reached." }], 0],
    ["passed", [{ kind: "coverage", passed: false, detail: "FAIL Required test coverage of 100% not reached." }], 3],
    ["failed", [{ kind: "coverage", passed: false, detail: "FAIL" }], 1],
    ["incomplete", [], 2],
  ] as const)("status %s with gates %j exits %i", (status, gates, exit) => {
    expect(verdictExitCode({ status, gates: [...gates] })).toEqual(exit);
  });
});
