/**
 * `judgeHeldBack` called directly with an in-memory host holding the real main run and the
 * package's judge prompt: a dry run lists the held-back turns of gpt-oss-120b as the CLI
 * does (none with text, 145 silent), and sends nothing.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryPackageRoot, memoryRoot, memoryShared, sharedMemoryHost } from "../testing/memory-host.js";
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

  it("a prompt file the host does not hold is one problem, before the run is read", async () => {
    const { host, files } = sharedMemoryHost();
    const doc = await judgeHeldBack({ results: [mainRun], prompt: "mine.md", dryRun: true, cwd: memoryRoot, env: {}, host });
    expect(doc.problems.map((p) => [p.code, p.file])).toEqual([["file-missing", join(memoryRoot, "mine.md")]]);
    expect(doc.exitCode).toBe(2);
    expect(files.reads.filter((p) => p.endsWith("_result.json"))).toEqual([]);
  });
});
