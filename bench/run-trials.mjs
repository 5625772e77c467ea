// Benchmark of repeated trials with exact twins: Table 1's pairs (the 223 of BFCL v4) run
// as one `run --trials K --history reference` folder for K = 1, 3 and 5, by the sampling
// policy of src/testing/trial-policy.ts (acts on a base twin's anchor with p = 0.7, on a
// withheld one's with p = 0.4, a seeded coin per trial), behind a chat server on 127.0.0.1
// that tells the trials apart by the seed each request carries (`--seed S`: trial t sends
// S + t) and waits 50 ms before each answer, at --concurrency 8. Each folder is scored as
// its K trials (`score --trials-of FOLDER`). Per K: the requests sent and the run's wall
// time, the decision (mean over trials), its two-level 95% interval (base twins, then each
// pair's trials; 10,000 resamples) and its width, the mean flip rate and the trial-to-trial
// spread.
// Usage: npm run build && npm run build:testing && node bench/run-trials.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchInputs, benchRun } from "./run-common.mjs";
import { scoreRuns } from "../dist/app/score.js";
import { scriptedResponder } from "../dist-testing/testing/policies.js";
import { trialPolicyBySeed } from "../dist-testing/testing/trial-policy.js";

const policy = { seed: 17, pBase: 0.7, pMiss: 0.4 };
const runSeed = 100;
const inputs = benchInputs();
const { delayMs, concurrency, manifest, references, paramNames, pairs } = inputs;

const tmp = mkdtempSync(join(tmpdir(), "twinscore-bench-trials-"));
const rows = [];
for (const k of [1, 3, 5]) {
  const respond = trialPolicyBySeed(references.value, manifest.value.pairs, policy, { seed: runSeed, trials: k }, (script) =>
    scriptedResponder(script, { paramNames }),
  );
  const out = join(tmp, `k${k}`);
  const { doc, wall } = await benchRun(`K=${k}`, inputs, respond, { outDir: out, history: "reference", trials: k, seed: runSeed });
  const scored = await scoreRuns({
    results: [],
    trialsOf: [join(out, "scripted_policy")],
    bootstrap: { resamples: 10000, seed: 20260612 },
    cwd: "/",
    env: {},
  });
  const t = scored.trials;
  if (t === null) throw new Error(`K=${k}: ${scored.problems.map((p) => p.message).join("; ")}`);
  if (t.trials !== k) throw new Error(`K=${k}: the folder scored as ${t.trials} trials`);
  rows.push({ k, requests: doc.requests, wall, t });
}
rmSync(tmp, { recursive: true, force: true });

const f1 = (x) => (x === null ? "" : x.toFixed(1));
console.log(
  `## repeated trials with exact twins, one run --trials K folder each: Table 1's ${pairs} pairs, p = ${policy.pBase} / ${policy.pMiss}, concurrency ${concurrency}, ${delayMs} ms per request`,
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
