// Benchmark of `twinscore check` on the real gpt-oss result files
// (../shared/rollouts/gpt-oss, 2 runs × 2 models × base/miss_func/miss_param = 2,400
// entries). Runs the built checker in this process, in phases, and reports CPU
// milliseconds per entry (process.cpuUsage, main thread + GC):
//   load     — BFCL data (questions, references, docs) parsed Python-faithfully, once;
//   verdicts — every entry decoded, executed and checked (what agreement needs);
//   score    — the same plus rendering the BFCL score files (what `bfcl evaluate` does).
// Each phase is repeated (default 10: V8 needs about four passes to warm up) on a fresh
// evaluator process; the best is reported.
// Usage: npm run build && node bench/check.mjs [repeats=10]
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareCategory, checkResultFile } from "../dist/simulator/run-check.js";
import { newEvaluatorProcess } from "../dist/simulator/runtime.js";
import { answersFile, docFile, multiTurnDocFiles, questionsFile } from "../dist/bfcl/data.js";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const dataDir = join(shared, "bfcl-v4");
const runsDir = join(shared, "rollouts", "gpt-oss");
const repeats = Number(process.argv[2] ?? 10);
const categories = ["base", "miss_func", "miss_param"];

const cpuMs = (f) => {
  const a = process.cpuUsage();
  const t = performance.now();
  const value = f();
  const b = process.cpuUsage(a);
  return { value, cpu: (b.user + b.system) / 1000, wall: performance.now() - t };
};

const files = [];
for (const run of readdirSync(runsDir).sort()) {
  for (const model of readdirSync(join(runsDir, run, "result")).sort()) {
    for (const category of categories) {
      const path = join(runsDir, run, "result", model, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`);
      files.push({ run, model, category, bytes: readFileSync(path) });
    }
  }
}

const load = cpuMs(() => {
  const docs = new Map(Object.keys(multiTurnDocFiles).map((c) => [c, readFileSync(join(dataDir, docFile(c)), "utf8")]));
  const inputs = new Map();
  for (const c of categories) {
    const r = prepareCategory(
      readFileSync(join(dataDir, questionsFile("v4", c)), "utf8"),
      c,
      readFileSync(join(dataDir, answersFile("v4", c)), "utf8"),
      c,
      docs,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    inputs.set(c, r.value);
  }
  return inputs;
});
const inputs = load.value;

// score files are rendered into reused buffers, one per category, as `check` does (fresh memory is slow to touch)
const scratch = new Map();
const scratchFor = (slot) => (bytes) => {
  let b = scratch.get(slot);
  if (!b || b.length < bytes) {
    b = new Uint8Array(Math.ceil(bytes * 1.25));
    scratch.set(slot, b);
  }
  return b;
};

function checkAll(renderScore) {
  const processes = new Map();
  let entries = 0;
  let correct = 0;
  for (const f of files) {
    const key = `${f.run}/${f.model}`;
    if (!processes.has(key)) processes.set(key, newEvaluatorProcess());
    const r = checkResultFile(f.bytes, f.category, {
      modelName: f.model,
      testCategory: `multi_turn_${f.category}`,
      inputs: inputs.get(f.category),
      process: processes.get(key),
      renderScore,
      scoreScratch: scratchFor(f.category),
    });
    if (!r.ok) throw new Error(JSON.stringify(r.problems.slice(0, 3)));
    entries += r.value.total;
    correct += r.value.correct;
  }
  return { entries, correct };
}

const best = (renderScore) => {
  let b = null;
  for (let i = 0; i < repeats; i++) {
    const m = cpuMs(() => checkAll(renderScore));
    if (!b || m.cpu < b.cpu) b = m;
  }
  return b;
};
const verdicts = best(false);
const score = best(true);
const n = verdicts.value.entries;
const fmt = (m) => `${m.cpu.toFixed(0)} ms CPU (${(m.cpu / n).toFixed(3)} ms/entry), wall ${m.wall.toFixed(0)} ms`;
console.log(`entries ${n}, passing ${verdicts.value.correct}, ${files.length} files, best of ${repeats}`);
console.log(`load BFCL data (once): ${load.cpu.toFixed(0)} ms CPU`);
console.log(`verdicts:              ${fmt(verdicts)}`);
console.log(`verdicts + score files: ${fmt(score)}`);
console.log(
  `official Python checker (brief): ~2.3 ms/entry -> speed-up ${(2.3 / (score.cpu / n)).toFixed(1)}x with score files, ${(2.3 / (verdicts.cpu / n)).toFixed(1)}x verdicts only`,
);
