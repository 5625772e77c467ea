// What interactive mode (`run --user-sim llm`) costs next to a plain run, on the 223 scored
// pairs (374 items of `--items pairs`), with scripted models and the stub simulated user
// of the tests (in process, no sockets, so the numbers are the harness's and the counts):
//   per pair — model requests, simulator requests, and the simulator's request size
//              (characters of its messages: the prompt, the withheld facts, the model's
//              reply), plain vs interactive, for three policies: the asking oracle (asks
//              on T, then makes the reference calls), the guesser (acts on T with the base
//              twin's calls) and the confirming model (asks on T, confirms once on T+1);
//   time     — wall time of the whole run, plain vs interactive (best of 2).
// Token counts of scripted endpoints are word counts, so they are not reported; the
// characters of what the simulator is sent are real (a tokenizer makes them ~4× fewer).
// Usage: npm run build && npm run build:testing && node bench/run-interactive.mjs
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { benchRunRequest } from "./run-common.mjs";
import { loadRunEntries, runModel } from "../dist/app/run/index.js";
import { readCategoryInputs } from "../dist/app/bfcl-inputs.js";
import { loadManifest } from "../dist/io/manifest.js";
import { parseUserSimPrompt } from "../dist/rollout/user-sim.js";
import { newEvaluatorProcess } from "../dist/simulator/runtime.js";
import { inProcessEndpoint } from "../dist-testing/testing/replay.js";
import {
  askingOracle,
  confirmingPolicy,
  expectedFacts,
  guessingPolicy,
  inProcessUserSim,
  paramNamesOf,
  policyResponder,
  userSimStub,
} from "../dist-testing/testing/interactive.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const shared = process.env.TWINSCORE_SHARED ?? resolve(root, "..", "shared");
const dataDir = join(shared, "bfcl-v4");
const manifest = loadManifest();
if (!manifest.ok) throw new Error("manifest");
const pairs = manifest.value.pairs;
const entries = loadRunEntries(dataDir);
if (!entries.ok) throw new Error("BFCL data");
const groundTruth = new Map();
for (const c of ["base", "miss_func", "miss_param"]) {
  const r = readCategoryInputs(dataDir, "v4", c);
  if (!r.ok) throw new Error(c);
  for (const [id, gt] of r.value.groundTruth) groundTruth.set(id, gt);
}
const paramNames = paramNamesOf(entries.value, newEvaluatorProcess(undefined, true));
const facts = expectedFacts(pairs, entries.value);
const prompt = parseUserSimPrompt(readFileSync(join(root, "data", "user-sim-prompt.md"), "utf8"));
if (!prompt.ok) throw new Error(prompt.message);
const tmp = mkdtempSync(join(tmpdir(), "twinscore-bench-interactive-"));
const scoredPairs = pairs.filter((p) => p.status === "scored").length;

async function once(policy, interactive, tag) {
  const log = { asks: [], mismatches: [] };
  const stub = userSimStub(facts, log);
  let simChars = 0;
  const counted = (body, id) => {
    for (const m of body.messages ?? []) if (typeof m.content === "string") simChars += m.content.length;
    return stub(body, id);
  };
  const t0 = performance.now();
  const doc = await runModel(
    benchRunRequest({
      endpoint: "in-process",
      model: "scripted/policy",
      outDir: join(tmp, tag),
      bfclDataDir: dataDir,
      manifest: manifest.value,
      now: () => 0,
      chat: inProcessEndpoint(policyResponder(policy, { pairs, entries: entries.value, paramNames }), "scripted/policy"),
      userSim: interactive
        ? {
            endpoint: "in-process",
            model: "stub/user",
            apiKey: null,
            maxClarifications: 2,
            prompt: prompt.prompt,
            chat: inProcessUserSim(counted, "stub/user"),
          }
        : null,
    }),
  );
  const ms = performance.now() - t0;
  if (!doc.ok || doc.value.errors.length > 0 || log.mismatches.length > 0)
    throw new Error(`${tag}: ${JSON.stringify(doc.ok ? doc.value.errors.slice(0, 2) : doc.problems)} ${log.mismatches.slice(0, 2)}`);
  return { ms, requests: doc.value.requests, sim: doc.value.userSimulator?.requests ?? 0, simChars, items: doc.value.selected };
}

console.log(`## interactive mode vs a plain run: ${scoredPairs} scored pairs, --items pairs, concurrency 8, in process`);
console.log(
  "| policy | model requests per pair: plain → interactive | simulator requests per pair | simulator input per request (chars) | wall s: plain → interactive |\n|---|---|---|---|---|",
);
for (const [name, policy] of [
  ["asking oracle", askingOracle(groundTruth)],
  ["guesser", guessingPolicy(groundTruth)],
  ["confirms once on T+1", confirmingPolicy(groundTruth)],
]) {
  const best = async (interactive) => {
    const runs = [];
    for (let i = 0; i < 2; i++) runs.push(await once(policy, interactive, `${name}-${interactive}-${i}`.replace(/\W+/g, "_")));
    return runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  };
  const plain = await best(false);
  const inter = await best(true);
  const per = (n) => (n / scoredPairs).toFixed(2);
  console.log(
    `| ${name} | ${per(plain.requests)} → ${per(inter.requests)} | ${per(inter.sim)} | ${inter.sim ? Math.round(inter.simChars / inter.sim) : 0} | ${(plain.ms / 1000).toFixed(1)} → ${(inter.ms / 1000).toFixed(1)} |`,
  );
}
rmSync(tmp, { recursive: true, force: true });
