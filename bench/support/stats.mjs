// The statistics every benchmark reports over its rounds. Two medians, because the benches need both:
// `median` is a measured value (a round that happened), `interpolatedMedian` the textbook one.

/**
 * The values in increasing order (a copy).
 * @param {readonly number[]} values
 * @returns {number[]}
 */
function ascending(values) {
  if (values.length === 0) throw new Error("no values: a statistic needs at least one round");
  return [...values].sort((a, b) => a - b);
}

/**
 * The middle round: the lower of the two middle values for an even count, so it is always a value
 * that was measured.
 * @param {readonly number[]} values
 * @returns {number}
 */
export function median(values) {
  const sorted = ascending(values);
  return /** @type {number} */ (sorted[Math.floor((sorted.length - 1) / 2)]);
}

/**
 * The median as statistics defines it: the mean of the two middle values for an even count.
 * @param {readonly number[]} values
 * @returns {number}
 */
export function interpolatedMedian(values) {
  const sorted = ascending(values);
  const mid = Math.floor(sorted.length / 2);
  const upper = /** @type {number} */ (sorted[mid]);
  if (sorted.length % 2 === 1) return upper;
  const lower = /** @type {number} */ (sorted[mid - 1]);
  return (lower + upper) / 2;
}

/**
 * The smallest value (the best round of a time).
 * @param {readonly number[]} values
 * @returns {number}
 */
export function best(values) {
  return /** @type {number} */ (ascending(values)[0]);
}

/**
 * The arithmetic mean.
 * @param {readonly number[]} values
 * @returns {number}
 */
export function mean(values) {
  return ascending(values).reduce((sum, value) => sum + value, 0) / values.length;
}
