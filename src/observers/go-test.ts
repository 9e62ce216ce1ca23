// go test output -> ids `<import path>::<Test>[/<sub>]`: the -json event stream (test2json, Go 1.19
// to the newest events), plain text with or without -v, and both mixed with stray non-JSON lines.
import {
  BENCHMARK_RESULT_RE,
  FUZZ_START_RE,
  OUTPUT_MARKER_RE,
  PACKAGE_LINE_RE,
  PLAIN_EVENT_RE,
  PLAIN_EVENT_STICKY_RE,
  RESULT_LINE_RE,
  RUN_LINE_RE,
  USAGE_RES,
} from "./go-line-shapes.js";
import { goStartCut } from "./go-start.js";
import type { IdList, ParserOptions } from "./id-list.js";
import { NameIndex } from "./id-table.js";
import { HeadLines } from "./line-start.js";
import { createRangeSplitter, FAIL, Findings, lineAt, MAX_LINE_LENGTH, ownString, PASS, SKIP, stripAnsi } from "./lines.js";
import { createOutcomeTable } from "./outcome-table.js";
import type { FinalSummary, OutputParser, ParsedRunOutput } from "./types.js";

interface GoEvent {
  Action?: unknown;
  Package?: unknown;
  Test?: unknown;
  Output?: unknown;
  ImportPath?: unknown;
  FailedBuild?: unknown;
}

type PackageResult = "pass" | "fail" | "skip";
const RESULT_CODES: Record<PackageResult, number> = { pass: 0, fail: 1, skip: 2 };

const TERMINAL_FLAGS: Record<string, number> = { pass: PASS, fail: FAIL, skip: SKIP, PASS: PASS, FAIL: FAIL, SKIP: SKIP };

