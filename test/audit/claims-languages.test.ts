// Claims in Chinese, French, Spanish, German, Japanese and Portuguese (issue 15, item 6), scored on the
// labelled sentences of test/fixtures/claims/<lang>.json: real phrasings from public agent reports,
// plans and PR templates, with hard negatives. Tuning rows were looked at while the detector was
// written; held-out rows were not ("tables": written with the tables before the detector; "fresh":
// gathered after it and scored once). A false pass claim is the costly error: precision of pass claims
// is 1.0 on the tuning rows. The figures are printed, and docs/audit.md quotes them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { detectClaims } from "../../src/audit/claims.js";
import {
  claimFigures,
  type ClaimRow,
  type ClaimScores,
  loadClaimTables,
  renderClaimFigures,
  scoreClaimRows,
} from "../support/claim-scores.js";
import { CLAIM_TABLE } from "./claims-table.js";

const tables = loadClaimTables();
const tuning = (rows: readonly ClaimRow[]): ClaimRow[] => rows.filter((row) => !row.heldOut);
const heldOut = (rows: readonly ClaimRow[], batch: ClaimRow["batch"]): ClaimRow[] =>
  rows.filter((row) => row.heldOut && row.batch === batch);

const scored = tables.map((table) => ({
  table,
  tuning: scoreClaimRows(tuning(table.rows)),
  tablesHeldOut: scoreClaimRows(heldOut(table.rows, "tables")),
  fresh: scoreClaimRows(heldOut(table.rows, "fresh")),
}));

function sum(list: readonly ClaimScores[]): ClaimScores {
  const total: ClaimScores = {
    rows: 0,
    passExpected: 0,
    passFound: 0,
    passTrue: 0,
    disclosureExpected: 0,
    disclosureFound: 0,
    disclosureTrue: 0,
    scopeMatched: 0,
    scopeAgreed: 0,
    misses: [],
  };
  for (const s of list) {
    for (const key of [
      "rows",
      "passExpected",
      "passFound",
      "passTrue",
      "disclosureExpected",
      "disclosureFound",
      "disclosureTrue",
      "scopeMatched",
      "scopeAgreed",
    ] as const)
      total[key] += s[key];
    total.misses.push(...s.misses);
  }
  return total;
}

const english: ClaimRow[] = CLAIM_TABLE.map(([text, expected]) => ({
  text,
  expected,
  form: "en",
  heldOut: false,
  batch: "tables",
  source: "test/audit/claims-table.ts",
}));

