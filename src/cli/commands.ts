// The list of subcommands: adding one is one module exporting `register` plus one line here. A
// command module loads its implementation with import() inside its action, so the CLI starts light
// (test/cli/startup-imports.test.ts).
import type { Command } from "commander";

import { registerAuditCommand } from "./audit.js";
import { registerCandidatesCommand } from "./candidates.js";
import { registerDemoCommand } from "./demo.js";
import { registerHookCommand } from "./hook.js";
import { registerJudgeCommand } from "./judge.js";
import { registerMcpCommand } from "./mcp.js";
import { registerPatchCommand } from "./patch.js";
import { registerRunCommand } from "./run.js";
import { registerTriageCommand } from "./triage.js";
import { registerVerifyBundleCommand } from "./verify-bundle.js";
import { registerVerifyVerdictCommand } from "./verify-verdict.js";

/** A subcommand module registers itself on the root program. */
export type RegisterCommand = (program: Command) => void;

/** Every registered subcommand, in help order. */
export const commands: RegisterCommand[] = [
  registerTriageCommand,
  registerPatchCommand,
  registerJudgeCommand,
  registerMcpCommand,
  registerRunCommand,
  registerVerifyVerdictCommand,
  registerVerifyBundleCommand,
  registerDemoCommand,
  registerHookCommand,
  registerAuditCommand,
  registerCandidatesCommand,
];