/** Creates an incremental `go test` output parser (JSON events and text, interleaved or not). */
export function createGoTestParser(): OutputParser;
/** Creates an incremental `go test` output parser (JSON events and text, interleaved or not). */
export function createGoTestParser(options: ParserOptions): OutputParser<IdList>;
export function createGoTestParser(options: ParserOptions = {}): OutputParser<IdList> {
  const findings = new Findings();
  const ids = createOutcomeTable(options.ids);
  /** Tests that started (`run` events), per package, until the package result settles them. */
  const running = new Map<string, Set<string>>();
  /** Package -> results seen (count) and the last one. */
  // Package -> results seen and the last one, as `seen * 4 + RESULT_CODES[result]` (no object per package).
  const packages = new NameIndex<number>();
  /**
   * Packages that started and have not settled -> whether their stream is in view from its start (a
   * `start` event, or a top-level test's `run` first): then a result for a test that never ran was
   * printed by a test, not cut off with the head of the stream.
   */
  const startedPackages = new Map<string, boolean>();
  // Text mode: test results are printed before the package line that names their package.
  let textRuns = new Set<string>();
  // Text mode: is the current package's output in view from its start (its first test line a top-level
  // `=== RUN`, or a package line before it)? null until known. Only then is a PASS without RUN a test's print.
  let textFromStart: boolean | null = null;
  let textResults = new Map<string, number>();
  let summaryCount = 0;
  let lastPackageLine = 0;
  let lastPackageText = "";
  let lineNo = 0;
  // For the start checks: the first two lines, and the first sign that -v text lost its head.
  const head = new HeadLines();
  let textHeadMissing: string | null = null;
  let sawJson = false;
  let lastPackage = "";
  // Packages that said `[no tests to run]` (a -run pattern matched none of their tests).
  const noTestsPackages = new Set<string>();

  const addId = (id: string, bits: number): void => {
    ids.add(id, bits);
  };

  const settlePackage = (pkg: string, result: PackageResult, text: string): void => {
    const entry = packages.get(pkg);
    const seen = (entry === undefined ? 0 : entry >> 2) + 1;
    // `lastPackage` is a copy already; any other package name may be a slice of an input chunk.
    packages.set(entry === undefined && pkg !== lastPackage ? ownString(pkg) : pkg, seen * 4 + RESULT_CODES[result]);
    if (seen > summaryCount) summaryCount = seen;
    if (seen > 1) findings.forge("multiple-summaries", lineNo, text);
    lastPackageLine = lineNo;
    lastPackageText = text;
    // A test that started but never ended did not pass; in a failed package it failed (panic, timeout).
    const open = running.get(pkg);
    if (open !== undefined) {
      for (const test of open) if (result === "fail") addId(`${pkg}::${test}`, FAIL);
      running.delete(pkg);
    }
    startedPackages.delete(pkg);
  };

  const onOutputText = (text: string): void => {
    if (text.startsWith("panic: test timed out after")) findings.mark("timeout", lineNo, text);
    else if (text.startsWith("testing: warning: no tests to run")) findings.mark("no-tests-ran", lineNo, text);
    else if (/\[(?:build|setup) failed\]$/.test(text)) findings.mark("build-failure", lineNo, text);
    else if (/\[no tests to run\]/.test(text)) findings.mark("no-tests-ran", lineNo, text);
    else if (BENCHMARK_RESULT_RE.test(text)) findings.mark("benchmarks-ran", lineNo, text);
  };

  // An output event that may carry a marker (kept out of onEvent, whose size decides its inlining).
  const onOutputEvent = (pkg: string, text: string, raw: string): void => {
    onOutputText(text);
    // test2json (Go 1.19) sends `-fuzz`'s `=== FUZZ  FuzzX` as output, not as a run event: it starts FuzzX all the same.
    const fuzz = pkg === "" ? null : FUZZ_START_RE.exec(text);
    if (fuzz !== null && fuzz !== undefined) onEvent({ Action: "run", Package: pkg, Test: fuzz[1] }, raw);
    if (pkg !== "" && (text.includes("[no tests to run]") || text.startsWith("testing: warning: no tests to run")))
      noTestsPackages.add(ownString(pkg));
  };

  const onEvent = (event: GoEvent, raw: string): void => {
    const action = typeof event.Action === "string" ? event.Action : "";
    const pkg = typeof event.Package === "string" ? event.Package : "";
    const test = typeof event.Test === "string" ? event.Test : "";
    switch (action) {
      case "output":
        if (typeof event.Output === "string") onOutputEvent(pkg, event.Output.trimEnd(), raw);
        return;
      case "build-fail":
        findings.mark("build-failure", lineNo, typeof event.ImportPath === "string" ? event.ImportPath : raw);
        return;
      case "start":
        if (pkg !== "") startedPackages.set(pkg, true);
        return;
      case "run": {
        if (pkg === "" || test === "") return;
        if (!startedPackages.has(pkg)) startedPackages.set(pkg, !test.includes("/"));
        let open = running.get(pkg);
        if (open === undefined) running.set(pkg, (open = new Set()));
        // Kept only until the package settles, so a slice of the input is fine here.
        open.add(test);
        return;
      }
      case "pass":
      case "fail":
      case "skip": {
        if (pkg === "") return;
        if (test === "") {
          if (typeof event.FailedBuild === "string") findings.mark("build-failure", lineNo, event.FailedBuild);
          settlePackage(pkg, action, raw);
          return;
        }
        const open = running.get(pkg);
        // test2json turns a printed `--- PASS: X` into a pass event even when X never ran.
        if (open === undefined || !open.has(test)) {
          // Benchmarks print no `=== RUN` line (Go 1.19). A failing one is a failure; a passing one is no
          // test passing (its `ns/op` line shows that it ran).
          if (test.startsWith("Benchmark")) {
            if (action === "fail") addId(`${pkg}::${test}`, FAIL);
            return;
          }
          // Either the stream lost its start (clipped) or a test printed `--- PASS: X`: neither proves X.
          // In a stream seen from its start it is a test's print (`fmt.Println("--- FAIL: TestOther")`), no
          // result at all; with the head cut off, a failure still counts (fail closed), a pass never.
          const fromStart = startedPackages.get(pkg) === true;
          if (action === "pass" || fromStart) findings.forge("result-without-run", lineNo, `${pkg}::${test}`);
          if (action === "pass" && !fromStart) findings.mark("incomplete", lineNo, `pass for ${pkg}::${test} without its run event`);
          if (action === "fail" && !fromStart) addId(`${pkg}::${test}`, FAIL);
          return;
        }
        open.delete(test);
        addId(`${pkg}::${test}`, TERMINAL_FLAGS[action]!);
        return;
      }
      case "pause":
      case "cont":
        // A parallel test paused or resumed without its `run` in view: the head of the stream was cut.
        if (pkg !== "" && test !== "" && running.get(pkg)?.has(test) !== true) startedPackages.set(pkg, false);
        return;
      default:
        // bench, attr, build-output and future actions carry no outcome.
        return;
    }
  };

  const onTextLine = (line: string): void => {
    const run = RUN_LINE_RE.exec(line);
    if (run !== null) {
      if (textFromStart === null) {
        textFromStart = !run[1]!.includes("/");
        if (!textFromStart) textHeadMissing ??= `the first \`=== RUN\` is a subtest's (${run[1]!})`;
      }
      textRuns.add(run[1]!);
      return;
    }
    const result = RESULT_LINE_RE.exec(line);
    if (result !== null) {
      const [, status, name] = result as unknown as [string, string, string];
      // go indents a result by four spaces per subtest level (`    --- PASS: TestA/sub`). Any other
      // indentation is a test's own log line (a second line of a multi-line t.Log), never a result.
      const indent = line.length - line.trimStart().length;
      if (indent !== 4 * (name.split("/").length - 1) || /^\s*\t/.test(line)) {
        onOutputText(line);
        return;
      }
      // Results count only for tests whose `=== RUN` line was printed (-v prints one for every test;
      // without -v go prints no RUN line and no PASS line, only FAIL ones). In -v output seen from its
      // start, a result without its RUN line is a test's print, no result at all. With the RUN line cut
      // off (`| tail`) a PASS proves nothing either, and a FAIL still counts.
      const verbose = textRuns.size > 0 || status === "PASS";
      if (!textRuns.has(name) && textFromStart === true && verbose && !name.startsWith("Benchmark")) {
        findings.forge("result-without-run", lineNo, line);
        return;
      }
      if (status === "PASS" && name.startsWith("Benchmark")) return;
      if (status === "PASS" && !textRuns.has(name)) {
        textFromStart = false;
        textHeadMissing ??= `\`--- PASS: ${name}\` without its \`=== RUN\``;
      } else textResults.set(name, (textResults.get(name) ?? 0) | TERMINAL_FLAGS[status]!);
      return;
    }
    const pkgLine = PACKAGE_LINE_RE.exec(line);
    if (pkgLine !== null && (pkgLine[1] !== "?" || (pkgLine[3] ?? "").includes("[no test files]"))) {
      const [, word, pkg] = pkgLine as unknown as [string, string, string];
      const rest = pkgLine[3] ?? "";
      if (word === "?") {
        findings.mark("no-test-files", lineNo, line);
        if (!sawJson) settlePackage(pkg, "skip", line);
        return;
      }
      // With -v every test prints `=== RUN` first: an `ok` line while one is still running is the test's own output.
      if (word === "ok" && !sawJson && [...textRuns].some((name) => !textResults.has(name))) {
        findings.forge("package-line-inside-test", lineNo, line);
        return;
      }
      const failedBuild = /\[(?:build|setup) failed\]/.test(line);
      if (failedBuild) findings.mark("build-failure", lineNo, line);
      if (rest.includes("[no tests to run]")) {
        findings.mark("no-tests-ran", lineNo, line);
        noTestsPackages.add(ownString(pkg));
      }
      // Go before 1.24 reports a -json build failure only as this text line, with no package event.
      if (sawJson) {
        if (failedBuild) settlePackage(pkg, "fail", line);
        return;
      }
      for (const [name, bits] of textResults) addId(`${pkg}::${name}`, bits);
      // -v printed `=== RUN` for a test with no result: it did not finish (panic, timeout).
      if (word === "FAIL") for (const name of textRuns) if (!textResults.has(name)) addId(`${pkg}::${name}`, FAIL);
      textRuns = new Set();
      textFromStart = true;
      textResults = new Map();
      settlePackage(pkg, word === "ok" ? "pass" : "fail", line);
      return;
    }
    for (const re of USAGE_RES) {
      if (re.test(line)) {
        findings.mark("usage-error", lineNo, line);
        return;
      }
    }
    onOutputText(line);
  };

  const onLine = (raw: string): void => {
    lineNo += 1;
    if (raw.startsWith("{")) {
      // Most events are `output`: parse those only when they may carry a marker, to keep throughput high.
      if (raw.includes('"Action":"output"') && !/timed out|no tests to run|failed\]|ns\/op|FUZZ {2}/.test(raw)) {
        sawJson = true;
        return;
      }
      const plain = PLAIN_EVENT_RE.exec(raw);
      if (plain !== null) {
        onPlainEvent(plain, raw);
        return;
      }
      let event: unknown;
      try {
        event = JSON.parse(raw);
      } catch {
        event = undefined;
      }
      if (typeof event === "object" && event !== null && "Action" in event) {
        sawJson = true;
        onEvent(event, raw);
        return;
      }
    }
    onTextLine(stripAnsi(raw).trimEnd());
  };

  const onPlainEvent = (plain: RegExpExecArray, raw: string): void => {
    sawJson = true;
    // The package is copied once: a slice would keep its input chunk alive as long as the package is kept.
    const pkg = plain[2]! === lastPackage ? lastPackage : (lastPackage = ownString(plain[2]!));
    onEvent({ Action: plain[1], Package: pkg, Test: plain[3] }, raw);
  };

  // The chunk being split, and where in it the marker texts of output events are (ascending).
  let chunk = "";
  let markerHits: number[] = [];
  let nextHit = 0;
  // The hot path: `output` events and plain run/pass/fail/skip events are read in place in the chunk.
  const onRange = (text: string, start: number, end: number): void => {
    head.note(text, start, end);
    if (text !== chunk || end - start > MAX_LINE_LENGTH || text.charCodeAt(start) !== 123) {
      onLine(lineAt(text, start, end));
      return;
    }
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    while (nextHit < markerHits.length && markerHits[nextHit]! < start) nextHit += 1;
    const hasMarker = nextHit < markerHits.length && markerHits[nextHit]! < lineEnd;
    const action = text.indexOf('"Action":"', start);
    if (action !== -1 && action < lineEnd && text.startsWith('output"', action + 10) && !hasMarker) {
      lineNo += 1;
      sawJson = true;
      return;
    }
    PLAIN_EVENT_STICKY_RE.lastIndex = start;
    const plain = PLAIN_EVENT_STICKY_RE.exec(text);
    if (plain !== null && start + plain[0].length === lineEnd) {
      lineNo += 1;
      onPlainEvent(plain, plain[0]);
      return;
    }
    onLine(text.slice(start, lineEnd));
  };

  const splitter = createRangeSplitter(onRange);
  return {
    push(text: string): void {
      chunk = text;
      markerHits = [];
      nextHit = 0;
      OUTPUT_MARKER_RE.lastIndex = 0;
      for (let hit = OUTPUT_MARKER_RE.exec(text); hit !== null; hit = OUTPUT_MARKER_RE.exec(text)) markerHits.push(hit.index);
      splitter.push(text);
      ids.endChunk(text.length);
    },
    end(): ParsedRunOutput<IdList> {
      splitter.end();
      if (startedPackages.size > 0 || running.size > 0 || (!sawJson && textRuns.size > 0)) {
        const open = [...new Set([...startedPackages.keys(), ...running.keys()])];
        findings.mark(
          "incomplete",
          lineNo,
          open.length > 0 ? `no final result for ${open.join(", ")}` : "test lines without a package result",
        );
      }
      const lists = ids.drain();
      let summary: FinalSummary | null = null;
      if (packages.size > 0) {
        const counts: Record<string, number> = { "packages passed": 0, "packages failed": 0, "packages skipped": 0 };
        for (const entry of packages.valuesInOrder()) {
          const result = entry & 3;
          const key =
            result === RESULT_CODES.pass ? "packages passed" : result === RESULT_CODES.fail ? "packages failed" : "packages skipped";
          counts[key] = (counts[key] ?? 0) + 1;
        }
        counts.passed = lists.passed.length;
        counts.failed = lists.failed.length;
        counts.skipped = lists.skipped.length;
        summary = { counts, line: lastPackageLine, text: lastPackageText };
      }
      const names = packages.namesInOrder();
      const results: PackageResult[] = ["pass", "fail", "skip"];
      const packageResults = packages.valuesInOrder().map((entry, i) => {
        const path = names[i] ?? "";
        return { path, result: results[entry & 3] ?? "fail", ...(noTestsPackages.has(path) ? { noTests: true } : {}) };
      });
      return {
        kind: "go",
        ...lists,
        summary,
        summaryCount,
        ...findings.runFields(lineNo),
        packages: packageResults,
        start: { cut: goStartCut(head.first, head.second, sawJson), headMissing: textHeadMissing, summaryMismatch: null },
      };
    },
    get summaryCount() {
      return summaryCount;
    },
    get lineCount() {
      return lineNo;
    },
  };
}

/** Parses a whole `go test` output at once (see {@link createGoTestParser}). */
export function parseGoTest(text: string): ParsedRunOutput {
  const parser = createGoTestParser();
  parser.push(text);
  return parser.end();
}
