// What bench/score-yardstick.mjs and bench/node-floor.mjs share: where the real runs and the
// bin are, the Python that runs the yardstick, trees of model folders linked to the real
// models, and the order statistics they report.
//   TWINSCORE_SHARED: the shared folder (default ../shared beside the project root)
//   YARDSTICK_PYTHON: the Python to run (default: the real interpreter behind `python3`,
//     so a version manager's shim script does not add its own start-up to the yardstick)
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const here = dirname(fileURLToPath(import.meta.url));
/** The project root. */
export const root = resolve(here, "..");
const shared = process.env.TWINSCORE_SHARED ?? resolve(root, "..", "shared");
const runsDir = join(shared, "rollouts", "gpt-oss");

/** The bin as package.json names it. */
export const cli = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.twinscore);

/** The Python interpreter that runs bench/yardstick.py. */
export const python =
  process.env.YARDSTICK_PYTHON ?? execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

/** The `multi_turn` folders of the four real gpt-oss models, runs then models in name order. */
export const sources = readdirSync(runsDir)
  .sort()
  .flatMap((run) =>
    readdirSync(join(runsDir, run, "result"))
      .sort()
      .map((model) => join(runsDir, run, "result", model, "multi_turn")),
  );

/** A tree of `n` model folders under `parent/models-<n>`, each a copy (by symlinks, nothing copied) of one of `sources` in turn. */
export function modelTree(parent, n) {
  const dir = join(parent, `models-${n}`);
  const models = [];
  for (let i = 0; i < n; i++) {
    const model = join(dir, `model-${String(i).padStart(3, "0")}`);
    const target = join(model, "multi_turn");
    mkdirSync(target, { recursive: true });
    const source = sources[i % sources.length];
    for (const f of readdirSync(source)) symlinkSync(join(source, f), join(target, f));
    models.push(model);
  }
  return { dir, models };
}

/** The q-quantile of `xs`, interpolated between neighbours. */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}

export const median = (xs) => quantile(xs, 0.5);

/**
 * Run each of `count` contenders `rounds` times, alternating, the order rotating every round
 * so load on a shared machine hits them alike; `runOne(i)` runs contender i once. Returns
 * each contender's samples in round order (sample k of each is from round k: ratios pair).
 */
export function alternate(count, rounds, runOne) {
  const samples = Array.from({ length: count }, () => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < count; k++) {
      const i = (k + r) % count;
      samples[i].push(runOne(i));
    }
  }
  return samples;
}
