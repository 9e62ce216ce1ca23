// The direction of imports between the parts of src/ (a folder, or a top-level file), inner first:
// what each part may import, and whether it is pure (no file system, no processes). Read by
// eslint.config.js (a no-restricted-imports rule per part whose message names the allowed route)
// and by test/purity/layering.test.ts (every import of every file, type-only ones and import() too).

const SHAPES = ["types.ts", "errors.ts", "reasons.ts"];
const PURE_CORE = [...SHAPES, "observers", "runners", "shell", "patches", "host", "evidence"];
// The I/O every outer part may build on: files a user names, the state directory, the grammar, the
// native tools, and the observation of a live tool with the ledger.
const IO_BASE = ["io", "process", "state-home.ts", "grammar", "tools", "observation"];
const FEATURES = ["verdict", "audit", "candidates"];

/** @type {Record<string, { pure: boolean; imports: string[]; route: string }>} */
export const LAYERS = {
  "reasons.ts": { pure: true, imports: [], route: "the reason codes import nothing of the project" },
  "types.ts": { pure: true, imports: ["reasons.ts"], route: "the shared shapes import only the reason codes (reasons.ts)" },
  "errors.ts": { pure: true, imports: [], route: "EvidenceError imports nothing of the project" },
  host: {
    pure: true,
    imports: SHAPES,
    route:
      "the host seam (the tool shape, its hooks, the reports in data) is imported by both sides and imports only types.ts, errors.ts and reasons.ts",
  },
  observers: {
    pure: true,
    imports: SHAPES,
    route: "the output parsers take text and return data; they import only types.ts, errors.ts and reasons.ts",
  },
  runners: {
    pure: true,
    imports: [...SHAPES, "observers"],
    route: "a runner definition imports its parser (observers) and the shared shapes",
  },
  shell: {
    pure: true,
    imports: [...SHAPES, "observers", "runners"],
    route: "the shell analysis reads the runner registry (runners); the loaded grammar is handed in by src/grammar",
  },
  patches: { pure: true, imports: SHAPES, route: "the diff parser imports only the shared shapes" },
  evidence: {
    pure: true,
    imports: [...SHAPES, "observers", "runners", "shell", "patches", "host", "grammar/analyze-command.ts"],
    route:
      "the evidence core (ledger, judge, targets) is pure: it imports the pure folders and the grammar only through grammar/analyze-command.ts; I/O goes in src/observation, which imports the core",
  },
  io: { pure: false, imports: [], route: "io is a leaf the I/O parts share: it imports nothing of the project" },
  "state-home.ts": { pure: false, imports: [], route: "state-home.ts imports nothing of the project" },
  process: {
    pure: false,
    imports: [],
    route: "process is a leaf (the one process-group runner) the I/O parts share: it imports nothing of the project",
  },
  grammar: {
    pure: false,
    imports: [...SHAPES, "observers", "runners", "shell"],
    route: "the grammar seam loads the parser and hands it to the pure shell analysis",
  },
  tools: {
    pure: false,
    imports: [...SHAPES, "host", "observers", "runners", "shell", "patches", "io", "process", "state-home.ts"],
    route: "the native tools implement the host seam (src/host); composing them with the ledger is src/observation/evidence-tools.ts",
  },
  observation: {
    pure: false,
    imports: [...PURE_CORE, "io", "process", "state-home.ts", "grammar", "tools"],
    route:
      "the observation layer (BashEvidence, journal, snapshots, watcher, evidenceTools) imports the core and the tools; verdict, audit, candidates, adapters and cli import it",
  },
  verdict: {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE],
    route: "a feature imports the core and the I/O base (io, grammar, tools, observation), never another feature or the cli",
  },
  audit: {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE],
    route: "a feature imports the core and the I/O base (io, grammar, tools, observation), never another feature or the cli",
  },
  candidates: {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE],
    route: "a feature imports the core and the I/O base (io, grammar, tools, observation), never another feature or the cli",
  },
  adapters: {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE],
    route: "an adapter wraps the tools and the observation layer for a framework; the cli imports it",
  },
  demo: {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE],
    route: "the demo drives the tools and the observation layer; the cli imports it",
  },
  cli: {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE, ...FEATURES, "adapters", "demo"],
    route: "the cli imports everything but the public entries",
  },
  entries: {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE, ...FEATURES, "adapters"],
    route: "a public entry re-exports from the library, never from the cli",
  },
  "index.ts": {
    pure: false,
    imports: [...PURE_CORE, ...IO_BASE, ...FEATURES, "adapters"],
    route: "the root entry re-exports from the library, never from the cli",
  },
};

/** The part of src/ a path inside it belongs to: its top folder (`evidence`) or the top-level file (`types.ts`). */
export function partOf(pathInSrc) {
  const slash = pathInSrc.indexOf("/");
  return slash === -1 ? pathInSrc : pathInSrc.slice(0, slash);
}

/** True when a file of part `from` may import `target` (a path inside src/): its own part, an allowed part, or an allowed file. */
export function mayImport(from, target) {
  const to = partOf(target);
  if (to === from) return true;
  const allowed = LAYERS[from]?.imports ?? [];
  return allowed.includes(to) || allowed.includes(target);
}
