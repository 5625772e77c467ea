/**
 * `judgeHeldBack` called directly with an in-memory host holding the real main run and the
 * package's judge prompt: a dry run lists the held-back turns of gpt-oss-120b as the CLI
 * does (none with text, 145 silent), and sends nothing; with the host's HTTP stand-in as the
 * judge, every turn is labelled into a labels file and cache held in memory, and resumed.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryPackageRoot, memoryRoot, memoryShared, sharedMemoryHost } from "../testing/memory-host.js";
import { memoryHttp } from "../testing/memory-http.js";
import { completionWith } from "../testing/stub-servers.js";
import { judgeLabels, type JudgeLabel } from "../judge/types.js";
import { judgeHeldBack } from "./judge.js";

const mainRun = join(memoryShared, "rollouts", "gpt-oss", "2025-11-12-main");
const model = "openai_gpt-oss-120b";

describe("judgeHeldBack on an in-memory host", () => {
  it("a dry run reads the prompt and the run from memory: 0 requests, 145 silent turns left out", async () => {
    const { host, files } = sharedMemoryHost();
    const doc = await judgeHeldBack({ results: [mainRun], models: [model], dryRun: true, cwd: memoryRoot, env: {}, host });
    expect(doc.exitCode).toBe(0);
    expect(doc.dryRun).toEqual({ requests: [], silent: 145, notReached: 0, silentIncluded: false });
    expect(doc.problems.map((p) => p.code)).toEqual(Array(12).fill("inference-error"));
    expect(doc.modelFiles.map((m) => [m.model, m.files.length])).toEqual([[model, 3]]);
    expect(files.reads).toContain(join(memoryPackageRoot, "data", "judge-prompt.md"));
    expect(files.reads.every((p) => p.startsWith(memoryRoot + "/"))).toBe(true);
  });

  it("with the silent turns included, each is one request carrying the prompt's system part", async () => {
    const { host, files } = sharedMemoryHost();
    const doc = await judgeHeldBack({
      results: [mainRun],
      models: [model],
      dryRun: true,
      includeSilent: true,
      cwd: memoryRoot,
      env: {},
      host,
    });
    expect(doc.dryRun?.requests).toHaveLength(145);
    const system = files
      .readText(join(memoryPackageRoot, "data", "judge-prompt.md"))
      .split(/^---user---\s*$/m)[0]
      .trim();
    const first = doc.dryRun!.requests[0].request as { messages: { role: string; content: string }[] };
    expect(first.messages[0].role).toBe("system");
    expect(system).toContain(first.messages[0].content.trim().slice(0, 40));
  });

  it("labels every held-back turn through the host's HTTP stand-in into a labels file in memory, and a rerun resumes them all", async () => {
    const { host, files } = sharedMemoryHost();
    // a scripted judge: each turn's label follows from its request, so it is the same however the requests interleave
    const given = new Map<JudgeLabel, number>();
    const standIn = memoryHttp(
      (body) => {
        const label = judgeLabels[JSON.stringify(body.messages).length % judgeLabels.length];
        given.set(label, (given.get(label) ?? 0) + 1);
        return { status: 200, body: completionWith(`{"label": "${label}"}`, "stand-in-judge") };
      },
      ["stand-in-judge"],
    );
    const req = {
      results: [mainRun],
      models: [model],
      includeSilent: true,
      endpoint: "http://judge.invalid/v1",
      judgeModel: "stand-in-judge",
      labels: "labels.jsonl",
      cwd: memoryRoot,
      env: {},
      host: { ...host, http: standIn.http },
    };
    const first = await judgeHeldBack(req);
    expect(first.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(first.exitCode).toBe(0);
    expect(first.run).toMatchObject({ labelled: 145, resumed: 0, fromCache: 0, requested: 145, failures: [] });
    expect(standIn.sent.filter((r) => r.method === "POST")).toHaveLength(145);
    const labelsFile = join(memoryRoot, "labels.jsonl");
    expect(first.labelsFile).toBe(labelsFile);
    const lines = files
      .readText(labelsFile)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { label: JudgeLabel; missId: string });
    expect(lines).toHaveLength(145);
    const inFile = new Map<JudgeLabel, number>();
    for (const l of lines) inFile.set(l.label, (inFile.get(l.label) ?? 0) + 1);
    expect(inFile).toEqual(given);
    expect(inFile.size).toBeGreaterThan(1);
    expect(files.list(join(memoryRoot, "labels.jsonl.cache"))).toHaveLength(145);
    expect(files.reads.every((p) => p.startsWith(memoryRoot + "/"))).toBe(true);

    const posted = standIn.sent.length;
    const again = await judgeHeldBack(req);
    expect(again.run).toMatchObject({ labelled: 0, resumed: 145, requested: 0 });
    expect(again.summaries).toEqual(first.summaries);
    expect(
      standIn.sent.slice(posted).filter((r) => r.method === "POST" && r.headers.get("x-twinscore-item") !== "twinscore-probe"),
    ).toEqual([]);
  });

  it("a prompt file the host does not hold is one problem, before the run is read", async () => {
    const { host, files } = sharedMemoryHost();
    const doc = await judgeHeldBack({ results: [mainRun], prompt: "mine.md", dryRun: true, cwd: memoryRoot, env: {}, host });
    expect(doc.problems.map((p) => [p.code, p.file])).toEqual([["file-missing", join(memoryRoot, "mine.md")]]);
    expect(doc.exitCode).toBe(2);
    expect(files.reads.filter((p) => p.endsWith("_result.json"))).toEqual([]);
  });
});
