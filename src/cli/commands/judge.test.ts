import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { judgeHeldBack } from "../../app/judge.js";
import { redactorOf } from "../../io/secrets.js";
import { bearerKey, completionText, startKeyEchoModel, type ReceivedBodies } from "../../testing/hostile-servers.js";
import { startChatServer, type TestServer } from "../../testing/replay.js";
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
    const lines = io.out
      .join("")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
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
        // the probe before the first request: no model list here, and the one-token request gets any answer
        if (req.method === "GET") {
          res.writeHead(404, { "content-type": "application/json" });
          res.end('{"error": {"message": "no such route"}}');
          return;
        }
        const removed = String(JSON.parse(body).messages[1]?.content ?? "").includes("Removed function: (none");
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ choices: [{ message: { content: JSON.stringify({ label: removed ? "asks_removed" : "asks_other" }) } }] }),
        );
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), "judge-cli-"));
    const io = memoryIo({ TEST_JUDGE_KEY: "sk-do-not-log" }, dir);
    const argv = [
      "judge",
      "--results",
      run,
      "--model",
      "openai_gpt-oss-20b",
      "--include-silent",
      "--endpoint",
      `http://127.0.0.1:${port}/v1`,
      "--judge-model",
      "stub",
      "--key-env",
      "TEST_JUDGE_KEY",
      "--format",
      "json",
    ];
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

describe("judge and its API key", () => {
  let echo: TestServer | null = null;
  afterEach(async () => {
    await echo?.close();
    echo = null;
  });
  const judgeArgv = (url: string, ...more: string[]) => [
    "judge",
    "--results",
    run,
    "--model",
    "openai_gpt-oss-120b",
    "--include-silent",
    "--endpoint",
    url,
    "--judge-model",
    "judge",
    ...more,
  ];

  it.each([["--key-env", ["--key-env", "JUDGE_KEY"], "JUDGE_KEY"]])(
    "a key with a newline (KEY=$(cat two-line-file)) from %s is refused before anything is read or sent: one line that does not show it, exit 2",
    async (_, flags, variable) => {
      const received: ReceivedBodies = { bodies: [] };
      echo = await startKeyEchoModel(received);
      const key = "sk-live-Judge7c1f\nsecond-line-of-the-key-file";
      const dir = mkdtempSync(join(tmpdir(), "judge-key-"));
      const io = memoryIo({ [variable]: key }, dir);
      expect(await runCli(judgeArgv(echo.url, ...flags), io)).toBe(2);
      expect(io.out.join("")).toBe("");
      const err = io.err.join("");
      expect(err).toMatch(
        new RegExp(`^error: --key-env ${variable}: the key contains a newline at character 18 of 45; [^\n]* \\[key-unusable\\]\n$`),
      );
      for (const part of key.split("\n")) expect(err).not.toContain(part);
      expect(echo.stats.requests + echo.stats.probes).toBe(0);
      expect(existsSync(join(dir, "twinscore-labels.jsonl"))).toBe(false);
    },
  );

  it("sends a key only with --key-env, as run does: OPENAI_API_KEY set in the environment never reaches the endpoint unasked", async () => {
    const keys: string[] = [];
    echo = await startChatServer((_body, req, res) => {
      keys.push(bearerKey(req));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(completionText('{\\"label\\": \\"refuses\\"}'));
    });
    const dir = mkdtempSync(join(tmpdir(), "judge-nokey-"));
    const io = memoryIo({ OPENAI_API_KEY: "sk-ambient-Key-9f3a", JUDGE_KEY: "sk-named-Key-77c2" }, dir);
    expect(await runCli(judgeArgv(echo.url, "--retries", "0", "--format", "json"), io)).toBe(0);
    const sent = keys.length;
    expect(sent).toBeGreaterThan(0);
    expect(new Set(keys)).toEqual(new Set([""]));
    // named, the key is sent (and nothing else is)
    expect(
      await runCli(
        judgeArgv(echo.url, "--retries", "0", "--format", "json", "--key-env", "JUDGE_KEY", "--labels", "named.jsonl", "--no-cache-dir"),
        io,
      ),
    ).toBe(0);
    expect(keys.length).toBeGreaterThan(sent);
    expect(new Set(keys.slice(sent))).toEqual(new Set(["sk-named-Key-77c2"]));
  });

  it("a library caller's key with a newline is refused the same way", async () => {
    const doc = await judgeHeldBack({ results: [run], endpoint: "http://127.0.0.1:9/v1", judgeModel: "judge", apiKey: "sk-lib-Key\n" });
    expect(doc.exitCode).toBe(2);
    expect(doc.problems.map((p) => [p.code, p.message])).toEqual([
      ["key-unusable", expect.stringContaining("a newline at character 11 of 11")],
    ]);
    expect(doc.problems[0].message).not.toContain("sk-lib-Key");
  });

  it("a --key-env naming a variable that is not set is refused with one line, exit 2", async () => {
    const io = memoryIo({}, mkdtempSync(join(tmpdir(), "judge-key-")));
    expect(await runCli(judgeArgv("http://127.0.0.1:9/v1", "--key-env", "NO_SUCH_JUDGE_KEY", "--retries", "0"), io)).toBe(2);
    expect(io.err.join("")).toBe("error: --key-env NO_SUCH_JUDGE_KEY: that environment variable is not set or empty [key-missing]\n");
  });

  it("a key the endpoint echoes in every spelling JSON allows (\\/, \\u0073…, inside JSON in a string) reaches no file, no output line and no request", async () => {
    const key = "sk-proj/Judge-Echo_4b2d";
    const received: ReceivedBodies = { bodies: [] };
    // a label with the echoed key beside it; every fifth request an HTTP 500 whose body echoes it
    echo = await startKeyEchoModel(received, { errorEvery: 5, reply: (spelled) => `refuses (I was called with ${spelled})` });
    const dir = mkdtempSync(join(tmpdir(), "judge-echo-"));
    const io = memoryIo({ JUDGE_KEY: key }, dir);
    expect(await runCli(judgeArgv(echo.url, "--key-env", "JUDGE_KEY", "--retries", "0", "--format", "json"), io)).toBe(1);
    const doc = JSON.parse(io.out.join(""));
    expect(doc.run.labelled).toBeGreaterThan(100);
    expect(doc.run.failures.length).toBeGreaterThan(20);
    const cache = join(dir, "twinscore-labels.jsonl.cache");
    const written = [
      readFileSync(join(dir, "twinscore-labels.jsonl"), "utf8"),
      ...readdirSync(cache).map((f) => readFileSync(join(cache, f), "utf8")),
    ].join("\n");
    const shown = io.out.join("") + io.err.join("");
    const anySpelling = redactorOf([key]);
    expect(written).toContain("[redacted]");
    expect(shown).toContain("[redacted]");
    expect(anySpelling.finds(written)).toBe(false);
    expect(anySpelling.finds(shown)).toBe(false);
    expect(received.bodies.length).toBe(doc.run.requested);
    expect(received.bodies.some((b) => anySpelling.finds(b))).toBe(false);
  });
});
