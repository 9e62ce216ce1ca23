import { describe, expect, it } from "vitest";

import { bashParser } from "../../src/grammar/bash-grammar.js";
import { parseCommandLine } from "../../src/shell/index.js";
import { renderLine } from "./render.js";

const parse = (line: string): string => renderLine(parseCommandLine(line, bashParser()));

describe("parseCommandLine: statements, connectors, pipelines", () => {
  it.each([
    ["a simple command", "pytest -q", "pytest -q"],
    ["statements split by ; and newline", "a; b\nc", "a ; b ; c"],
    ["a background statement", "a & b", "a & ; b"],
    ["a trailing &", "pytest -q &", "pytest -q &"],
    ["&& and || in one list", "a && b || c", "a && b || c"],
    ["| and |& pipes", "a | b |& c", "a | b |& c"],
    ["! negates the whole pipeline", "! pytest | tail", "! pytest | tail"],
    ["leading assignments, quoted value", 'A=1 B="x y" pytest', "A=1 B='x y' pytest"],
    ["a comment only", "# just a comment", ""],
    ["an empty line", "", ""],
    ["an assignment alone", "X=1", "X=1"],
    ["a declaration command", "local a=b", "local a=b"],
    ["export with an expansion", "export PATH=./fake:$PATH", "export PATH=./fake:$PATH"],
    ["unset", "unset X", "unset X"],
    ["a test command", "[[ -f x ]] && pytest", "[[ '-f x' ]] && pytest"],
    ["a backslash-newline continuation", "pytest \\\n  -q tests/", "pytest -q tests/"],
  ])("%s: %j", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });
});

describe("parseCommandLine: redirects", () => {
  it.each([
    ["fd duplication 2>&1", "pytest 2>&1", "pytest {2>&1}"],
    ["> file and 2> file", "pytest > out.log 2> err.log", "pytest {>out.log} {2>err.log}"],
    [">> append", "pytest >> out", "pytest {>>out}"],
    ["&> all", "pytest &> all", "pytest {&>all}"],
    ["&>> all", "pytest &>> all", "pytest {&>>all}"],
    [">| clobber", "pytest >| f", "pytest {>|f}"],
    ["< input", "cat < in", "cat {<in}"],
    ["<<< here-string", 'cat <<< "hi there"', "cat {<<<hi there}"],
    ["words after a redirect stay arguments", "pytest > out -q tests/", "pytest -q tests/ {>out}"],
    ["a redirect on a subshell", "(cd sub && pytest) 2>&1 | tee log", "( cd sub && pytest ) {2>&1} | tee log"],
    ["a redirect on a group", "{ pytest; echo done; } > log", "{ pytest ; echo done } {>log}"],
  ])("%s: %j", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });

  it("reads fd, operator and unquoted target", () => {
    const parsed = parseCommandLine('pytest 2>&1 > "my log"', bashParser());
    const command = parsed.statements[0]!.list.pipelines[0]!.commands[0]!;
    expect(command.redirects).toEqual([
      { fd: 2, op: ">&", target: "1" },
      { fd: null, op: ">", target: "my log" },
    ]);
  });
});

describe("parseCommandLine: heredocs are data", () => {
  it.each([
    ["a heredoc then pytest on the next line", "cat <<EOF\npytest -q\nEOF\npytest", "cat {<<EOF} ; pytest"],
    ["<<- with a quoted delimiter", "cat <<-'EOF'\n\tpytest\n\tEOF", "cat {<<-EOF}"],
    ["a heredoc piped on its first line", "cat <<EOF | grep x\nbody\nEOF", "cat {<<EOF} | grep x"],
    ["a heredoc followed by |& and ||", "cat <<EOF |& grep x || echo no\nbody\nEOF", "cat {<<EOF} |& grep x || echo no"],
    ["python - <<PY keeps its - argument", "python - <<'PY'\nimport pytest\nPY", "python - {<<PY}"],
    ["a heredoc in an && list with 2>&1", "cd d && python3 - <<PY 2>&1\nprint(1)\nPY", "cd d && python3 - {<<PY} {2>&1}"],
    ["a heredoc followed by && on its line", "python - <<'EOF' && pytest -q\nimport os\nEOF", "python - {<<EOF} && pytest -q"],
  ])("%s: %j", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });
});

describe("parseCommandLine: subshells, groups, compounds", () => {
  it.each([
    ["a function definition then its call", "pytest(){ echo 5 passed; }; pytest", "function:pytest[ { echo 5 passed } ] ; pytest"],
    ["function keyword form", "function run { pytest; }", "function:run[ { pytest } ]"],
    ["for loop", "for f in a b; do pytest $f; done", "for[ pytest $f ]"],
    ["c-style for loop", "for ((i=0;i<3;i++)); do pytest; done", "for[ pytest ]"],
    ["while loop", "while true; do a; done", "while[ true ; a ]"],
    ["until loop", "until b; do c; done", "until[ b ; c ]"],
    ["if/else", "if pytest; then echo ok; else echo bad; fi", "if[ pytest ; echo ok ; echo bad ]"],
    ["case", "case $x in a) pytest;; *) go test;; esac", "case[ pytest ; go test ]"],
  ])("%s: %j", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });
});

