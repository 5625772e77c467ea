// What Node alone costs for the work of bench/yardstick.py, for bench/node-floor.mjs:
//   node bench/floor.cjs read    MODEL_DIR  reads the three result files in 64 KB pieces and
//                                            counts lines with the native newline search
//   node bench/floor.cjs results MODEL_DIR  the least any scorer must do: the same reading, and
//                                            for each line the `result` field (the recorded
//                                            calls), found by native search and JSON.parsed.
//                                            No id check, no data check, no call decoding, no
//                                            scoring, no output: a floor, not a scorer
//   node bench/floor.cjs parse   MODEL_DIR  what the yardstick does: reads each file, JSON.parse
//                                            on every non-blank line
// CommonJS on purpose: Node's ES module loader would add its own start-up.
"use strict";
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { forEachLine, resultField } = require("./lines.cjs");

const [mode, model] = process.argv.slice(2);
if (!["read", "results", "parse"].includes(mode) || model === undefined) {
  process.stderr.write("usage: node bench/floor.cjs read|results|parse MODEL_DIR\n");
  process.exit(2);
}
const folder = join(model, "multi_turn");
let lines = 0;
let results = 0;

for (const category of ["base", "miss_func", "miss_param"]) {
  const file = join(
    folder,
    readdirSync(folder).find((f) => f.endsWith(`_multi_turn_${category}_result.json`)),
  );
  if (mode === "parse") {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() !== "") {
        JSON.parse(line);
        lines++;
      }
    }
  } else if (mode === "results") {
    forEachLine(file, (buf, start, end) => {
      lines++;
      if (Array.isArray(resultField(buf, start, end))) results++;
    });
  } else {
    forEachLine(file, () => lines++);
  }
}
console.log(mode === "results" ? `${lines} lines, ${results} results` : lines);
