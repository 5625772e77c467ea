// Benchmark of `twinscore report`: the built CLI on both real gpt-oss runs
// (../shared/rollouts/gpt-oss, 4 models) with their score files and --compare, in a
// fresh process per repeat; reports wall seconds, CPU seconds, peak RSS and file size,
// for the default bootstrap (B = 10000) and for --bootstrap 0 (what the rest costs).
// Usage: npm run build && node bench/report.mjs   (TWINSCORE_CLI=path/to/main.js to use another build)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const cli = process.env.TWINSCORE_CLI ?? resolve(here, "..", "dist", "cli", "main.js");
const runs = ["2025-11-12-main", "2025-11-12-harmony-fixes"].map((r) => join(shared, "rollouts", "gpt-oss", r));
const tmp = mkdtempSync(join(tmpdir(), "twinscore-bench-report-"));
const REPEAT = 3;
try {
  for (const bootstrap of ["10000", "0"]) {
    const walls = [];
    let cpu = 0;
    let rss = 0;
    let size = 0;
    for (let i = 0; i < REPEAT; i++) {
      const out = join(tmp, `r${i}.html`);
      const args = [
        "/usr/bin/time",
        "-f",
        "%e %U %S %M",
        process.execPath,
        cli,
        "report",
        ...runs.flatMap((r) => ["--results", r, "--scores", r]),
        "--compare",
        "2025-11-12-main",
        "2025-11-12-harmony-fixes",
        "--bootstrap",
        bootstrap,
        "--out",
        out,
      ];
      const p = spawnSync(args[0], args.slice(1), { encoding: "utf8" });
      if (p.status !== 0) throw new Error(p.stderr);
      const [wall, user, sys, kb] = p.stderr.trim().split("\n").pop().split(" ").map(Number);
      walls.push(wall);
      cpu = user + sys;
      rss = Math.max(rss, kb / 1024);
      size = statSync(out).size;
    }
    walls.sort((a, b) => a - b);
    console.log(
      `--bootstrap ${bootstrap}: wall median ${walls[1].toFixed(2)} s (min ${walls[0].toFixed(2)}), cpu ${cpu.toFixed(2)} s, peak RSS ${rss.toFixed(0)} MB, ${(size / 1e6).toFixed(2)} MB of HTML`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