describe("parseCommandLine: words, expansions, substitutions", () => {
  it.each([
    ["quotes and escapes removed", "pytest \"tests/a b.py\" 'c d' e\\ f $'g\\th'", "pytest 'tests/a b.py' 'c d' 'e f' 'g\th'"],
    ["expansions keep their text", 'pytest "$DIR/t.py" ${X:-y}', "pytest $DIR/t.py ${X:-y}"],
    ["substitutions keep their text", "echo $(pytest) `ls`", "echo $(pytest) `ls`"],
    ["an assignment from a substitution", "x=$(git diff) pytest", "x='$(git diff)' pytest"],
  ])("%s: %j", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });

  it.each([
    ["$(...)", "echo $(pytest)", { hasSubstitution: true, hasExpansion: false }],
    ["backticks", "echo `pytest`", { hasSubstitution: true, hasExpansion: false }],
    ["process substitution", "diff <(a) b", { hasSubstitution: true, hasExpansion: false }],
    ["$VAR", "pytest $T", { hasSubstitution: false, hasExpansion: true }],
    ["${X} in double quotes", 'pytest "${T}"', { hasSubstitution: false, hasExpansion: true }],
    ["an unquoted glob", "pytest tests/test_*.py", { hasSubstitution: false, hasExpansion: true }],
    ["a quoted glob is literal", "pytest 'tests/test_*.py'", { hasSubstitution: false, hasExpansion: false }],
    ["an escaped $ in double quotes", 'echo "\\$HOME"', { hasSubstitution: false, hasExpansion: false }],
  ])("marks %s", (_name, line, flags) => {
    const command = parseCommandLine(line, bashParser()).statements[0]!.list.pipelines[0]!.commands[0]!;
    expect(command.type === "simple" ? { hasSubstitution: command.hasSubstitution, hasExpansion: command.hasExpansion } : null).toEqual(
      flags,
    );
  });
});

describe("parseCommandLine: bash -c is parsed recursively", () => {
  it.each([
    ["bash -c", 'bash -c "pytest || true"', "bash -c 'pytest || true' <<pytest || true>>"],
    ["sh -c", "sh -c 'cd sub && pytest'", "sh -c 'cd sub && pytest' <<cd sub && pytest>>"],
    [
      "bash -lc",
      'bash -lc "set -o pipefail; pytest | tail"',
      "bash -lc 'set -o pipefail; pytest | tail' <<set -o pipefail ; pytest | tail>>",
    ],
    ["bash -euo pipefail -c", 'bash -euo pipefail -c "pytest"', "bash -euo pipefail -c pytest <<pytest>>"],
    ["a wrapped bash -c", "timeout 60 bash -c 'pytest -x'", "timeout 60 bash -c 'pytest -x' <<pytest -x>>"],
    ["a script file is not parsed", "bash script.sh", "bash script.sh"],
    ["a script from an expansion is opaque", 'bash -c "$CMD"', "OPAQUE(nested-opaque,script-has-expansion)"],
    ["a broken nested script makes the line opaque", "bash -c 'pytest \"'", "OPAQUE(nested-opaque,unterminated-quote,syntax-error)"],
  ])("%s: %j", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });

  it("guards the nesting depth", () => {
    let line = "pytest";
    for (let i = 0; i < 7; i++) line = `bash -c ${JSON.stringify(line)}`;
    expect(parse(line)).toEqual("OPAQUE(nested-opaque,nesting-too-deep)");
  });
});

describe("parseCommandLine: tree-sitter-bash issue 345 (trailing redirect on a list)", () => {
  it.each([
    [
      "cd && pytest 2>&1 | tail: redirect on pytest, pipe binds pytest|tail",
      "cd sub && pytest -q 2>&1 | tail -3",
      "cd sub && pytest -q {2>&1} | tail -3",
    ],
    ["cd && make 2>/dev/null", "cd build && make 2>/dev/null", "cd build && make {2>/dev/null}"],
    ["a | b > f: redirect on b", "a | b > f", "a | b {>f}"],
    ["a && b | c > f", "a && b | c > f", "a && b | c {>f}"],
    ["git fetch && ls 2>/dev/null", "git fetch && ls 2>/dev/null", "git fetch && ls {2>/dev/null}"],
  ])("%s", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });
});

describe("parseCommandLine: tree-sitter-bash issue 347 (newline after a multi-stage pipeline)", () => {
  it.each([
    ["the issue's own input", "a | grep x | head -30\necho B && cd s", "a | grep x | head -30 ; echo B && cd s"],
    [
      "pytest piped twice, then a line with ||",
      "pytest a | grep x | tail -1\npytest b || true",
      "pytest a | grep x | tail -1 ; pytest b || true",
    ],
    ["blank line between", "a | b | c\n\nd && e", "a | b | c ; d && e"],
  ])("%s", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });

  it("keeps the original text after re-parsing", () => {
    const parsed = parseCommandLine("a | b | c\nd && e", bashParser());
    expect(parsed.text).toEqual("a | b | c\nd && e");
    expect(parsed.statements[1]!.list.pipelines[0]!.commands[0]!.text).toEqual("d");
  });
});

describe("parseCommandLine: lines the grammar cannot parse cleanly are opaque", () => {
  it.each([
    ["unterminated double quote", 'pytest "abc', "OPAQUE(unterminated-quote,syntax-error)"],
    ["unterminated single quote", "pytest 'abc", "OPAQUE(unterminated-quote,syntax-error)"],
    ["dangling &&", "pytest &&", "OPAQUE(syntax-error)"],
    ["dangling |", "pytest |", "OPAQUE(syntax-error)"],
    ["unclosed subshell (MISSING node)", "(pytest", "OPAQUE(syntax-error)"],
    ["unclosed substitution", "echo $(", "OPAQUE(syntax-error)"],
    ["a reserved word as a command", "fi", "OPAQUE(syntax-error)"],
    [";; outside case", "pytest ;;", "OPAQUE(syntax-error)"],
  ])("%s: %j", (_name, line, expected) => {
    expect(parse(line)).toEqual(expected);
  });
});
