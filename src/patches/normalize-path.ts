// A canonical spelling for repository-relative paths, without touching the name's own characters.

/** Options for {@link normalizePatchPath}. */
export interface NormalizePatchPathOptions {
  /** Read `\` as a separator (Windows-style input). Default false: on POSIX Git, `\` is part of a name. */
  readonly backslashes?: boolean;
}

/**
 * Normalises a repository-relative path: leading `/`, empty and `.` segments and a trailing `/`
 * are removed, so `/src//./x.py/` becomes `src/x.py`. Spaces, tabs and newlines belong to the name
 * and are kept; `a/`/`b/` prefixes are not removed (a directory may be named `b`); `..` is kept.
 * @example normalizePatchPath("/src//x.py") // "src/x.py"
 */
export function normalizePatchPath(path: string, options: NormalizePatchPathOptions = {}): string {
  const text = options.backslashes === true ? path.replaceAll("\\", "/") : path;
  if (!text.includes("/")) return text === "." ? "" : text;
  return text
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".")
    .join("/");
}
