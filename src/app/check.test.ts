/**
 * `checkRuns` called directly with an in-memory host holding the real runs: the same
 * document, and the same score files written, as the same check on disk, with every file
 * read and written through the host (no worker thread is started for it).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryRoot, memoryShared, sharedMemoryHost } from "../testing/memory-host.js";
import { bfclDataDir, sharedPath } from "../testing/shared.js";
import { checkRuns, type CheckDocument, type CheckRequest } from "./check.js";

const out = mkdtempSync(join(tmpdir(), "twinscore-check-host-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A document with the disk's and memory's roots written alike, to compare the two. */
function samePaths(doc: CheckDocument, roots: readonly [string, string][]): unknown {
  let text = JSON.stringify(doc);
  for (const [from, to] of roots) text = text.split(from).join(to);
  return JSON.parse(text);
}

describe("checkRuns on an in-memory host", () => {
  it("the v3 xLAM run with its stored score files: the document and score files of the check on disk", async () => {
    const xlam = sharedPath("rollouts", "xlam-v3");
    const onDisk = await checkRuns({
      results: join(xlam, "result"),
      bfclData: sharedPath("bfcl-v3"),
      scores: join(xlam, "score"),
      out: join(out, "xlam"),
      env: {},
      cwd: "/",
    });
    const { host, files } = sharedMemoryHost();
    const memXlam = join(memoryShared, "rollouts", "xlam-v3");
    files.mount(xlam, memXlam);
    files.reads.length = 0;
    const inMemory = await checkRuns({
      results: join(memXlam, "result"),
      bfclData: join(memoryShared, "bfcl-v3"),
      scores: join(memXlam, "score"),
      out: "out/xlam",
      env: {},
      cwd: memoryRoot,
      host,
    });
    expect(onDisk.exitCode).toBe(1); // a few verdicts differ from the stored ones, on disk as in memory
    expect(onDisk.files.map((f) => [f.category, f.entries])).toEqual([
      ["base", 200],
      ["miss_func", 200],
      ["miss_param", 200],
    ]);
    expect(onDisk.files.some((f) => (f.agreement?.verdictDisagreeingIds.length ?? 0) > 0)).toBe(true);
    const roots: [string, string][] = [
      [join(out, "xlam"), "<out>"],
      [join(memoryRoot, "out", "xlam"), "<out>"],
      [xlam, "<xlam>"],
      [memXlam, "<xlam>"],
      [sharedPath("bfcl-v3"), "<data>"],
      [join(memoryShared, "bfcl-v3"), "<data>"],
    ];
    expect(samePaths(inMemory, roots)).toEqual(samePaths(onDisk, roots));
    expect(inMemory.written).toEqual({ dir: join(memoryRoot, "out", "xlam"), files: 3, models: 1 });
    for (const f of onDisk.files) {
      const rel = f.written!.slice(join(out, "xlam").length);
      expect(files.readText(join(memoryRoot, "out", "xlam", rel)), rel).toBe(readFileSync(f.written!, "utf8"));
    }
    // every file read was in memory (the disk paths exist nowhere there)
    expect(files.reads.length).toBeGreaterThan(0);
    expect(files.reads.every((p) => p.startsWith(memoryRoot + "/"))).toBe(true);
  });

  it("both models of the real gpt-oss main run: the same entries, passes and agreement as on disk, with no worker started", async () => {
    const run = join("rollouts", "gpt-oss", "2025-11-12-main");
    const req = (root: string): CheckRequest => ({ results: join(root, run), bfclData: join(root, "bfcl-v4"), env: {}, cwd: "/" });
    const onDisk = await checkRuns(req(sharedPath()));
    const { host } = sharedMemoryHost();
    const spawnWorker = () => {
      throw new Error("a worker reads node's files: it must not be started for another host");
    };
    const inMemory = await checkRuns({ ...req(memoryShared), threads: 2, spawnWorker, host });
    expect(onDisk.exitCode).toBe(0);
    const numbers = (d: CheckDocument) =>
      d.files.map((f) => [f.folder, f.category, f.entries, f.correct, f.agreement?.entries, f.agreement?.disagreeingIds]);
    expect(numbers(onDisk)).toHaveLength(6);
    expect(numbers(inMemory)).toEqual(numbers(onDisk));
    expect(inMemory.scoresBeside).toEqual([join(memoryShared, run, "score")]);
    const roots: [string, string][] = [
      [sharedPath(), "<shared>"],
      [memoryShared, "<shared>"],
    ];
    expect(samePaths(inMemory, roots)).toEqual(samePaths(onDisk, roots));
  });

  it("data the host does not hold is one error naming the folder", async () => {
    const { host } = sharedMemoryHost();
    const doc = await checkRuns({
      results: join(memoryShared, "rollouts", "gpt-oss", "2025-11-12-main"),
      bfclData: bfclDataDir(),
      env: {},
      cwd: memoryRoot,
      host,
    });
    expect(doc.exitCode).toBe(2);
    expect(doc.problems.map((p) => [p.code, p.file])).toEqual([["file-missing", bfclDataDir()]]);
  });
});
