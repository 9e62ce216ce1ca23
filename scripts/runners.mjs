// The real parts the suite and the demo run: one table shared by the bootstrap and the test setup.
// Each README command needs its own part of it: `npm run demo` runs pytest on the bundled sample (in
// bubblewrap when it can, which hides $HOME) and git; `npm test` runs every runner the suite uses.
import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { delimiter } from "node:path";

/**
 * Each requirement: a probe command, the Debian package that satisfies it, the commands that need
 * it, and, for one a command can do without, what that command does instead.
 */
export const REQUIREMENTS = [
  // The demo's sandbox hides $HOME, so its python3 must be one outside it (a pyenv shim will not do).
  {
    name: "python3 with pytest, outside $HOME",
    command: ["python3", "-c", "import pytest"],
    outsideHome: true,
    pkg: "python3-pytest",
    for: ["demo"],
  },
  { name: "git", command: ["git", "--version"], pkg: "git", for: ["demo", "test"] },
  {
    name: "bubblewrap",
    command: ["bwrap", "--version"],
    pkg: "bubblewrap",
    for: ["demo", "test"],
    optionalFor: { demo: "the demo runs its agent without the sandbox" },
  },
  { name: "Debian python3 with pytest", command: ["/usr/bin/python3", "-c", "import pytest"], pkg: "python3-pytest", for: ["test"] },
  // Fixtures and tests type `python -m pytest`, as agents do; Debian names python3 alone without this.
  {
    name: "python (python3 under the name agents type)",
    command: ["/usr/bin/python", "-c", "import pytest"],
    pkg: "python-is-python3",
    for: ["test"],
  },
  { name: "pytest-cov", command: ["/usr/bin/python3", "-c", "import pytest_cov"], pkg: "python3-pytest-cov", for: ["test"] },
  { name: "pytest-xdist", command: ["/usr/bin/python3", "-c", "import xdist"], pkg: "python3-pytest-xdist", for: ["test"] },
  { name: "Django", command: ["/usr/bin/python3", "-c", "import django"], pkg: "python3-django", for: ["test"] },
  { name: "go", command: ["go", "version"], pkg: "golang-go", for: ["test"] },
  // cargo test: the fixture crate builds offline with no dependencies on Debian's Rust (1.63) or newer.
  { name: "cargo", command: ["cargo", "--version"], pkg: "cargo", for: ["test"] },
  { name: "rustc", command: ["rustc", "--version"], pkg: "rustc", for: ["test"] },
];

/** The commands the table knows. */
export const PURPOSES = ["demo", "test"];

/** Debian packages that provide what `purpose` uses (PyPI is not reachable here). */
export function aptPackages(purpose) {
  return [...new Set(requirementsFor(purpose).map((req) => req.pkg))];
}

/** The requirements `purpose` uses, optional ones included. */
export function requirementsFor(purpose) {
  if (!PURPOSES.includes(purpose)) throw new Error(`unknown purpose ${purpose}; known: ${PURPOSES.join(", ")}`);
  return REQUIREMENTS.filter((req) => req.for.includes(purpose));
}

// PATH without the entries under $HOME, as the sandbox sees it.
function pathOutsideHome(path, home) {
  return path
    .split(delimiter)
    .filter((entry) => entry !== "" && entry !== home && !entry.startsWith(`${home}/`))
    .join(delimiter);
}

/** Returns the requirements of `purpose` whose probe fails (default: the suite's). */
export function missingRequirements(purpose = "test", env = process.env) {
  return requirementsFor(purpose).filter((req) => {
    const [cmd, ...args] = req.command;
    const probeEnv = req.outsideHome === true ? { ...env, PATH: pathOutsideHome(env.PATH ?? "", env.HOME ?? homedir()) } : env;
    const result = spawnSync(cmd, args, { stdio: "ignore", env: probeEnv });
    return result.error !== undefined || result.status !== 0;
  });
}

/** The missing requirements `purpose` cannot do without. */
export function blockingRequirements(missing, purpose) {
  return missing.filter((req) => req.optionalFor?.[purpose] === undefined);
}

/** One message that says exactly what to install, and what runs without each optional part. */
export function renderInstallHint(missing, purpose = "test") {
  const blocking = blockingRequirements(missing, purpose);
  const optional = missing.filter((req) => !blocking.includes(req));
  const command = purpose === "demo" ? "npm run demo" : "npm test";
  const lines = [];
  if (blocking.length > 0) {
    lines.push(`agent-evidence: ${command} needs ${blocking.map((req) => req.name).join(", ")}. Install with:`);
    lines.push(`  apt-get update && apt-get install -y ${[...new Set(blocking.map((req) => req.pkg))].join(" ")}`);
    if (purpose === "test") lines.push("(PyPI is not needed; the tests run the real runners and never skip them.)");
  }
  for (const req of optional)
    lines.push(`agent-evidence: ${req.name} is not installed (apt-get install -y ${req.pkg}): ${req.optionalFor[purpose]}.`);
  return lines.join("\n");
}
