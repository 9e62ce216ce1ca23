// What pytest's summary lines say: the counts of the final summary (`1 failed, 2 passed in 0.1s`) and
// the test id of a short test summary line (`FAILED id - message`, `XPASS id reason`). Pure; read by
// pytest.ts as it meets those lines.

const SUMMARY_ITEMS_RE = /^(\d+ [a-z]+(?: [a-z]+)?(?:, \d+ [a-z]+(?: [a-z]+)?)*) in \d+(?:\.\d+)?s(?:econds)?(?: \([^)]*\))?$/;
const NO_TESTS_RE = /^no tests ran in \d+(?:\.\d+)?s(?:econds)?(?: \([^)]*\))?$/;

const WORD_ALIASES: Record<string, string> = {
  error: "errors",
  warning: "warnings",
  "test collected": "collected",
  "tests collected": "collected",
  reruns: "rerun",
};

/** Reads the body of a final summary (`1 failed, 2 passed in 0.1s`, `no tests ran in 0.01s`) into counts. */
export function parsePytestSummaryBody(body: string): Record<string, number> | null {
  if (NO_TESTS_RE.test(body)) return {};
  const match = SUMMARY_ITEMS_RE.exec(body);
  if (match === null) return null;
  const counts: Record<string, number> = {};
  for (const item of match[1]!.split(", ")) {
    const space = item.indexOf(" ");
    const word = item.slice(space + 1);
    const key = WORD_ALIASES[word] ?? word;
    counts[key] = (counts[key] ?? 0) + Number(item.slice(0, space));
  }
  return counts;
}

/**
 * Cuts `id - message` at the ` - ` that ends the id: ids may hold ` - ` inside their brackets
 * (`test_x[a - b]`), so a cut is accepted only where the prefix has no `[` or ends with `]`.
 */
export function splitPytestIdMessage(text: string): string {
  let from = 0;
  for (;;) {
    const at = text.indexOf(" - ", from);
    if (at === -1) return text;
    const prefix = text.slice(0, at);
    if (!prefix.includes("[") || prefix.endsWith("]")) return prefix;
    from = at + 1;
  }
}

// XPASS lines of pytest 7 put the reason after a space (`XPASS id reason`): cut at the first space after `::name[...]`.
export function idBeforeReason(text: string): string {
  const cut = splitPytestIdMessage(text);
  if (cut !== text) return cut;
  const lastColons = text.lastIndexOf("::");
  const bracket = text.indexOf("[", lastColons);
  const end = bracket === -1 ? text.indexOf(" ", lastColons) : text.indexOf("] ", bracket) + 1;
  return end <= 0 ? text : text.slice(0, end);
}
