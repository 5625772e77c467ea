/**
 * `run`'s result files under stress, on a small BFCL data folder cut from the real one and
 * in-process endpoints: a resume over a file larger than any JavaScript string, a second
 * run on the same folder (refused by the lock) and a line another writer adds meanwhile
 * (kept by the final rewrite), lines resume must keep byte for byte, numbers JSON cannot
 * hold, and a disk that fills up mid-run.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../io/manifest.js";
import type { ResultFileOps } from "../io/run-output.js";
import { renderProblemLine } from "../messages/index.js";
import type { ChatEndpoint } from "../rollout/loop.js";
import { startHugeUsageServer } from "../testing/hostile-servers.js";
import { inProcessRun, serverPool, subsetBfclData } from "../testing/run-fixtures.js";
import { runModel, type RunRequest } from "./run/index.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-files-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
const categories = ["base", "miss_func", "miss_param"] as const;
const data = subsetBfclData(join(tmp, "bfcl-data"), categories, 5);
const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("the committed manifest does not load");
  return m.value;
})();

/** A model that answers every request with text and no call (each turn ends after one step). */
const textModel: ChatEndpoint = async () => ({
  ok: true,
  message: { role: "assistant", content: "Nothing to do." },
  usage: { prompt_tokens: 7, completion_tokens: 3 },
});

let n = 0;
function run(extra: Partial<RunRequest> & { outDir?: string } = {}): RunRequest {
  return inProcessRun({
    model: "files/test",
    outDir: extra.outDir ?? join(tmp, `out-${++n}`),
    items: "all",
    manifest,
    chat: textModel,
    bfclDataDir: data,
    concurrency: 2,
    ...extra,
  });
}
const resultFile = (out: string, c: (typeof categories)[number]) =>
  join(out, "files_test", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);
const ids = (c: string, xs: number[]) => xs.map((i) => `multi_turn_${c}_${i}`);

/** A write call that fails with ENOSPC from its `failAt`-th use on, after writing part of the first failed write. */
function fullDiskFrom(failAt: number): ResultFileOps {
  let calls = 0;
  return {
    writeSync(fd, bytes, offset, length) {
      calls++;
      if (calls >= failAt) {
        if (calls === failAt) writeSync(fd, bytes, offset, Math.max(1, Math.floor(length / 3)));
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
      return writeSync(fd, bytes, offset, length);
    },
  };
}

describe("resume over a file larger than any JavaScript string", () => {
  it("three 200 MB lines (sparse, 600 MB in all) are resumed by their ids and copied byte for byte by the final rewrite", async () => {
    const out = join(tmp, "huge");
    const file = resultFile(out, "base");
    mkdirSync(join(out, "files_test", "multi_turn"), { recursive: true });
    const LINE = 200 * 1024 * 1024;
    const fd = openSync(file, "w");
    const heads: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const head = `{"id": "multi_turn_base_${i}", "result": [["`;
      heads.push(head);
      writeSync(fd, head, (i - 1) * LINE);
      // the bytes between are a hole: zeros on reading, no disk used
      writeSync(fd, `"]]}\n`, i * LINE - 5);
    }
    closeSync(fd);
    expect(statSync(file).size).toBe(3 * LINE);
    const doc = await runModel(run({ outDir: out, onlyIds: ids("base", [0, 1, 2, 3]) }));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect([doc.value.generated, doc.value.resumed]).toEqual([1, 3]);
    const after = statSync(file).size;
    const fresh = after - 3 * LINE;
    expect(fresh).toBeGreaterThan(100);
    // the new line sorts first; each huge line follows whole, its head and tail where they belong
    const rd = openSync(file, "r");
    try {
      const at = (pos: number, len: number) => {
        const b = Buffer.alloc(len);
        readSync(rd, b, 0, len, pos);
        return b.toString("utf8");
      };
      expect(at(0, 30)).toBe('{"id": "multi_turn_base_0", "r');
      for (let i = 0; i < 3; i++) {
        expect(at(fresh + i * LINE, heads[i].length)).toBe(heads[i]);
        expect(at(fresh + (i + 1) * LINE - 5, 5)).toBe(`"]]}\n`);
        expect(at(fresh + i * LINE + 100_000, 4)).toBe("\0\0\0\0");
      }
    } finally {
      closeSync(rd);
    }
    expect(doc.value.files.find((f) => f.category === "base")).toMatchObject({ lines: 4, generated: 1, resumed: 3, errors: 0 });
  }, 60_000);
});

