// Benchmark of the cluster bootstrap: B = 10000 resamples for 10 models
// on the real cluster structure of Table 1 (223 pairs on 151 base twins, from
// data/manifest.json) with seeded random act/hold outcomes. Measures, in one process:
//   - the decision/act/hold intervals of 10 models (a fresh NumPy stream each),
//   - the rank-1 frequencies of the 10 models (one shared stream),
//   - the raw stream: integers(0, 151, size=151) × 10000 × 10 (what ten separate streams
//     would cost; twinscore draws the rows once per (seed, K, B) and shares them).
// "total" = intervals + rank-1: everything `score`/`verify` do for one run of 10 models.
// Usage: npm run build && node bench/stats.mjs [repeats=5]
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const stats = await import(join(root, "dist", "stats", "index.js"));
const manifest = JSON.parse(readFileSync(join(root, "data", "manifest.json"), "utf8"));
const scored = manifest.pairs.filter((p) => p.status === "scored");
const repeats = Number(process.argv[2] ?? 5);
const B = 10000;
const MODELS = 10;

// Seeded outcomes: model m acts with probability 0.8 + 0.015m and holds with 0.75 − 0.02m.
const rng = stats.defaultRng(7);
const coin = (p) => rng.integers(1000000, 1)[0] < p * 1000000;
const models = Array.from({ length: MODELS }, (_, m) =>
  scored.map((p) => ({ cluster: p.baseId, act: coin(0.8 + 0.015 * m), hold: coin(0.75 - 0.02 * m) })),
);
const keys = stats.clusterOrder(models[0]);
const totals = models.map((pairs) => stats.clusterTotals(pairs, keys));

function time(fn) {
  const t = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

const rows = [];
for (let r = 0; r < repeats; r++) {
  // A different seed per repeat, so every repeat draws its stream cold (no cached draws).
  const options = { resamples: B, seed: 20260612 + r };
  const intervals = time(() => totals.map((t) => stats.bootstrapIntervals(t, options)));
  const rank1 = time(() => stats.rankOneFrequencies(totals, options));
  const raw = time(() => {
    let s = 0;
    const buf = new Int32Array(keys.length);
    for (let m = 0; m < MODELS; m++) {
      const g = stats.defaultRng(20260612);
      for (let b = 0; b < B; b++) {
        g.integersInto(keys.length, keys.length, buf);
        s += buf[0];
      }
    }
    return s;
  });
  rows.push({ intervals: intervals.ms, rank1: rank1.ms, total: intervals.ms + rank1.ms, raw: raw.ms });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => x.toFixed(0).padStart(6);
console.log(
  `node ${process.version}, ${scored.length} pairs on ${keys.length} clusters, B=${B}, ${MODELS} models, ${repeats} repeats (ms)`,
);
console.log("repeat  intervals  rank-1   total  raw-stream");
rows.forEach((r, i) => console.log(`${String(i + 1).padStart(6)}  ${fmt(r.intervals)}    ${fmt(r.rank1)}  ${fmt(r.total)}  ${fmt(r.raw)}`));
console.log(
  `median  ${fmt(median(rows.map((r) => r.intervals)))}    ${fmt(median(rows.map((r) => r.rank1)))}  ${fmt(median(rows.map((r) => r.total)))}  ${fmt(median(rows.map((r) => r.raw)))}`,
);
