// The observer registry: built-ins are found by kind, users add their own through the same interface.
import { describe, expect, it } from "vitest";
import { createObserverRegistry, createPytestParser, isEvidenceErrorLike, type RunnerObserver } from "./registry-helpers.js";

const cargo: RunnerObserver = {
  kind: "cargo",
  recognises: (invocation) => invocation.kind === "cargo",
  createParser: createPytestParser,
  covers: (target, id) => id.startsWith(target),
};

describe("observer registry", () => {
  it.each([
    ["pytest", "python -m pytest", "pytest"],
    ["go", "go test", "go"],
    ["django", "python tests/runtests.py", "django"],
    ["unittest", "python -m unittest", "unittest"],
    ["cargo", "cargo test", undefined],
  ])("finds the built-in observer for %s", (kind, runner, found) => {
    expect(createObserverRegistry().find({ kind, runner })?.kind).toEqual(found);
  });

  it("lets a user register an observer of their own, found like a built-in", () => {
    const registry = createObserverRegistry();
    registry.register(cargo);
    expect(registry.find({ kind: "cargo", runner: "cargo test" })?.kind).toEqual("cargo");
  });

  it("refuses a second observer for a kind unless asked to replace it", () => {
    const registry = createObserverRegistry();
    expect(isEvidenceErrorLike(() => registry.register({ ...cargo, kind: "pytest" }))).toEqual("E_INVALID_OPTION");
    registry.register({ ...cargo, kind: "pytest" }, { replace: true });
    expect(registry.list().filter((o) => o.kind === "pytest").length).toEqual(1);
  });

  it("starts empty on request", () => {
    expect(createObserverRegistry({ builtins: false }).list()).toEqual([]);
  });

  it("each built-in parser reads its own runner's output", () => {
    const registry = createObserverRegistry();
    const parser = registry.get("pytest")!.createParser();
    parser.push("PASSED tests/t.py::test_a\n");
    parser.push("1 passed in 0.01s\n");
    const parsed = parser.end();
    expect({ kind: parsed.kind, passed: parsed.passed, summaryCount: parsed.summaryCount }).toEqual({ kind: "pytest", passed: ["tests/t.py::test_a"], summaryCount: 1 });
  });
});
