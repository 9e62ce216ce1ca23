// Shared test helpers of the tools tests: a `ps` view of what is still running.
import { execFileSync } from "node:child_process";

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
