// The `diff --git <old> <new>` line: splitting its two tokens and removing the side prefixes.
// Git writes both tokens as quote(prefix + name), so a quoted token splits syntactically; an
// unquoted pair is split by the conventions Git uses (a/ b/, mnemonic, none), or from what the rest
// of the block says, and reported ambiguous when neither decides.
import { decodeGitCPath, decodeQuoted } from "./c-path.js";

/** Prefix pairs Git itself writes: default, `-R`, `diff.mnemonicPrefix` (both directions), `--no-index` mnemonic. */
export const KNOWN_PREFIX_PAIRS: readonly (readonly [string, string])[] = [
  ["a/", "b/"],
  ["b/", "a/"],
  ["c/", "w/"],
  ["w/", "c/"],
  ["c/", "i/"],
  ["i/", "c/"],
  ["i/", "w/"],
  ["w/", "i/"],
  ["o/", "w/"],
  ["w/", "o/"],
  ["1/", "2/"],
  ["2/", "1/"],
];

/** What the rest of a block says about its paths (all optional). Raw tokens are as written. */
export interface HeaderHints {
  /** The raw `---` token (TAB-terminated part removed), `/dev/null` included. */
  readonly minus?: string | undefined;
  /** The raw `+++` token. */
  readonly plus?: string | undefined;
  /** Decoded `rename from` / `copy from` name (no prefix). */
  readonly from?: string | undefined;
  /** Decoded `rename to` / `copy to` name (no prefix). */
  readonly to?: string | undefined;
}

/** The tokens of a `diff --git` header and whether the split was a guess. */
export interface HeaderSplit {
  /** Zero, one or two raw tokens (quoted tokens keep their quotes). */
  readonly tokens: readonly string[];
  /** True when more than one split was possible and nothing in the block decided. */
  readonly ambiguous: boolean;
}

const HEADER = "diff --git ";

/** Strips one trailing LF and one trailing CR: Git quotes a CR inside a name, so a bare one is a line ending. */
export function stripLineEnd(line: string): string {
  let end = line.length;
  if (line.charCodeAt(end - 1) === 0x0a) end -= 1;
  if (line.charCodeAt(end - 1) === 0x0d) end -= 1;
  return end === line.length ? line : line.slice(0, end);
}

/**
 * The raw path token of a `---`/`+++`/`rename from` value: a quoted token up to its closing quote,
 * otherwise everything before the first TAB (Git appends a TAB after names with spaces; other
 * tools put a timestamp there; a TAB inside a name is always quoted).
 */
export function pathTokenOf(value: string): string {
  if (value.charCodeAt(0) === 0x22) {
    const { end } = decodeQuoted(value, 1);
    return end < 0 ? value : value.slice(0, end);
  }
  const tab = value.indexOf("\t");
  return tab < 0 ? value : value.slice(0, tab);
}

/**
 * The two path tokens of a `diff --git` line, quoted or not, with unquoted and trailing spaces kept.
 * Pass the block's lines to resolve an ambiguous unquoted header from its `---`/`+++`/rename/copy
 * lines. Returns `[]` for a line that is not a `diff --git` header.
 * @example gitHeaderTokens("diff --git a/x  b/x ") // ["a/x ", "b/x "]
 */
export function gitHeaderTokens(header: string, block?: readonly string[]): string[] {
  const line = stripLineEnd(header);
  if (!line.startsWith(HEADER)) return [];
  return [...splitHeader(line.slice(HEADER.length), block === undefined ? {} : hintsFromBlock(block)).tokens];
}

// Reads the hints of a block's extended header (stops at the first hunk or binary marker).
function hintsFromBlock(block: readonly string[]): HeaderHints {
  let minus: string | undefined;
  let plus: string | undefined;
  let from: string | undefined;
  let to: string | undefined;
  for (let i = 1; i < block.length; i++) {
    const line = stripLineEnd(block[i]!);
    if (line.startsWith("@@") || line.startsWith("GIT binary patch") || line.startsWith("Binary files ")) break;
    if (line.startsWith("--- ")) minus = pathTokenOf(line.slice(4));
    else if (line.startsWith("+++ ")) plus = pathTokenOf(line.slice(4));
    else if (line.startsWith("rename from ")) from = decodeGitCPath(pathTokenOf(line.slice(12)));
    else if (line.startsWith("copy from ")) from = decodeGitCPath(pathTokenOf(line.slice(10)));
    else if (line.startsWith("rename to ")) to = decodeGitCPath(pathTokenOf(line.slice(10)));
    else if (line.startsWith("copy to ")) to = decodeGitCPath(pathTokenOf(line.slice(8)));
  }
  return { minus, plus, from, to };
}

