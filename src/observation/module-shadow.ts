// The live half of runner identity for Python runners: is there a module in the directory Python puts
// first on `sys.path` (TestInvocation.pathFirst) named like one the runner imports (SHADOWABLE_MODULES)?
// `python -m pytest` with a `pytest.py`, a `pytest/` or `_pytest/` package, a `pluggy.py` or an
// `argparse.py` next to it runs that file instead. And is a virtualenv's runner inside the workspace
// (`.venv/bin/pytest`, trusted by the pure rules as the project's own) really one: an ELF binary, a
// link, or a pip console script, not a shell script that prints a pass? The pure judge cannot look;
// BashEvidence does.
import { closeSync, lstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

import { isVenvProgram, SHADOWABLE_MODULES } from "../shell/runner-identity.js";
import type { CommandAnalysis } from "../shell/types.js";

// `NAME.py`, `NAME.pyc`, `NAME.cpython-311-x86_64-linux-gnu.so`, `NAME.so`, or a directory NAME that
// holds an `__init__` (a regular package; a namespace directory loses to the real package).
function shadowIn(dir: string): string | null {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return null;
  }
  for (const entry of entries) {
    const module = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.py|\.pyc|\.so|\.[\w-]+\.so)$/.exec(entry)?.[1];
    if (module !== undefined && SHADOWABLE_MODULES.has(module)) return entry;
    if (SHADOWABLE_MODULES.has(entry) && isPackage(join(dir, entry))) return `${entry}/`;
  }
  return null;
}

function isPackage(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).some((name) => /^__init__\.(?:py|pyc|[\w-]*\.?so)$/.test(name));
  } catch {
    return false;
  }
}

/** Both live checks, in place: call before the run and after it (the line may have planted either). */
export function markLiveRunnerIdentity(analysis: CommandAnalysis, root: string | null): void {
  markModuleShadows(analysis, root);
  markPlantedVenvRunners(analysis, root);
}

/** Marks each run whose first `sys.path` directory holds such a module `shadowed` (in place); `root` resolves relative directories. */
function markModuleShadows(analysis: CommandAnalysis, root: string | null): void {
  for (const inv of analysis.invocations) {
    if (inv.shadowed || inv.pathFirst === null) continue;
    const dir = isAbsolute(inv.pathFirst) ? inv.pathFirst : root === null ? null : join(root, inv.pathFirst);
    if (dir === null) continue;
    const found = shadowIn(dir);
    if (found !== null) {
      inv.shadowed = true;
      inv.shadowedBy = `${found} in ${inv.pathFirst}, first on sys.path, stands in for the module of that name`;
    }
  }
}

// A pip (or venv) console script: a python shebang, then an import and `sys.exit(...)` of its entry point.
const CONSOLE_SCRIPT =
  /^#!\S*python[\d.]*\s*\n(?:#[^\n]*\n)*(?:import (?:re|sys)\n)*from (?:pytest|py\.test|_pytest\.[\w.]+|django\.core\.management) import \w+\nif __name__ == ["']__main__["']:\n(?: +sys\.argv\[0\] = [^\n]+\n)? +sys\.exit\(\w+\(\)\)\n?$/;

// What a virtualenv program inside the workspace is: null when it looks like the real thing.
function plantedProgram(path: string): string | null {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return null;
  }
  if (info.isSymbolicLink()) return null;
  if (!info.isFile() || info.size > 64 * 1024 * 1024) return "not a regular file";
  const head = Buffer.alloc(Math.min(info.size, 4096));
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return null;
  return CONSOLE_SCRIPT.test(head.toString("utf8")) ? null : "not a console script or a binary";
}

/** Marks each run started through a virtualenv program in the workspace that is neither a binary, a link nor a console script `shadowed`. */
function markPlantedVenvRunners(analysis: CommandAnalysis, root: string | null): void {
  for (const inv of analysis.invocations) {
    const program = inv.runner.split(" ")[0] ?? "";
    if (inv.shadowed || !isVenvProgram(program)) continue;
    const base = inv.workspace !== null && isAbsolute(inv.workspace) ? inv.workspace : root;
    if (base === null) continue;
    const path = join(base, program);
    // A script's own directory comes first on its sys.path: a `pytest.py` beside it stands in too.
    const beside = shadowIn(dirname(path));
    const problem = plantedProgram(path) ?? (beside === null ? null : `${beside} beside it stands in for the module of that name`);
    if (problem !== null) {
      inv.shadowed = true;
      inv.shadowedBy = `runs ${program}, ${problem}`;
    }
  }
}
