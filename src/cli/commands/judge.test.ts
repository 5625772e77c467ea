import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

let server: Server | null = null;
afterEach(async () => {
  if (server) await new Promise<void>((r) => server!.close(() => r()));
  server = null;
});

const run = rolloutRunDir("2025-11-12-main");

describe("twinscore judge on the real gpt-oss rollouts", () => {
  it("finds the held-back anchor turns and, in a dry run, prints requests without sending", async () => {
    const io = memoryIo();
    const code = await runCli(["judge", "--results", run, "--model", "openai_gpt-oss-120b", "--dry-run", "--include-silent"], io);
    expect(code).toBe(0);
    const lines = io.out.join("").trim().split("\n").map((l) => JSON.parse(l));
    // 213 pairs decided on both twins (10 have an inference-error or short side), hold 68.1% → 145 held back.
    expect(lines).toHaveLength(145);
    const first = lines.find((l) => l.missId === "multi_turn_miss_param_122");
    expect(first.request.messages[1].content).toContain("proceed with a 'Buy' order for 100 shares at a price of $150 each");
    expect(first.request.messages[1].content).toContain("AAPL");
    // gpt-oss served through FC keeps no assistant text, so every held-back turn is silent.
    expect(io.err.join("")).toContain("note: dry run: 145 request(s) would be sent; 145 silent turn(s) included [dry-run]\n");
  });

  it("labels held-back turns through a stub endpoint and summarises per model", async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const removed = JSON.parse(body).messages[1].content.includes("Removed function: (none");
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify({ label: removed ? "asks_removed" : "asks_other" }) } }] }));
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), "judge-cli-"));
    const io = memoryIo({ TEST_JUDGE_KEY: "sk-do-not-log" }, dir);
    const argv = ["judge", "--results", run, "--model", "openai_gpt-oss-20b", "--include-silent", "--endpoint", `http://127.0.0.1:${port}/v1`, "--judge-model", "stub", "--key-env", "TEST_JUDGE_KEY", "--format", "json"];
    expect(await runCli(argv, io)).toBe(0);
    const doc = JSON.parse(io.out.join(""));
    const s = doc.summaries[0];
    expect(s.model).toBe("openai_gpt-oss-20b");
    expect(s.labelled).toBe(s.heldBack - s.notReached);
    expect(s.silent).toBe(s.labelled);
    expect(s.counts.asks_removed + s.counts.asks_other).toBe(s.labelled);
    expect(s.counts.asks_removed).toBeGreaterThan(0);
    expect(s.counts.asks_other).toBeGreaterThan(0);
    const written = readFileSync(join(dir, "twinscore-labels.jsonl"), "utf8");
    expect(written.trim().split("\n")).toHaveLength(s.labelled);
    expect(written + io.err.join("") + io.out.join("")).not.toContain("sk-do-not-log");
    // The rerun is free: everything resumes from the labels file.
    const again = memoryIo({ TEST_JUDGE_KEY: "sk-do-not-log" }, dir);
    expect(await runCli(argv, again)).toBe(0);
    expect(again.err.join("")).toContain(`0 labelled now, ${s.labelled} resumed`);
  });

  it("needs an endpoint unless it is a dry run", async () => {
    const io = memoryIo();
    expect(await runCli(["judge", "--results", run, "--model", "openai_gpt-oss-20b", "--include-silent"], io)).toBe(2);
    expect(io.err.join("")).toContain("--endpoint and --judge-model are required");
  });
});