/** Splits the text after `diff --git ` into its raw tokens, using hints from the block. */
export function splitHeader(rest: string, hints: HeaderHints): HeaderSplit {
  const syntactic = splitQuoted(rest);
  if (syntactic !== undefined) return { tokens: syntactic, ambiguous: false };
  // Both tokens unquoted from here on: raw equals decoded.
  const { minus, plus } = hints;
  if (minus !== undefined && minus !== "/dev/null" && rest.startsWith(`${minus} `))
    return { tokens: [minus, rest.slice(minus.length + 1)], ambiguous: false };
  if (plus !== undefined && plus !== "/dev/null" && rest.endsWith(` ${plus}`))
    return { tokens: [rest.slice(0, rest.length - plus.length - 1), plus], ambiguous: false };
  if (hints.from !== undefined && hints.to !== undefined) {
    const byNames = splitByNames(rest, hints.from, hints.to);
    if (byNames !== undefined) return { tokens: byNames, ambiguous: false };
  }
  return splitUnquoted(rest);
}

// A quoted first or second token makes the split exact: an unquoted Git token never holds `"`.
function splitQuoted(rest: string): string[] | undefined {
  if (rest.charCodeAt(0) === 0x22) {
    const { end } = decodeQuoted(rest, 1);
    if (end < 0) return [rest];
    const first = rest.slice(0, end);
    if (end >= rest.length) return [first];
    const second = rest.charCodeAt(end) === 0x20 ? rest.slice(end + 1) : rest.slice(end);
    return [first, second];
  }
  const quote = rest.indexOf(' "');
  if (quote < 0 || rest.charCodeAt(rest.length - 1) !== 0x22) return undefined;
  const { end } = decodeQuoted(rest, quote + 2);
  if (end !== rest.length) return undefined;
  return [rest.slice(0, quote), rest.slice(quote + 1)];
}

// A rename/copy header is prefix + from, space, prefix + to.
function splitByNames(rest: string, from: string, to: string): string[] | undefined {
  for (const [p1, p2] of [...KNOWN_PREFIX_PAIRS, ["", ""] as const]) {
    if (rest.length === p1.length + from.length + 1 + p2.length + to.length && rest.startsWith(p1 + from + " ") && rest.endsWith(p2 + to)) {
      return [p1 + from, p2 + to];
    }
  }
  if (!rest.endsWith(to)) return undefined;
  // Custom prefixes: the shortest first prefix that leaves "<from> <prefix2><to>".
  const limit = rest.length - to.length - from.length - 1;
  for (let i = rest.indexOf(from); i >= 0 && i <= limit; i = rest.indexOf(from, i + 1)) {
    if (rest.charCodeAt(i + from.length) === 0x20) return [rest.slice(0, i + from.length), rest.slice(i + from.length + 1)];
  }
  return undefined;
}

// Header only, both tokens unquoted: same name on both sides under a known prefix pair, then no
// prefix, then Git apply's rule (first path component stripped from each side; custom prefixes).
function splitUnquoted(rest: string): HeaderSplit {
  for (const [p1, p2] of KNOWN_PREFIX_PAIRS) {
    const nameLength = (rest.length - 1 - p1.length - p2.length) / 2;
    if (!Number.isInteger(nameLength) || nameLength < 0 || !rest.startsWith(p1)) continue;
    const space = p1.length + nameLength;
    if (
      rest.charCodeAt(space) === 0x20 &&
      rest.startsWith(p2, space + 1) &&
      rest.slice(p1.length, space) === rest.slice(space + 1 + p2.length)
    ) {
      return { tokens: [rest.slice(0, space), rest.slice(space + 1)], ambiguous: false };
    }
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.charCodeAt(half) === 0x20 && rest.slice(0, half) === rest.slice(half + 1)) {
    return { tokens: [rest.slice(0, half), rest.slice(half + 1)], ambiguous: false };
  }
  const stripped = splitStrippedComponent(rest);
  if (stripped !== undefined) return { tokens: stripped, ambiguous: true };
  return splitDifferentNames(rest);
}

