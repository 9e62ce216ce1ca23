// The bash safety policy: pure text rules checked before a command runs. It reads the raw command
// line (quotes and `bash -c '...'` included), so it errs on the side of refusing: `echo "rm -rf /"`
// is refused too. That is the safe direction for a gate in front of an agent.

/** What the policy says about one command line. */
export type PolicyDecision =
  { action: "allow" } | { action: "block"; rule: BlockRule; reason: string } | { action: "confirm"; rule: ConfirmRule; reason: string };

/** Rules that refuse a command outright. */
export type BlockRule = "rm-root" | "mkfs" | "block-device-write" | "fork-bomb" | "chmod-root";

/** Rules that run a command only when the confirm callback approves it. */
export type ConfirmRule = "git-push-force" | "git-reset-hard" | "sudo" | "pipe-to-shell";

interface Rule<R> {
  rule: R;
  reason: string;
  matches: (command: string) => boolean;
}

const WORD_START = String.raw`(?:^|[\s;&|()\`{}]|\$\()`;
const BLOCK_DEVICE = String.raw`/dev/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|dm-\d|md\d|loop\d|mapper/|disk/)`;

/** The argument words of every occurrence of command `name` (up to the next operator), quotes dropped. */
function argumentsOf(command: string, name: string): string[][] {
  const re = new RegExp(`${WORD_START}${name}((?:[ \\t]+[^;&|\\n)]*)?)`, "g");
  return [...command.matchAll(re)].map((m) =>
    (m[1] ?? "")
      .split(/[ \t]+/)
      .map((word) => word.replace(/["']/g, ""))
      .filter((word) => word.length > 0),
  );
}

function isRootTarget(word: string): boolean {
  return word === "/" || word === "/*" || word === "/." || word === "/./";
}

function hasShortFlag(words: string[], letters: RegExp): boolean {
  return words.some((word) => /^-[a-zA-Z]+$/.test(word) && letters.test(word.slice(1)));
}

const NAME_CHAR = /[\w:.]/;

/**
 * True when some `NAME() { NAME | NAME &` occurs. Linear in the length of the line: each `()` is found
 * with indexOf and its name read backwards, where a backreference regex would retry every start
 * position of a long word (a 200 KB base64 blob took 18 s).
 */
export function isForkBomb(command: string): boolean {
  for (let at = command.indexOf("()"); at !== -1; at = command.indexOf("()", at + 2)) {
    let end = at;
    while (end > 0 && at - end < 64 && /\s/.test(command.charAt(end - 1))) end -= 1;
    let start = end;
    while (start > 0 && end - start < 256 && NAME_CHAR.test(command.charAt(start - 1))) start -= 1;
    const name = command.slice(start, end);
    if (name === "") continue;
    const body = /^\s*\{\s*(\S+?)\s*\|\s*(\S+?)\s*&/.exec(command.slice(at + 2, at + 2 + 2 * name.length + 64));
    if (body !== null && body[1] === name && body[2] === name) return true;
  }
  return false;
}

const BLOCK_RULES: Rule<BlockRule>[] = [
  {
    rule: "rm-root",
    reason: "recursive removal of the root directory",
    matches: (command) =>
      argumentsOf(command, "rm").some(
        (words) =>
          words.includes("--no-preserve-root") ||
          ((hasShortFlag(words, /[rR]/) || words.includes("--recursive")) && words.some(isRootTarget)),
      ),
  },
  {
    rule: "mkfs",
    reason: "creating a file system (mkfs) destroys a device's data",
    matches: (command) => new RegExp(`${WORD_START}mkfs(?:\\.[\\w]+)?(?=[\\s;&|)]|$)`).test(command),
  },
  {
    rule: "block-device-write",
    reason: "writing to a block device",
    matches: (command) =>
      new RegExp(`>\\|?\\s*${BLOCK_DEVICE}`).test(command) ||
      new RegExp(`\\bof=["']?${BLOCK_DEVICE}`).test(command) ||
      new RegExp(`${WORD_START}tee(?:[ \\t]+-[a-z]+)*[ \\t]+["']?${BLOCK_DEVICE}`).test(command),
  },
  {
    rule: "fork-bomb",
    reason: "a fork bomb (a function that pipes into itself in the background)",
    // `:(){ :|:& };:` and any renamed variant: NAME() { NAME | NAME & }.
    matches: isForkBomb,
  },
  {
    rule: "chmod-root",
    reason: "recursively opening the permissions of the root directory",
    matches: (command) =>
      argumentsOf(command, "chmod").some(
        (words) =>
          (hasShortFlag(words, /R/) || words.includes("--recursive")) &&
          words.some((word) => /^(?:0?777|(?:[ugoa]*)\+rwx)$/.test(word)) &&
          words.some(isRootTarget),
      ),
  },
];

const CONFIRM_RULES: Rule<ConfirmRule>[] = [
  {
    rule: "git-push-force",
    reason: "a forced git push rewrites remote history",
    matches: (command) =>
      argumentsOf(command, "git").some(
        (words) =>
          words[0] === "push" &&
          words.some(
            (word) => word === "--force" || word.startsWith("--force-with-lease") || hasShortFlag([word], /f/) || word.startsWith("+"),
          ),
      ),
  },
  {
    rule: "git-reset-hard",
    reason: "git reset --hard discards uncommitted work",
    matches: (command) => argumentsOf(command, "git").some((words) => words[0] === "reset" && words.includes("--hard")),
  },
  {
    rule: "pipe-to-shell",
    reason: "piping downloaded content into a shell runs unreviewed code",
    matches: (command) =>
      new RegExp(`${WORD_START}(?:curl|wget)\\b[^;&\\n]*\\|\\s*(?:sudo\\s+)?(?:[\\w/]*/)?(?:ba|z|da|k)?sh\\b`).test(command),
  },
  {
    rule: "sudo",
    reason: "sudo runs with elevated privileges",
    matches: (command) => new RegExp(`${WORD_START}sudo(?=[\\s;&|)]|$)`).test(command),
  },
];

/** Checks one command line against the safety policy; blocks win over confirmations. */
export function checkCommandPolicy(command: string): PolicyDecision {
  for (const { rule, reason, matches } of BLOCK_RULES) {
    if (matches(command)) return { action: "block", rule, reason };
  }
  for (const { rule, reason, matches } of CONFIRM_RULES) {
    if (matches(command)) return { action: "confirm", rule, reason };
  }
  return { action: "allow" };
}
