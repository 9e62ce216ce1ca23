// The live half of runner identity for Python runners: is there a module in the directory Python puts
// first on `sys.path` (TestInvocation.pathFirst) named like one the runner imports (SHADOWABLE_MODULES)?
// `python -m pytest` with a `pytest.py`, a `pytest/` or `_pytest/` package, a `pluggy.py` or an
// `argparse.py` next to it runs that file instead. The pure judge cannot look; BashEvidence does.
import { readdirSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { SHADOWABLE_MODULES } from "../shell/runner-identity.js";
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

/** Marks each run whose first `sys.path` directory holds such a module `shadowed` (in place); `root` resolves relative directories. */
export function markModuleShadows(analysis: CommandAnalysis, root: string | null): void {
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
