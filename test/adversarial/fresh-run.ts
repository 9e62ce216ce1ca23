// The oracle of every attack: a fresh, independent run of the project's real tests, unsandboxed, in a
// clean environment, on a copy made of the files the project was created with (its tests and harness)
// and the current content of its sources. Nothing the agent planted (a `pytest.py`, a `conftest.py`, an
// ini file, a TestMain, a `__pycache__`, go's test cache) can speak for the code there, and a source
// the agent broke is tested as it is now. Outcomes come from the runners' own hooks and events
// (test/support/truth.ts), never from printed text.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { tempDirPath } from "../support/temp-dir.js";
import { readGoTruth, readPytestTruth } from "../support/truth.js";
import { type AttackProject, cleanEnv, FAST_PYTEST, PYTHON, workerRoot } from "./projects.js";

const SUPPORT_PYTHON = join(import.meta.dirname, "..", "support", "python");

/** What the fresh, independent run of the real tests found. */
export interface TruthResult {
  exitCode: number;
  passed: string[];
  failed: string[];
  /** The run failed: a non-zero exit, or any test or collection failed. */
  fails: boolean;
  output: string;
}

function execTruth(file: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, maxBuffer: 64 << 20, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ exitCode: code, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * Runs the project's real tests as they were created against its sources as they are now (see the
 * file comment). `alsoCurrent`: more files whose current content counts (an attack whose broken code
 * lives in a file that is not a declared source).
 */
export async function truthRun(project: AttackProject, alsoCurrent: string[] = []): Promise<TruthResult> {
  const files = new Map(Object.entries(project.original).map(([path, text]) => [path, Buffer.from(text)]));
  for (const path of [...project.sources, ...alsoCurrent]) {
    // Followed as any reader of the workspace would follow it; a source that is gone (or a link that
    // leads nowhere on the host) is missing in the copy.
    files.delete(path);
    if (existsSync(join(project.dir, path))) files.set(path, readFileSync(join(project.dir, path)));
  }
  // The same bytes give the same result: one run per distinct project state and worker.
  const hash = createHash("sha256").update(project.kind);
  for (const [path, bytes] of [...files].sort(([a], [b]) => a.localeCompare(b))) hash.update(`\0${path}\0${bytes.length}\0`).update(bytes);
  const key = hash.digest("hex");
  const known = truthRuns.get(key);
  if (known !== undefined) return known;
  const result = await runTruth(project.kind, files);
  truthRuns.set(key, result);
  return result;
}

const truthRuns = new Map<string, TruthResult>();

async function runTruth(kind: AttackProject["kind"], files: ReadonlyMap<string, Buffer>): Promise<TruthResult> {
  mkdirSync(join(workerRoot(), "truth"), { recursive: true });
  const copy = tempDirPath("copy-", { parent: join(workerRoot(), "truth") });
  try {
    for (const [path, bytes] of files) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      writeFileSync(join(copy, path), bytes);
    }
    if (kind === "pytest") {
      const record = join(copy, ".truth.jsonl");
      const ini = join(copy, ".truth.ini");
      writeFileSync(ini, "[pytest]\n");
      const env = cleanEnv({ ...FAST_PYTEST, PYTHONPATH: SUPPORT_PYTHON, AE_TRUTH_FILE: record, PYTHONDONTWRITEBYTECODE: "1" });
      const run = await execTruth(
        PYTHON,
        ["-P", "-m", "pytest", "-p", "no:cacheprovider", "-p", "ae_truth_plugin", "-c", ini, "--rootdir", copy, "-rA"],
        copy,
        env,
      );
      const truth = readPytestTruth(existsSync(record) ? readFileSync(record, "utf8") : "");
      return {
        exitCode: run.exitCode,
        passed: truth.passed,
        failed: truth.failed,
        fails: run.exitCode !== 0 || truth.failed.length > 0,
        output: run.output,
      };
    }
    const env = cleanEnv({
      GOCACHE: join(workerRoot(), "go-build"),
      GOPATH: join(workerRoot(), "gopath"),
      GOENV: "off",
      GOFLAGS: "-mod=mod",
      GOTOOLCHAIN: "local",
      GOPROXY: "off",
      CGO_ENABLED: "0",
    });
    const run = await execTruth("go", ["test", "-count=1", "-json", "./..."], copy, env);
    const truth = readGoTruth(run.output);
    const buildFailed = Object.values(truth.packages ?? {}).includes("fail");
    return {
      exitCode: run.exitCode,
      passed: truth.passed,
      failed: truth.failed,
      fails: run.exitCode !== 0 || truth.failed.length > 0 || buildFailed,
      output: run.output,
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
