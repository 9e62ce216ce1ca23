// `cargo test` output -> ids `<binary>::<test path>`, one summary per test binary folded into one,
// markers and forgery signals. Cargo runs several test binaries (unit tests, each integration test
// file, doc tests); each prints `running N tests`, its result lines and its own `test result:` line.
// The run passed only when every binary that started also closed with a consistent `ok` summary.
// Cargo's own lines (`Finished`, `Running unittests src/lib.rs (target/debug/deps/calc-1a2b...)`,
// `Doc-tests calc`) go to stderr: they name the binaries when the output merges both streams.
import type { IdList, ParserOptions } from "./id-list.js";
import { createLineParser } from "./line-parser.js";
import { HeadLines, startsWithCutLiteral } from "./line-start.js";
import { FAIL, Findings, ownString, PASS, SKIP, stripAnsi } from "./lines.js";
import { createOutcomeTable } from "./outcome-table.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

/** What joins a test binary's name and a test's path in an id (`calc::tests::adds`, `api::adds_through_the_api`). */
export const CARGO_ID_SEPARATOR = "::";

const RUNNING_HEADER_RE = /^Running (?:unittests )?(.+?) \((.+)\)$/;
const DOC_HEADER_RE = /^Doc-tests (\S+)$/;
// `Finished `test` profile [unoptimized + debuginfo] target(s) in 0.03s` (cargo 1.63: `Finished test [unoptimized ...`).
const FINISHED_RE = /^Finished (?:`[^`]+` profile|[\w-]+) \[/;
const RUNNING_RE = /^running (\d+) tests?$/;
// `test tests::adds ... ok`, `test x - should panic ... ok`, `test x ... ignored, reason`, `test x ... bench: ...`.
const RESULT_RE = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?|bench: .*)$/;
const TERSE_RE = /^[.iF]+(?: \d+\/\d+)?$/;
// Terse output puts a failure on a line of its own (Rust 1.70+; before it, an `F` mark).
const TERSE_FAILED_RE = /^(\S.*) --- FAILED$/;
const SUMMARY_RE =
  /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out(?:; finished in \d+(?:\.\d+)?s)?$/;
const BINARY_FAILED_RE = /^error: test failed, to rerun pass /;
const FAILED_OUTSIDE_RE = /^test result: FAILED\. |^test .+ \.\.\. FAILED$/;
const TARGETS_FAILED_RE = /^error: \d+ targets? failed:$/;
const LIBTEST_USAGE_RE = /^error: Unrecognized option: '/;
const USAGE_RES = [
  /^error: unexpected argument '/,
  /^error: Found argument '/,
  LIBTEST_USAGE_RE,
  /^error: no (?:test|bin|example|bench) target named /,
  /^error: package(?:\(s\))? .* not found/,
  /^error: package ID specification .* did not match any packages/,
  /^error: invalid value '/,
  /^error: a value is required for '/,
  /^error: could not find `Cargo\.toml` in /,
  /^error: manifest path .* does not exist/,
  /^error: none of the selected packages contains /,
];
const BUILD_FAILURE_RE = /^error(?:\[E\d+\]: |: could not compile |: linking with |: failed to run custom build command)/;
const SHOULD_PANIC_SUFFIX = " - should panic";
// A test binary's file: `calc-1a2b3c4d5e6f7a8b` (and `.exe`); its name is the target's crate name.
const BINARY_FILE_RE = /^(.+)-[0-9a-f]{16}(?:\.exe)?$/;

/** One test binary's run, from `running N tests` to its `test result:` line. */
interface Block {
  binary: string | null;
  expected: number;
  shown: number;
  shownPasses: number;
  /** The result lines are done: `failures:` / `successes:` sections (captured test output) until the summary. */
  inReport: boolean;
  /** Names listed under the last `failures:` header (terse output shows no other failure names). */
  listed: string[];
  terse: boolean;
}

/** The binary a `Running` header names: the test executable's file name without cargo's hash. */
export function cargoBinaryName(path: string): string {
  const file = path.slice(path.lastIndexOf("/") + 1);
  return BINARY_FILE_RE.exec(file)?.[1] ?? file;
}

/** Creates an incremental `cargo test` output parser (libtest's pretty and terse formats). */
export function createCargoParser(): OutputParser;
/** Creates an incremental `cargo test` output parser (libtest's pretty and terse formats). */
export function createCargoParser(options: ParserOptions): OutputParser<IdList>;
export function createCargoParser(options: ParserOptions = {}): OutputParser<IdList> {
  const findings = new Findings();
  const ids = createOutcomeTable(options.ids);
  const head = new HeadLines();
  const totals: Record<string, number> = { passed: 0, failed: 0, skipped: 0, measured: 0, "filtered out": 0, errors: 0, binaries: 0 };
  let lineNo = 0;
  let summaryLine = 0;
  let summaryText = "";
  let summaryCount = 0;
  let block: Block | null = null;
  // The binary the last header announced, until its `running N tests` line.
  let announced: string | null = null;
  let headerPending = false;
  let seenRunning = false;
  let seenHeader = false;
  let headMissing: string | null = null;
  let shownResults = 0;
  // The announced binary stopped on a libtest usage error: cargo's `error: test failed` after it adds nothing.
  let binaryUsageError = false;

  const idOf = (binary: string | null, name: string): string | null =>
    binary === null ? null : ownString(`${binary}${CARGO_ID_SEPARATOR}${name}`);

  const closeBlock = (match: RegExpExecArray, line: string): void => {
    const current = block!;
    block = null;
    const [passed, failed, ignored, measured, filtered] = [2, 3, 4, 5, 6].map((i) => Number(match[i])) as [
      number,
      number,
      number,
      number,
      number,
    ];
    // libtest counts every test it announced in exactly one of these, and shows one result for each.
    // A summary that does not match its binary's own lines: a test printed some of them.
    if (passed + failed + ignored + measured !== current.expected)
      findings.forge("ids-exceed-summary", lineNo, `${line} (the binary announced ${current.expected})`);
    else if (current.shown !== current.expected || current.shownPasses > passed)
      findings.forge("ids-exceed-summary", lineNo, `${current.shown} results shown, the binary announced ${current.expected}`);
    else if ((match[1] === "ok") !== (failed === 0)) findings.forge("ids-exceed-summary", lineNo, line);
    if (current.terse) {
      for (const name of current.listed) {
        const id = idOf(current.binary, name);
        if (id !== null) ids.add(id, FAIL);
      }
    }
    totals.passed! += passed;
    totals.failed! += failed;
    totals.skipped! += ignored;
    totals.measured! += measured;
    totals["filtered out"]! += filtered;
    totals.binaries! += 1;
    summaryCount = Math.max(summaryCount, 1);
    summaryLine = lineNo;
    summaryText = line;
  };

  const onResult = (current: Block, name: string, status: string): void => {
    current.shown += 1;
    shownResults += 1;
    // A benchmark's `bench: N ns/iter` is counted `measured`: no test passed.
    if (status.startsWith("bench: ")) return;
    const bits = status === "FAILED" ? FAIL : status.startsWith("ignored") ? SKIP : PASS;
    if (bits === PASS) current.shownPasses += 1;
    const plain = name.endsWith(SHOULD_PANIC_SUFFIX) ? name.slice(0, -SHOULD_PANIC_SUFFIX.length) : name;
    const id = idOf(current.binary, plain);
    if (id !== null) ids.add(id, bits);
  };

  // Lines while a binary runs: results, then its report sections (captured output), then its summary.
  // Dispatched on the first character: a big log is almost all `test NAME ... ok` lines.
  const onBlockLine = (current: Block, line: string): void => {
    const first = line.charCodeAt(0);
    if (first === 116 && line.startsWith("test result: ")) {
      const summary = SUMMARY_RE.exec(line);
      if (summary !== null) {
        closeBlock(summary, line);
        return;
      }
    }
    if (current.inReport) {
      if (line === "failures:") current.listed = [];
      else if (/^ {4}\S/.test(line)) current.listed.push(line.slice(4));
      return;
    }
    if (first === 116 && line.startsWith("test ")) {
      // RESULT_RE, without a regex: the first ` ... ` ends the name.
      const dots = line.indexOf(" ... ", 5);
      if (dots > 5) {
        const status = line.slice(dots + 5);
        if (status === "ok" || status === "FAILED" || status.startsWith("ignored") || status.startsWith("bench: ")) {
          if (status.startsWith("ignored") && status !== "ignored" && !status.startsWith("ignored, ")) return;
          onResult(current, line.slice(5, dots), status);
          return;
        }
      }
    }
    if (line === "failures:" || line === "successes:") {
      current.inReport = true;
      current.listed = [];
      return;
    }
    if (first === 114 && RUNNING_RE.test(line)) {
      // A binary announces itself once: a second announcement inside it was printed by a test.
      findings.forge("result-without-run", lineNo, line);
      return;
    }
    if (line.endsWith(" --- FAILED")) {
      const terseFailure = TERSE_FAILED_RE.exec(line);
      if (terseFailure !== null) {
        current.terse = true;
        onResult(current, terseFailure[1]!, "FAILED");
        return;
      }
    }
    if ((first === 46 || first === 105 || first === 70) && TERSE_RE.test(line)) {
      current.terse = true;
      const marks = line.split(" ", 1)[0]!;
      current.shown += marks.length;
      shownResults += marks.length;
      for (const mark of marks) if (mark === ".") current.shownPasses += 1;
    }
  };

  const onHeader = (trimmed: string, binary: string): void => {
    if (headerPending && !binaryUsageError)
      findings.mark("incomplete", lineNo, `no \`running N tests\` after the header of ${announced ?? "a binary"}`);
    seenHeader = true;
    announced = binary;
    headerPending = true;
    binaryUsageError = false;
  };

  const onOutsideLine = (line: string, trimmed: string): void => {
    const header = RUNNING_HEADER_RE.exec(trimmed);
    if (header !== null) return onHeader(trimmed, cargoBinaryName(header[2]!));
    const doc = DOC_HEADER_RE.exec(trimmed);
    if (doc !== null) return onHeader(trimmed, doc[1]!);
    if (FINISHED_RE.test(trimmed)) return;
    const running = RUNNING_RE.exec(line);
    if (running !== null) {
      // Headers name every binary once cargo's stderr is in view: one without its header was printed by a test.
      if (seenHeader && !headerPending) findings.forge("result-without-run", lineNo, line);
      block = {
        binary: headerPending ? announced : null,
        expected: Number(running[1]),
        shown: 0,
        shownPasses: 0,
        inReport: false,
        listed: [],
        terse: false,
      };
      headerPending = false;
      seenRunning = true;
      return;
    }
    // Before any binary began, a window cut the head off: a failure it still shows (`grep FAILED`
    // keeps libtest's failing summary, even shortened) is a failure, as cargo's `error: test failed` is.
    if (!seenRunning && FAILED_OUTSIDE_RE.test(line)) {
      headMissing ??= `\`${line}\` before any \`running N tests\``;
      totals.errors! += 1;
      return;
    }
    if (SUMMARY_RE.test(line) || RESULT_RE.test(line)) {
      // Before any binary began, a window cut the head off (a failure it shows is still a failure,
      // as cargo's `error: test failed` is); after one, a test printed it.
      if (!seenRunning) headMissing ??= `\`${line}\` before any \`running N tests\``;
      else if (SUMMARY_RE.test(line)) {
        findings.forge("multiple-summaries", lineNo, line);
        summaryCount = 2;
      } else findings.forge("result-without-run", lineNo, line);
      return;
    }
    if (BINARY_FAILED_RE.test(line)) {
      if (!(headerPending && binaryUsageError)) totals.errors! += 1;
      headerPending = false;
      return;
    }
    if (TARGETS_FAILED_RE.test(line)) {
      totals.errors = Math.max(totals.errors!, 1);
      return;
    }
    if (!line.startsWith("error")) return;
    const usage = USAGE_RES.find((re) => re.test(line));
    if (usage !== undefined) {
      findings.mark("usage-error", lineNo, line);
      if (usage === LIBTEST_USAGE_RE) binaryUsageError = true;
      return;
    }
    if (BUILD_FAILURE_RE.test(line)) findings.mark("build-failure", lineNo, line);
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    const line = stripAnsi(raw).trimEnd();
    if (line === "") return;
    if (block === null) return onOutsideLine(line, line.trimStart());
    // A binary that died (abort, signal) prints no summary: cargo says so after it.
    if (line.charCodeAt(0) === 101 && BINARY_FAILED_RE.test(line)) {
      block = null;
      totals.errors! += 1;
      return;
    }
    onBlockLine(block, line);
  };

  return createLineParser({
    head,
    ids,
    onLine,
    end(): ParsedRunOutput<IdList> {
      // A binary still running, or announced and never started, when the output ended: cut or killed.
      if (block !== null)
        findings.mark(
          "incomplete",
          lineNo,
          `a test binary${block.binary === null ? "" : ` (${block.binary})`} printed no \`test result:\` line`,
        );
      if (headerPending && !binaryUsageError)
        findings.mark("incomplete", lineNo, `no \`running N tests\` after the header of ${announced ?? "a binary"}`);
      block = null;
      const classified = ids.drain();
      // Lines a test printed can imitate any pass or skip: with a forgery in view, only failures are kept.
      const lists = findings.forgeries.length === 0 ? classified : { ...classified, passed: [], skipped: [] };
      const summary: FinalSummary | null =
        totals.binaries! > 0 || totals.errors! > 0 ? { counts: { ...totals }, line: summaryLine, text: summaryText } : null;
      return {
        kind: "cargo",
        ...lists,
        summary,
        summaryCount,
        ...findings.runFields(lineNo),
        shownResults,
        start: { cut: cargoStartCut(head.first), headMissing, summaryMismatch: null },
      };
    },
    summaryCount: () => summaryCount,
    lineCount: () => lineNo,
  });
}

