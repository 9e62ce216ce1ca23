// The line shapes of `go test` output, shared by the parser (go-test.ts) and its start check
// (go-start.ts): package lines, framing lines, test2json's plain events, and the output markers.

// The third field (time, `(cached)`, `[build failed]`, `[no test files]`) is required: a line clipped
// inside the import path must not settle a wrongly named package.
export const PACKAGE_LINE_RE = /^(ok|FAIL|\?)\s+(\S+)\s+(\S.*)$/;
export const RESULT_LINE_RE = /^\s*--- (PASS|FAIL|SKIP): (\S+)(?: \([\d.]+s\))?/;
// `-fuzz` opens its target with `=== FUZZ` where a test gets `=== RUN`.
export const RUN_LINE_RE = /^=== (?:RUN|FUZZ)\s+(\S+)/;
export const USAGE_RES = [
  /^no Go files in /,
  /cannot find package /,
  /: directory not found$/,
  /^flag provided but not defined: /,
  /^go: unknown flag /,
  /is not in (?:GOROOT|std)/,
  /^malformed import path /,
  /^go: cannot find main module/,
  /no required module provides package /,
  /^go: warning: "[^"]*" matched no packages$/,
  /^go: .*: (?:invalid|unknown) /,
];

// The events test2json writes for test starts and results, in its key order, with no escapes, control
// characters or spaces: exactly what JSON.parse would make of the line, read without building an object.
// `[ !#-[\]-\uffff]` is a JSON string character that needs no escape: U+0020 and up except `"` and `\`.
export const PLAIN_EVENT_BODY = String.raw`\{(?:"Time":"[ !#-[\]-\uffff]*",)?"Action":"(run|pass|fail|skip)","Package":"([ !#-[\]-\uffff]*)"(?:,"Test":"([ !#-[\]-\uffff]*)")?(?:,"Elapsed":-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)?\}`;
export const PLAIN_EVENT_RE = new RegExp(`^${PLAIN_EVENT_BODY}$`);
// The same, matched in place inside a chunk (from `lastIndex`); the caller checks that it ends at the line end.
export const PLAIN_EVENT_STICKY_RE = new RegExp(PLAIN_EVENT_BODY, "y");
// Output texts that carry a marker (onOutputText): an `output` event without one carries nothing.
// (`FUZZ  ` is the end of `=== FUZZ  FuzzX`, -fuzz's start of its target.)
export const OUTPUT_MARKER_RE = /timed out|no tests to run|failed\]|ns\/op|FUZZ {2}/g;
export const FUZZ_START_RE = /^=== FUZZ\s+(\S+)$/;
export const BENCHMARK_RESULT_RE = /^Benchmark\S*\s+\d+\s+[\d.]+ ns\/op/;
