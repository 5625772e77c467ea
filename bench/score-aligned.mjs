// Benchmark of `twinscore score --bfcl-data` (the aligned numbers) on the real gpt-oss tree:
// both runs, four models. Runs the built CLI in a fresh process per repeat
// (bench/score-child.mjs: wall seconds since process start, CPU seconds, peak RSS) without
// BFCL data (nothing is checked), with --bfcl-data (BFCL's checker on every model's turn
// prefixes and on every entry with the empty-reference turns scored, plus Table F1), and
// both with --bootstrap 0 to separate the intervals' share; and BFCL_DATA_DIR alone, which
// gives Table F1 only, to separate the checker's share from the workaround replay's.
// Usage: npm run build && node bench/score-aligned.mjs [repeats=3]
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const tree = join(shared, "rollouts", "gpt-oss");
const data = join(shared, "bfcl-v4");
const repeats = Number(process.argv[2] ?? 3);

function run(extra, env = {}) {
  const r = spawnSync(process.execPath, [join(here, "score-child.mjs"), "score", "--results", tree, "--format", "json", ...extra], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, BFCL_DATA_DIR: "", ...env },
  });
  const line = r.stderr.trim().split("\n").pop();
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`score failed (exit ${r.status}):\n${r.stderr}`);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
run([]); // warm the page cache
console.log(`score on ${tree} (2 runs x 2 models), ${repeats} repeats, median wall / CPU, peak RSS`);
for (const [label, extra, env] of [
  ["no BFCL data, --bootstrap 0", ["--bootstrap", "0"]],
  ["no BFCL data (default bootstrap)", []],
  ["BFCL_DATA_DIR: Table F1 only, -b 0", ["--bootstrap", "0"], { BFCL_DATA_DIR: data }],
  ["--bfcl-data, --bootstrap 0", ["--bfcl-data", data, "--bootstrap", "0"]],
  ["--bfcl-data (default bootstrap)", ["--bfcl-data", data]],
]) {
  const samples = Array.from({ length: repeats }, () => run(extra, env));
  console.log(
    `${label.padEnd(34)} wall ${median(samples.map((s) => s.wall)).toFixed(2)} s  cpu ${median(samples.map((s) => s.cpu)).toFixed(2)} s  peak RSS ${Math.max(...samples.map((s) => s.maxRssMB)).toFixed(0)} MB  exit ${samples[0].code}`,
  );
}
