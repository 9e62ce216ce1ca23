// Shared test helpers: throwaway workspaces and a `ps` view of what is still running.
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory (realpath) removed by the returned cleanup. */
export function makeTempDir(prefix = "ae-tools-"): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Processes whose command line contains `marker` or whose process group is `pgid`, from `ps`. */
export function survivors(marker: string, pgid?: number): string[] {
  const table = execFileSync("ps", ["-eo", "pid=,pgid=,stat=,args="], { encoding: "utf8" });
  return table
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      const [, group, stat] = line.trim().split(/\s+/);
      if (stat?.startsWith("Z") === true) return false;
      return line.includes(marker) ? !line.includes("ps -eo") : pgid !== undefined && Number(group) === pgid;
    });
}

/** A unique `sleep` duration, so `ps` can find exactly this test's processes. */
export function uniqueSleep(): string {
  return `${900 + Math.floor(Math.random() * 99)}.${process.pid}${Math.floor(Math.random() * 1000)}`;
}
