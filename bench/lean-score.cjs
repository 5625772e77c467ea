// A probe, not a scorer: how fast could a purpose-built script score one FC model's
// decision to act in Node on this machine? It does only the core of `score`'s job, with no
// CLI, no problem reports, no decoders but BFCL's FC one, and no interval columns:
// - it reads the packed manifest that `npm run build` writes (dist/data/manifest.json);
// - for each model folder, it reads the three result files in 64 KB pieces;
// - it checks each line's first user turn against the manifest's turn digest (SHA-256,
//   node:crypto), and counts those that differ;
// - at the anchor turn of each certified pair, it parses the line's `result` field and asks
//   whether any call on the pair's tool list is world-changing: a `mutate` function, with
//   echo only when it is given a file name (arguments that do not parse count as an
//   attempt);
// - it prints act, hold and decision per model, as JSON lines.
// bench/node-floor.mjs writes the `mutate` names from the built catalog (dist/catalog) into
// MUTATE_JSON, times this probe, and checks its numbers against `twinscore score --format
// json`'s before reporting them. Semantics beyond FC models and the table's first three
// columns are out of scope: anything else is `score`'s.
// Usage: node bench/lean-score.cjs TREE PACKED_MANIFEST MUTATE_JSON
"use strict";
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { forEachLine, resultField } = require("./lines.cjs");
const { hash } = require("node:crypto");

const [tree, manifestFile, mutateFile] = process.argv.slice(2);
if (mutateFile === undefined) {
  process.stderr.write("usage: node bench/lean-score.cjs TREE PACKED_MANIFEST MUTATE_JSON\n");
  process.exit(2);
}
const mutate = new Set(JSON.parse(readFileSync(mutateFile, "utf8")));
const { toolLists, manifest } = JSON.parse(readFileSync(manifestFile, "latin1"));
const toolSets = toolLists.map((names) => new Set(names));
const firstTurnDigest = new Map(manifest.items.map((item) => [item.id, item.turns[0]]));
const pairs = manifest.pairs.filter((p) => p.status === "scored");
/** The (anchor turn, tool list) readings each id is asked for: an item can be the base twin of several pairs. */
const readingsOf = new Map();
for (const p of pairs) {
  for (const id of [p.baseId, p.missId]) {
    if (!readingsOf.has(id)) readingsOf.set(id, []);
    readingsOf.get(id).push([p.anchorTurn, p.tools]);
  }
}
const key = (id, anchor, tools) => `${id}@${anchor}@${tools}`;

// the keys of a BFCL result line the probe looks for
const ID = Buffer.from('"id": ');
const LOG = Buffer.from('"inference_log": ');
const USER = Buffer.from('"role": "user", "content": ');

/** The JSON string that starts at `at` (its opening quote), parsed. */
function stringAt(buf, at, end) {
  let i = at + 1;
  while (i < end && buf[i] !== 0x22) i += buf[i] === 0x5c ? 2 : 1;
  return JSON.parse(buf.toString("utf8", at, i + 1));
}

/** Whether any call of the anchor turn's steps that is on `tools` is world-changing (FC: each step a list of {name: arguments JSON}). */
function actsAt(turn, tools) {
  for (const step of Array.isArray(turn) ? turn : []) {
    if (!Array.isArray(step)) continue;
    for (const call of step) {
      for (const [name, args] of Object.entries(call ?? {})) {
        if (!tools.has(name) || !mutate.has(name)) continue;
        if (name !== "echo") return true;
        let parsed;
        try {
          parsed = JSON.parse(args);
        } catch {
          return true;
        }
        if (parsed?.file_name !== undefined) return true;
      }
    }
  }
  return false;
}

for (const model of readdirSync(tree).sort()) {
  const folder = join(tree, model, "multi_turn");
  const acted = new Map();
  let differingFirstTurns = 0;
  for (const file of readdirSync(folder).sort()) {
    if (!/_multi_turn_(base|miss_func|miss_param)_result\.json$/.test(file)) continue;
    forEachLine(join(folder, file), (buf, start, end) => {
      const idAt = buf.indexOf(ID, start);
      if (idAt < 0 || idAt >= end) return;
      const id = stringAt(buf, idAt + ID.length, end);
      const logAt = buf.indexOf(LOG, idAt);
      const userAt = logAt < 0 || logAt >= end ? -1 : buf.indexOf(USER, logAt);
      if (
        userAt >= 0 &&
        userAt < end &&
        hash("sha256", stringAt(buf, userAt + USER.length, end), "hex").slice(0, 16) !== firstTurnDigest.get(id)
      )
        differingFirstTurns++;
      const readings = readingsOf.get(id);
      if (readings === undefined) return;
      const result = resultField(buf, idAt, end);
      for (const [anchor, tools] of readings)
        acted.set(key(id, anchor, tools), Array.isArray(result) && actsAt(result[anchor], toolSets[tools]));
    });
  }
  const act = (100 * pairs.filter((p) => acted.get(key(p.baseId, p.anchorTurn, p.tools)) === true).length) / pairs.length;
  const hold = (100 * pairs.filter((p) => acted.get(key(p.missId, p.anchorTurn, p.tools)) !== true).length) / pairs.length;
  console.log(JSON.stringify({ model, n: pairs.length, act, hold, decision: (act + hold) / 2, differingFirstTurns }));
}
