#!/usr/bin/env node
// Writes docs/verdict.schema.json from the exported zod schema of verdict.json (run after the build).
// test/verdict/schema.test.ts fails when the file and the schema differ.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { verdictJsonSchema } from "../dist/verdict/schema.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
writeFileSync(join(root, "docs/verdict.schema.json"), JSON.stringify(verdictJsonSchema(), null, 2) + "\n");
