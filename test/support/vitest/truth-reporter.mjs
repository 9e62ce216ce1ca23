// The capture harness's truth for vitest: the runner's own task tree at the end of the run (the one
// its json and junit reporters are built from), written to a file and never to the output. One JSON
// object: every test with its file (relative to vitest's root), its names and its state, the files'
// own errors and the run's unhandled errors.
import { writeFileSync } from "node:fs";
import { relative } from "node:path";

export default class TruthReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules, unhandledErrors, reason) {
    const tests = [];
    const files = [];
    for (const module of testModules) {
      const file = relative(this.root, module.moduleId);
      files.push({ file, state: module.state(), errors: module.errors().length });
      for (const test of module.children.allTests()) {
        const names = [];
        for (let parent = test.parent; parent.type === "suite"; parent = parent.parent) names.unshift(parent.name);
        tests.push({ file, names: [...names, test.name], state: test.result().state });
      }
    }
    writeFileSync(process.env.AE_VITEST_TRUTH_OUT, JSON.stringify({ reason, unhandledErrors: unhandledErrors.length, files, tests }));
  }
}
