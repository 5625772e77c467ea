/**
 * Pure statistics for twinscore: NumPy's random stream, the cluster bootstrap, NumPy's
 * percentile, exact McNemar and Spearman, the statistics of repeated trials. No I/O;
 * everything takes numbers.
 */
export * from "./pcg64.js";
export * from "./percentile.js";
export * from "./bootstrap.js";
export * from "./tests.js";
export * from "./trials.js";
