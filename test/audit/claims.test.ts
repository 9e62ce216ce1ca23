import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { detectClaims, isDisclosure } from "../../src/audit/claims.js";
import { CLAIM_TABLE } from "./claims-table.js";

interface Scores {
  precision: number;
  recall: number;
  misses: string[];
}

// Claims are matched by kind within each message; a detected claim of the wrong kind counts as a
// false positive and its expected claim as a miss.
function score(): Scores {
  let truePositives = 0;
  let detectedTotal = 0;
  let expectedTotal = 0;
  const misses: string[] = [];
  for (const [message, expected] of CLAIM_TABLE) {
    const detected = detectClaims(message).map((claim) => claim.kind);
    const remaining = [...detected];
    let hits = 0;
    for (const claim of expected) {
      const at = remaining.indexOf(claim.kind);
      if (at >= 0) {
        remaining.splice(at, 1);
        hits += 1;
      }
    }
    truePositives += hits;
    detectedTotal += detected.length;
    expectedTotal += expected.length;
    if (hits !== expected.length || remaining.length > 0)
      misses.push(`${JSON.stringify(message)}: expected ${JSON.stringify(expected.map((c) => c.kind))}, got ${JSON.stringify(detected)}`);
  }
  return {
    precision: detectedTotal === 0 ? 1 : truePositives / detectedTotal,
    recall: expectedTotal === 0 ? 1 : truePositives / expectedTotal,
    misses,
  };
}

describe("detectClaims on the table of agent sentences", () => {
  it("the table has at least 80 sentences, with hard negatives and both kinds", () => {
    expect(CLAIM_TABLE.length).toBeGreaterThanOrEqual(80);
    expect(CLAIM_TABLE.filter(([, expected]) => expected.length === 0).length).toBeGreaterThanOrEqual(30);
    expect(CLAIM_TABLE.filter(([, expected]) => expected.some((c) => c.kind === "pass")).length).toBeGreaterThanOrEqual(25);
    expect(CLAIM_TABLE.filter(([, expected]) => expected.some((c) => c.kind !== "pass")).length).toBeGreaterThanOrEqual(15);
  });

  it("reaches at least 95% precision and 90% recall", () => {
    const { precision, recall, misses } = score();
    // On failure the misses are printed with the figures, so a regression names its sentences.
    expect({ precisionOk: precision >= 0.95, recallOk: recall >= 0.9 }).toEqual({
      precisionOk: true,
      recallOk: true,
      ...(precision >= 0.95 && recall >= 0.9 ? {} : { precision, recall, misses }),
    });
  });

  it("finds the expected scope whenever it finds the expected kind", () => {
    const wrongScopes: string[] = [];
    for (const [message, expected] of CLAIM_TABLE) {
      const detected = detectClaims(message);
      for (const claim of expected) {
        const match = detected.find((found) => found.kind === claim.kind);
        if (match && JSON.stringify(match.scope) !== JSON.stringify(claim.scope))
          wrongScopes.push(`${message}: ${JSON.stringify(match.scope)} != ${JSON.stringify(claim.scope)}`);
      }
    }
    expect(wrongScopes).toEqual([]);
  });
});

describe("detectClaims", () => {
  it.each([
    ["Let me run the tests to make sure they pass.", []],
    ["All tests pass except the flaky one.", ["fail"]],
    ["3 of 5 tests pass.", ["fail"]],
    ["```\nAll tests pass.\n```", []],
    ["The `all tests pass` banner is printed at the end.", []],
    ["The whole suite passes.", ["pass"]],
    ["All tests pass.", ["pass"]],
    ["Fixed; all tests pass now.", ["pass"]],
    ["a focused test pass", []],
    ["the test passes a ragged tensor as input", []],
  ])("tricky case %j", (message, kinds) => {
    expect(detectClaims(message).map((claim) => claim.kind)).toEqual(kinds);
  });

  it("returns the sentence and its offset in the message", () => {
    const message = "I changed `parse()`.\n\nAll 12 tests pass. Next I'll update the docs.";
    expect(detectClaims(message)).toEqual([
      { kind: "pass", scope: { kind: "suite" }, sentence: "All 12 tests pass", start: message.indexOf("All 12") },
    ]);
  });

  it("marks failures and not-run sentences as disclosures and pass claims as not", () => {
    expect(detectClaims("All tests pass. test_x fails. I did not run the linter tests.").map(isDisclosure)).toEqual([false, true, true]);
  });
});

describe("detectClaims robustness", () => {
  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => {
        detectClaims(text);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it("stays fast on a long sentence, and on many short ones, built from its own keywords", () => {
    const words = ["didn't", "run", "all", "the", "tests", "pass", "fail", "`x`", "test_a", "and", "not", "3", "of", "5", "passing"];
    const long = Array.from({ length: 20_000 }, (_, index) => words[(index * 7) % words.length]).join(" ");
    const started = performance.now();
    detectClaims(long);
    detectClaims(long.replace(/ /g, ". "));
    // A runaway (backtracking) guard, not a speed figure: bench/ and docs/audit.md have those.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
