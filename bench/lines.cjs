// The line reader of the bench's bare Node scripts (floor.cjs, lean-score.cjs): the way the
// bin reads a result file, one 64 KB buffer (grown for a longer line) and the native
// newline search, without the bin's checks. CommonJS, like the scripts that require it.
"use strict";
const { closeSync, openSync, readSync } = require("node:fs");

/** Call onLine(buffer, start, end) for each line of `file` (without its newline); the buffer is valid during the call only. */
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

module.exports = { forEachLine };
