// Benchmark of call extraction and the Python expression parser.
// Reads the 12 real gpt-oss result files (../shared/rollouts/gpt-oss, both runs, both
// models, base/miss_func/miss_param) and the BFCL v4 ground truth, then times:
//   - extractTurn over every recorded turn (all shapes present: FC string records, empty
//     steps, leaked-token names, bad-JSON decode failures),
//   - the same restricted to one turn per line (what the scorer reads: the anchor turn),
//   - listCallNames, and the keyword lists read afterwards (the lazy part),
//   - parseExpression over all 4,625 ground-truth call strings,
//   - decodePythonText over the gold-derived turn texts `[f(a=1), g(b='x')]`.
// Usage: npm run build && node bench/extract.mjs [repeats=5]
// JSON.parse of the files is not timed (the scorer slices `result` itself).
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { extractTurn, listCallNames, decodePythonText } from "../dist/extract/index.js";
import { parseExpression } from "../dist/python/parse.js";

const here = dirname(fileURLToPath(import.meta.url));
const shared = process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared");
const repeats = Number(process.argv[2] ?? 5);
const lines = (p) =>
  readFileSync(p, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));

const docs = {
  GorillaFileSystem: "gorilla_file_system.json",
  MathAPI: "math_api.json",
  MessageAPI: "message_api.json",
  TwitterAPI: "posting_api.json",
  TicketAPI: "ticket_api.json",
  TradingBot: "trading_bot.json",
  TravelAPI: "travel_booking.json",
  VehicleControlAPI: "vehicle_control.json",
};
const data = join(shared, "bfcl-v4");
const names = Object.fromEntries(Object.entries(docs).map(([c, f]) => [c, lines(join(data, "multi_turn_func_doc", f)).map((d) => d.name)]));
const tools = new Map();
for (const cat of ["base", "miss_func", "miss_param", "long_context"]) {
  for (const q of lines(join(data, `BFCL_v4_multi_turn_${cat}.json`)))
    tools.set(q.id, new Set(q.involved_classes.flatMap((c) => names[c])));
}

const turns = [];
const anchorLike = [];
const runsDir = join(shared, "rollouts", "gpt-oss");
for (const run of readdirSync(runsDir).sort()) {
  for (const model of readdirSync(join(runsDir, run, "result")).sort()) {
    const dir = join(runsDir, run, "result", model, "multi_turn");
    for (const f of readdirSync(dir).sort()) {
      for (const l of lines(join(dir, f))) {
        if (!Array.isArray(l.result)) continue;
        const t = tools.get(l.id);
        l.result.forEach((steps) => turns.push([steps, t]));
        anchorLike.push([l.result[Math.min(1, l.result.length - 1)], t]);
      }
    }
  }
}
const steps = turns.reduce((n, [s]) => n + s.length, 0);

/** Best of `repeats` runs; CPU time of this process is reported beside wall time because a shared machine inflates wall time. */
function time(label, unit, count, fn) {
  fn(); // warm-up
  let best = Infinity;
  let bestCpu = Infinity;
  for (let r = 0; r < repeats; r++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1000);
  }
  console.log(
    `${label}: ${bestCpu.toFixed(1)} ms CPU (${best.toFixed(1)} ms wall) for ${count} ${unit} (${((bestCpu * 1000) / count).toFixed(2)} µs CPU each)`,
  );
  return bestCpu;
}

let sink = 0;
time("extractTurn, every turn", "turns", turns.length, () => {
  for (const [s, t] of turns) sink += extractTurn(s, t).calls.length;
});
time("extractTurn + read every keyword list", "turns", turns.length, () => {
  for (const [s, t] of turns) for (const c of extractTurn(s, t).calls) sink += c.keywords.length;
});
time("listCallNames, every turn", "turns", turns.length, () => {
  for (const [s, t] of turns) sink += listCallNames(s, t).length;
});
const anchorMs = time("extractTurn, one turn per line (anchor-like)", "turns", anchorLike.length, () => {
  for (const [s, t] of anchorLike) sink += extractTurn(s, t).calls.length;
});
console.log(`  → 50 models × 2 twins × 223 pairs = 22,300 anchor turns ≈ ${((anchorMs / anchorLike.length) * 22300).toFixed(1)} ms`);

const gold = [];
const goldTurns = [];
for (const cat of ["base", "long_context", "miss_func", "miss_param"]) {
  for (const e of lines(join(data, "possible_answer", `BFCL_v4_multi_turn_${cat}.json`))) {
    for (const turn of e.ground_truth) {
      gold.push(...turn);
      goldTurns.push(`[${turn.join(", ")}]`);
    }
  }
}
time("parseExpression, ground-truth call strings", "strings", gold.length, () => {
  for (const s of gold) sink += parseExpression(s).ok ? 1 : 0;
});
time("decodePythonText, gold-derived turn texts", "texts", goldTurns.length, () => {
  for (const s of goldTurns) sink += decodePythonText(s).calls.length;
});
const big = "[" + Array.from({ length: 100000 }, (_, i) => `f${i}(a=${i}, b='x${i}', c=[1, 2.5, None])`).join(", ") + "]";
time(`parseExpression, one ${(big.length / 1e6).toFixed(1)} MB call list`, "calls", 100000, () => {
  sink += parseExpression(big).ok ? 1 : 0;
});
console.log(`(${turns.length} turns, ${steps} steps; checksum ${sink})`);
