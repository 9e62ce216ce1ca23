export const GRAMMAR_FORMAT: string;
export const GRAMMAR_ENTRIES: string[];
export function buildGrammarPack(): Buffer;
