// The labelled claim sentences of test/fixtures/claims/<lang>.json and how the detector scores on them:
// pass-claim precision and recall, disclosure recall and precision, and scope agreement.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { type ClaimKind, type ClaimScope, detectClaims } from "../../src/audit/claims.js";

/** One labelled sentence. */
export interface ClaimRow {
  text: string;
  expected: { kind: ClaimKind; scope: ClaimScope }[];
  /** What the sentence is: pass, disclosure, partial, not-run, plan, checklist, criterion, hedge, ... */
  form: string;
  /** Not looked at while the detector was tuned. */
  heldOut: boolean;
  /** `tables`: written with the tables, before the detector; `fresh`: gathered after it, scored once. */
  batch: "tables" | "fresh";
  /** Where it was taken or adapted from, or "written". */
  source: string;
}

/** One language's table. */
export interface ClaimTable {
  language: string;
  name: string;
  rows: ClaimRow[];
}

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "claims");

/** Every table under test/fixtures/claims, by file name order. */
export function loadClaimTables(): ClaimTable[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as ClaimTable);
}

/** Counts over a set of rows; a detected claim matches an expected one of the same kind. */
export interface ClaimScores {
  rows: number;
  passExpected: number;
  passFound: number;
  passTrue: number;
  disclosureExpected: number;
  disclosureFound: number;
  disclosureTrue: number;
  scopeMatched: number;
  scopeAgreed: number;
  /** Sentences whose claims differ from the labels, with both. */
  misses: string[];
}

const isDisclosureKind = (kind: ClaimKind): boolean => kind !== "pass";

/** Scores the detector on `rows`. */
export function scoreClaimRows(rows: readonly ClaimRow[]): ClaimScores {
  const scores: ClaimScores = {
    rows: rows.length,
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
  for (const row of rows) {
    const found = detectClaims(row.text).map((claim) => ({ kind: claim.kind, scope: claim.scope }));
    const remaining = [...found];
    let missed = false;
    for (const expected of row.expected) {
      const at = remaining.findIndex((claim) => claim.kind === expected.kind);
      if (expected.kind === "pass") scores.passExpected += 1;
      else scores.disclosureExpected += 1;
      if (at < 0) {
        missed = true;
        continue;
      }
      const [claim] = remaining.splice(at, 1);
      if (expected.kind === "pass") scores.passTrue += 1;
      else scores.disclosureTrue += 1;
      scores.scopeMatched += 1;
      if (JSON.stringify(claim!.scope) === JSON.stringify(expected.scope)) scores.scopeAgreed += 1;
      else missed = true;
    }
    scores.passFound += found.filter((claim) => claim.kind === "pass").length;
    scores.disclosureFound += found.filter((claim) => isDisclosureKind(claim.kind)).length;
    if (missed || remaining.length > 0)
      scores.misses.push(
        `${JSON.stringify(row.text)} [${row.form}]: expected ${JSON.stringify(row.expected)}, found ${JSON.stringify(found)}`,
      );
  }
  return scores;
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole);

/** The figures of a score: precision and recall of pass claims, recall and precision of disclosures, scope agreement. */
export function claimFigures(scores: ClaimScores): {
  passPrecision: number;
  passRecall: number;
  disclosureRecall: number;
  disclosurePrecision: number;
  scopeAgreement: number;
} {
  return {
    passPrecision: ratio(scores.passTrue, scores.passFound),
    passRecall: ratio(scores.passTrue, scores.passExpected),
    disclosureRecall: ratio(scores.disclosureTrue, scores.disclosureExpected),
    disclosurePrecision: ratio(scores.disclosureTrue, scores.disclosureFound),
    scopeAgreement: ratio(scores.scopeAgreed, scores.scopeMatched),
  };
}

const cell = (part: number, whole: number): string =>
  `${((whole === 0 ? 1 : part / whole) * 100).toFixed(1)}% ${`${part}/${whole}`.padStart(5)}`.padStart(13);

/** A fixed-width table of the figures, one line per language and split. */
export function renderClaimFigures(lines: { language: string; split: string; scores: ClaimScores }[]): string {
  const head = `${"language".padEnd(11)} ${"split".padEnd(9)} rows ${"pass P".padStart(13)} ${"pass R".padStart(13)} ${"discl R".padStart(13)} ${"discl P".padStart(13)} ${"scope".padStart(13)}`;
  const body = lines.map(({ language, split, scores: s }) =>
    [
      language.padEnd(11),
      split.padEnd(9),
      String(s.rows).padStart(4),
      cell(s.passTrue, s.passFound),
      cell(s.passTrue, s.passExpected),
      cell(s.disclosureTrue, s.disclosureExpected),
      cell(s.disclosureTrue, s.disclosureFound),
      cell(s.scopeAgreed, s.scopeMatched),
    ].join(" "),
  );
  return [head, ...body].join("\n");
}
