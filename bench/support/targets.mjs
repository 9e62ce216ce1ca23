// One way for every benchmark to state a target, print it with its same-run figure, and end with
// `targets met` or the list of misses (issue 18). The exit status stays 0 on a miss: a benchmark
// reports, it does not gate; `BENCH_STRICT=1` makes a miss exit 1 (for scripts that want a gate).

/** Collects target checks; `finish()` prints the closing line. */
export class Targets {
  /** @type {{ ok: boolean; text: string }[]} */
  #checks = [];

  /**
   * Records one target: `ok` says whether it holds, `text` names the figure and its limit
   * (e.g. "judge CLI on the 200 MB log: 3.4x the naive Python scanner (target >= 3x)").
   * @param {unknown} ok
   * @param {string} text
   * @returns {boolean}
   */
  check(ok, text) {
    this.#checks.push({ ok: Boolean(ok), text });
    console.log(`${ok ? "target met" : "target MISSED"}: ${text}`);
    return Boolean(ok);
  }

  /**
   * Ratio check helper: `value` against `limit` in direction "max" (value <= limit) or "min" (value >= limit).
   * @param {string} name
   * @param {number} value
   * @param {number} limit
   * @param {"max" | "min"} direction
   * @param {string} [unit]
   * @returns {boolean}
   */
  ratio(name, value, limit, direction, unit = "x") {
    const ok = direction === "max" ? value <= limit : value >= limit;
    return this.check(ok, `${name}: ${format(value)}${unit} (target ${direction === "max" ? "<=" : ">="} ${limit}${unit})`);
  }

  /**
   * Prints `targets met` or `targets missed:` with each miss; returns whether all held.
   * @returns {boolean}
   */
  finish() {
    const misses = this.#checks.filter((c) => !c.ok);
    if (misses.length === 0) console.log(`\ntargets met (${this.#checks.length} checked)`);
    else console.log(`\ntargets missed (${misses.length} of ${this.#checks.length}):\n${misses.map((m) => `- ${m.text}`).join("\n")}`);
    if (misses.length > 0 && process.env.BENCH_STRICT === "1") process.exitCode = 1;
    return misses.length === 0;
  }
}

/**
 * @param {number} value
 * @returns {string}
 */
function format(value) {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/**
 * The growth check of a scaling curve: `points` are [size, cost] pairs in increasing size. Between
 * neighbours the cost may grow at most in proportion to the size, times `slack` for noise
 * (a doubling of the input may at most double the cost, beyond noise). Returns the worst step.
 * @param {readonly (readonly [number, number])[]} points
 * @param {number} [slack]
 * @returns {{ factor: number; from: number | null; to: number | null; ok: boolean }}
 */
export function worstGrowth(points, slack = 1.25) {
  /** @type {{ factor: number; from: number | null; to: number | null; ok: boolean }} */
  let worst = { factor: 0, from: null, to: null, ok: true };
  for (let i = 1; i < points.length; i += 1) {
    const [s0, c0] = /** @type {readonly [number, number]} */ (points[i - 1]);
    const [s1, c1] = /** @type {readonly [number, number]} */ (points[i]);
    // Cost growth over size growth: 1 is linear, below 1 sub-linear.
    const factor = c1 / Math.max(c0, 1e-9) / (s1 / s0);
    if (factor > worst.factor) worst = { factor, from: s0, to: s1, ok: factor <= slack };
  }
  return worst;
}
