// What a line leaves defined in a shell that lives on after it (findSessionEffects).
import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";
import { findSessionEffects, type SessionEffects } from "../../src/shell/shadowing.js";

const effects = (line: string): SessionEffects => findSessionEffects(analyzeCommand(line).parsed);
const none: SessionEffects = {
  functions: [],
  aliases: [],
  unsetFunctions: [],
  unsetAliases: [],
  unaliasAll: false,
  pathEntries: [],
  risks: [],
  outputRedirect: null,
};

describe("findSessionEffects", () => {
  it.each<[string, string, Partial<SessionEffects>]>([
    ["a function", "pytest() { echo 5 passed; }", { functions: ["pytest"] }],
    ["the function keyword", "function go { :; }", { functions: ["go"] }],
    ["an alias", "alias pytest='echo 1 passed' ll='ls -l'", { aliases: ["pytest", "ll"] }],
    ["a function inside a group and an if", "{ f() { :; }; }; if true; then g() { :; }; fi", { functions: ["f", "g"] }],
    ["a static eval", `eval "python() { :; }"`, { functions: ["python"] }],
    ["unset -f and plain unset", "unset -f pytest; unset python", { unsetFunctions: ["pytest", "python"] }],
    ["unset -v removes variables only", "unset -v pytest", {}],
    ["unalias", "unalias pytest; unalias -a", { unsetAliases: ["pytest"], unaliasAll: true }],
    ["a PATH assignment standing alone", "PATH=./fake:$PATH", { pathEntries: ["./fake"] }],
    ["export PATH with two new entries", "export PATH=/opt/go/bin:bin:${PATH}", { pathEntries: ["/opt/go/bin", "bin"] }],
    ["a PATH that drops the old one", "export PATH=/usr/bin:/bin", { pathEntries: ["/usr/bin", "/bin"] }],
    ["a PATH append adds nothing in front", "export PATH=$PATH:/opt/bin", {}],
    ["a PATH prefix on a command lasts for the command only", "PATH=./fake:$PATH pytest", {}],
    ["a subshell's definitions die with it", "( pytest() { :; }; alias go=true )", {}],
    ["so do a pipeline's", "pytest() { :; } | cat", {}],
    ["and a background list's", "pytest() { :; } &", {}],
    ["and a bash -c script's", `bash -c "pytest() { :; }"`, {}],
    ["exec into a process substitution", "exec > >(python3 filter.py)", { outputRedirect: "exec >>(python3 filter.py)" }],
    ["exec of stderr into a file, inside a group", "{ exec 2> err.log; }", { outputRedirect: "exec 2>err.log" }],
    ["exec 2>&1 keeps the output whole", "exec 2>&1", {}],
    ["exec 3>&1 saves a descriptor only", "exec 3>&1", {}],
    ["exec in a subshell dies with it", "( exec > /dev/null )", {}],
    ["exec of a program is not a redirect of the shell", "exec python3 -m pytest > log", {}],
    [
      "an eval of expansions is not read, and is a risk that stays",
      `eval "$(pyenv init -)"`,
      { risks: [{ scope: "any", reason: "eval of text built at run time" }] },
    ],
  ])("%s", (_name, line, expected) => {
    expect(effects(line)).toEqual({ ...none, ...expected });
  });
});
