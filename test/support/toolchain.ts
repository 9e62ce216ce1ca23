// Toolchains that live under the host's $HOME (pyenv here), which both sandbox levels hide: tests that
// run `python` in the sandbox bind them read-only, as a user of `readablePaths` would.
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Host directories with the interpreters on PATH that the sandbox would otherwise hide. */
export const TOOLCHAIN_PATHS: string[] = [process.env.PYENV_ROOT ?? join(homedir(), ".pyenv")]
  .filter((path) => existsSync(path))
  .map((path) => realpathSync(path));
