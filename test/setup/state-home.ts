// The journal keeps its seals under the user's state directory: tests get a private one, removed after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function privateStateHome(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "ae-state-home-"));
  process.env.XDG_STATE_HOME = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
