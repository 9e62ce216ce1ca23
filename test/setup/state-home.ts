// The journal keeps its seals under the user's state directory: tests get a private one, removed after.
import { rmSync } from "node:fs";

import { tempDirPath } from "../support/temp-dir.js";

export default function privateStateHome(): () => void {
  const dir = tempDirPath("ae-state-home-");
  process.env.XDG_STATE_HOME = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
