// Benchmark of `twinscore score`. Makes N copies (default 50) of the
// four real gpt-oss models (../shared/rollouts/gpt-oss, both runs) as separate model
// directories in a temporary folder (~350 MB of result files for 50), then runs the
// built CLI over them in a fresh process (bench/score-child.mjs) and reports wall
// seconds, CPU seconds and peak RSS — for 1, 10 and N models,
// to show memory flat in the number of models — and, for scale, a naive baseline that
// JSON.parses every line of the same files in one thread.
// Usage: npm run build && node bench/score.mjs [models=50]
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const runsDir = join(shared, "rollouts", "gpt-oss");
const sources = [];
for (const run of readdirSync(runsDir).sort()) {
  for (const model of readdirSync(join(runsDir, run, "result")).sort()) sources.push(join(runsDir, run, "result", model, "multi_turn"));
}
const count = Number(process.argv[2] ?? 50);
const REPEAT = 3;

const tmp = mkdtempSync(join(tmpdir(), "twinscore-bench-"));
let bytes = 0;
const files = [];
try {
  for (let i = 0; i < count; i++) {
    const target = join(tmp, `model-${String(i).padStart(3, "0")}`, "multi_turn");
    mkdirSync(target, { recursive: true });
    const source = sources[i % sources.length];
    for (const f of readdirSync(source)) {
      cpSync(join(source, f), join(target, f));
      bytes += statSync(join(target, f)).size;
      files.push(join(target, f));
    }
  }
  console.log(`${count} model directories, ${(bytes / 1e6).toFixed(0)} MB of result files in ${tmp}`);
  const run = (models, extra) => {
    const args = [join(here, "score-child.mjs"), "score", "--results", tmp, "--format", "json", ...extra];
    for (const m of models) args.push("--model", m);
    const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 28 });
    const line = r.stderr.trim().split("\n").pop();
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(
        `the scoring process failed (exit ${r.status}):\n${r.stderr
          .split("\n")
          .filter((l) => !l.includes("[inference-error]"))
          .join("\n")}`,
      );
    }
  };
  const names = (n) => Array.from({ length: n }, (_, i) => `model-${String(i).padStart(3, "0")}`);
  run(names(Math.min(count, 4)), []); // warm the page cache

  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let lines = 0;
  for (const f of files) for (const l of readFileSync(f, "utf8").split("\n")) if (l !== "") (JSON.parse(l), lines++);
  const c = process.cpuUsage(c0);
  console.log(
    `naive baseline: readFileSync + JSON.parse of all ${lines} lines, 1 thread: wall ${((performance.now() - t0) / 1000).toFixed(2)} s  cpu ${((c.user + c.system) / 1e6).toFixed(2)} s`,
  );

  for (const [label, extra] of [
    ["scoring only (--bootstrap 0)", ["--bootstrap", "0"]],
    ["default (with the 95% CI, 10,000 resamples per model)", []],
  ]) {
    console.log(`\n${label}`);
    for (const n of [...new Set([1, 10, count])]) {
      const samples = Array.from({ length: REPEAT }, () => run(n === count ? [] : names(n), extra));
      const best = samples.reduce((a, b) => (b.wall < a.wall ? b : a));
      const rss = Math.max(...samples.map((s) => s.maxRssMB));
      console.log(
        `models=${String(n).padStart(3)}  wall ${best.wall.toFixed(2)} s (best of ${REPEAT})  cpu ${best.cpu.toFixed(2)} s  peak RSS ${rss.toFixed(0)} MB  exit ${best.code}`,
      );
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
