import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { statusTemplates } from "../../src/shell/attribute-exit.js";
import type { ExitAttribution } from "../../src/shell/index.js";
import { attributeExit } from "../../src/shell/index.js";

const attribute = (line: string, exit: number | null | undefined, output?: string): ExitAttribution[] =>
  attributeExit(analyzeCommand(line), exit, output === undefined ? {} : { output });

const t = (runnerExit: number): ExitAttribution => ({ status: "trusted", runnerExit, reason: "runner-status" });
const s = (reason: string): ExitAttribution => ({ status: "success-implied", runnerExit: 0, reason });
const f = (reason: string): ExitAttribution => ({ status: "failure-implied", runnerExit: null, reason });
const m = (reason: string): ExitAttribution => ({ status: "masked", runnerExit: null, reason });

describe("attributeExit: the runner's own status", () => {
  it.each([
    ["pytest alone, exit 0", "pytest -q", 0, undefined, [t(0)]],
    ["pytest alone, exit 1", "pytest -q", 1, undefined, [t(1)]],
    ["a timeout's 124 is the runner's", "timeout 60 pytest", 124, undefined, [t(124)]],
    ["a redirect does not mask", "pytest -q > log 2>&1", 1, undefined, [t(1)]],
    ["in a subshell", "(pytest)", 2, undefined, [t(2)]],
    ["in a group", "{ pytest; }", 1, undefined, [t(1)]],
    ["cd && pytest, exit 0", "cd sub && pytest", 0, undefined, [t(0)]],
    ["ruff check . && pytest -q, exit 0", "ruff check . && pytest -q", 0, undefined, [t(0)]],
    ["pytest -q && echo ok, exit 1: echo cannot fail", "pytest -q && echo ok", 1, undefined, [t(1)]],
    ["a heredoc then pytest on the next line", "cat <<EOF > conftest.py\nimport os\nEOF\npytest", 1, undefined, [t(1)]],
    ["pytest; exit keeps pytest's status", "pytest; exit", 1, undefined, [t(1)]],
    ["bash -c 'pytest'", "bash -c 'pytest -q'", 1, undefined, [t(1)]],
    ["a || fallback that cannot have printed", "pytest || echo FAILED", 0, "", [t(0)]],
    ["the last of two runs", "pytest a -q; pytest b -q", 0, undefined, [m("later-statement"), t(0)]],
  ])("%s", (_name, line, exit, output, expected) => {
    expect(attribute(line, exit, output)).toEqual(expected);
  });
});

describe("attributeExit: pipefail and errexit across statements", () => {
  it.each([
    ["set -o pipefail; pytest | tail -1, exit 0", "set -o pipefail; pytest | tail -1", 0, [t(0)]],
    ["set -o pipefail; pytest | tail -1, exit 1", "set -o pipefail; pytest | tail -1", 1, [t(1)]],
    ["set -euo pipefail newline pytest | tail -1, exit 1", "set -euo pipefail\npytest -q | tail -1", 1, [t(1)]],
    ["set -eo pipefail", "set -eo pipefail; pytest 2>&1 | tee log", 1, [t(1)]],
    ["set -o pipefail then set +o pipefail", "set -o pipefail; set +o pipefail; pytest | tail", 0, [m("pipe-without-pipefail")]],
    ["pipefail with a stage that can fail", "set -o pipefail; pytest | grep passed", 1, [m("pipefail-later-stage-may-fail")]],
    ["pipefail inside bash -o pipefail -c", "bash -o pipefail -c 'pytest | tail -3'", 1, [t(1)]],
    ["pipefail does not reach into bash -c", "set -o pipefail; bash -c 'pytest | tail -3'", 0, [m("pipe-without-pipefail")]],
    ["set -e; pytest; echo done, exit 1", "set -e; pytest; echo done", 1, [t(1)]],
    ["set -e; pytest; echo done, exit 0", "set -e; pytest; echo done", 0, [s("exit-0-implies-runner-0")]],
    ["set -e then set +e", "set -e; set +e; pytest; echo done", 0, [m("later-statement")]],
    ["set -e ignores the left of ||", "set -e; pytest || true; echo done", 0, [m("or-connector")]],
    ["set -o errexit", "set -o errexit; pytest; echo done", 0, [s("exit-0-implies-runner-0")]],
  ])("%s", (_name, line, exit, expected) => {
    expect(attribute(line, exit)).toEqual(expected);
  });
});

