// What every runner's argument reader shares: the scan, the default target and the selection's form.
import type { RunnerArguments } from "./definition.js";
import { type OptionTable, scanArgs, type ScannedArgs } from "./option-scanner.js";

/**
 * Reads a runner's arguments with its option table, then lets `read` fill in what its options mean.
 * No target means the whole workspace (`.`); the selection is sorted and deduplicated, and a run
 * with any selection is `filtered`.
 */
export function readArgumentsWith(
  table: OptionTable,
  args: readonly string[],
  read: (scanned: ScannedArgs, result: RunnerArguments) => void,
): RunnerArguments {
  const scanned = scanArgs(args, table);
  const result: RunnerArguments = {
    targets: scanned.positionals,
    filtered: false,
    selection: [],
    runsTests: !scanned.missingValue,
    reportFiles: [],
    json: false,
    verbose: false,
    directories: [],
  };
  read(scanned, result);
  if (result.targets.length === 0) result.targets = ["."];
  result.selection = [...new Set(result.selection)].sort();
  result.filtered = result.selection.length > 0;
  return result;
}

/** `name=value` for each given option of `names` (`name` for one without a value). */
export function givenOptions(scanned: ScannedArgs, names: readonly string[]): string[] {
  return scanned.options
    .filter((option) => names.includes(option.name))
    .map((option) => (option.value === null ? option.name : `${option.name}=${option.value}`));
}

/** The words of an option list written one per whitespace. */
export const optionWords = (text: string): Set<string> => new Set(text.split(/\s+/).filter((w) => w !== ""));
