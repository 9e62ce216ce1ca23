// The detectors' quick tests (ClaimLanguageTable.quick, the English detector's first test) are filters
// for speed only: a detector with its quick test finds exactly the claims it finds without it, on
// every labelled sentence of every language, and English sentences (the bulk of real agent messages)
// rarely get past another language's quick test into its full patterns.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { createEnglishDetector } from "../../src/audit/claims-english.js";
import { createTableDetector } from "../../src/audit/claims-language.js";
import { CLAIM_LANGUAGE_TABLES } from "../../src/audit/claims-languages.js";
import { splitMessageSentences } from "../../src/audit/message-text.js";
import { loadClaimTables } from "../support/claim-scores.js";
import { CLAIM_TABLE } from "./claims-table.js";

const corpus = join(import.meta.dirname, "../fixtures/transcripts/claude-code");

// The assistant text blocks of the real Claude Code corpus.
function corpusMessages(): string[] {
  const texts: string[] = [];
  for (const file of readdirSync(corpus, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(corpus, file), "utf8").split("\n")) {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      const content =
        (record as { type?: string; message?: { content?: unknown } }).type === "assistant"
          ? (record as { message: { content?: unknown } }).message.content
          : undefined;
      if (!Array.isArray(content)) continue;
      for (const block of content as { type?: unknown; text?: unknown }[])
        if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
    }
  }
  return texts;
}

const english = [...CLAIM_TABLE.map(([text]) => text), ...corpusMessages()];
const labelled = [...loadClaimTables().flatMap((table) => table.rows.map((row) => row.text)), ...english];

describe("the claim detectors' quick tests", () => {
  it("drop no English claim: the English detector finds the same claims with and without its quick test", () => {
    const withQuick = createEnglishDetector();
    const without = createEnglishDetector({ quick: false });
    let claims = 0;
    for (const text of labelled) {
      for (const sentence of splitMessageSentences(text)) {
        const found = without.detect(sentence);
        claims += found.length;
        expect(withQuick.detect(sentence), sentence.text).toEqual(found);
      }
    }
    expect(claims).toBeGreaterThan(120);
  });

  it("drop no claim of another language: each table finds the same claims with and without it, on every labelled sentence", () => {
    expect(labelled.length).toBeGreaterThan(500);
    for (const table of CLAIM_LANGUAGE_TABLES) {
      const withQuick = createTableDetector(table);
      const without = createTableDetector({ ...table, quick: "" });
      let claims = 0;
      for (const text of labelled) {
        for (const sentence of splitMessageSentences(text)) {
          const found = without.detect(sentence);
          claims += found.length;
          expect(withQuick.detect(sentence), `${table.code}: ${sentence.text}`).toEqual(found);
        }
      }
      expect(claims, table.code).toBeGreaterThan(20);
    }
  });

  it("lets few English sentences through to another language's full patterns", () => {
    const sentences = english.flatMap((text) => splitMessageSentences(text));
    expect(sentences.length).toBeGreaterThan(1000);
    const through = CLAIM_LANGUAGE_TABLES.map((table) => {
      const quick = new RegExp(table.quick);
      const hits = sentences.filter((sentence) => quick.test(sentence.masked.toLowerCase()));
      return { code: table.code, share: hits.length / sentences.length, examples: hits.slice(0, 5).map((s) => s.text) };
    });
    console.log(through.map((t) => `${t.code} ${(100 * t.share).toFixed(1)}%  e.g. ${JSON.stringify(t.examples.slice(0, 2))}`).join("\n"));
    for (const t of through) expect(t.share, `${t.code}: ${JSON.stringify(t.examples)}`).toBeLessThan(0.03);
  });
});