// Git apply's rule: rest = X/<name> Y/<name>. For a space at i the second token's first slash is at
// j, and the lengths force i + j = |rest| + |X/| - 1; as i grows j never shrinks, so at most one i
// fits and the search is linear.
function splitStrippedComponent(rest: string): string[] | undefined {
  const firstSlash = rest.indexOf("/");
  if (firstSlash < 0) return undefined;
  const target = rest.length + firstSlash;
  for (let i = rest.indexOf(" ", firstSlash + 1); i >= 0; i = rest.indexOf(" ", i + 1)) {
    const j = rest.indexOf("/", i + 1);
    if (j < 0) return undefined;
    if (i + j > target) return undefined;
    if (i + j === target && rest.slice(firstSlash + 1, i) === rest.slice(j + 1)) return [rest.slice(0, i), rest.slice(i + 1)];
  }
  return undefined;
}

// Different names with nothing else to go on (a rename header without its rename lines).
function splitDifferentNames(rest: string): HeaderSplit {
  for (const [p1, p2] of KNOWN_PREFIX_PAIRS) {
    if (!rest.startsWith(p1)) continue;
    const last = rest.lastIndexOf(` ${p2}`);
    if (last >= p1.length) {
      const unique = rest.indexOf(` ${p2}`, p1.length) === last;
      return { tokens: [rest.slice(0, last), rest.slice(last + 1)], ambiguous: !unique };
    }
  }
  const space = rest.indexOf(" ");
  if (space < 0) return { tokens: rest.length > 0 ? [rest] : [], ambiguous: true };
  return { tokens: [rest.slice(0, space), rest.slice(space + 1)], ambiguous: rest.indexOf(" ", space + 1) >= 0 };
}

/** Two names with their side prefixes removed, and whether the prefixes were a guess. */
export interface StrippedNames {
  /** The old name without prefix. */
  readonly oldName: string;
  /** The new name without prefix. */
  readonly newName: string;
  /** True when no known convention explained the two prefixed tokens. */
  readonly ambiguous: boolean;
}

/**
 * Removes the side prefixes from two decoded tokens: identical tokens mean no prefix; a known pair
 * (a/ b/, mnemonic, reversed) is removed, preferring one that leaves the same name on both sides;
 * otherwise the first path component of each side (custom prefixes), flagged ambiguous.
 */
export function stripPrefixPair(oldToken: string, newToken: string): StrippedNames {
  if (oldToken === newToken) return { oldName: oldToken, newName: newToken, ambiguous: false };
  let differing: StrippedNames | undefined;
  for (const [p1, p2] of KNOWN_PREFIX_PAIRS) {
    if (!oldToken.startsWith(p1) || !newToken.startsWith(p2)) continue;
    const oldName = oldToken.slice(p1.length);
    const newName = newToken.slice(p2.length);
    if (oldName === newName) return { oldName, newName, ambiguous: false };
    differing ??= { oldName, newName, ambiguous: false };
  }
  const i = oldToken.indexOf("/");
  const j = newToken.indexOf("/");
  if (i >= 0 && j >= 0 && oldToken.slice(i + 1) === newToken.slice(j + 1)) {
    const name = newToken.slice(j + 1);
    return { oldName: name, newName: name, ambiguous: true };
  }
  return differing ?? { oldName: oldToken, newName: newToken, ambiguous: true };
}

/**
 * One side of a diff: the decoded token with one `<side>/` prefix removed when present
 * (`side` is `a`, `b`, a mnemonic letter, or `""` for none); `/dev/null` gives `""`.
 * @example gitDiffEndpoint('"b/caf\\303\\251"', "b") // "café"
 */
export function gitDiffEndpoint(token: string, side: string): string {
  const decoded = decodeGitCPath(pathTokenOf(stripLineEnd(token)));
  if (decoded === "/dev/null") return "";
  const prefix = side === "" ? "" : side.endsWith("/") ? side : `${side}/`;
  return prefix !== "" && decoded.startsWith(prefix) ? decoded.slice(prefix.length) : decoded;
}

/**
 * The path a `diff --git` header line is about, read from the header alone: the new name without
 * its prefix, else the old one; `""` when the line is not a header.
 * @example diffTargetPath("diff --git a/b/c b/b/c") // "b/c"
 */
export function diffTargetPath(header: string): string {
  const line = stripLineEnd(header);
  if (line.startsWith("diff --cc ") || line.startsWith("diff --combined ")) return decodeGitCPath(line.slice(line.indexOf(" ", 5) + 1));
  const tokens = gitHeaderTokens(line);
  const [first, second] = tokens.map(decodeGitCPath);
  if (first === undefined) return "";
  if (second === undefined) return first;
  return stripPrefixPair(first, second).newName;
}
