// Flat config: typescript-eslint type-checked rules, plus the purity rule for the core folders.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const ioModules = ["fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process"];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "test/fixtures/**", "test/.captured/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/shell/**", "src/runners/**", "src/observers/**", "src/patches/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ioModules.map((name) => ({ name, message: "The core folders are pure: no file system or process I/O." })),
          patterns: [{ group: ["node:fs/*", "fs/*"], message: "The core folders are pure: no file system I/O." }],
        },
      ],
    },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    // Plain-JS scripts and benches are not in the TypeScript project: parse them without types.
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: Object.fromEntries(["process", "console", "URL", "Buffer", "performance", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "globalThis", "structuredClone", "TextDecoder", "TextEncoder"].map((name) => [name, "readonly"])) },
  },
);
