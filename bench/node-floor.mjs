// How much of one model's `score` time Node itself takes on this machine: paired,
// alternating rounds (the order rotates) of the yardstick (bench/yardstick.py), Node's own
// start (`node -e 0`), Node reading the three result files without parsing them, parsing
// only each line's `result` field, and parsing every line as the yardstick does
// (bench/floor.cjs); bench/lean-score.cjs, a probe that does only the core of score's job
// for an FC model (checked first to give score's act, hold and decision on the model); then
// the bin: `--version` (no command loaded), `score --help` (the score command's code
// loaded, no work) and `score --bootstrap 0` on the model. Each is reported as its median
// wall time, the median of its per-round ratios to the yardstick, and, from one more run
// through bench/rusage.py, its minor page faults (first touches of memory pages, which cost
// about 13 µs each on the project machine: bench/first-touch.cjs) and peak RSS.
//
// Usage: npm run build && node bench/node-floor.mjs [rounds=30]
//   TWINSCORE_SHARED: the shared folder (default ../shared beside the project root)
//   YARDSTICK_PYTHON: the Python to run (default: the real interpreter behind `python3`)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { alternate, cli, here, median, modelTree, python, root, sources } from "./yardstick-common.mjs";

const rounds = Number(process.argv[2] ?? 30);
// the probe's world-changing names come from the built catalog, so they cannot drift from score's
const { catalog } = await import(pathToFileURL(join(root, "dist", "catalog", "catalog.js")).href);
const tmp = mkdtempSync(join(tmpdir(), "twinscore-floor-"));
const {
  dir: tree,
  models: [model],
} = modelTree(tmp, 1);

const node = process.execPath;
const mutateFile = join(tmp, "mutate.json");
writeFileSync(mutateFile, JSON.stringify(catalog.filter((e) => e.kind === "mutate").map((e) => e.name)));
const lean = [join(here, "lean-score.cjs"), tree, join(root, "dist", "data", "manifest.json"), mutateFile];
const contenders = [
  ["yardstick (Python: read, json.loads every line)", python, [join(here, "yardstick.py"), model]],
  ["node -e 0", node, ["-e", "0"]],
  ["node: read the files, count lines", node, [join(here, "floor.cjs"), "read", model]],
  ["node: read, JSON.parse each line's result", node, [join(here, "floor.cjs"), "results", model]],
  ["node: read, JSON.parse every line", node, [join(here, "floor.cjs"), "parse", model]],
  ["twinscore --version", node, [cli, "--version"]],
  ["twinscore score --help", node, [cli, "score", "--help"]],
  ["probe: FC-only scoring (lean-score.cjs)", node, lean],
  ["twinscore score --bootstrap 0", node, [cli, "score", "--results", tree, "--bootstrap", "0"]],
];

/**
 * Throws unless the probe gives score's act, hold and decision on the model, with every first turn matching the
 * manifest. The probe reads an inference error or a rollout that stopped early as no call, as `--reading release` does.
 */
function checkProbe() {
  const probe = JSON.parse(spawnSync(node, lean, { encoding: "utf8" }).stdout);
  const scored = JSON.parse(
    spawnSync(node, [cli, "score", "--results", tree, "--bootstrap", "0", "--reading", "release", "--format", "json"], {
      encoding: "utf8",
    }).stdout,
  ).models[0].numbers;
  const differs = ["act", "hold", "decision"].filter((k) => Math.abs(probe[k] - scored[k]) > 1e-9);
  if (differs.length > 0 || probe.differingFirstTurns !== 0) {
    throw new Error(
      `lean-score.cjs does not agree with score (${differs.join(", ") || "first turns"}): ${JSON.stringify(probe)} against ${JSON.stringify(scored)}`,
    );
  }
  return probe;
}

function wall(cmd, args) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return (performance.now() - t0) / 1000;
}

/** Minor page faults and peak RSS of one run, as the kernel counts them (bench/rusage.py). */
function rusage(cmd, args) {
  const r = spawnSync(python, [join(here, "rusage.py"), cmd, ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`rusage.py ${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(r.stdout);
}

try {
  const probe = checkProbe();
  for (const [, cmd, args] of contenders) wall(cmd, args); // page cache and a first run of each
  const samples = alternate(contenders.length, rounds, (i) => wall(contenders[i][1], contenders[i][2]));
  console.log(`node ${process.version}, ${python}, one model (${sources[0]}), ${rounds} rounds`);
  console.log(
    `  the probe agrees with score: act ${probe.act.toFixed(1)}, hold ${probe.hold.toFixed(1)}, decision ${probe.decision.toFixed(1)} on ${probe.n} pairs`,
  );
  for (const [i, [label, cmd, args]] of contenders.entries()) {
    const ratio = median(samples[i].map((w, k) => w / samples[0][k]));
    const { minorFaults, maxRssKb } = rusage(cmd, args);
    console.log(
      `  ${label.padEnd(48)} ${median(samples[i]).toFixed(3)} s   ${ratio.toFixed(2)}× the yardstick   ${String(minorFaults).padStart(5)} page faults   ${(maxRssKb / 1024).toFixed(0)} MB`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
