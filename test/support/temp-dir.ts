// The one home of the suite's temporary directories (test/support/one-home.test.ts keeps it so):
// every directory is a real path, and is removed by its cleanup or, failing that, when the test
// process exits.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory and the call that removes it. */
export interface TempDir {
  /** Its real path (no symlink on the way, so paths the library reports compare equal). */
  readonly dir: string;
  /** Removes it and everything below it; a second call does nothing. */
  readonly cleanup: () => void;
}

/** Where a temp dir is made: under the system temp dir unless `parent` names another directory. */
export interface TempDirOptions {
  parent?: string;
}

const left = new Set<string>();
let hooked = false;

function removeLeft(): void {
  for (const dir of left) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // The process is exiting: a directory a test made unremovable stays behind, as it would without the hook.
    }
  }
}

/** A fresh directory named `<prefix>XXXXXX`; removed by its cleanup or when this process exits. */
export function makeTempDir(prefix = "ae-test-", options: TempDirOptions = {}): TempDir {
  const dir = realpathSync(mkdtempSync(join(options.parent ?? tmpdir(), prefix)));
  if (!hooked) process.once("exit", removeLeft);
  hooked = true;
  left.add(dir);
  return {
    dir,
    cleanup: () => {
      left.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** {@link makeTempDir}'s path alone, for a directory the process exit may remove. */
export function tempDirPath(prefix = "ae-test-", options: TempDirOptions = {}): string {
  return makeTempDir(prefix, options).dir;
}