describe("two runs, one folder", () => {
  it("a second run on the same output is refused while the first holds it; a line another writer adds meanwhile survives the final rewrite", async () => {
    const out = join(tmp, "shared-out");
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let firstCall = true;
    const foreign = `{"id": "multi_turn_miss_param_4", "result": [["written by another writer"]]}\n`;
    const slow: ChatEndpoint = async (r) => {
      if (firstCall) {
        firstCall = false;
        // another writer (one that ignores the lock) appends a line the first run never generated
        mkdirSync(join(out, "files_test", "multi_turn"), { recursive: true });
        writeFileSync(resultFile(out, "miss_param"), foreign, { flag: "a" });
        await gate;
      }
      return textModel(r);
    };
    const first = runModel(run({ outDir: out, chat: slow, concurrency: 1, onlyIds: [...ids("base", [0, 1]), ...ids("miss_param", [0])] }));
    while (!existsSync(join(out, "files_test", ".twinscore-run.lock"))) await new Promise((r) => setTimeout(r, 5));
    const second = await runModel(run({ outDir: out, onlyIds: ids("base", [2]) }));
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(second.problems[0].code).toBe("output-locked");
    expect(renderProblemLine(second.problems[0])).toMatch(
      /\.twinscore-run\.lock: error: another twinscore run is writing this folder: pid \d+ on .+, started \d{4}-\d\d-\d\dT.+ \[output-locked\]$/,
    );
    release();
    const done = await first;
    expect(done.ok && done.value.generated).toBe(3);
    const missParam = readFileSync(resultFile(out, "miss_param"), "utf8")
      .split("\n")
      .filter((l) => l !== "");
    expect(missParam.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(["multi_turn_miss_param_0", "multi_turn_miss_param_4"]);
    expect(missParam[1] + "\n").toBe(foreign);
    expect(existsSync(join(out, "files_test", ".twinscore-run.lock"))).toBe(false);
    // free again: the second run now goes through
    const third = await runModel(run({ outDir: out, onlyIds: ids("base", [2]) }));
    expect(third.ok && third.value.generated).toBe(1);
  });
});

describe("a final rewrite killed part-way", () => {
  it("its temporary file is removed by the next run, with a warning naming it; a file merely named like one of another kind stays", async () => {
    const out = join(tmp, "left-temporary");
    const folder = join(out, "files_test", "multi_turn");
    mkdirSync(folder, { recursive: true });
    const first = await runModel(run({ outDir: out, onlyIds: ids("base", [0, 1]) }));
    expect(first.ok).toBe(true);
    // what kill -9 during the rewrite leaves: part of the file, under the rewrite's temporary name
    const left = join(folder, ".BFCL_v4_multi_turn_base_result.json.4242.1765000000000.tmp");
    writeFileSync(left, readFileSync(resultFile(out, "base")).subarray(0, 100));
    const other = join(folder, ".notes.1.2.tmp");
    writeFileSync(other, "kept");
    const second = await runModel(run({ outDir: out, onlyIds: ids("base", [0, 1, 2]) }));
    if (!second.ok) throw new Error("the second run failed");
    expect(existsSync(left)).toBe(false);
    expect(readFileSync(other, "utf8")).toBe("kept");
    expect(second.value.problems.filter((p) => p.code === "rewrite-removed").map(renderProblemLine)).toEqual([
      `${left}: warning: removed the temporary file of a final rewrite that was killed part-way (the result file beside it is whole) [rewrite-removed]`,
    ]);
    expect(second.value.generated).toBe(1);
  });
});

describe("what resume keeps", () => {
  it("every line it does not generate again stays byte for byte: a line with a byte-order mark, with NaN, with CRLF, a note; their ids are not generated again", async () => {
    const out = join(tmp, "keep");
    mkdirSync(join(out, "files_test", "multi_turn"), { recursive: true });
    const bom = `\uFEFF{"id": "multi_turn_base_1", "result": [["kept with a BOM"]]}\n`;
    const nan = `{"id": "multi_turn_base_2", "result": [["kept"]], "latency": [[NaN]]}\n`;
    const crlf = `{"id": "multi_turn_base_3", "result": [["kept with CRLF"]]}\r\n`;
    const note = "# a note somebody wrote\n";
    const before = bom + note + nan + crlf;
    writeFileSync(resultFile(out, "base"), before);
    const doc = await runModel(run({ outDir: out, onlyIds: ids("base", [0, 1, 2, 3, 4]) }));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect([doc.value.generated, doc.value.resumed]).toEqual([2, 3]);
    const text = readFileSync(resultFile(out, "base"), "utf8");
    for (const kept of [bom, nan, crlf, note]) expect(text).toContain(kept);
    expect(
      text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => /multi_turn_base_\d/.exec(l)?.[0] ?? l),
    ).toEqual([
      "multi_turn_base_0",
      "multi_turn_base_1",
      "multi_turn_base_2",
      "multi_turn_base_3",
      "multi_turn_base_4",
      "# a note somebody wrote",
    ]);
    const warnings = doc.value.problems.map((p) => `${p.line}: ${p.message}`);
    expect(warnings).toEqual([
      "1: starts with a byte-order mark (BFCL's json.loads refuses such a line); kept as it is",
      "2: not a result line; kept as it is",
      "3: holds NaN or Infinity, which Python reads and strict JSON readers refuse; kept as it is",
    ]);
    // a second run generates nothing and changes no byte
    const again = await runModel(run({ outDir: out, onlyIds: ids("base", [0, 1, 2, 3, 4]) }));
    expect(again.ok && again.value.generated).toBe(0);
    expect(readFileSync(resultFile(out, "base"), "utf8")).toBe(text);
  });

  it("a server's usage of 1e309 is written as null, never Infinity, and the next run takes the lines as they are", async () => {
    const srv = await serve(startHugeUsageServer());
    const out = join(tmp, "huge-usage");
    const first = await runModel(run({ outDir: out, chat: undefined, endpoint: srv.url, onlyIds: ids("base", [0, 1]) }));
    expect(first.ok && first.value.errors).toEqual([]);
    const text = readFileSync(resultFile(out, "base"), "utf8");
    expect(text).not.toMatch(/Infinity|NaN/);
    const line = JSON.parse(text.split("\n")[0]) as { input_token_count: unknown[][]; output_token_count: unknown[][] };
    expect(line.input_token_count[0][0]).toBeNull();
    expect(line.output_token_count[0][0]).toBeNull();
    const second = await runModel(run({ outDir: out, chat: undefined, endpoint: srv.url, onlyIds: ids("base", [0, 1]) }));
    expect(second.ok && [second.value.generated, second.value.resumed]).toEqual([0, 2]);
    expect(second.ok && second.value.problems).toEqual([]);
  });
});

