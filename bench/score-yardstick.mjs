// `twinscore score --bootstrap 0` against a yardstick: a Python process that only reads
// the same result files and json.loads every line (bench/yardstick.py). For each size
// (models), a temporary tree of that many model folders is built from the four real
// gpt-oss models (../shared/rollouts/gpt-oss/*/result/*, files symlinked, nothing copied),
// and the commands run alternately (the order rotates every round), so load on a shared
// machine hits them alike. Reported per size: median wall time and IQR of each, the
// median of the per-round ratios twinscore / yardstick with its IQR (wall, and CPU:
// user + system, which load on a shared machine moves less), and peak RSS
// (`/usr/bin/time` when present). With other builds (BEFORE_CLI), also the median of the
// per-round ratios of this build's wall time to each of theirs.
//
// Usage: npm run build && node bench/score-yardstick.mjs [rounds=20] [sizes=1,10,50,200]
//   a size may carry its own rounds: 1,10,50:10,200:4
//   TWINSCORE_SHARED: the shared folder (default ../shared beside the project root)
//   BEFORE_CLI: another build's bin (say, main's), run in the same rounds as a third contender,
//     so before and after are measured under the same load; several as LABEL=BIN,LABEL=BIN
//   YARDSTICK_PYTHON: the Python to run (default: the real interpreter behind `python3`,
//     so a version manager's shim script does not add its own start-up to the yardstick)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alternate, cli, here, median, modelTree, python, quantile } from "./yardstick-common.mjs";

const rounds = Number(process.argv[2] ?? 20);
const sizes = (process.argv[3] ?? "1,10,50,200").split(",").map((s) => s.split(":").map(Number));
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

const tmp = mkdtempSync(join(tmpdir(), "twinscore-yardstick-"));
const rssFile = join(tmp, "rss");

/** Run a command; wall seconds measured here, peak RSS in MB and CPU seconds (user + system) from /usr/bin/time. */
function measure(cmd, args) {
  const full = timeBin ? [timeBin, ["-f", "%M %U %S", "-o", rssFile, cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const r = spawnSync(full[0], full[1], { stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr.toString().slice(0, 2000)}`);
  const [kb, user, sys] = timeBin ? readFileSync(rssFile, "utf8").trim().split("\n").pop().split(" ").map(Number) : [NaN, NaN, NaN];
  return { wall, rss: kb / 1024, cpu: user + sys };
}

/** The other builds to run: BEFORE_CLI as one bin ("before"), or LABEL=BIN entries separated by commas. */
const befores = (process.env.BEFORE_CLI ?? "")
  .split(",")
  .filter((entry) => entry !== "")
  .map((entry) =>
    entry.includes("=")
      ? { label: entry.slice(0, entry.indexOf("=")), bin: entry.slice(entry.indexOf("=") + 1) }
      : { label: "before", bin: entry },
  );

const iqr = (xs, digits) => `${quantile(xs, 0.25).toFixed(digits)}–${quantile(xs, 0.75).toFixed(digits)}`;

try {
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(
    `node ${process.version}, ${python}, ${cli}, ${rounds} rounds per size unless given, load average at start ${existsSync("/proc/loadavg") ? load() : "?"}`,
  );
  for (const [n, roundsHere = rounds] of sizes) {
    const t = modelTree(tmp, n);
    const contenders = [
      { label: "yardstick", run: () => measure(python, [join(here, "yardstick.py"), ...t.models]) },
      { label: "twinscore", run: () => measure(process.execPath, [cli, "score", "--results", t.dir, "--bootstrap", "0"]) },
      ...befores.map(({ label, bin }) => ({
        label,
        run: () => measure(process.execPath, [bin, "score", "--results", t.dir, "--bootstrap", "0"]),
      })),
    ];
    for (const c of contenders) c.run(); // page cache and a first run of each
    const samples = alternate(contenders.length, roundsHere, (i) => contenders[i].run());
    console.log(`\n${n} model(s), ${roundsHere} rounds${existsSync("/proc/loadavg") ? `, load average after: ${load()}` : ""}`);
    const yard = samples[0].map((s) => s.wall);
    const yardCpu = samples[0].map((s) => s.cpu);
    contenders.forEach((c, i) => {
      const walls = samples[i].map((s) => s.wall);
      const cpus = samples[i].map((s) => s.cpu);
      const ratios = walls.map((w, k) => w / yard[k]);
      const cpuRatios = cpus.map((w, k) => w / yardCpu[k]);
      const rss = samples[i].map((s) => s.rss);
      console.log(
        `  ${c.label.padEnd(22)} wall median ${median(walls).toFixed(3)} s (IQR ${iqr(walls, 3)})  cpu median ${median(cpus).toFixed(2)} s  ` +
          (i === 0
            ? ""
            : `ratio to yardstick: wall ${median(ratios).toFixed(2)} (IQR ${iqr(ratios, 2)}), cpu ${median(cpuRatios).toFixed(2)} (IQR ${iqr(cpuRatios, 2)})  `) +
          `peak RSS median ${median(rss).toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB`,
      );
    });
    // this build against each other build, round by round: how the yardstick's ratios carry over to another build's
    const ours = samples[1].map((s) => s.wall);
    for (const [i, c] of contenders.entries()) {
      if (i < 2) continue;
      const ratios = samples[i].map((s, k) => ours[k] / s.wall);
      console.log(`  twinscore / ${c.label}: wall median ${median(ratios).toFixed(3)} (IQR ${iqr(ratios, 3)})`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
