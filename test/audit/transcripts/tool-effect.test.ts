// What a non-shell tool call of a transcript can change (tool-effect.ts): one row per rule.
import { describe, expect, it } from "vitest";

import { toolCallEffect, toolNameWords } from "../../../src/audit/transcripts/tool-effect.js";

describe("toolCallEffect", () => {
  it.each([
    // The clients' own tools.
    ["Edit", { file_path: "/w/a.py", old_string: "a", new_string: "b" }, { kind: "edit", paths: ["/w/a.py"] }],
    ["NotebookEdit", { notebook_path: "/w/n.ipynb" }, { kind: "edit", paths: ["/w/n.ipynb"] }],
    ["Read", { file_path: "/w/a.py" }, { kind: "none" }],
    ["TodoWrite", { todos: [] }, { kind: "none" }],
    ["update_plan", { plan: [] }, { kind: "none" }],
    ["BashOutput", { bash_id: "b1" }, { kind: "none" }],
    // Subagents: read-only kinds change nothing; any other may have edited anything.
    ["Task", { subagent_type: "Explore", prompt: "find x" }, { kind: "none" }],
    ["Task", { subagent_type: "general-purpose", prompt: "fix x" }, { kind: "edit", paths: [] }],
    ["Task", { prompt: "fix x" }, { kind: "edit", paths: [] }],
    // MCP servers' file tools, by name.
    ["mcp__fs__write_file", { path: "src/a.py", content: "x" }, { kind: "edit", paths: ["src/a.py"] }],
    ["mcp__editor__replace_text", { file: "src/a.py", old: "a", new: "b" }, { kind: "edit", paths: ["src/a.py"] }],
    ["mcp__filesystem__move_file", { source: "a.py", destination: "b.py" }, { kind: "edit", paths: ["b.py", "a.py"] }],
    ["mcp__fs__createDirectory", { path: "pkg" }, { kind: "edit", paths: ["pkg"] }],
    ["mcp__fs__read_file", { path: "src/a.py" }, { kind: "none" }],
    ["mcp__fs__list_directory", { path: "." }, { kind: "none" }],
    ["mcp__github__search_code", { q: "x" }, { kind: "none" }],
    ["mcp__playwright__browser_click", { element: "OK" }, { kind: "none" }],
    // By input: a path and content, whatever the name.
    ["mcp__x__put_text", { filePath: "a.py", text: "x" }, { kind: "edit", paths: ["a.py"] }],
    ["mcp__x__store", { path: "a.py", content: "x" }, { kind: "edit", paths: ["a.py"] }],
    // Tools that run something: anything may have changed.
    ["mcp__desktop__execute_command", { command: "sed -i s/a/b/ a.py", path: "a.py" }, { kind: "edit", paths: [] }],
    ["write_stdin", { session_id: 3, chars: "sed -i s/a/b/ a.py\n" }, { kind: "edit", paths: [] }],
    ["write_stdin", { session_id: 3, chars: "" }, { kind: "none" }],
    // Unknown effect: anything.
    ["mcp__x__do_thing", {}, { kind: "edit", paths: [] }],
  ] as const)("%s %j", (name, input, effect) => {
    expect(toolCallEffect(name, input)).toEqual(effect);
  });

  it("splits names on separators and camel case", () => {
    expect(toolNameWords("mcp__fs__write_file")).toEqual(["mcp", "fs", "write", "file"]);
    expect(toolNameWords("replaceTextInFile")).toEqual(["replace", "text", "in", "file"]);
  });
});
