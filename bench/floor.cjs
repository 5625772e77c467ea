// What Node alone costs for the work of bench/yardstick.py, for bench/node-floor.mjs:
//   node bench/floor.cjs read  MODEL_DIR  reads the three result files in 64 KB pieces and
//                                          counts lines with the native newline search
//   node bench/floor.cjs parse MODEL_DIR  what the yardstick does: reads each file, JSON.parse
//                                          on every non-blank line
// CommonJS on purpose: Node's ES module loader would add its own start-up.
"use strict";
const { closeSync, openSync, readdirSync, readFileSync, readSync } = require("node:fs");
const { join } = require("node:path");

const [mode, model] = process.argv.slice(2);
const folder = join(model, "multi_turn");
let lines = 0;
for (const category of ["base", "miss_func", "miss_param"]) {
  const file = join(folder, readdirSync(folder).find((f) => f.endsWith(`_multi_turn_${category}_result.json`)));
  if (mode === "parse") {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() !== "") {
        JSON.parse(line);
        lines++;
      }
    }
  } else {
    const buf = Buffer.allocUnsafe(64 * 1024);
    const fd = openSync(file, "r");
    for (let got; (got = readSync(fd, buf, 0, buf.length, null)) > 0; ) {
      for (let i = buf.indexOf(10); i >= 0 && i < got; i = buf.indexOf(10, i + 1)) lines++;
    }
    closeSync(fd);
  }
}
console.log(lines);