// cargo right-aligns its status word at column 12 (`    Finished`, `     Running`, `   Doc-tests`).
const STATUS_LINE_RE =
  /^( *)(Compiling|Checking|Finished|Running|Doc-tests|Blocking|Updating|Locking|Adding|Downloading|Downloaded|Fresh|Building|Executable|Removed|Packaging|Documenting|Scraping) \S/;
const WHOLE_FIRST_LINE_RES = [/^(?:warning|error)(?:\[\w+\])?: \S/, RUNNING_RE, /^Usage: cargo /];

/**
 * Why the first line of a `cargo test` output is not one cargo or libtest begins with, or null. A run's
 * first line is a status line aligned at column 12, a `warning:` or `error:`, or `running N tests`
 * (stderr hidden): anything else is a piece of a longer line, or the end of what another command printed.
 */
export function cargoStartCut(first: string | null): string | null {
  if (first === null) return null;
  const line = stripAnsi(first).trimEnd();
  if (line.trim() === "") return null;
  const status = STATUS_LINE_RE.exec(line);
  if (status !== null) return status[1]!.length + status[2]!.length === 12 ? null : "a cargo status line cut inside its indent";
  if (WHOLE_FIRST_LINE_RES.some((re) => re.test(line))) return null;
  if (startsWithCutLiteral(line, ["test result: ", "running "], /^(?:ok|FAILED|\d)/)) return "a summary line cut at its start";
  return "a first line that is none of cargo's or libtest's";
}

/** Parses a whole `cargo test` output at once (see {@link createCargoParser}). */
export function parseCargo(text: string): ParsedRunOutput {
  const parser = createCargoParser();
  parser.push(text);
  return parser.end();
}
