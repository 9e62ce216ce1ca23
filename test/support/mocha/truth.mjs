// The capture harness's truth for mocha: the runner's own events (the ones its json reporter is built
// from), recorded beside whatever reporter the line chose. Loaded with `--require`, it wraps the
// reporter mocha constructs for the run, so the reporter and its output stay the line's own. One JSON
// line per test result, with its title path and file, then `end` once the run ended.
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// The module mocha's command line runs on (the same file, so the same prototype).
const Mocha = require("mocha/lib/mocha.cjs");
const out = `${process.env.AE_TRUTH_FILE}.mocha-${process.pid}`;
const write = (record) => appendFileSync(out, `${JSON.stringify(record)}\n`);
const titlePath = (runnable) =>
  typeof runnable.titlePath === "function" ? runnable.titlePath() : (runnable.$$titlePath ?? [runnable.title]);
const fileOf = (runnable) => runnable.file ?? runnable.parent?.file ?? null;

const run = Mocha.prototype.run;
Mocha.prototype.run = function (fn) {
  // A --parallel worker runs its own Mocha: the main process records what the workers report.
  if (this.options.isWorker) return run.call(this, fn);
  const Reporter = this._reporter;
  this._reporter = function (runner, options) {
    write({ event: "start" });
    for (const event of ["pass", "fail", "pending"]) {
      runner.on(event, (runnable) =>
        write({ event, titlePath: titlePath(runnable), file: fileOf(runnable), hook: runnable.type === "hook" }),
      );
    }
    runner.once("end", () => write({ event: "end" }));
    return new Reporter(runner, options);
  };
  return run.call(this, fn);
};
