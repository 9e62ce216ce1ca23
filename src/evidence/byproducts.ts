// The files a test runner writes as a by-product of running (never evidence of a change to what it
// tested): the watcher does not report them, and workspace snapshots leave them out.

/** The by-product patterns as Git exclude lines (for a snapshot's private exclude file). */
export const RUNNER_BYPRODUCT_EXCLUDES = [
  "__pycache__/",
  "*.pyc",
  ".pytest_cache/",
  "pytest-cache-files-*/",
  "htmlcov/",
  ".coverage",
  ".coverage.*",
] as const;

/** True when a path segment is a by-product a test run writes (`__pycache__`, `.pytest_cache`, coverage data, ...). */
export function isRunnerByproduct(relativePath: string): boolean {
  return relativePath
    .split(/[\\/]/)
    .some(
      (part) =>
        part === "__pycache__" ||
        part === ".pytest_cache" ||
        part.startsWith("pytest-cache-files-") ||
        part === "htmlcov" ||
        /^\.coverage(?:\..+)?$/.test(part) ||
        part.endsWith(".pyc"),
    );
}
