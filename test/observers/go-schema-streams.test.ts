// Newer go test -json events (start, build-output, build-fail + FailedBuild, attr) on streams written
// to the documented test2json schema (Go 1.19 here cannot print them); see test/fixtures/go-streams.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { parseGoTest } from "../../src/observers/index.js";

const DIR = join(import.meta.dirname, "../fixtures/go-streams");

describe("go test -json streams written to the schema", () => {
  it.each([
    [
      "build-fail.schema-go1.24.jsonl",
      {
        passed: ["example.com/m/calc::TestAdd"],
        failed: [],
        skipped: [],
        markers: ["build-failure"],
        packages: { "packages passed": 1, "packages failed": 1, "packages skipped": 0, passed: 1, failed: 0, skipped: 0 },
      },
    ],
    [
      "attr.schema-go1.25.jsonl",
      {
        passed: ["example.com/m/attr::TestAttr", "example.com/m/attr::TestAttr/sub"],
        failed: [],
        skipped: [],
        markers: [],
        packages: { "packages passed": 1, "packages failed": 0, "packages skipped": 0, passed: 2, failed: 0, skipped: 0 },
      },
    ],
    [
      "timeout.schema-go1.20.jsonl",
      {
        passed: ["example.com/m/slow::TestQuick"],
        failed: ["example.com/m/slow::TestSlow"],
        skipped: [],
        markers: ["timeout"],
        packages: { "packages passed": 0, "packages failed": 1, "packages skipped": 0, passed: 1, failed: 1, skipped: 0 },
      },
    ],
    [
      "clipped.schema-go1.20.jsonl",
      { passed: ["example.com/m/calc::TestAdd"], failed: [], skipped: [], markers: ["incomplete"], packages: null },
    ],
  ])("%s", (file, expected) => {
    const parsed = parseGoTest(readFileSync(join(DIR, file), "utf8"));
    expect({
      passed: [...parsed.passed].sort(),
      failed: parsed.failed,
      skipped: parsed.skipped,
      markers: parsed.markers.map((m) => m.kind).sort(),
      packages: parsed.summary?.counts ?? null,
    }).toEqual(expected);
  });
});

describe("go test -json shapes from public reports", () => {
  it.each([
    [
      "a non-JSON line inside the stream is skipped",
      [
        '{"Action":"run","Package":"p","Test":"TestA"}',
        "|||This line is not valid test2json output.|||",
        '{"Action":"pass","Package":"p","Test":"TestA"}',
        '{"Action":"pass","Package":"p"}',
      ],
      { passed: ["p::TestA"], failed: [], markers: [] },
    ],
    [
      "a test with run and a panic but no fail event fails with its package",
      [
        '{"Action":"run","Package":"p","Test":"TestWait"}',
        '{"Action":"output","Package":"p","Test":"TestWait","Output":"panic: boom\\n"}',
        '{"Action":"fail","Package":"p"}',
      ],
      { passed: [], failed: ["p::TestWait"], markers: [] },
    ],
    [
      "a parent FAIL wins over its passing subtests",
      [
        '{"Action":"run","Package":"p","Test":"TestParent"}',
        '{"Action":"run","Package":"p","Test":"TestParent/a"}',
        '{"Action":"pass","Package":"p","Test":"TestParent/a"}',
        '{"Action":"fail","Package":"p","Test":"TestParent"}',
        '{"Action":"fail","Package":"p"}',
      ],
      { passed: ["p::TestParent/a"], failed: ["p::TestParent"], markers: [] },
    ],
  ])("%s", (_name, lines, expected) => {
    const parsed = parseGoTest(lines.join("\n"));
    expect({ passed: parsed.passed, failed: parsed.failed, markers: parsed.markers.map((m) => m.kind) }).toEqual(expected);
  });
});
