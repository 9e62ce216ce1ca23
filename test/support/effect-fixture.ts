// A small git repository of python, go, rust and TypeScript files, for running real commands and
// comparing what they changed with what the effect table says (test/shell/command-effect-real.test.ts).
import { execFile } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The worktree's node_modules, linked into the fixture (untracked) so `node_modules/.bin/tsc` is the real one. */
export const NODE_MODULES = resolve(import.meta.dirname, "../../node_modules");

const FILES: Record<string, string> = {
  ".gitignore": "node_modules\n",
  "mod.py": "def add(a, b):\n    return a + b\n",
  "test_mod.py": "from mod import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  "pkg/__init__.py": "",
  "pkg/util.py": "def twice(x):\n    return 2 * x\n",
  "notes.md": "# Notes\n",
  "data.json": '{"a": 1}\n',
  "run.sh": "#!/bin/sh\necho run\n",
  "ci.yml": "name: ci\non: push\n",
  Dockerfile: "FROM scratch\n",
  "app.js": "const x = 1;\nconsole.log(x);\n",
  "eslint.config.mjs": 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error" } }];\n',
  // noLib and the few global types the compiler needs (src/globals.d.ts): a check in 0.4 s, not the
  // default lib's several seconds, for each of the suite's tsc runs.
  "tsconfig.json":
    JSON.stringify(
      { compilerOptions: { strict: true, target: "es2020", module: "commonjs", noLib: true, types: [] }, include: ["src"] },
      null,
      2,
    ) + "\n",
  "src/globals.d.ts": [
    "Array<T> { length: number; [n: number]: T }",
    "Boolean {}",
    "CallableFunction {}",
    "Function {}",
    "IArguments {}",
    "NewableFunction {}",
    "Number {}",
    "Object {}",
    "RegExp {}",
    "String {}",
  ]
    .map((t) => `interface ${t}\n`)
    .join(""),
  "src/mod.ts": "export const add = (a: number, b: number): number => a + b;\n",
  "go.mod": "module example.com/fx\n\ngo 1.19\n",
  // Not gofmt-formatted, so `gofmt -l` and `gofmt -d` have something to report.
  "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n    fmt.Println("fx")\n}\n',
  "Cargo.toml": '[package]\nname = "fx"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  "src/main.rs": 'fn main() {\n    println!("fx");\n}\n',
};

/**
 * Writes the fixture repository at `dir` and commits it (a Cargo.lock too, made by cargo offline
 * when cargo is installed, so a build finds it current; a case removes it to see a build write
 * one). Each case runs in a copy, never here.
 */
export async function createEffectFixture(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  for (const [path, text] of Object.entries(FILES)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text, { mode: path.endsWith(".sh") ? 0o755 : 0o644 });
  }
  await symlink(NODE_MODULES, join(dir, "node_modules"));
  const script =
    "(! command -v cargo >/dev/null || cargo generate-lockfile --offline -q) && git init -q -b main && git add -A && git commit -qm fixture";
  await run("bash", ["-c", script], { cwd: dir, env });
}
