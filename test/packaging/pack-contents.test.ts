// What `npm pack` puts in the tarball (issue 17, section 2): the licence the package declares, a
// build step that runs before packing (a git-URL install or a publish from a clean clone has no
// `dist/` otherwise), the documented entries, and source maps that carry their sources (the tarball
// ships no `src/`). Read from `npm pack --dry-run --json --ignore-scripts`: the test packs the `dist/`
// the suite built and never rebuilds it while other tests read it.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  license: string;
  scripts: Record<string, string>;
  exports: Record<string, string | { types: string; import: string }>;
  bin: Record<string, string>;
  sideEffects?: boolean;
};

function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return pack!.files.map((file) => file.path);
}

describe("the npm tarball", () => {
  const files = packedFiles();

  it("ships the MIT licence it declares", () => {
    expect(manifest.license).toBe("MIT");
    expect(files).toContain("LICENSE");
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/^MIT License\n[\s\S]*Permission is hereby granted, free of charge/);
  });

  it("builds before it is packed from an empty dist/ (no stale module of a moved file ships), with the build's own config, then bundles the CLI", () => {
    expect(manifest.scripts.prepack).toBe("node scripts/clean-dist.mjs && tsc -p tsconfig.build.json && node scripts/bundle-cli.mjs");
    expect(manifest.scripts.build).toContain(manifest.scripts.prepack);
  });

  it("holds every exported entry, its types and the CLI, and no sources or tests", () => {
    const entries = Object.values(manifest.exports).flatMap((entry) => (typeof entry === "string" ? [entry] : [entry.types, entry.import]));
    for (const path of [...entries, ...Object.values(manifest.bin)]) expect(files, path).toContain(path.replace(/^\.\//, ""));
    expect(files.filter((path) => /^(?:src|test|bench|scripts)\//.test(path))).toEqual([]);
  });

  it("ships source maps only with their sources embedded", () => {
    const maps = files.filter((path) => path.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(50);
    for (const path of maps) {
      const map = JSON.parse(readFileSync(join(root, path), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(map.sourcesContent?.length, path).toBe(map.sources.length);
      expect(
        map.sourcesContent!.every((content) => typeof content === "string" && content.length > 0),
        path,
      ).toBe(true);
      // The map's sources name files that are not in the tarball: readers use the embedded text.
      for (const source of map.sources) expect(files).not.toContain(join(path, "..", source));
    }
  });

  it("declares no side effects, and no module of src/ is imported for its effect alone", () => {
    expect(manifest.sideEffects).toBe(false);
    const sources = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(".ts"));
    expect(sources.length).toBeGreaterThan(100);
    const bare = sources.filter((path) => /^import\s*["'][^"']+["'];?$/m.test(readFileSync(join(root, "src", path), "utf8")));
    expect(bare).toEqual([]);
  });

  it("packs a dist that exists (the suite builds it first)", () => {
    expect(existsSync(join(root, "dist/index.js"))).toBe(true);
  });
});
