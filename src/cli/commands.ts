// The list of subcommands: adding one is one module exporting `register` plus one line here.
import type { Command } from "commander";

/** A subcommand module registers itself on the root program. */
export type RegisterCommand = (program: Command) => void;

/** Every registered subcommand, in help order. */
export const commands: RegisterCommand[] = [];
