// What each README command asks the machine for (scripts/runners.mjs): the demo only what it runs,
// the suite everything, and a hint that names the packages to install for exactly what is missing.
import { describe, expect, it } from "vitest";

import { aptPackages, blockingRequirements, missingRequirements, renderInstallHint, requirementsFor } from "../../scripts/runners.mjs";

// A PATH with no runner on it: every PATH-found probe fails; /usr/bin/python3 probes still run.
const EMPTY_PATH = { ...process.env, PATH: "/nonexistent" };

describe("the runner table", () => {
  it("gives the demo pytest, git and bubblewrap, and the suite every runner", () => {
    expect(aptPackages("demo").sort()).toEqual(["bubblewrap", "git", "python3-pytest"]);
    expect(aptPackages("test").sort()).toEqual([
      "bubblewrap",
      "cargo",
      "git",
      "golang-go",
      "python-is-python3",
      "python3-django",
      "python3-pytest",
      "python3-pytest-cov",
      "python3-pytest-xdist",
      "rustc",
    ]);
  });

  it("finds nothing missing on this machine, which the suite itself needs", () => {
    expect(missingRequirements("test")).toEqual([]);
    expect(missingRequirements("demo")).toEqual([]);
  });

  it("names go, git and bubblewrap, with their packages, when PATH has none of them", () => {
    const missing = missingRequirements("test", EMPTY_PATH);
    expect(missing.map((req) => req.name)).toEqual(["git", "bubblewrap", "go", "cargo", "rustc"]);
    const hint = renderInstallHint(missing, "test");
    expect(hint).toContain(
      "npm test needs git, bubblewrap, go, cargo, rustc. Install with:\n  apt-get update && apt-get install -y git bubblewrap golang-go cargo rustc",
    );
  });

  it("lets the demo run without bubblewrap, and says so, but not without python3 and pytest", () => {
    const missing = missingRequirements("demo", EMPTY_PATH);
    expect(missing.map((req) => req.name)).toEqual(["python3 with pytest, outside $HOME", "git", "bubblewrap"]);
    expect(blockingRequirements(missing, "demo").map((req) => req.name)).toEqual(["python3 with pytest, outside $HOME", "git"]);
    const bubblewrapOnly = requirementsFor("demo").filter((req) => req.pkg === "bubblewrap");
    expect(blockingRequirements(bubblewrapOnly, "demo")).toEqual([]);
    expect(renderInstallHint(bubblewrapOnly, "demo")).toBe(
      "agent-evidence: bubblewrap is not installed (apt-get install -y bubblewrap): the demo runs its agent without the sandbox.",
    );
  });

  it("does not take a python3 under $HOME (a pyenv shim) for the demo, whose sandbox hides $HOME", () => {
    const home = process.env.HOME ?? "/root";
    const missing = missingRequirements("demo", { ...process.env, HOME: home, PATH: `${home}/.pyenv/shims` });
    expect(missing.map((req) => req.name)).toContain("python3 with pytest, outside $HOME");
  });
});
