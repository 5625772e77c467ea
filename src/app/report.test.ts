/**
 * `buildReport` and `compareArms` called directly with an in-memory host holding the real
 * gpt-oss runs and BFCL data: the same document (the page included) as on disk, the page,
 * figures and labels written and read in memory, and nothing read from anywhere else.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryPackageRoot, memoryRoot, memoryShared, sharedMemoryHost } from "../testing/memory-host.js";
import { memoryHttp } from "../testing/memory-http.js";
import { completionWith } from "../testing/stub-servers.js";
import { projectRoot, sharedPath } from "../testing/shared.js";
import { judgeLabels } from "../judge/types.js";
import { buildReport, type ReportRequest } from "./report.js";
import { compareArms, type CompareRequest } from "./compare.js";
import { judgeHeldBack } from "./judge.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-report-host-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const runs = ["2025-11-12-main", "2025-11-12-harmony-fixes"];
const runDir = (root: string, run: string) => join(root, "rollouts", "gpt-oss", run);

/** A value with the disk's and memory's roots written alike, to compare the two. */
function samePaths(value: unknown, roots: readonly [string, string][]): unknown {
  let text = JSON.stringify(value);
  for (const [from, to] of roots) text = text.split(from).join(to);
  return JSON.parse(text);
}

/** Judge labels of the main run's gpt-oss-120b, made in memory by a scripted judge (the page's judge section reads them). */
async function labelsText(): Promise<string> {
  const { host, files } = sharedMemoryHost();
  const standIn = memoryHttp(
    (body) => ({
      status: 200,
      body: completionWith(`{"label": "${judgeLabels[JSON.stringify(body.messages).length % judgeLabels.length]}"}`),
    }),
    ["stand-in-judge"],
  );
  const doc = await judgeHeldBack({
    results: [runDir(memoryShared, runs[0])],
    models: ["openai_gpt-oss-120b"],
    includeSilent: true,
    endpoint: "http://judge.invalid/v1",
    judgeModel: "stand-in-judge",
    labels: "labels.jsonl",
    cache: null,
    cwd: memoryRoot,
    env: {},
    host: { ...host, http: standIn.http },
  });
  expect(doc.run?.labelled).toBe(145);
  return files.readText(join(memoryRoot, "labels.jsonl"));
}

describe("buildReport and compareArms on an in-memory host", () => {
  it("the report of both gpt-oss runs with BFCL data, --compare and judge labels: the page and document written on disk", async () => {
    const labels = await labelsText();
    writeFileSync(join(tmp, "labels.jsonl"), labels);
    const req = (root: string): ReportRequest => ({
      results: runs.map((r) => runDir(root, r)),
      bfclData: join(root, "bfcl-v4"),
      compare: runs,
      labels: "labels.jsonl",
      out: "report.html",
      bootstrap: { resamples: 200 },
      env: {},
    });
    const onDisk = await buildReport({ ...req(sharedPath()), cwd: tmp });
    const { host, files } = sharedMemoryHost();
    files.put(join(memoryRoot, "labels.jsonl"), labels);
    files.reads.length = 0;
    const inMemory = await buildReport({ ...req(memoryShared), cwd: memoryRoot, host });
    // the main run's gpt-oss-20b has too many pairs undecided for a headline: said, exit 1, on disk as in memory
    expect(onDisk.problems.filter((p) => p.severity === "error").map((p) => p.code)).toEqual(["no-headline"]);
    expect(onDisk.exitCode).toBe(1);
    expect([onDisk.models, onDisk.comparisons]).toEqual([4, 1]); // the 20b has no headline to compare
    expect(onDisk.aligned).not.toBeNull();
    const roots: [string, string][] = [
      [sharedPath(), "<shared>"],
      [memoryShared, "<shared>"],
      [tmp, "<cwd>"],
      [memoryRoot, "<cwd>"],
    ];
    // the page names its input folders, so its size differs by their paths' lengths: compared with the paths written alike
    for (const d of [onDisk, inMemory]) expect(d.bytes).toBe(Buffer.byteLength(d.html ?? ""));
    const withoutSize = (d: typeof onDisk) => ({ ...d, bytes: null });
    expect(samePaths(withoutSize(inMemory), roots)).toEqual(samePaths(withoutSize(onDisk), roots));
    expect(inMemory.file).toBe(join(memoryRoot, "report.html"));
    expect(files.readText(join(memoryRoot, "report.html"))).toBe(inMemory.html);
    expect(readFileSync(join(tmp, "report.html"), "utf8")).toBe(onDisk.html);
    expect(files.reads).toContain(join(memoryRoot, "labels.jsonl"));
    expect(files.reads.every((p) => p.startsWith(memoryRoot + "/"))).toBe(true);
  }, 120_000);

  it("the page's figures go into a folder of the host", async () => {
    const { host, files } = sharedMemoryHost();
    files.makeFolder(join(memoryRoot, "figures"));
    const doc = await buildReport({
      results: [runDir(memoryShared, runs[0])],
      figures: "figures",
      bootstrap: { resamples: 0 },
      cwd: memoryRoot,
      env: {},
      host,
    });
    expect(doc.figures?.dir).toBe(join(memoryRoot, "figures"));
    expect(doc.figures!.files.length).toBeGreaterThan(0);
    for (const f of doc.figures!.files) expect(files.exists(f), f).toBe(true);
    expect(files.list(join(memoryRoot, "figures")).sort()).toEqual(doc.figures!.files.map((f) => f.slice(f.lastIndexOf("/") + 1)).sort());
  }, 60_000);

  it("compareArms of the two runs with BFCL data, their score trees and the pair manifest named: the comparison made on disk", async () => {
    const req = (root: string, packageRoot: string): CompareRequest => ({
      a: runDir(root, runs[0]),
      b: runDir(root, runs[1]),
      scoresA: join(runDir(root, runs[0]), "score"),
      scoresB: join(runDir(root, runs[1]), "score"),
      manifest: join(packageRoot, "data", "manifest.json"),
      bfclData: join(root, "bfcl-v4"),
      bootstrap: { resamples: 200 },
      cwd: "/",
      env: {},
    });
    const onDisk = await compareArms(req(sharedPath(), projectRoot));
    const { host, files } = sharedMemoryHost();
    files.reads.length = 0;
    const inMemory = await compareArms({ ...req(memoryShared, memoryPackageRoot), host });
    expect(onDisk.noHeadline.map((n) => [n.model, n.arm])).toEqual([["openai_gpt-oss-20b", "A"]]);
    expect(onDisk.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b"]);
    expect(onDisk.exitCode).toBe(1);
    const roots: [string, string][] = [
      [sharedPath(), "<shared>"],
      [memoryShared, "<shared>"],
    ];
    expect(samePaths(inMemory, roots)).toEqual(samePaths(onDisk, roots));
    expect(files.reads.some((p) => p.startsWith(join(memoryShared, "bfcl-v4")))).toBe(true);
    expect(files.reads).toContain(join(memoryPackageRoot, "data", "manifest.json"));
    expect(files.reads.some((p) => p.startsWith(join(runDir(memoryShared, runs[1]), "score") + "/"))).toBe(true);
    expect(files.reads.every((p) => p.startsWith(memoryRoot + "/"))).toBe(true);
  }, 120_000);
});
