// Construction-time option checks shared by the tool factories: each mistake throws one EvidenceError
// sentence naming the option, the bad value and what is accepted.
import { realpathSync, statSync } from "node:fs";

import { EvidenceError } from "../errors.js";

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  if (typeof value === "function") return "a function";
  return Array.isArray(value) ? "an array" : typeof value;
}

function invalid(tool: string, key: string, value: unknown, accepted: string): EvidenceError {
  return new EvidenceError("E_INVALID_OPTION", `${tool} option "${key}" is ${describe(value)}; accepted: ${accepted}.`);
}

/** `value` when it is a positive safe integer up to `max`, `fallback` when undefined, otherwise a throw. */
export function positiveIntegerOption(tool: string, key: string, value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw invalid(tool, key, value, `an integer from 1 to ${max}`);
  }
  return value;
}

/** `value` when boolean, `fallback` when undefined, otherwise a throw. */
export function booleanOption(tool: string, key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw invalid(tool, key, value, "true or false");
  return value;
}

/** `value` when a non-empty string, `fallback` when undefined, otherwise a throw. */
export function stringOption(tool: string, key: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value === "") throw invalid(tool, key, value, "a non-empty string");
  return value;
}

/** `value` when a function or undefined, otherwise a throw. */
export function functionOption<F>(tool: string, key: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") throw invalid(tool, key, value, "a function");
  return value as F;
}

/** The realpath of an existing directory given as option `key`. */
export function directoryOption(tool: string, key: string, value: unknown): string {
  if (typeof value !== "string" || value === "") throw invalid(tool, key, value, "the path of an existing directory");
  let real: string;
  try {
    real = realpathSync(value);
  } catch {
    throw invalid(tool, key, value, "the path of an existing directory (this one does not exist)");
  }
  if (!statSync(real).isDirectory()) throw invalid(tool, key, value, "the path of an existing directory (this one is a file)");
  return real;
}

/** A list of existing directories (realpaths); `[]` when undefined. */
export function directoryListOption(tool: string, key: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(tool, key, value, "an array of existing directory paths");
  return value.map((item: unknown, index) => directoryOption(tool, `${key}[${index}]`, item));
}

/** A list of absolute paths (they need not exist); `[]` when undefined. */
export function absolutePathListOption(tool: string, key: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(tool, key, value, "an array of absolute paths");
  return value.map((item: unknown, index) => {
    if (typeof item !== "string" || !item.startsWith("/") || item.includes("\0"))
      throw invalid(tool, `${key}[${index}]`, item, "an absolute path");
    return item.length > 1 ? item.replace(/\/+$/, "") : item;
  });
}

/** Throws unless every key of `options` is one of `known`: a misspelt option must not be ignored silently. */
export function rejectUnknownOptions(tool: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new EvidenceError("E_INVALID_OPTION", `${tool} has no option "${key}"; accepted: ${known.join(", ")}.`);
    }
  }
}

/** A plain object of string values, `undefined` when absent, otherwise a throw. */
export function stringRecordOption(tool: string, key: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const ok =
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === "string");
  if (!ok) throw invalid(tool, key, value, "an object whose values are strings");
  return value as Record<string, string>;
}

/** Throws unless the factory's argument is an options object. */
export function optionsObject(tool: string, value: unknown): asserts value is object {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new EvidenceError("E_INVALID_OPTION", `${tool} options are ${describe(value)}; accepted: an object with at least "cwd".`);
  }
}
