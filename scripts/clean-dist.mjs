// Run by `npm run build` and `prepack` before tsc: removes dist/, so a module moved or removed in
// src/ leaves no stale copy behind for a deep import to load or for the package to ship.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

rmSync(join(dirname(fileURLToPath(import.meta.url)), "..", "dist"), { recursive: true, force: true });
