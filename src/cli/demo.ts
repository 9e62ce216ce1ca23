// `agent-evidence demo`: the scripted agent on the bundled sample, as a readable timeline.
import type { Command } from "commander";

/** Registers `agent-evidence demo`. */
export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description("run a scripted agent on the bundled sample through evidenceTools and show the evidence timeline")
    .option("--json", "print the verification records as JSON instead of the timeline")
    .option("--keep", "keep the sample workspace instead of deleting it")
    .action(async (flags: { json?: boolean; keep?: boolean }) => {
      const lines: string[] = [];
      const print = flags.json === true ? (line: string) => lines.push(line) : (line: string) => process.stdout.write(line + "\n");
      const { runDemo } = await import("../demo/run-demo.js");
      const result = await runDemo(print, { keep: flags.keep });
      if (flags.json === true) {
        process.stdout.write(
          JSON.stringify({ sandbox: result.sandbox, records: result.records, verifiedTargets: result.verifiedTargets }, null, 2) + "\n",
        );
        return;
      }
      print("");
      print(`final verified targets: ${result.verifiedTargets.length === 0 ? "(none)" : result.verifiedTargets.join(", ")}`);
      if (flags.keep === true) print(`workspace kept at ${result.workspace}`);
    });
}
