// What the bench's bare Node scripts (floor.cjs, lean-score.cjs) share: the line reader, the
// way the bin reads a result file (one 64 KB buffer, grown for a longer line, and the native
// newline search, without the bin's checks), and the parse of a line's `result` field.
// CommonJS, like the scripts that require it.
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

// BFCL writes each line as {"id": ..., "result": [...], "input_token_count": ..., ..., "inference_log": [...]}
const RESULT = Buffer.from('"result": ');
const AFTER_RESULT = Buffer.from(', "input_token_count": ');

/** The `result` field of the line at [from, end) (found by native search, then JSON.parsed), or null when the line has none (an inference error). */
function resultField(buf, from, end) {
  const at = buf.indexOf(RESULT, from);
  if (at < 0 || at >= end) return null;
  const to = buf.indexOf(AFTER_RESULT, at);
  return to < 0 || to >= end ? null : JSON.parse(buf.toString("utf8", at + RESULT.length, to));
}

module.exports = { forEachLine, resultField };
