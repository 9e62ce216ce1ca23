// execa, loaded on the first process a tool starts rather than when the package is imported: it is
// about 150 modules, and importing `agent-evidence` for `judge` or `analyzeCommand` alone spent
// about 100 ms on them (issue 18, target 3). Every use of execa is inside an async function.
import type { execa } from "execa";

let loading: Promise<typeof execa> | undefined;

/** execa's `execa` function; the first call imports the package, later calls return the same one. */
export function loadExeca(): Promise<typeof execa> {
  loading ??= import("execa").then((module) => module.execa);
  return loading;
}
