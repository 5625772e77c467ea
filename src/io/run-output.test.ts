/**
 * The result files of `run` on disk: the index a resume reads (no whole-file string), a
 * line appended whole or not at all (a full disk injected through the write call), the
 * final rewrite from what is on disk, and the lock of a result folder.
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareIds } from "../rollout/lines.js";
import {
  acquireRunLock,
  appendLine,
  LOCK_FILE_NAME,
  openResultFile,
  rewriteSorted,
  scanResultFile,
  type ResultFileOps,
} from "./run-output.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-output-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const file = (text: string) => {
  const f = join(tmp, `${++n}.json`);
  writeFileSync(f, text);
  return f;
};
const line = (i: number, result = "[[]]") => `{"id": "multi_turn_base_${i}", "result": ${result}}\n`;

/** A write call that fails with ENOSPC on its `failAt`-th use, after writing part of what it was given. */
function fullDiskAt(failAt: number): ResultFileOps & { calls: number } {
  const ops = {
    calls: 0,
    writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number {
      ops.calls++;
      if (ops.calls === failAt) {
        writeSync(fd, bytes, offset, Math.max(1, Math.floor(length / 2)));
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
      }
      return writeSync(fd, bytes, offset, length);
    },
  };
  return ops;
}

describe("the index of a result file", () => {
  it("knows each line's id, kind and bytes; keeps lines that are not result lines; a torn tail is cut on open", () => {
    const bom = `\uFEFF${line(5)}`;
    const text = `${line(2)}\n# a note\n${line(1, '"Error during inference: Connection error."')}${bom}{"id": "multi_turn_base_3", "result": [[NaN]]}\r\n{"id": "multi_turn_base_9", "res`;
    const f = file(text);
    const index = scanResultFile(f);
    expect(
      index.lines.map((l) => (l.reading.kind === "result" ? `${l.reading.id}${l.reading.isError ? "!" : ""}` : `other@${l.lineNo}`)),
    ).toEqual(["multi_turn_base_2", "other@3", "multi_turn_base_1!", "multi_turn_base_5", "multi_turn_base_3"]);
    expect(index.torn).toBe(true);
    const bytes = readFileSync(f);
    for (const l of index.lines)
      expect(
        bytes
          .subarray(l.offset, l.offset + l.length)
          .toString("utf8")
          .endsWith("\n"),
      ).toBe(true);
    const opened = openResultFile(f);
    expect(opened.ok && opened.value.torn).toBe(false);
    expect(readFileSync(f, "utf8")).toBe(text.slice(0, text.lastIndexOf("\n") + 1));
  });
});

describe("appending a line", () => {
  it("a write that fails part-way (a full disk) leaves no torn line: the file is cut back, and the problem names it", () => {
    const f = file(line(1));
    const ops = fullDiskAt(1);
    const out = appendLine(f, line(2, `[["${"x".repeat(10_000)}"]]`), ops);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problems[0]).toMatchObject({ code: "write-failed", file: f });
    expect(out.problems[0].message).toContain("no space left on the device (ENOSPC)");
    expect(readFileSync(f, "utf8")).toBe(line(1));
    expect(appendLine(f, line(3)).ok).toBe(true);
    expect(readFileSync(f, "utf8")).toBe(line(1) + line(3));
  });
});

describe("the final rewrite", () => {
  it("sorts what is on disk now, last line of an id winning, lines without an id kept after, byte for byte", () => {
    const note = "# written by hand\n";
    const f = file(line(10) + line(2, '"Error during inference: x"') + note + line(1) + line(2));
    const out = rewriteSorted(f, compareIds);
    expect(out.ok && out.value).toEqual({ lines: 4, errors: 0 });
    expect(readFileSync(f, "utf8")).toBe(line(1) + line(2) + line(10) + note);
    expect(readdirSync(tmp).filter((x) => x.endsWith(".tmp"))).toEqual([]);
  });

  it("keeps a reference-history base item's lines apart by anchor: each anchor's last line wins, in id then anchor order; a line too long to parse is keyed by its tail", () => {
    const ref = (i: number, anchor: number, result = "[[]]", pad = "") =>
      `{"id": "multi_turn_base_${i}", "result": ${result}${pad}, "twinscore_history": "reference", "twinscore_played_turns": [${Array.from({ length: anchor }, (_, t) => t).join(", ")}]}\n`;
    const long = `, "inference_log": ["${"x".repeat(17 * 1024 * 1024)}"]`;
    const f = file(ref(5, 3, '"Error during inference: x"') + ref(5, 2) + ref(1, 0) + ref(5, 3) + ref(7, 1, "[[]]", long));
    const index = scanResultFile(f);
    expect([...index.byKey.keys()]).toEqual(["multi_turn_base_5@3", "multi_turn_base_5@2", "multi_turn_base_1@0", "multi_turn_base_7@1"]);
    const out = rewriteSorted(f, compareIds);
    expect(out.ok && out.value).toEqual({ lines: 4, errors: 0 });
    expect(readFileSync(f, "utf8")).toBe(ref(1, 0) + ref(5, 2) + ref(5, 3) + ref(7, 1, "[[]]", long));
  });

  it("a full disk during the rewrite leaves the file as it was and no temporary file", () => {
    const text = line(3) + line(1) + line(2);
    const f = file(text);
    const out = rewriteSorted(f, compareIds, fullDiskAt(2));
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problems[0].file).toBe(f);
    expect(out.problems[0].message).toContain("no space left on the device (ENOSPC); the file is as it was");
    expect(readFileSync(f, "utf8")).toBe(text);
    expect(readdirSync(tmp).filter((x) => x.endsWith(".tmp"))).toEqual([]);
  });
});

describe("the lock of a result folder", () => {
  it("a second holder is refused with the first's pid, host and start time; after release it is free again", () => {
    const dir = join(tmp, "locked");
    const first = acquireRunLock(dir);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const second = acquireRunLock(dir);
    expect(second.ok).toBe(false);
    if (second.ok) return;
    const p = second.problems[0];
    expect(p.code).toBe("output-locked");
    expect(p.file).toBe(join(dir, LOCK_FILE_NAME));
    expect(p.message).toMatch(
      new RegExp(`^another twinscore run is writing this folder: pid ${process.pid} on ${hostname()}, started \\d{4}-\\d\\d-\\d\\dT`),
    );
    first.value.lock.release();
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
    const third = acquireRunLock(dir);
    expect(third.ok && third.value.staleFrom).toBeNull();
    if (third.ok) third.value.lock.release();
  });

  it("a lock left by a process that is gone is taken over and named; one that says nothing is refused", () => {
    const dir = join(tmp, "stale");
    mkdirSync(dir, { recursive: true });
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ pid: gone, host: hostname(), started: "2020-01-01T00:00:00.000Z" }));
    const taken = acquireRunLock(dir);
    expect(taken.ok && taken.value.staleFrom).toEqual({ pid: gone, host: hostname(), started: "2020-01-01T00:00:00.000Z" });
    if (taken.ok) taken.value.lock.release();
    const fd = openSync(join(dir, LOCK_FILE_NAME), "w");
    closeSync(fd);
    const garbage = acquireRunLock(dir);
    expect(garbage.ok === false && garbage.problems[0].code).toBe("output-locked");
  });
});
