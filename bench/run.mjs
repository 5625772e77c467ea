// Benchmark of `twinscore run` against the replay of a recorded gpt-oss run
// (../shared/rollouts/gpt-oss/2025-11-12-main, gpt-oss-120b), on a data folder cut to the
// first N entries of each category:
//   overhead   — the harness's own time per model step (client, loop, executor, result
//                lines) over HTTP at concurrency 1: wall time minus the replay server's
//                busy time, per request; and the same loop with the replay in-process;
//   throughput — items and requests per second at concurrency 1, 8 and 32 against a
//                replay that adds 50 ms to every request;
//   until-anchor — requests and tokens `--until-anchor` saves, counted on the four
//                recorded runs (no generation needed: the recordings hold every step).
// Usage: npm run bench:run   (or: npm run build && npm run build:testing && node bench/run.mjs [perCategory=16])
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { benchRunRequest } from "./run-common.mjs";
import { runModel } from "../dist/app/run/index.js";
import { loadManifest } from "../dist/io/manifest.js";
import { selectItems } from "../dist/rollout/selection.js";
import { inProcessEndpoint, parseRecording, replayResponder, startReplayServer } from "../dist-testing/testing/replay.js";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const dataDir = join(shared, "bfcl-v4");
const runsDir = join(shared, "rollouts", "gpt-oss");
const perCategory = Number(process.argv[2] ?? 16);
const categories = ["base", "miss_func", "miss_param"];
const manifest = loadManifest();
if (!manifest.ok) throw new Error("manifest");

const tmp = mkdtempSync(join(tmpdir(), "twinscore-bench-run-"));
const sub = join(tmp, "data");
mkdirSync(join(sub, "multi_turn_func_doc"), { recursive: true });
mkdirSync(join(sub, "possible_answer"), { recursive: true });
for (const f of readdirSync(join(dataDir, "multi_turn_func_doc")))
  copyFileSync(join(dataDir, "multi_turn_func_doc", f), join(sub, "multi_turn_func_doc", f));
for (const c of categories) {
  for (const rel of [`BFCL_v4_multi_turn_${c}.json`, `possible_answer/BFCL_v4_multi_turn_${c}.json`]) {
    writeFileSync(join(sub, rel), readFileSync(join(dataDir, rel), "utf8").split("\n").slice(0, perCategory).join("\n") + "\n");
  }
}
const modelFolder = join(runsDir, "2025-11-12-main", "result", "openai_gpt-oss-120b", "multi_turn");
const recording = new Map();
for (const c of categories)
  for (const [id, e] of parseRecording(readFileSync(join(modelFolder, `BFCL_v4_multi_turn_${c}_result.json`), "utf8")))
    recording.set(id, e);

const request = (endpoint, out, extra = {}) =>
  benchRunRequest({
    endpoint,
    model: "openai/gpt-oss-120b",
    outDir: out,
    items: "all",
    concurrency: 1,
    bfclDataDir: sub,
    manifest: manifest.value,
    ...extra,
  });

const rows = [];
// warm-up (JIT, caches), then measured runs
for (let round = 0; round < 3; round++) {
  const srv = await startReplayServer(recording);
  const out = join(tmp, `overhead-${round}`);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const doc = await runModel(request(srv.url, out));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await srv.close();
  if (!doc.ok) throw new Error("run failed");
  let responderMs = 0;
  const respond = replayResponder(recording);
  const timed = (body, id) => {
    const t = performance.now();
    const a = respond(body, id);
    responderMs += performance.now() - t;
    return a;
  };
  const t1 = performance.now();
  const inproc = await runModel(
    request("in-process", join(tmp, `inproc-${round}`), { chat: inProcessEndpoint(timed, "openai/gpt-oss-120b") }),
  );
  const wallIn = performance.now() - t1;
  if (!inproc.ok) throw new Error("in-process run failed");
  rows.push({
    round,
    items: doc.value.selected,
    requests: doc.value.requests,
    httpWallMs: wall,
    serverBusyMs: srv.stats.busyMs,
    overheadPerStepMs: (wall - srv.stats.busyMs) / doc.value.requests,
    processCpuPerStepMs: (cpu.user + cpu.system) / 1000 / doc.value.requests,
    inProcessPerStepMs: (wallIn - responderMs) / inproc.value.requests,
  });
}
const best = rows.slice(1).reduce((a, b) => (b.overheadPerStepMs < a.overheadPerStepMs ? b : a));
console.log(`## overhead (${best.items} entries, ${best.requests} requests, concurrency 1, best of ${rows.length - 1} after a warm-up)`);
console.log(
  `harness over HTTP: ${best.overheadPerStepMs.toFixed(2)} ms per step (wall ${best.httpWallMs.toFixed(0)} ms − server busy ${best.serverBusyMs.toFixed(0)} ms); process CPU incl. server ${best.processCpuPerStepMs.toFixed(2)} ms per step`,
);
console.log(
  `loop with the replay in-process (no HTTP, no client): ${best.inProcessPerStepMs.toFixed(2)} ms per step (replay's own time excluded)`,
);

console.log(`\n## throughput against a replay adding 50 ms per request (${best.items} entries)`);
console.log("| concurrency | wall s | items/s | requests/s |\n|---|---|---|---|");
for (const concurrency of [1, 8, 32]) {
  const srv = await startReplayServer(recording, { delayMs: 50 });
  const t0 = performance.now();
  const doc = await runModel(request(srv.url, join(tmp, `tp-${concurrency}`), { concurrency }));
  const s = (performance.now() - t0) / 1000;
  await srv.close();
  if (!doc.ok) throw new Error("run failed");
  console.log(`| ${concurrency} | ${s.toFixed(1)} | ${(doc.value.selected / s).toFixed(2)} | ${(doc.value.requests / s).toFixed(1)} |`);
}

console.log("\n## requests and tokens saved by --until-anchor, counted on the recordings");
console.log(
  "| run | model | items | requests | with --until-anchor | saved | tokens (in+out) | with --until-anchor | saved |\n|---|---|---|---|---|---|---|---|---|",
);
for (const run of readdirSync(runsDir).sort()) {
  for (const model of readdirSync(join(runsDir, run, "result")).sort()) {
    const lines = new Map();
    for (const c of categories) {
      for (const l of readFileSync(join(runsDir, run, "result", model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "utf8").split(
        "\n",
      )) {
        if (l.trim() === "") continue;
        const v = JSON.parse(l);
        lines.set(v.id, v);
      }
    }
    for (const items of ["pairs", "all-pairs"]) {
      const sel = selectItems(items, manifest.value.pairs, [...lines.keys()]);
      let req = 0,
        reqCut = 0,
        tok = 0,
        tokCut = 0,
        measured = 0;
      for (const id of sel.ids) {
        const v = lines.get(id);
        if (!v || !Array.isArray(v.result)) continue; // error lines hold no steps
        measured++;
        const last = sel.lastTurn.get(id) ?? Infinity;
        v.input_token_count.forEach((turn, t) =>
          turn.forEach((n, k) => {
            const both = n + v.output_token_count[t][k];
            req++;
            tok += both;
            if (t <= last) {
              reqCut++;
              tokCut += both;
            }
          }),
        );
      }
      const pct = (a, b) => `${(100 * (1 - b / a)).toFixed(1)} %`;
      console.log(
        `| ${run} | ${model} | ${items}: ${measured} | ${req} | ${reqCut} | ${pct(req, reqCut)} | ${tok} | ${tokCut} | ${pct(tok, tokCut)} |`,
      );
    }
  }
}
rmSync(tmp, { recursive: true, force: true });
