// Benchmark of repeated trials with exact twins: Table 1's pairs (the 223 of BFCL v4) run
// K = 1, 3 and 5 times with --history reference by the sampling policy of
// src/testing/trial-policy.ts (acts on a base twin's anchor with p = 0.7, on a withheld
// one's with p = 0.4, a seeded coin per trial), behind a chat server on 127.0.0.1 that
// waits 50 ms before each answer, at --concurrency 8; each trial its own run folder,
// scored together with `score --trials-of`. Per K: the requests sent and the wall time of
// the K runs, the decision (mean over trials), its two-level 95% interval (base twins,
// then each pair's trials; 10,000 resamples) and its width, the mean flip rate and the
// trial-to-trial spread.
// Usage: npm run build && npm run build:testing && node bench/run-trials.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchInputs, benchRunRequest } from "./run-common.mjs";
import { runModel } from "../dist/app/run/index.js";
import { scoreRuns } from "../dist/app/score.js";
import { scriptedResponder, startPolicyServer } from "../dist-testing/testing/policies.js";
import { trialPolicyScript } from "../dist-testing/testing/trial-policy.js";

const policy = { seed: 17, pBase: 0.7, pMiss: 0.4 };
const { dataDir, delayMs, concurrency, manifest, references, paramNames, pairs } = benchInputs();

const tmp = mkdtempSync(join(tmpdir(), "twinscore-bench-trials-"));
/** One trial's run: its model folder, requests and wall seconds. */
async function trialRun(trial) {
  const script = trialPolicyScript(references.value, manifest.value.pairs, { ...policy, trial });
  const srv = await startPolicyServer(scriptedResponder(script, { paramNames }), { delayMs });
  const out = join(tmp, `trial-${trial}`);
  const t0 = performance.now();
  const doc = await runModel(
    benchRunRequest({
      endpoint: srv.url,
      model: "scripted/policy",
      outDir: out,
      concurrency,
      bfclDataDir: dataDir,
      manifest: manifest.value,
      history: "reference",
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  await srv.close();
  if (!doc.ok) throw new Error(`trial ${trial}: ${doc.problems.map((p) => p.message).join("; ")}`);
  if (doc.value.errors.length > 0) throw new Error(`trial ${trial}: error lines`);
  return { folder: join(out, "scripted_policy"), requests: doc.value.requests, wall };
}

const runs = [];
for (let trial = 0; trial < 5; trial++) runs.push(await trialRun(trial));
const rows = [];
for (const k of [1, 3, 5]) {
  const used = runs.slice(0, k);
  const doc = await scoreRuns({
    results: [],
    trialsOf: used.map((r) => r.folder),
    bootstrap: { resamples: 10000, seed: 20260612 },
    cwd: "/",
    env: {},
  });
  const t = doc.trials;
  if (t === null) throw new Error(`K=${k}: ${doc.problems.map((p) => p.message).join("; ")}`);
  rows.push({ k, requests: used.reduce((a, r) => a + r.requests, 0), wall: used.reduce((a, r) => a + r.wall, 0), t });
}
rmSync(tmp, { recursive: true, force: true });

const f1 = (x) => (x === null ? "" : x.toFixed(1));
console.log(
  `## repeated trials with exact twins: Table 1's ${pairs} pairs, p = ${policy.pBase} / ${policy.pMiss}, concurrency ${concurrency}, ${delayMs} ms per request`,
);
console.log(
  "| K | requests | requests / pair | wall s | act | hold | decision | 95% CI (two-level) | width | flip % | stable % | spread |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const { k, requests, wall, t } of rows) {
  console.log(
    `| ${k} | ${requests} | ${(requests / pairs).toFixed(2)} | ${wall.toFixed(1)} | ${f1(t.act)} | ${f1(t.hold)} | ${f1(t.decision)} | [${f1(t.ci95[0])}, ${f1(t.ci95[1])}] | ${(t.ci95[1] - t.ci95[0]).toFixed(2)} | ${f1(t.meanFlipRate)} | ${f1(t.stableShare)} | ${f1(t.decisionSpread)} |`,
  );
}
