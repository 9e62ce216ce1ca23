// Where a runner's results go (routeOutputs, and TestInvocation.output from analyzeCommand).
import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import type { OutputRoute } from "../../src/shell/output-route.js";

const route = (line: string): OutputRoute[] => analyzeCommand(line).invocations.map((inv) => inv.output);

describe("the route of a runner's results", () => {
  it.each<[string, string, OutputRoute]>([
    ["straight to the output", "pytest -q", "direct"],
    ["through a line filter", "pytest -rA 2>&1 | grep -v PASSED | tail -n 20 | head -5", "filtered"],
    ["through grep PASSED", "pytest -rA | grep PASSED", "filtered"],
    ["through tail and head only", "pytest -rA 2>&1 | tail -n 20 | head -5", "direct"],
    ["through tee and cat", "pytest | tee log.txt | cat", "direct"],
    ["stderr hidden, results on stdout", "pytest 2>/dev/null", "direct"],
    ["into a file printed later", "pytest > log.txt 2>&1; tail -5 log.txt", "from-file"],
    ["into a file grep prints later", "go test ./... > out.log; grep -v '^ok' out.log", "filtered"],
    ["into a file grep and cat print later", "go test ./... > out.log; grep -v '^ok' out.log; cat out.log", "from-file"],
    ["tee'd whole into a file cat prints, and grep'd", "pytest | tee log | grep -c x; cat log", "transformed"],
    ["into a file a bash -c prints later", `bash -c "pytest > log"; cat log`, "from-file"],
    ["a group into a file printed later", "{ pytest; } &> log; cat log", "from-file"],
    ["tee'd into a file nobody prints, and hidden", "pytest | tee log > /dev/null", "hidden"],
    ["to /dev/null", "pytest > /dev/null", "hidden"],
    ["to /dev/null after 2>&1", "pytest 2>&1 >/dev/null", "hidden"],
    ["&> /dev/null", "pytest &>/dev/null; echo done", "hidden"],
    ["into a file printed before the run", "cat log; pytest > log", "hidden"],
    ["into a file, another file printed", "pytest > log; cat other.log", "hidden"],
    ["into a file named by a variable", "pytest > $LOG; cat $LOG", "hidden"],
    ["a group to /dev/null", "{ cd sub && pytest; } > /dev/null", "hidden"],
    ["a loop to a file nobody prints", "for i in 1 2; do pytest; done > log", "hidden"],
    ["through sed", "pytest 2>&1 | sed 's/failed/passed/'", "transformed"],
    ["into a process substitution", "pytest > >(sed 's/failed/passed/')", "transformed"],
    ["after exec into a process substitution, earlier in the line", "exec > >(python3 filter.py); pytest -q", "transformed"],
    ["after exec in a group and an if", "{ exec > >(f); }; if true; then pytest; fi", "transformed"],
    ["after exec of stdout into a log", "exec > log.txt 2>&1; pytest -q; cat log.txt", "hidden"],
    ["after exec 2>&1 (the output stays whole)", "exec 2>&1; pytest -q", "direct"],
    ["after an exec in a subshell that ended", "( exec > /dev/null ); pytest -q", "direct"],
    ["through awk", "pytest | awk '{print}'", "transformed"],
    ["through a program", "pytest | python3 -c 'import sys; print(sys.stdin.read())'", "transformed"],
    ["through tail -c", "pytest | tail -c 40", "transformed"],
    ["through grep -o", "pytest | grep -o '[0-9]* passed in [0-9.]*s'", "transformed"],
    ["through grep -c", "pytest | grep -c passed", "transformed"],
    ["through cut", "pytest | cut -c 10-", "transformed"],
    ["through a while loop", 'pytest | while read -r l; do echo "$l"; done', "transformed"],
  ])("%s: %s", (_name, line, expected) => {
    expect(route(line)).toEqual([expected]);
  });

  it("unittest and Django print their results on stderr", () => {
    expect(route("python -m unittest -v 2>/dev/null")).toEqual(["hidden"]);
    expect(route("python -m unittest -v > /dev/null")).toEqual(["direct"]);
    expect(route("cd tests && python runtests.py 2>&1 >/dev/null | tail -3")).toEqual(["direct"]);
    expect(route("python -m unittest 2>&1 | sed s/FAIL/ok/")).toEqual(["transformed"]);
  });

  it("each run of a line has its own route", () => {
    expect(route("pytest a > /dev/null; pytest b | tail -3; go test ./... | sed s/FAIL/ok/")).toEqual(["hidden", "direct", "transformed"]);
  });
});
