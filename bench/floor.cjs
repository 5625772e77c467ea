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
const { closeSync, openSync, readdirSync, readFileSync, readSync } = require("node:fs");
const { join } = require("node:path");

const [mode, model] = process.argv.slice(2);
if (!["read", "results", "parse"].includes(mode) || model === undefined) {
  process.stderr.write("usage: node bench/floor.cjs read|results|parse MODEL_DIR\n");
  process.exit(2);
}
const folder = join(model, "multi_turn");
// BFCL writes each line as {"id": ..., "result": [...], "input_token_count": ..., "inference_log": ...}
const RESULT = Buffer.from('"result": ');
const AFTER_RESULT = Buffer.from(', "input_token_count": ');
let lines = 0;
let results = 0;

/** Each line of `file` as (buffer, start, end), read in 64 KB pieces into one buffer (grown for a longer line). */
function forEachLine(file, onLine) {
  let buf = Buffer.allocUnsafe(64 * 1024);
  const fd = openSync(file, "r");
  let filled = 0;
  for (;;) {
    if (filled === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
    const got = readSync(fd, buf, filled, buf.length - filled, null);
    const end = filled + got;
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl >= 0 && nl < end; nl = buf.indexOf(10, start)) {
      onLine(buf, start, nl);
      start = nl + 1;
    }
    if (got === 0) {
      if (start < end) onLine(buf, start, end);
      break;
    }
    buf.copy(buf, 0, start, end);
    filled = end - start;
  }
  closeSync(fd);
}

for (const category of ["base", "miss_func", "miss_param"]) {
  const file = join(folder, readdirSync(folder).find((f) => f.endsWith(`_multi_turn_${category}_result.json`)));
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
      const from = buf.indexOf(RESULT, start);
      if (from < 0 || from >= end) return;
      const to = buf.indexOf(AFTER_RESULT, from);
      if (to < 0 || to >= end) return;
      const result = JSON.parse(buf.toString("utf8", from + RESULT.length, to));
      if (Array.isArray(result)) results++;
    });
  } else {
    forEachLine(file, () => lines++);
  }
}
console.log(mode === "results" ? `${lines} lines, ${results} results` : lines);