describe("claims in six more languages, on the labelled tables", () => {
  it("prints the per-language table (npx vitest run test/audit/claims-languages.test.ts)", () => {
    const lines = scored.flatMap(({ table, tuning: t, tablesHeldOut: h, fresh: f }) => [
      { language: table.name, split: "tuning", scores: t },
      { language: table.name, split: "held-out", scores: h },
      { language: table.name, split: "fresh", scores: f },
    ]);
    lines.push(
      { language: "all six", split: "tuning", scores: sum(scored.map((s) => s.tuning)) },
      { language: "all six", split: "held-out", scores: sum(scored.map((s) => s.tablesHeldOut)) },
      { language: "all six", split: "fresh", scores: sum(scored.map((s) => s.fresh)) },
      { language: "English", split: "table", scores: scoreClaimRows(english) },
    );
    console.log(
      `${renderClaimFigures(lines)}\n\nHeld-out and fresh rows the detector reads differently from the labels:\n${scored.flatMap((s) => [...s.tablesHeldOut.misses, ...s.fresh.misses].map((miss) => `  ${s.table.language} ${miss}`)).join("\n")}`,
    );
    expect(lines).toHaveLength(tables.length * 3 + 4);
  });

  it("has six tables of at least 30 sourced sentences, a third or more held out, with every form", () => {
    expect(tables.map((table) => table.language).sort()).toEqual(["de", "es", "fr", "ja", "pt", "zh"]);
    for (const table of tables) {
      expect(table.rows.length, table.language).toBeGreaterThanOrEqual(30);
      expect(table.rows.filter((row) => row.heldOut).length * 3, table.language).toBeGreaterThanOrEqual(table.rows.length);
      expect(
        table.rows.filter((row) => row.source.trim().length === 0),
        table.language,
      ).toEqual([]);
      const forms = new Set(table.rows.map((row) => row.form));
      for (const form of [
        "pass",
        "disclosure",
        "partial",
        "not-run",
        "plan",
        "checklist",
        "hedge",
        "question",
        "reported",
        "other-branch",
        "conditional",
      ])
        expect(forms.has(form), `${table.language} ${form}`).toBe(true);
    }
  });

  it.each(scored.map((s) => [s.table.name, s] as const))("%s: no false pass claim and every claim found on the tuning rows", (_name, s) => {
    expect({ figures: claimFigures(s.tuning), misses: s.tuning.misses }).toEqual({
      figures: { passPrecision: 1, passRecall: 1, disclosureRecall: 1, disclosurePrecision: 1, scopeAgreement: 1 },
      misses: [],
    });
  });

  it.each(scored.map((s) => [s.table.name, s] as const))(
    "%s: held-out rows (written with the tables) stay at their measured floors",
    (_name, s) => {
      const f = claimFigures(s.tablesHeldOut);
      expect({
        passPrecision: f.passPrecision >= HELD_OUT_FLOORS.passPrecision,
        passRecall: f.passRecall >= HELD_OUT_FLOORS.passRecall,
        disclosureRecall: f.disclosureRecall >= HELD_OUT_FLOORS.disclosureRecall,
      }).toEqual({ passPrecision: true, passRecall: true, disclosureRecall: true });
    },
  );

  it("fresh rows (gathered after the detector) stay at their measured floors, all six together", () => {
    const f = claimFigures(sum(scored.map((s) => s.fresh)));
    expect({
      passPrecision: f.passPrecision >= FRESH_FLOORS.passPrecision,
      passRecall: f.passRecall >= FRESH_FLOORS.passRecall,
      disclosureRecall: f.disclosureRecall >= FRESH_FLOORS.disclosureRecall,
    }).toEqual({ passPrecision: true, passRecall: true, disclosureRecall: true });
  });
});

// Floors at the figures the detector meets now. The first score of the held-out rows, before the
// fixes it prompted, is in docs/audit.md: held-out (tables) pass precision 1.0, pass recall 0.935,
// disclosure recall 1.0; fresh pass precision 0.774, pass recall 0.889, disclosure recall 0.741.
const HELD_OUT_FLOORS = { passPrecision: 1, passRecall: 1, disclosureRecall: 1 };
const FRESH_FLOORS = { passPrecision: 0.84, passRecall: 1, disclosureRecall: 0.92 };

describe("claims in six more languages: robustness", () => {
  // Keywords of every table, shuffled into one 200 kB message with no sentence end, and the same
  // words as many short sentences: the detector runs on every final message.
  const words = [
    "所有",
    "测试",
    "通过",
    "失败",
    "未运行测试",
    "tous",
    "les",
    "tests",
    "passent",
    "échouent",
    "todos",
    "pasan",
    "fallan",
    "alle",
    "grün",
    "schlagen",
    "fehl",
    "テスト",
    "すべて",
    "パスしました",
    "失敗しています",
    "testes",
    "passam",
    "falham",
    "`test_a`",
    "3/5",
    "5",
    "个",
    "件",
    "si",
    "wenn",
    "如果",
    "(",
    ")",
    "→",
    "1 failed",
  ];
  const long = Array.from({ length: 40_000 }, (_, index) => words[(index * 7) % words.length])
    .join(" ")
    .slice(0, 200_000);

  it("reads a 200 kB message in a few seconds at most, as one sentence and as many (about 1.3 s here)", () => {
    const started = performance.now();
    detectClaims(long);
    detectClaims(long.replace(/ /g, "。"));
    // A runaway (backtracking) guard, not a speed figure.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("never throws on arbitrary text in any script", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...words), fc.string({ unit: "grapheme", maxLength: 8 })), { maxLength: 60 }),
        (parts) => {
          detectClaims(parts.join(" "));
        },
      ),
      { numRuns: 300, seed: 15 },
    );
  });
});
