// End-to-end timing of the built `twinscore check` command (a fresh process per run:
// node start, module loading, BFCL data, checking, writing BFCL score files), for the
// comparison with BFCL's own `bfcl evaluate` (bench/check-official-evaluate.sh) in
// bench/RESULTS.md. Three sizes on the real gpt-oss results:
//   one model  — 2025-11-12-main/result/openai_gpt-oss-120b (600 entries)
//   one run    — 2025-11-12-main/result (2 models, 1,200 entries)
//   both runs  — the whole gpt-oss tree (4 model folders, 2,400 entries)
//   4 / 8 runs — the same real files under 2 / 4 copies of the tree (symlinked result
//                folders; 4,800 / 9,600 entries): what each further entry costs
// plus `check --help` (start-up alone). The difference between two sizes is what more
// entries cost with every fixed cost (start-up, data loading, JIT warm-up) removed.
// Wall, CPU (user+sys, all threads) and peak RSS from /usr/bin/time; best and median.
// Usage: npm run build && node bench/check-cli.mjs [repeats=5] [threads]   (env TWINSCORE_CLI: another build's dist/cli/main.js)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const data = join(shared, "bfcl-v4");
const tree = join(shared, "rollouts", "gpt-oss");
const cli = process.env.TWINSCORE_CLI ?? resolve(here, "..", "dist", "cli", "main.js");
const repeats = Number(process.argv[2] ?? 5);
const threads = process.argv[3]; // passed as --threads only when given
const work = mkdtempSync(join(tmpdir(), "twinscore-check-cli-"));

const sizes = [
  { label: "start-up (check --help)", entries: 0, args: ["check", "--help"] },
  { label: "one model", entries: 600, results: join(tree, "2025-11-12-main", "result", "openai_gpt-oss-120b") },
  { label: "one run", entries: 1200, results: join(tree, "2025-11-12-main", "result") },
  { label: "both runs", entries: 2400, results: tree },
  // the same real files again under more run names (symlinks): the per-entry cost once every fixed cost is paid
  { label: "4 runs (2 copies)", entries: 4800, results: copiesOfTree(2) },
  { label: "8 runs (4 copies)", entries: 9600, results: copiesOfTree(4) },
];

/**
 * A tree of `copies` × the two real run folders: real model folders whose result files are
 * symlinks, so nothing is copied (a link to the same result folder would be read once).
 */
function copiesOfTree(copies) {
  const root = join(work, `tree${copies}`);
  for (let c = 0; c < copies; c++) {
    for (const run of readdirSync(tree).sort()) {
      const result = join(tree, run, "result");
      for (const model of readdirSync(result).sort()) {
        const into = join(root, `${run}-copy${c}`, "result", model, "multi_turn");
        mkdirSync(into, { recursive: true });
        for (const f of readdirSync(join(result, model, "multi_turn")).sort())
          symlinkSync(join(result, model, "multi_turn", f), join(into, f));
      }
    }
  }
  return root;
}

function timeOnce(args) {
  const out = join(work, "time.txt");
  execFileSync("/usr/bin/time", ["-f", "%e %U %S %M", "-o", out, process.execPath, cli, ...args], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const [wall, user, sys, rss] = readFileSync(out, "utf8").trim().split(/\s+/).map(Number);
  return { wall, cpu: user + sys, rss };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
try {
  for (const s of sizes) {
    const args = s.args ?? [
      "check",
      "--results",
      s.results,
      "--bfcl-data",
      data,
      "--out",
      join(work, "out"),
      ...(threads ? ["--threads", threads] : []),
    ];
    const runs = [];
    for (let i = 0; i < repeats; i++) {
      rmSync(join(work, "out"), { recursive: true, force: true });
      runs.push(timeOnce(args));
    }
    const row = {
      label: s.label,
      entries: s.entries,
      wallBest: Math.min(...runs.map((r) => r.wall)),
      wallMedian: median(runs.map((r) => r.wall)),
      cpuBest: Math.min(...runs.map((r) => r.cpu)),
      cpuMedian: median(runs.map((r) => r.cpu)),
      rssMax: Math.max(...runs.map((r) => r.rss)),
      load: loadavg()[0].toFixed(2),
    };
    rows.push(row);
    const per =
      s.entries > 0
        ? `  per entry (incl. start-up): wall ${((row.wallBest / s.entries) * 1000).toFixed(3)} ms, cpu ${((row.cpuBest / s.entries) * 1000).toFixed(3)} ms`
        : "";
    console.log(
      `${s.label.padEnd(24)} wall best ${row.wallBest.toFixed(2)} s (median ${row.wallMedian.toFixed(2)}), cpu best ${row.cpuBest.toFixed(2)} s (median ${row.cpuMedian.toFixed(2)}), rss ${(row.rssMax / 1024).toFixed(0)} MB, load ${row.load}${per}`,
    );
  }
  const by = Object.fromEntries(rows.map((r) => [r.label, r]));
  const marginal = (a, b) => {
    const n = by[b].entries - by[a].entries;
    return `wall ${(((by[b].wallBest - by[a].wallBest) / n) * 1000).toFixed(3)} ms, cpu ${(((by[b].cpuBest - by[a].cpuBest) / n) * 1000).toFixed(3)} ms per entry`;
  };
  console.log(`marginal, one model -> one run (600 more entries): ${marginal("one model", "one run")}`);
  console.log(`marginal, one run -> both runs (1,200 more entries): ${marginal("one run", "both runs")}`);
  console.log(`marginal, both runs -> 8 runs (7,200 more entries): ${marginal("both runs", "8 runs (4 copies)")}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
