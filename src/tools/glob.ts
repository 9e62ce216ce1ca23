// A small glob matcher shared by every grep engine, so `glob` means the same whatever engine runs:
// without a `/` it matches the file name, with one it matches the workspace-relative path.

/** The regular expression for one glob: `*` within a segment, `**` across segments, `?`, `[...]`, `{a,b}`. */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob.charAt(i);
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        out += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close === -1) out += "\\[";
      else {
        out += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "{") {
      depth += 1;
      out += "(?:";
    } else if (c === "}" && depth > 0) {
      depth -= 1;
      out += ")";
    } else if (c === "," && depth > 0) out += "|";
    else out += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** True when the workspace-relative `path` matches `glob` (by file name when the glob has no `/`). */
export function matchesGlob(path: string, glob: RegExp, hasSlash: boolean): boolean {
  return glob.test(hasSlash ? path : path.slice(path.lastIndexOf("/") + 1));
}
