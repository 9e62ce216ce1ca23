// The observer registry: each runner is one object implementing RunnerObserver; the built-ins
// register themselves here the same way a user's own observer does.
import { EvidenceError } from "../errors.js";
import { goTargetCovers, pytestTargetCovers, unittestTargetCovers } from "./coverage.js";
import { createDjangoParser } from "./django.js";
import { createGoTestParser } from "./go-test.js";
import { createPytestParser } from "./pytest.js";
import type { OutputParser } from "./types.js";

/** What an observer is shown of an invocation: its kind as recognised, and the runner text. */
export interface ObservedInvocation {
  kind: string;
  /** e.g. `python -m pytest`, `go test`, `python tests/runtests.py`. */
  runner: string;
}

/** One runner: recognises its invocations, parses their output, and says how targets are covered by ids. */
export interface RunnerObserver {
  /** Unique name; the built-ins use their RunnerKind (`pytest`, `go`, `django`, `unittest`). */
  kind: string;
  /** True when this observer reads the output of the invocation. */
  recognises(invocation: ObservedInvocation): boolean;
  /** A fresh incremental parser for one run's output. */
  createParser(): OutputParser;
  /** True when the test `id` (as printed) lies inside the requested `target`. */
  covers(target: string, id: string): boolean;
}

/** A mutable set of observers, looked up in registration order (later registrations first). */
export interface ObserverRegistry {
  /** Adds an observer; throws E_INVALID_OPTION when its kind is already registered (unless `replace`). */
  register(observer: RunnerObserver, options?: { replace?: boolean }): void;
  /** The observer for an invocation, or undefined. */
  find(invocation: ObservedInvocation): RunnerObserver | undefined;
  /** The observer registered under `kind`, or undefined. */
  get(kind: string): RunnerObserver | undefined;
  /** Every registered observer. */
  list(): RunnerObserver[];
}

/** The built-in pytest observer. */
export const pytestObserver: RunnerObserver = {
  kind: "pytest",
  recognises: (invocation) => invocation.kind === "pytest",
  createParser: createPytestParser,
  covers: pytestTargetCovers,
};

/** The built-in `go test` observer. */
export const goTestObserver: RunnerObserver = {
  kind: "go",
  recognises: (invocation) => invocation.kind === "go",
  createParser: createGoTestParser,
  covers: goTargetCovers,
};

/** The built-in Django observer (`python tests/runtests.py`, `manage.py test`). */
export const djangoObserver: RunnerObserver = {
  kind: "django",
  recognises: (invocation) => invocation.kind === "django",
  createParser: () => createDjangoParser("django"),
  covers: unittestTargetCovers,
};

/** The built-in `python -m unittest` observer (same output format as Django). */
export const unittestObserver: RunnerObserver = {
  kind: "unittest",
  recognises: (invocation) => invocation.kind === "unittest",
  createParser: () => createDjangoParser("unittest"),
  covers: unittestTargetCovers,
};

/** The observers agent-evidence ships. */
export const builtinObservers: readonly RunnerObserver[] = [pytestObserver, goTestObserver, djangoObserver, unittestObserver];

/** Creates a registry holding the built-in observers (or none, with `{ builtins: false }`). */
export function createObserverRegistry(options: { builtins?: boolean } = {}): ObserverRegistry {
  const observers: RunnerObserver[] = options.builtins === false ? [] : [...builtinObservers];
  return {
    register(observer, registerOptions = {}): void {
      if (typeof observer.kind !== "string" || observer.kind === "") {
        throw new EvidenceError("E_INVALID_OPTION", `observer.kind must be a non-empty string, got ${JSON.stringify(observer.kind)}.`);
      }
      const index = observers.findIndex((o) => o.kind === observer.kind);
      if (index !== -1 && registerOptions.replace !== true) {
        throw new EvidenceError("E_INVALID_OPTION", `an observer for kind "${observer.kind}" is already registered; pass { replace: true } to replace it.`);
      }
      if (index !== -1) observers.splice(index, 1);
      observers.unshift(observer);
    },
    find: (invocation) => observers.find((o) => o.recognises(invocation)),
    get: (kind) => observers.find((o) => o.kind === kind),
    list: () => [...observers],
  };
}

/** The process-wide registry used when a caller passes none. */
export const defaultObserverRegistry: ObserverRegistry = createObserverRegistry();
