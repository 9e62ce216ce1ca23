// Flat config: typescript-eslint type-checked rules, plus one import rule per part of src/: where its
// imports may point (scripts/layers.mjs, also held by test/purity/layering.test.ts) and, for the pure
// parts, no file system or process I/O (test/purity/import-graph.test.ts); imports in one order
// (simple-import-sort) and file names in kebab-case (the local rule below). Layout is prettier's
// (.prettierrc.json, checked by `npm run lint`).
import js from "@eslint/js";
import simpleImportSort from "eslint-plugin-simple-import-sort";
import tseslint from "typescript-eslint";

import { LAYERS } from "./scripts/layers.mjs";

const ioModules = ["fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process"];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// File names are kebab-case: lower-case words joined by `-`, then the extensions (`judge-rules.ts`,
// `go-test.test.ts`, `index.mjs`). A leading `.` is not allowed either.
const KEBAB_FILE = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+)+$/;
const fileNames = {
  rules: {
    "kebab-case": {
      meta: {
        type: "suggestion",
        schema: [],
        messages: { name: "File name '{{name}}' is not kebab-case (lower-case words joined by '-', as in judge-rules.ts)." },
      },
      create(context) {
        return {
          Program(node) {
            const name = context.filename.split(/[\\/]/).pop() ?? "";
            if (!KEBAB_FILE.test(name)) context.report({ node, messageId: "name", data: { name } });
          },
        };
      },
    },
  },
};

// The restricted-imports rule of one part: every part it may not import, each with the allowed route.
function importRule(part, layer) {
  // How a file of this part names src/<other>: `./evidence/x.js` from a top-level file, `../evidence/x.js` (or deeper) from a folder.
  const into = part.endsWith(".ts") ? "^\\./" : "^(?:\\.\\./)+";
  const message = `src/${part} may import ${layer.imports.length === 0 ? "nothing of the project" : layer.imports.join(", ")}: ${layer.route}.`;
  const patterns = Object.keys(LAYERS)
    .filter((other) => other !== part && !layer.imports.includes(other))
    .map((other) => {
      if (other.endsWith(".ts")) return { regex: `${into}${escape(other.slice(0, -3))}\\.js$`, message };
      // A file of a part it may not import may still be allowed by name (grammar/analyze-command.ts).
      const files = layer.imports
        .filter((allowed) => allowed.startsWith(`${other}/`))
        .map((allowed) => escape(allowed.slice(other.length + 1).replace(/\.ts$/, ".js")));
      return { regex: `${into}${escape(other)}/${files.length === 0 ? "" : `(?!(?:${files.join("|")})$)`}`, message };
    });
  const paths = layer.pure
    ? ioModules.map((name) => ({ name, message: `src/${part} is pure: no file system or process I/O (${layer.route}).` }))
    : [];
  const io = layer.pure ? [{ group: ["node:fs/*", "fs/*"], message: `src/${part} is pure: no file system I/O.` }] : [];
  return {
    files: [part.endsWith(".ts") ? `src/${part}` : `src/${part}/**`],
    rules: { "no-restricted-imports": ["error", { paths, patterns: [...io, ...patterns] }] },
  };
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "test/fixtures/**", "test/.captured/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "simple-import-sort": simpleImportSort, "file-names": fileNames },
    rules: {
      "simple-import-sort/imports": "error",
      "file-names/kebab-case": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  ...Object.entries(LAYERS).map(([part, layer]) => importRule(part, layer)),
  {
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    // Plain-JS scripts and benches are not in the TypeScript project: parse them without types.
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: Object.fromEntries(
        [
          "process",
          "console",
          "URL",
          "Buffer",
          "performance",
          "setTimeout",
          "clearTimeout",
          "setInterval",
          "clearInterval",
          "globalThis",
          "structuredClone",
          "TextDecoder",
          "TextEncoder",
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
);
