/**
 * The probe's refusals for the two endpoint mistakes a new user makes first (servers on
 * 127.0.0.1 from `src/testing/`): an https:// URL on a server that speaks plain HTTP, and
 * a base URL without the `/v1` the API is served under. Each is one line naming what is
 * there and the URL to give instead, with a code of its own, through `run` and `judge`;
 * the URLs it suggests are then accepted.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sendJson, startChatServer } from "../../testing/replay.js";
import { completionWith, startV1OnlyServer } from "../../testing/stub-servers.js";
import { serverPool, subsetBfclData } from "../../testing/run-fixtures.js";
import { rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { cliArgs } from "../../testing/cli-args.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-endpoint-messages-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
const data = subsetBfclData(join(tmp, "bfcl-data"), ["base", "miss_func", "miss_param"], 1);
const realRun = rolloutRunDir("2025-11-12-main");

async function cli(args: string[]) {
  const io = memoryIo({}, tmp);
  const code = await runCli(args, io);
  return { code, err: io.err.join("") };
}

/** The lines of stderr that are messages (progress lines aside). */
const messageLines = (err: string) => err.split("\n").filter((l) => /^(error|warning|note): /.test(l) && !l.startsWith("note: plan"));

describe("an https:// URL on a server that speaks plain HTTP", () => {
  it("run and judge: one line saying the server answers in plain HTTP and the http:// URL to use; that URL works", async () => {
    const srv = await serve(
      startChatServer((_b, _r, res) => sendJson(res, 200, completionWith("Nothing to do.")), { maxRequests: 20, lifetimeMs: 60_000 }),
    );
    const https = srv.url.replace(/^http:/, "https:");
    const out = join(tmp, "plain-http");
    const r = await cli(["run", "--bfcl-data", data, "--endpoint", https, "--model", "m", "--out", out, "--limit", "1", "--retries", "0"]);
    expect(r.code).toBe(2);
    expect(messageLines(r.err)).toEqual([
      `error: --endpoint ${https}: ${https} answers in plain HTTP, not TLS: use --endpoint ${srv.url}; nothing was generated [endpoint-plain-http]`,
    ]);
    expect(r.err).not.toContain("nothing answers");
    expect(r.err).not.toMatch(/ssl3|\.c:\d+/); // OpenSSL's source file and line are not the user's business
    expect(existsSync(out)).toBe(false);

    const judged = await cli(
      cliArgs("judge", {
        results: realRun,
        model: "openai_gpt-oss-20b",
        "include-silent": true,
        endpoint: https,
        "judge-model": "j",
        labels: join(tmp, "never.jsonl"),
      }),
    );
    expect(judged.code).toBe(2);
    expect(messageLines(judged.err)).toEqual([
      `error: --endpoint ${https}: ${https} answers in plain HTTP, not TLS: use --endpoint ${srv.url}; nothing was judged [endpoint-plain-http]`,
    ]);

    const suggested = await cli(cliArgs("run", { "bfcl-data": data, endpoint: srv.url, model: "m", out, limit: 1, retries: 0 }));
    expect(suggested.code).toBe(0);
  }, 60_000);

  it("an https:// URL where nothing listens is still 'nothing answers'", async () => {
    const srv = await startChatServer(() => undefined, { maxRequests: 1, lifetimeMs: 10_000 });
    const url = srv.url.replace(/^http:/, "https:");
    await srv.close();
    const r = await cli(["run", "--bfcl-data", data, "--endpoint", url, "--model", "m", "--out", join(tmp, "nothing"), "--limit", "1"]);
    expect(r.code).toBe(2);
    expect(messageLines(r.err)).toEqual([
      `error: --endpoint ${url}: nothing answers at ${url} (ECONNREFUSED): is the server running, and is --endpoint its address?; nothing was generated [endpoint-unreachable]`,
    ]);
  });
});

describe("a base URL without the /v1 the API is served under", () => {
  it("run and judge: its own code, the 404 and the /v1 that answers, and the URL to use; that URL works", async () => {
    const srv = await serve(startV1OnlyServer("m"));
    const out = join(tmp, "no-v1");
    // the flag's URL as messages show URLs (a root path is "/"), with or without the slash given
    for (const given of [srv.url, `${srv.url}/`]) {
      const r = await cli(cliArgs("run", { "bfcl-data": data, endpoint: given, model: "m", out, limit: 1, retries: 0 }));
      expect(r.code).toBe(2);
      expect(messageLines(r.err)).toEqual([
        `error: --endpoint ${srv.url}/: ${srv.url}/chat/completions answers 404, but ${srv.url}/v1/models answers: the API is served under /v1; use --endpoint ${srv.url}/v1; nothing was generated [endpoint-path]`,
      ]);
      expect(r.err).not.toContain("model-not-served");
      expect(existsSync(out)).toBe(false);
    }
    const judged = await cli(
      cliArgs("judge", {
        results: realRun,
        model: "openai_gpt-oss-20b",
        "include-silent": true,
        endpoint: srv.url,
        "judge-model": "m",
        labels: join(tmp, "never.jsonl"),
      }),
    );
    expect(judged.code).toBe(2);
    expect(messageLines(judged.err)).toEqual([
      `error: --endpoint ${srv.url}/: ${srv.url}/chat/completions answers 404, but ${srv.url}/v1/models answers: the API is served under /v1; use --endpoint ${srv.url}/v1; nothing was judged [endpoint-path]`,
    ]);

    const suggested = await cli(cliArgs("run", { "bfcl-data": data, endpoint: `${srv.url}/v1`, model: "m", out, limit: 1, retries: 0 }));
    expect(suggested.code).toBe(0);
  }, 60_000);

  it("a model the /v1 URL does not serve keeps model-not-served: the path is right, the model is not", async () => {
    const srv = await serve(
      startChatServer(
        (body, _req, res) => sendJson(res, 404, { object: "error", message: `The model \`${String(body.model)}\` does not exist.` }),
        { probe: "pass", models: ["other"] },
      ),
    );
    const r = await cli(cliArgs("run", { "bfcl-data": data, endpoint: srv.url, model: "m", out: join(tmp, "wrong-model"), limit: 1 }));
    expect(r.code).toBe(2);
    expect(messageLines(r.err)).toHaveLength(1);
    expect(messageLines(r.err)[0]).toMatch(/the endpoint answers 404 to a request for model "m" .*\[model-not-served\]$/);
  });
});