describe("attributeExit: && links and echo markers", () => {
  it.each([
    ["pytest && git push, exit 0", "pytest -q && git push", 0, undefined, [s("exit-0-implies-runner-0")]],
    ["pytest && git push, exit 1", "pytest -q && git push", 1, undefined, [m("later-command-may-have-failed")]],
    ["&& echo marker seen, no exit status", "pytest -q && echo ALL_OK", null, "5 passed in 0.1s\nALL_OK", [s("and-marker-seen")]],
    ["&& echo OK || echo BROKEN, BROKEN printed", "pytest -q && echo OK || echo BROKEN", 0, "BROKEN", [f("or-marker-seen")]],
    ["&& echo OK || echo BROKEN, OK printed", "pytest -q && echo OK || echo BROKEN", 0, "1 passed\nOK", [s("and-marker-seen")]],
    ["&& echo OK || echo BROKEN, no output given", "pytest -q && echo OK || echo BROKEN", 0, undefined, [m("or-connector")]],
    ["|| echo BROKEN printed", "pytest || echo BROKEN", 0, "BROKEN", [f("or-marker-seen")]],
    ["printf marker", "pytest && printf 'DONE\\n'", null, "DONE", [s("and-marker-seen")]],
    ["a marker behind tail proves only tail", "pytest -q 2>&1 | tail -1 && echo ALL_OK", null, "ALL_OK", [m("pipe-without-pipefail")]],
    ["a marker after a fallible command", "pytest && git push && echo PUSHED", null, "PUSHED", [s("and-marker-seen")]],
    ["a marker whose || side may be git's failure", "pytest && git push || echo BROKEN", 0, "BROKEN", [m("or-connector")]],
    ["both markers printed: contradiction", "pytest && echo OK || echo BROKEN", 0, "OK\nBROKEN", [m("inconsistent-evidence")]],
    ["a marker with an expansion is no marker", 'pytest; echo "EXIT=$?"', 0, "EXIT=1", [m("later-statement")]],
    ["a marker written to a file is no marker", "pytest && echo OK > done.txt", null, "OK", [m("no-exit-status")]],
    ["! pytest, exit 0", "! pytest", 0, undefined, [f("exit-implies-runner-failed")]],
  ])("%s", (_name, line, exit, output, expected) => {
    expect(attribute(line, exit, output)).toEqual(expected);
  });
});

describe("attributeExit: masked", () => {
  it.each([
    ["pytest -q 2>&1 | tail -3", "pytest -q 2>&1 | tail -3", 0, [m("pipe-without-pipefail")]],
    ["pytest | tee out.log", "pytest | tee out.log", 0, [m("pipe-without-pipefail")]],
    ["pytest; echo done", "pytest; echo done", 0, [m("later-statement")]],
    ["pytest; echo done, exit 1 is impossible", "pytest; echo done", 1, [m("inconsistent-evidence")]],
    ["pytest || true", "pytest || true", 0, [m("or-connector")]],
    ["ruff check . && pytest -q, exit 1", "ruff check . && pytest -q", 1, [m("may-not-have-run")]],
    ["cd missing && pytest, exit 1", "cd missing && pytest", 1, [m("may-not-have-run")]],
    ["a || before the runner", "false_start || pytest", 0, [m("may-not-have-run")]],
    ["pytest -q &", "pytest -q &", 0, [m("background")]],
    ["pytest & wait", "pytest & wait", 0, [m("background")]],
    ['bash -c "pytest || true"', 'bash -c "pytest || true"', 0, [m("or-connector")]],
    ["(cd sub && pytest) 2>&1 | tee log", "(cd sub && pytest) 2>&1 | tee log", 0, [m("pipe-without-pipefail")]],
    ["git stash && pytest -q; git stash pop", "git stash && pytest -q; git stash pop", 0, [m("later-statement")]],
    ["for f in a b; do pytest $f; done", "for f in a b; do pytest $f; done", 0, [m("inside-loop")]],
    ["inside a function", "run(){ pytest; }; run", 0, [m("inside-function")]],
    ["inside an if", "if pytest; then echo ok; fi", 0, [m("inside-compound")]],
    ["pytest(){ echo 5 passed; }; pytest", "pytest(){ echo 5 passed; }; pytest", 0, [m("shadowed-runner")]],
    ["PATH=./fake:$PATH pytest", "PATH=./fake:$PATH pytest", 0, [m("shadowed-runner")]],
    ["no exit status", "pytest", null, [m("no-exit-status")]],
    ["undefined exit status", "pytest", undefined, [m("no-exit-status")]],
    ["pytest; exit 0", "pytest; exit 0", 0, [m("later-statement")]],
  ])("%s", (_name, line, exit, expected) => {
    expect(attribute(line, exit)).toEqual(expected);
  });

  it("an opaque line has no invocation to attribute", () => {
    expect(attribute('pytest "unterminated', 0)).toEqual([]);
  });

  it("gives up, masked, on a line with too many paths", () => {
    const line = `${Array.from({ length: 14 }, (_, i) => `cmd${i} && echo M${i}`).join("; ")}; pytest`;
    expect(attribute(line, 0, "M1")).toEqual([m("too-complex")]);
  });
});

describe("a status echo right after the runner (`pytest > log; echo EXIT=$?`)", () => {
  const attribute = (line: string, lines: string[]): ExitAttribution | undefined => {
    const analysis = analyzeCommand(line);
    return attributeExit(analysis, 0, { status: { templates: statusTemplates(analysis), lines } })[0];
  };

  it.each<[string, string, string[], Partial<ExitAttribution>]>([
    [
      "the printed status is the runner's",
      "pytest -q > log 2>&1; echo EXIT=$?",
      ["EXIT=1"],
      { status: "trusted", runnerExit: 1, reason: "status-printed" },
    ],
    // Attacks: a test prints a status line of its own, or the echo is not right after the runner.
    ["a test prints EXIT=0 beside the real EXIT=1", "pytest -q; echo EXIT=$?", ["EXIT=0", "EXIT=1"], { status: "masked" }],
    ["$? after `cd x &&` may be cd's", "cd x && pytest -q > log; echo EXIT=$?", ["EXIT=1"], { status: "masked" }],
    ["$? after a pipe is the last stage's", "pytest -q | tail -1; echo EXIT=$?", ["EXIT=0"], { status: "masked" }],
    ["an echo two statements later", "pytest -q > log; true; echo EXIT=$?", ["EXIT=0"], { status: "masked" }],
    ["no line printed", "pytest -q > log; echo EXIT=$?", [], { status: "masked" }],
  ])("%s", (_name, line, lines, expected) => {
    expect(attribute(line, lines)).toMatchObject(expected);
  });
});
