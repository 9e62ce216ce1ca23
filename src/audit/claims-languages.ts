// The claim detectors for languages other than English, one table each. Adding a language is one
// claims-<code>.ts table and one line here.
import { german } from "./claims-de.js";
import { spanish } from "./claims-es.js";
import { french } from "./claims-fr.js";
import { japanese } from "./claims-ja.js";
import { type ClaimLanguageTable, createTableDetector } from "./claims-language.js";
import { portuguese } from "./claims-pt.js";
import type { ClaimDetector } from "./claims-types.js";
import { chinese } from "./claims-zh.js";

/** The tables of claim forms, in the order their detectors run. */
export const CLAIM_LANGUAGE_TABLES: readonly ClaimLanguageTable[] = [chinese, french, spanish, german, japanese, portuguese];

/** One detector per table. */
export const CLAIM_LANGUAGES: readonly ClaimDetector[] = CLAIM_LANGUAGE_TABLES.map(createTableDetector);
