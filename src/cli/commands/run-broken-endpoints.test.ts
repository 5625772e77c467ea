/**
 * `run` and `judge` through the CLI against 127.0.0.1 endpoints that answer, but badly (lying encodings,
 * endless backslashes, redirect loops, odd numbers): each failure is named, every command ends on time with a
 * summary, and no lock is left behind. More in this folder's README.md.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLyingEncodingServer, startRawServer, startRedirectServer } from "../../testing/broken-http.js";
import { closedPort, startBackslashServer } from "../../testing/hostile-servers.js";
import { sendJson, startChatServer } from "../../testing/replay.js";
import { completionWith } from "../../testing/stub-servers.js";
import { serverPool, subsetBfclData } from "../../testing/run-fixtures.js";
import { rolloutRunDir } from "../../testing/shared.js";
import { LOCK_FILE_NAME } from "../../io/run-output.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { cliArgs } from "../../testing/cli-args.js";

const categories = ["base", "miss_func", "miss_param"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-broken-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
/** Two entries per category: miss_func_0/1 and miss_param_0/1 are should-ask items of the manifest's pairs. */
const data = subsetBfclData(join(tmp, "bfcl-data"), categories, 2);
const realRun = rolloutRunDir("2025-11-12-main");
const KEY = "sk-proj/Br0ken-Endpoint_2468";

let n = 0;
const fresh = (name: string) => join(tmp, `${++n}-${name}`);

async function cli(args: string[], env: Record<string, string> = {}) {
  const io = memoryIo(env, tmp);
  const t0 = Date.now();
  const code = await runCli(args, io);
  return { code, err: io.err.join(""), out: io.out.join(""), ms: Date.now() - t0 };
}

const run = (args: string[], env: Record<string, string> = {}) => cli(["run", "--bfcl-data", data, ...args], env);

