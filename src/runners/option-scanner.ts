// Splits a runner's arguments into options (with their values) and positionals, from a table of the
// options that take a value, so that a value (`-k expr`, `-n 4`, `-run X`) never becomes a target.

/** Which options of one runner take a value, and how its command line is spelled. */
export interface OptionTable {
  /** Options that always take a value (`--junitxml`, `-k`, go `-run`). */
  valued: ReadonlySet<string>;
  /** Options whose value is optional (argparse `nargs="?"`): they take the next word when `accepts` says so. */
  optional?: ReadonlyMap<string, (next: string) => boolean>;
  /** argparse style: `-qx` is `-q -x`, `-kexpr` is `-k expr`. False for Go's single-dash long flags. */
  clusters: boolean;
  /** Rewrites an option's name before lookup (go: `-test.run` -> `-run`, `--run` -> `-run`). */
  normalize?: (name: string) => string;
  /** Options after which every remaining word belongs to someone else (go `-args`). */
  stop?: ReadonlySet<string>;
}

/** One option as given, with its value when it took one. */
export interface ScannedOption {
  name: string;
  value: string | null;
}

/** The scanned arguments. */
export interface ScannedArgs {
  options: ScannedOption[];
  positionals: string[];
  /** A value-taking option ended the line without its value (a usage error: nothing runs). */
  missingValue: boolean;
}

/** Scans `args` with `table`. */
export function scanArgs(args: readonly string[], table: OptionTable): ScannedArgs {
  const result: ScannedArgs = { options: [], positionals: [], missingValue: false };
  const normalize = table.normalize ?? ((name: string) => name);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      result.positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      result.positionals.push(arg);
      continue;
    }
    const long = arg.startsWith("--") || !table.clusters;
    if (long) {
      const eq = arg.indexOf("=");
      const name = normalize(eq > 0 ? arg.slice(0, eq) : arg);
      if (table.stop?.has(name) === true) {
        result.options.push({ name, value: null });
        break;
      }
      if (eq > 0) result.options.push({ name, value: arg.slice(eq + 1) });
      else i = takeValue(name, args, i, table, result);
      continue;
    }
    // argparse short cluster: letters until one takes a value, which swallows the rest of the word.
    for (let j = 1; j < arg.length; j++) {
      const name = `-${arg[j]!}`;
      if (!table.valued.has(name) && table.optional?.has(name) !== true) {
        result.options.push({ name, value: null });
        continue;
      }
      const rest = arg.slice(j + 1);
      if (rest !== "") result.options.push({ name, value: rest.startsWith("=") ? rest.slice(1) : rest });
      else i = takeValue(name, args, i, table, result);
      break;
    }
  }
  return result;
}

function takeValue(name: string, args: readonly string[], i: number, table: OptionTable, result: ScannedArgs): number {
  const next = args[i + 1];
  if (table.valued.has(name)) {
    if (next === undefined) {
      result.missingValue = true;
      result.options.push({ name, value: null });
      return i;
    }
    result.options.push({ name, value: next });
    return i + 1;
  }
  const accepts = table.optional?.get(name);
  if (accepts !== undefined && next !== undefined && accepts(next)) {
    result.options.push({ name, value: next });
    return i + 1;
  }
  result.options.push({ name, value: null });
  return i;
}

/** True when any scanned option has one of `names`. */
export function hasOption(scanned: ScannedArgs, names: readonly string[]): boolean {
  return scanned.options.some((option) => names.includes(option.name));
}

/** The values given to options named `names`, in order. */
export function optionValues(scanned: ScannedArgs, names: readonly string[]): string[] {
  return scanned.options.filter((option) => names.includes(option.name) && option.value !== null).map((option) => option.value!);
}
