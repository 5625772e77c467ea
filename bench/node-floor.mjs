// How much of one model's `score` time Node itself takes on this machine: paired,
// alternating rounds (the order rotates) of the yardstick (bench/yardstick.py), Node's own
// start (`node -e 0`), Node reading the three result files without parsing them and Node
// parsing every line as the yardstick does (bench/floor.cjs), then the bin: `--version`
// (no command loaded), `score --help` (the score command's code loaded, no work) and
// `score --bootstrap 0` on the model. Each is reported as its median wall time and the
// median of its per-round ratios to the yardstick.
//
// Usage: npm run build && node bench/node-floor.mjs [rounds=30]
//   TWINSCORE_SHARED: the shared folder (default ../shared beside the project root)
//   YARDSTICK_PYTHON: the Python to run (default: the real interpreter behind `python3`)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const shared = process.env.TWINSCORE_SHARED ?? resolve(root, "..", "shared");
const runDir = join(shared, "rollouts", "gpt-oss");
const run = readdirSync(runDir).sort()[0];
const source = join(runDir, run, "result", readdirSync(join(runDir, run, "result")).sort()[0], "multi_turn");
const cli = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.twinscore);
const rounds = Number(process.argv[2] ?? 30);
const python = process.env.YARDSTICK_PYTHON ?? execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

const tmp = mkdtempSync(join(tmpdir(), "twinscore-floor-"));
const model = join(tmp, "model-000");
mkdirSync(join(model, "multi_turn"), { recursive: true });
for (const f of readdirSync(source)) symlinkSync(join(source, f), join(model, "multi_turn", f));

const node = process.execPath;
const contenders = [
  ["yardstick (Python: read, json.loads every line)", python, [join(here, "yardstick.py"), model]],
  ["node -e 0", node, ["-e", "0"]],
  ["node: read the files, count lines", node, [join(here, "floor.cjs"), "read", model]],
  ["node: read, JSON.parse every line", node, [join(here, "floor.cjs"), "parse", model]],
  ["twinscore --version", node, [cli, "--version"]],
  ["twinscore score --help", node, [cli, "score", "--help"]],
  ["twinscore score --bootstrap 0", node, [cli, "score", "--results", tmp, "--bootstrap", "0"]],
];

function wall(cmd, args) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return (performance.now() - t0) / 1000;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  for (const [, cmd, args] of contenders) wall(cmd, args); // page cache and a first run of each
  const samples = contenders.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (k + r) % contenders.length;
      samples[i].push(wall(contenders[i][1], contenders[i][2]));
    }
  }
  console.log(`node ${process.version}, ${python}, one model (${source}), ${rounds} rounds`);
  for (const [i, [label]] of contenders.entries()) {
    const ratio = median(samples[i].map((w, k) => w / samples[0][k]));
    console.log(`  ${label.padEnd(48)} ${median(samples[i]).toFixed(3)} s   ${ratio.toFixed(2)}× the yardstick`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
