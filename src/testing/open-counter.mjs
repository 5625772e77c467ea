// Loaded with `node --import` into a command under test: counts how many times each file is
// opened for reading (fs.openSync, fs.readFileSync and their promise forms) and, as the
// process exits, appends one JSON line {path: count} to $TWINSCORE_OPEN_LOG. A process the
// command spawns inherits NODE_OPTIONS and logs its own line; a worker thread (which node
// preloads this into too) logs each open as it happens, since a worker that is terminated
// gets no exit event.
import fs from "node:fs";
import { isMainThread } from "node:worker_threads";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";

const log = process.env.TWINSCORE_OPEN_LOG;
if (log) {
  const counts = new Map();
  const count = (path) => {
    if (typeof path === "string" || path instanceof URL) {
      const p = resolve(String(path instanceof URL ? path.pathname : path));
      if (isMainThread) counts.set(p, (counts.get(p) ?? 0) + 1);
      else fs.appendFileSync(log, JSON.stringify({ [p]: 1 }) + "\n");
    }
  };
  const reading = (flags) => flags === undefined || flags === "r" || flags === fs.constants.O_RDONLY;
  // readFileSync opens through fs.openSync on some paths and not on others: one open, counted once
  let inside = 0;
  const wrap = (target, name, isRead) => {
    const original = target[name];
    target[name] = function (path, ...rest) {
      if (inside === 0 && isRead(rest)) count(path);
      inside++;
      try {
        return original.call(this, path, ...rest);
      } finally {
        inside--;
      }
    };
  };
  wrap(fs, "openSync", (rest) => reading(rest[0]));
  wrap(fs, "readFileSync", (rest) => typeof rest[0] !== "object" || rest[0] === null || rest[0].flag === undefined || rest[0].flag === "r");
  wrap(fs, "createReadStream", () => true);
  wrap(fs.promises, "readFile", () => true);
  wrap(fs.promises, "open", (rest) => reading(rest[0]));
  syncBuiltinESMExports();
  process.on("exit", () => {
    fs.appendFileSync(log, JSON.stringify(Object.fromEntries(counts)) + "\n");
  });
}