/** The result lines of a run folder, every category. */
function resultLines(out: string, modelDir = "m"): { id: string; result: unknown }[] {
  const dir = join(out, modelDir, "multi_turn");
  return readdirSync(dir)
    .filter((f) => f.endsWith("_result.json"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").trimEnd().split("\n"))
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { id: string; result: unknown });
}

/** The lines of stderr that are messages (progress lines aside). */
const messageLines = (err: string) => err.split("\n").filter((l) => l !== "" && !/^(run: \d+\/\d+ items|judging)/.test(l));

describe("a Content-Encoding that lies (gzip, deflate or br over a plain body)", () => {
  for (const coding of ["gzip", "deflate", "br"] as const) {
    it(`${coding} from the model: every item an error line naming it, the summary, no lock left, exit 1`, async () => {
      const liar = await serve(startLyingEncodingServer(coding));
      const out = fresh(`liar-${coding}`);
      const r = await run(cliArgs("", { endpoint: liar.url, model: "m", out, items: "all", timeout: 10, concurrency: 3 }));
      expect(r.code).toBe(1);
      expect(r.ms).toBeLessThan(10_000);
      const lines = resultLines(out);
      expect(lines).toHaveLength(6);
      for (const l of lines)
        expect(l.result).toMatch(
          new RegExp(
            `^Error during inference: the endpoint's reply says Content-Encoding: ${coding}, but its body is not ${coding} data \\([a-z ]+\\)$`,
            "i",
          ),
        );
      // one request per item: not retried, and the run was not stopped as if nothing answered
      expect(liar.stats.requests).toBe(6 + 1);
      expect(r.err).toContain("6 items, 6 generated, 0 already in the output, 6 error lines");
      expect(r.err).toContain(`probe-note`);
      expect(r.err).not.toMatch(/could not connect|Connection error|nothing answers/);
      expect(existsSync(join(out, "m", LOCK_FILE_NAME))).toBe(false);
    }, 30_000);
  }

  it("from the simulated user: the should-ask items are error lines naming it, the others are written, the summary, exit 1", async () => {
    const model = await serve(startChatServer((_b, _r, res) => sendJson(res, 200, completionWith("Which file do you mean?"))));
    const liar = await serve(startLyingEncodingServer("gzip"));
    const out = fresh("liar-sim");
    const r = await run(
      cliArgs("", {
        endpoint: model.url,
        model: "m",
        out,
        items: "all",
        timeout: 10,
        "user-sim": "llm",
        "user-endpoint": liar.url,
        "user-model": "s",
      }),
    );
    expect(r.code).toBe(1);
    const byId = new Map(resultLines(out).map((l) => [l.id, l.result]));
    expect(byId.size).toBe(6);
    const failed = [...byId].filter(([, v]) => typeof v === "string").map(([id]) => id);
    expect(failed.sort()).toEqual([
      "multi_turn_miss_func_0",
      "multi_turn_miss_func_1",
      "multi_turn_miss_param_0",
      "multi_turn_miss_param_1",
    ]);
    for (const id of failed)
      expect(byId.get(id)).toBe(
        "Error during inference: user simulator: the endpoint's reply says Content-Encoding: gzip, but its body is not gzip data (incorrect header check)",
      );
    expect(r.err).toContain("6 items, 6 generated");
    expect(r.err).toContain("note: simulated user s: ");
    expect(existsSync(join(out, "m", LOCK_FILE_NAME))).toBe(false);
  }, 30_000);

  it("from the judge: each turn a failure naming it, the summary, exit 1", async () => {
    const liar = await serve(startLyingEncodingServer("br"));
    const dir = mkdtempSync(join(tmp, "judge-liar-"));
    const r = await cli(
      cliArgs("judge", {
        results: realRun,
        model: "openai_gpt-oss-20b",
        "include-silent": true,
        endpoint: liar.url,
        "judge-model": "j",
        labels: join(dir, "labels.jsonl"),
        retries: 0,
        timeout: 10,
      }),
    );
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(20_000);
    const failures = messageLines(r.err).filter((l) => l.endsWith("[judge-failed]"));
    expect(failures.length).toBeGreaterThan(10);
    for (const l of failures)
      expect(l).toMatch(
        /: the endpoint's reply says Content-Encoding: br, but its body is not br data \(Decompression failed\) \[judge-failed\]$/,
      );
    // every turn held back on the real run was asked once, and failed
    expect(r.err).toContain("note: 0 labelled now, 0 resumed, 0 from cache, 147 requested, 147 failed");
  }, 30_000);
});

describe("replies of 150,000 backslashes with a key set", () => {
  it("run ends within its --timeout and a few seconds, the probe reading a model id of 150,000 backslashes first", async () => {
    const one = subsetBfclData(join(tmp, "bfcl-data-one"), categories, 1);
    const srv = await serve(startBackslashServer(150_000, "m"));
    const out = fresh("backslashes");
    const r = await cli(
      cliArgs("run", { "bfcl-data": one, endpoint: srv.url, model: "m", out, items: "all", timeout: 5, retries: 0, "key-env": "K" }),
      { K: KEY },
    );
    // with a redaction quadratic in the run of backslashes, one such reply took over a minute;
    // the slack is for the process's own work on a loaded 2-core machine
    expect(r.ms).toBeLessThan(5_000 + 20_000);
    expect(r.code).toBe(0);
    expect(srv.stats.requests).toBeGreaterThanOrEqual(3);
    expect(resultLines(out)).toHaveLength(3);
  }, 60_000);
});

describe("after a healthy probe, the same failures mid-run are error lines naming the cause, not connection errors", () => {
  for (const [what, start, says] of [
    [
      "redirects in a loop",
      () => startRedirectServer("loop", { probeAnswered: true }),
      /^Error during inference: the endpoint redirects in a loop: http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions -> /,
    ],
    [
      "HTTP/0.9",
      () => startRawServer("http09", { probeAnswered: true }),
      /^Error during inference: the endpoint's reply has no HTTP\/1\.x status line/,
    ],
    [
      "bad chunking",
      () => startRawServer("bad-chunks", { probeAnswered: true }),
      /^Error during inference: the endpoint's reply has malformed chunked encoding/,
    ],
  ] as const) {
    it(
      what,
      async () => {
        const srv = await serve(start());
        const out = fresh("mid-run");
        const r = await run(["--endpoint", srv.url, "--model", "m", "--out", out, "--items", "all", "--timeout", "10"]);
        expect(r.code).toBe(1);
        const lines = resultLines(out);
        expect(lines).toHaveLength(6);
        for (const l of lines) expect(String(l.result)).toMatch(says);
        expect(r.err).toContain("6 items, 6 generated, 0 already in the output, 6 error lines");
        expect(r.err).not.toMatch(/could not connect|Connection error/);
      },
      30_000,
    );
  }
});

describe("numbers are decimal digits, within the bounds --help gives", () => {
  it("run and judge refuse hexadecimal, padded, signed, exponent and fractional counts with one line each, before anything is made", async () => {
    const out = fresh("numbers");
    const base = ["--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--out", out];
    for (const [flag, value, line] of [
      [
        "--timeout",
        "0x10",
        "error: --timeout must be a number from 0.001 to 2147483 (got text that is not a decimal number) [bad-argument]",
      ],
      ["--timeout", " 5", "error: --timeout must be a number from 0.001 to 2147483 (got text that is not a decimal number) [bad-argument]"],
      [
        "--timeout",
        "1e3",
        "error: --timeout must be a number from 0.001 to 2147483 (got text that is not a decimal number) [bad-argument]",
      ],
      [
        "--timeout",
        "Infinity",
        "error: --timeout must be a number from 0.001 to 2147483 (got text that is not a decimal number) [bad-argument]",
      ],
      ["--temperature", "0x1", "error: --temperature must be a number >= 0 (got text that is not a decimal number) [bad-argument]"],
      ["--concurrency", "+4", "error: --concurrency must be an integer >= 1 (got text that is not a whole number) [bad-argument]"],
      ["--retries", "2.0", "error: --retries must be an integer >= 0 (got text that is not a whole number) [bad-argument]"],
      ["--retries", "-1", "error: --retries must be an integer >= 0, got -1 [bad-argument]"],
      ["--retries", "99999999999999999999", "error: --retries must be an integer >= 0, got 100000000000000000000 [bad-argument]"],
      [
        "--max-reply-bytes",
        "1_000_000",
        "error: --max-reply-bytes must be an integer from 1024 to 268435456 (got text that is not a whole number) [bad-argument]",
      ],
      [
        "--max-consecutive-errors",
        "0b1",
        "error: --max-consecutive-errors must be an integer >= 0 (got text that is not a whole number) [bad-argument]",
      ],
    ] as const) {
      const r = await run([...base, flag, value]);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(messageLines(r.err), `${flag} ${value}`).toEqual([line]);
    }
    expect(existsSync(out)).toBe(false);
    for (const [flag, value, line] of [
      [
        "--timeout",
        "0x10",
        "error: --timeout must be a number from 0.001 to 2147483 (got text that is not a decimal number) [bad-argument]",
      ],
      ["--timeout", " 5", "error: --timeout must be a number from 0.001 to 2147483 (got text that is not a decimal number) [bad-argument]"],
      ["--concurrency", "4 ", "error: --concurrency must be an integer >= 1 (got text that is not a whole number) [bad-argument]"],
    ] as const) {
      const r = await cli(["judge", "--results", realRun, "--endpoint", "http://127.0.0.1:9/v1", "--judge-model", "j", flag, value]);
      expect(r.code, `judge ${flag} ${value}`).toBe(2);
      expect(messageLines(r.err), `judge ${flag} ${value}`).toEqual([line]);
    }
    // and what --help says is what is checked
    for (const command of ["run", "judge"]) {
      const help = (await cli([command, "--help"])).out.replace(/\s+/g, " ");
      expect(help).toContain("--timeout <seconds> per-request deadline, body included: a decimal from 0.001 to 2147483");
      expect(help).toContain("--concurrency <n> items in flight at once: an integer >= 1");
      expect(help).toContain("--retries <n> retries per request on 429, 5xx, timeouts and network errors: an integer >= 0");
    }
  });
});

describe("judge checks its endpoint before it spends, as run does", () => {
  it("nothing listening, a URL without a scheme, a user name and password in the URL: one line at once, exit 2, no labels file", async () => {
    const port = await closedPort();
    const dir = mkdtempSync(join(tmp, "judge-refused-"));
    const labels = join(dir, "labels.jsonl");
    for (const [endpoint, line] of [
      [
        `http://127.0.0.1:${port}/v1`,
        `error: --endpoint http://127.0.0.1:${port}/v1: nothing answers at http://127.0.0.1:${port}/v1 (ECONNREFUSED): is the server running, and is --endpoint its address?; nothing was judged [endpoint-unreachable]`,
      ],
      [
        `127.0.0.1:${port}`,
        `error: --endpoint "127.0.0.1:${port}" is not an http(s) URL: did you mean http://127.0.0.1:${port}/v1? [bad-argument]`,
      ],
      [
        `http://user:password@127.0.0.1:${port}/v1`,
        "error: --endpoint: the URL holds a user name or password, which is not sent; give the key through an environment variable (--key-env / --user-key-env) [bad-argument]",
      ],
    ] as const) {
      const r = await cli(
        cliArgs("judge", { results: realRun, model: "openai_gpt-oss-20b", "include-silent": true, endpoint, "judge-model": "j", labels }),
      );
      expect(r.code, endpoint).toBe(2);
      expect(r.ms, endpoint).toBeLessThan(10_000);
      expect(messageLines(r.err), endpoint).toEqual([line]);
      expect(existsSync(labels)).toBe(false);
    }
  }, 30_000);

  it("an endpoint that does not serve the judge model is refused with what it serves; a key in the query string is never shown", async () => {
    const srv = await serve(
      startChatServer(
        (body, _req, res) => sendJson(res, 404, { object: "error", message: `The model \`${String(body.model)}\` does not exist.` }),
        { probe: "pass", models: ["other-judge"] },
      ),
    );
    const secret = "qs-0123456789abcdef-secret";
    const r = await cli(
      cliArgs("judge", {
        results: realRun,
        model: "openai_gpt-oss-20b",
        "include-silent": true,
        endpoint: `${srv.url}?api-key=${secret}`,
        "judge-model": "j",
        labels: join(tmp, "never.jsonl"),
      }),
    );
    expect(r.code).toBe(2);
    const lines = messageLines(r.err);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`error: --endpoint ${srv.url}?api-key=…: the endpoint answers 404 to a request for model "j"`);
    expect(lines[0]).toContain('lists "other-judge"');
    expect(lines[0]).toMatch(/nothing was judged \[model-not-served\]$/);
    expect(r.err + r.out).not.toContain(secret);
    expect(srv.stats.requests).toBe(1);
  });
});