describe("a disk that fills up mid-run", () => {
  it("one problem naming the file, exit 2, no torn line; a rerun on a disk with room completes the files in BFCL's order", async () => {
    const out = join(tmp, "full-disk");
    const only = [...ids("base", [0, 1, 2, 3]), ...ids("miss_func", [0, 1])];
    const doc = await runModel(run({ outDir: out, onlyIds: only, concurrency: 1, fileOps: fullDiskFrom(3) }));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(doc.value.exitCode).toBe(2);
    expect(doc.value.halted).toBe("write-failed");
    const errors = doc.value.problems.filter((p) => p.severity === "error");
    expect(errors).toHaveLength(1);
    expect(renderProblemLine(errors[0])).toBe(
      `${resultFile(out, "base")}: error: cannot append a result line: no space left on the device (ENOSPC); the file holds every line written before it, whole [write-failed]`,
    );
    const text = readFileSync(resultFile(out, "base"), "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(
      text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(ids("base", [0, 1]));
    expect(doc.value.generated).toBe(2);
    const rerun = await runModel(run({ outDir: out, onlyIds: only }));
    expect(rerun.ok && [rerun.value.exitCode, rerun.value.generated, rerun.value.resumed]).toEqual([0, 4, 2]);
    expect(
      readFileSync(resultFile(out, "base"), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(ids("base", [0, 1, 2, 3]));
  });
});
