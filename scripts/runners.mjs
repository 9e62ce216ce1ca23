// The real parts the suite and the demo run: one table shared by the bootstrap and the test setup.
import { spawnSync } from "node:child_process";

/** Debian packages that provide every real runner the suite uses (PyPI is not reachable here). */
export const APT_PACKAGES = [
  "python3-pytest",
  "python3-pytest-cov",
  "python3-pytest-xdist",
  "python3-django",
  "golang-go",
  "git",
  "bubblewrap",
];

/** Each requirement: a probe command and the Debian package that satisfies it. */
export const REQUIREMENTS = [
  { name: "Debian python3 with pytest", command: ["/usr/bin/python3", "-c", "import pytest"], pkg: "python3-pytest" },
  { name: "pytest-cov", command: ["/usr/bin/python3", "-c", "import pytest_cov"], pkg: "python3-pytest-cov" },
  { name: "pytest-xdist", command: ["/usr/bin/python3", "-c", "import xdist"], pkg: "python3-pytest-xdist" },
  { name: "Django", command: ["/usr/bin/python3", "-c", "import django"], pkg: "python3-django" },
  { name: "go", command: ["go", "version"], pkg: "golang-go" },
  { name: "git", command: ["git", "--version"], pkg: "git" },
  { name: "bubblewrap", command: ["bwrap", "--version"], pkg: "bubblewrap" },
  // Pre-3.11 unittest ids and `NO TESTS RAN` come from the interpreters the machine image ships
  // under pyenv; apt cannot provide them, so a missing one fails with this message.
  { name: "python 3.10 (pyenv, machine image)", command: ["/root/.pyenv/versions/3.10.13/bin/python3", "-c", "import unittest"], pkg: null },
  { name: "python 3.12 (pyenv, machine image)", command: ["/root/.pyenv/versions/3.12.1/bin/python3", "-c", "import unittest"], pkg: null },
];

/** Returns the requirements whose probe fails. */
export function missingRequirements() {
  return REQUIREMENTS.filter((req) => {
    const [cmd, ...args] = req.command;
    const result = spawnSync(cmd, args, { stdio: "ignore" });
    return result.error !== undefined || result.status !== 0;
  });
}

/** One message that says exactly what to install. */
export function renderInstallHint(missing) {
  const names = missing.map((m) => m.name).join(", ");
  const pkgs = [...new Set(missing.map((m) => m.pkg).filter((p) => p !== null))].join(" ");
  const image = missing.filter((m) => m.pkg === null).map((m) => m.name);
  return (
    `agent-evidence: missing real runners (${names}).` +
    (pkgs === "" ? "" : ` Install them with:\n  apt-get update && apt-get install -y ${pkgs}`) +
    (image.length === 0 ? "" : `\nNot installable with apt (use the node machine image, which ships them under /root/.pyenv): ${image.join(", ")}`) +
    `\n(PyPI is not needed; the tests run the real runners and never skip them.)`
  );
}
