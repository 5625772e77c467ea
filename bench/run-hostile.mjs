// Peak memory of `twinscore run` against an endpoint whose reply never ends
// (src/testing/hostile-servers.ts, on 127.0.0.1): the bin as a user runs it, with
// `--timeout 30`, measured by the kernel (bench/rusage.py: peak RSS of the process).
//   endless, default   — `--items pairs` (374 items, 4 in flight), the default
//                        --max-reply-bytes (8 MiB): every item's reply is cut there;
//   endless, max bound — the largest --max-reply-bytes (256 MiB), on 12 items, 4 in flight;
//   resume of a huge file — a run that resumes a 600 MB result file (three 200 MB lines,
//                        sparse) and generates one line, so the final rewrite copies it all.
// Usage: npm run build && npm run build:testing && node bench/run-hostile.mjs [TWINSCORE_BIN]
// (TWINSCORE_BIN: another build's dist/cli/main.js, to measure it the same way.)
import { spawn } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startEndlessServer } from "../dist-testing/testing/hostile-servers.js";
import { startChatServer, sendJson } from "../dist-testing/testing/replay.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(process.argv[2] ?? join(here, "..", "dist", "cli", "main.js"));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const dataDir = join(shared, "bfcl-v4");
const tmp = mkdtempSync(join(tmpdir(), "twinscore-bench-hostile-"));
const categories = ["base", "miss_func", "miss_param"];

/** A data folder with the first `n` entries of each category. */
function subset(n) {
  const sub = join(tmp, `data-${n}`);
  mkdirSync(join(sub, "multi_turn_func_doc"), { recursive: true });
  mkdirSync(join(sub, "possible_answer"), { recursive: true });
  for (const f of readdirSync(join(dataDir, "multi_turn_func_doc")))
    copyFileSync(join(dataDir, "multi_turn_func_doc", f), join(sub, "multi_turn_func_doc", f));
  for (const c of categories) {
    for (const rel of [`BFCL_v4_multi_turn_${c}.json`, `possible_answer/BFCL_v4_multi_turn_${c}.json`]) {
      writeFileSync(join(sub, rel), readFileSync(join(dataDir, rel), "utf8").split("\n").slice(0, n).join("\n") + "\n");
    }
  }
  return sub;
}

/** Run the bin under bench/rusage.py; its exit status, peak RSS and wall time. */
function measured(args) {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn("python3", [join(here, "rusage.py"), process.execPath, bin, "run", ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", () => {
      const r = JSON.parse(out);
      resolvePromise({ status: r.status, peakMb: Math.round(r.maxRssKb / 1024), wallS: ((performance.now() - t0) / 1000).toFixed(1) });
    });
  });
}

const rows = [];
try {
  const endless = await startEndlessServer({ lifetimeMs: 30 * 60_000 });
  const all = await measured([
    "--endpoint",
    endless.url,
    "--model",
    "m",
    "--out",
    join(tmp, "out-default"),
    "--bfcl-data",
    dataDir,
    "--timeout",
    "30",
  ]);
  rows.push(["endless reply, default --max-reply-bytes (8 MiB), --items pairs (374 items)", all]);
  const max = await measured([
    "--endpoint",
    endless.url,
    "--model",
    "m",
    "--out",
    join(tmp, "out-max"),
    "--bfcl-data",
    subset(4),
    "--items",
    "all",
    "--timeout",
    "30",
    "--max-reply-bytes",
    "268435456",
    "--retries",
    "0",
  ]);
  rows.push(["endless reply, --max-reply-bytes 268435456 (the largest), 12 items", max]);
  await endless.close();

  const text = await startChatServer((_b, _r, res) =>
    sendJson(res, 200, {
      id: "t",
      object: "chat.completion",
      created: 0,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "Nothing to do." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    }),
  );
  const out = join(tmp, "out-huge");
  const folder = join(out, "m", "multi_turn");
  mkdirSync(folder, { recursive: true });
  const LINE = 200 * 1024 * 1024;
  const fd = openSync(join(folder, "BFCL_v4_multi_turn_base_result.json"), "w");
  for (let i = 1; i <= 3; i++) {
    writeSync(fd, `{"id": "multi_turn_base_${i}", "result": [["`, (i - 1) * LINE);
    writeSync(fd, `"]]}\n`, i * LINE - 5);
  }
  closeSync(fd);
  const huge = await measured([
    "--endpoint",
    text.url,
    "--model",
    "m",
    "--out",
    out,
    "--bfcl-data",
    subset(4),
    "--items",
    "all",
    "--retries",
    "0",
  ]);
  rows.push(["resume of a 600 MB result file (three 200 MB lines), 10 items generated, final rewrite", huge]);
  await text.close();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log(`bin: ${bin}\n`);
console.log("| case | exit | wall | peak RSS |");
console.log("|---|---|---|---|");
for (const [name, r] of rows) console.log(`| ${name} | ${r.status} | ${r.wallS} s | ${r.peakMb} MB |`);
