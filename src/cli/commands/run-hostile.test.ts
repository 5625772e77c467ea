/**
 * `twinscore run` through the CLI against hostile and broken endpoints on 127.0.0.1
 * (`src/testing/hostile-servers.ts`): echoed keys, endless or deeply nested replies, bad timeouts and
 * arguments, silent endpoints. More in this folder's README.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sendJson, startChatServer } from "../../testing/replay.js";
import {
  closedPort,
  keySpellings,
  spellKey,
  startDeepServer,
  startEndlessServer,
  startKeyEchoModel,
  startKeyEchoSimulator,
  startModelListServer,
  type ReceivedBodies,
} from "../../testing/hostile-servers.js";
import { completionWith } from "../../testing/stub-servers.js";
import { serverPool, subsetBfclData } from "../../testing/run-fixtures.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { cliArgs } from "../../testing/cli-args.js";

const categories = ["base", "miss_func", "miss_param"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-hostile-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
/** Two entries per category: miss_func_0/1 and miss_param_0/1 are should-ask items of the manifest's pairs. */
const data = subsetBfclData(join(tmp, "bfcl-data"), categories, 2);

let n = 0;
const fresh = (name: string) => join(tmp, `${++n}-${name}`);
const resultText = (out: string, modelDir: string) =>
  categories.map((c) => {
    const f = join(out, modelDir, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);
    return existsSync(f) ? readFileSync(f, "utf8") : "";
  });

async function cli(args: string[], env: Record<string, string> = {}) {
  const io = memoryIo(env, tmp);
  const t0 = Date.now();
  const code = await runCli(["run", "--bfcl-data", data, ...args], io);
  return { code, err: io.err.join(""), out: io.out.join(""), ms: Date.now() - t0 };
}

/** The error lines of stderr (progress lines aside). */
const errorLines = (err: string) => err.split("\n").filter((l) => l !== "" && !/^run: \d+\/\d+ items/.test(l));

/** Every string a text holds once decoded: each line's JSON strings and keys, and those of JSON nested in them. */
function decodedStrings(text: string): string[] {
  const out: string[] = [];
  const visit = (s: string, depth: number): void => {
    out.push(s);
    if (depth > 4 || !/^\s*[[{"]/.test(s)) return;
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      return;
    }
    const walk = (x: unknown): void => {
      if (typeof x === "string") visit(x, depth + 1);
      else if (x !== null && typeof x === "object") for (const [k, y] of Object.entries(x)) (visit(k, depth + 1), walk(y));
    };
    walk(v);
  };
  for (const line of text.split("\n")) visit(line, 0);
  return out;
}

/** Where a key shows in a text: raw in any JSON spelling, or in a decoded string. */
function leaks(text: string, key: string): string[] {
  const found = keySpellings.filter((s) => text.includes(spellKey(key, s)));
  if (decodedStrings(text).some((s) => s.includes(key))) found.push("decoded" as never);
  return found;
}

describe("keys echoed back in every JSON spelling", () => {
  it("neither key reaches a result file, stderr, stdout, or the other endpoint; both were echoed and redacted", async () => {
    const MODEL_KEY = "sk-proj/M0del-Key_2468";
    const SIM_KEY = "sk-sim/Us3r-Key_1357";
    const modelSaw: ReceivedBodies = { bodies: [] };
    const simSaw: ReceivedBodies = { bodies: [] };
    const model = await serve(startKeyEchoModel(modelSaw, { errorEvery: 5 }));
    const sim = await serve(startKeyEchoSimulator(simSaw));
    const out = fresh("echo");
    const r = await cli(
      cliArgs("", {
        endpoint: model.url,
        model: "m",
        out,
        items: "all",
        "key-env": "M_KEY",
        retries: 0,
        verbose: true,
        format: "json",
      }).concat(["--user-sim", "llm", "--user-endpoint", sim.url, "--user-model", "s", "--user-key-env", "S_KEY"]),
      { M_KEY: MODEL_KEY, S_KEY: SIM_KEY },
    );
    expect(r.code).toBe(1); // the 500s are error lines
    const files = resultText(out, "m").join("");
    for (const key of [MODEL_KEY, SIM_KEY]) {
      expect(leaks(files, key), `result files: ${key}`).toEqual([]);
      expect(leaks(r.err, key), `stderr: ${key}`).toEqual([]);
      expect(leaks(r.out, key), `stdout: ${key}`).toEqual([]);
    }
    expect(leaks(simSaw.bodies.join("\n"), MODEL_KEY), "the model's key sent to the simulator").toEqual([]);
    expect(leaks(modelSaw.bodies.join("\n"), SIM_KEY), "the simulator's key sent to the model").toEqual([]);
    // the echoes happened, in every spelling, and were redacted where they landed
    // the simulated user answers five times here (the model's many requests cycle through every spelling)
    expect(simSaw.bodies.length).toBeGreaterThanOrEqual(5);
    expect(modelSaw.bodies.length).toBeGreaterThan(2 * keySpellings.length);
    expect(files.match(/\[redacted\]/g)?.length ?? 0).toBeGreaterThan(10);
    expect(files).toContain("Error during inference: Error code: 500 - {'error': {'message': 'internal failure for token [redacted]'");
    expect(modelSaw.bodies.some((b) => b.includes("Use the file named after [redacted], please."))).toBe(true);
  }, 60_000);
});

describe("a key that cannot go into a header", () => {
  it("a newline in --key-env or --user-key-env: one line that does not show the key, exit 2, nothing made", async () => {
    const srv = await serve(startChatServer((_b, _r, res) => sendJson(res, 200, completionWith("ok"))));
    const SECRET = "sk-live-Secret9876";
    for (const [flag, extra] of [
      ["--key-env", []],
      ["--user-key-env", ["--user-sim", "llm", "--user-endpoint", srv.url, "--user-model", "s"]],
    ] as const) {
      const out = fresh("bad-key");
      const r = await cli(["--endpoint", srv.url, "--model", "m", "--out", out, flag, "K", ...extra], {
        K: `${SECRET}\nsecond line of the key file`,
      });
      expect(r.code, flag).toBe(2);
      expect(errorLines(r.err), flag).toEqual([
        `error: ${flag} K: the key contains a newline at character 19 of 46; an HTTP header cannot carry it (a key read from a file often ends with a newline: strip it) [key-unusable]`,
      ]);
      expect(r.err + r.out).not.toContain("Secret9876");
      expect(existsSync(out)).toBe(false);
    }
    expect(srv.stats.requests + srv.stats.probes).toBe(0);
  });
});

describe("replies a client must bound", () => {
  it("a reply that never ends: each item an error line at --max-reply-bytes, and the run goes on to the end", async () => {
    const endless = await serve(startEndlessServer());
    const out = fresh("endless");
    const r = await cli(
      cliArgs("", { endpoint: endless.url, model: "m", out, items: "all", "max-reply-bytes": 100000, retries: 2, timeout: 30 }),
    );
    expect(r.code).toBe(1);
    const lines = resultText(out, "m").join("").trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    for (const l of lines)
      expect(JSON.parse(l).result).toBe(
        "Error during inference: the endpoint's reply is longer than 100000 bytes (--max-reply-bytes); it was not read further",
      );
    expect(endless.stats.requests).toBe(6); // not retried
    expect(r.err).toContain("6 items, 6 generated, 0 already in the output, 6 error lines");
    const help = await cli(["--help"]);
    expect(help.out.replace(/\s+/g, " ")).toContain(
      '--max-reply-bytes <n> the most bytes of one reply read: an integer from 1024 to 268435456; a longer reply makes the item an error line (default: "8388608")',
    );
  }, 30_000);

  it("replies nested 3,000 levels deep, in content or in arguments sent as an object: those items are error lines, every other item is written, the files are sorted", async () => {
    const deep = await serve(
      startDeepServer(
        new Map([
          ["multi_turn_base_0", { where: "content", depth: 3000 }],
          ["multi_turn_base_1", { where: "arguments", depth: 3000 }],
          ["multi_turn_miss_func_0", { where: "arguments", depth: 20_000 }],
          // within what json.loads reads (the reply nests 1497 levels), but deeper than json.dumps writes once inside the line's log
          ["multi_turn_miss_param_0", { where: "content", depth: 1493 }],
        ]),
      ),
    );
    const out = fresh("deep");
    const r = await cli(["--endpoint", deep.url, "--model", "m", "--out", out, "--items", "all", "--retries", "0", "--concurrency", "6"]);
    expect(r.err).not.toContain("internal error");
    expect(r.code).toBe(1);
    const byId = new Map(
      resultText(out, "m")
        .join("")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: string; result: unknown })
        .map((v) => [v.id, v.result]),
    );
    expect([...byId.keys()]).toEqual([
      "multi_turn_base_0",
      "multi_turn_base_1",
      "multi_turn_miss_func_0",
      "multi_turn_miss_func_1",
      "multi_turn_miss_param_0",
      "multi_turn_miss_param_1",
    ]);
    for (const id of ["multi_turn_base_0", "multi_turn_base_1", "multi_turn_miss_func_0"]) {
      expect(byId.get(id), id).toBe(
        "Error during inference: the endpoint's reply nests arrays or objects more than 1497 levels deep, where Python's json.loads raises RecursionError; it was not read",
      );
    }
    expect(String(byId.get("multi_turn_miss_param_0"))).toMatch(/^Error during inference: maximum recursion depth exceeded/);
    for (const id of ["multi_turn_miss_func_1", "multi_turn_miss_param_1"]) expect(Array.isArray(byId.get(id)), id).toBe(true);
  }, 30_000);
});

describe("arguments checked before anything is made", () => {
  it("--timeout past Node's timer limit is refused with its bounds; the limit itself works", async () => {
    const srv = await serve(startChatServer((_b, _r, res) => sendJson(res, 200, completionWith("Nothing to do."))));
    const out = fresh("timeout");
    const over = await cli(["--endpoint", srv.url, "--model", "m", "--out", out, "--timeout", "2147484"]);
    expect(over.code).toBe(2);
    expect(errorLines(over.err)).toEqual(["error: --timeout must be a number from 0.001 to 2147483, got 2147484 [bad-argument]"]);
    expect(existsSync(out)).toBe(false);
    const at = await cli(["--endpoint", srv.url, "--model", "m", "--out", out, "--items", "all", "--timeout", "2147483", "--retries", "0"]);
    expect(at.code).toBe(0);
    expect(resultText(out, "m").join("")).not.toContain("Request timed out.");
    const help = await cli(["--help"]);
    expect(help.out.replace(/\s+/g, " ")).toContain(
      "--timeout <seconds> per-request deadline, body included: a decimal from 0.001 to 2147483 (Node's timer limit)",
    );
  });

  it("a bad --endpoint or a result folder outside --out: one line, exit 2, no folder made", async () => {
    const parent = fresh("args");
    const out = join(parent, "out");
    for (const [args, line] of [
      [
        ["--endpoint", "notaurl"],
        `error: --endpoint "notaurl" is not an http(s) URL: give the endpoint's base URL, e.g. http://127.0.0.1:8000/v1 [bad-argument]`,
      ],
      [
        ["--endpoint", "127.0.0.1:8000"],
        `error: --endpoint "127.0.0.1:8000" is not an http(s) URL: did you mean http://127.0.0.1:8000/v1? [bad-argument]`,
      ],
      [
        ["--endpoint", "localhost:8000/v1"],
        `error: --endpoint "localhost:8000/v1" is not an http(s) URL: did you mean http://localhost:8000/v1? [bad-argument]`,
      ],
      [
        ["--endpoint", "http://user:pw@127.0.0.1:8000/v1"],
        "error: --endpoint: the URL holds a user name or password, which is not sent; give the key through an environment variable (--key-env / --user-key-env) [bad-argument]",
      ],
      [
        ["--model", ".."],
        `error: --model "..": the result folder name (OUT/<model-dir>/multi_turn) is "..", which would put files outside --out; name the folder with --model-dir NAME [bad-argument]`,
      ],
      [
        ["--model-dir", "../x"],
        `error: --model-dir "../x": the result folder name (OUT/<model-dir>/multi_turn) holds a path separator, which would put files outside --out [bad-argument]`,
      ],
      [
        ["--user-sim", "llm", "--user-endpoint", "127.0.0.1:9000", "--user-model", "s"],
        `error: --user-endpoint "127.0.0.1:9000" is not an http(s) URL: did you mean http://127.0.0.1:9000/v1? [bad-argument]`,
      ],
    ] as const) {
      const argv = ["--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--out", out, ...args];
      const r = await cli(argv);
      expect(r.code, args.join(" ")).toBe(2);
      expect(errorLines(r.err), args.join(" ")).toEqual([line]);
      expect(existsSync(parent), args.join(" ")).toBe(false);
    }
  });
});

describe("an endpoint that does not answer", () => {
  it("a closed port: one line within seconds, exit 2, no output folder; a complete output needs no endpoint at all", async () => {
    const port = await closedPort();
    const out = fresh("closed");
    const r = await cli(["--endpoint", `http://127.0.0.1:${port}/v1`, "--model", "m", "--out", out, "--items", "all"]);
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(10_000);
    expect(errorLines(r.err)).toEqual([
      `error: --endpoint http://127.0.0.1:${port}/v1: nothing answers at http://127.0.0.1:${port}/v1 (ECONNREFUSED): is the server running, and is --endpoint its address?; nothing was generated [endpoint-unreachable]`,
    ]);
    expect(existsSync(out)).toBe(false);
    // a folder whose lines are all there: nothing to generate, so nothing is asked of the endpoint
    const srv = await serve(startChatServer((_b, _r, res) => sendJson(res, 200, completionWith("Nothing to do."))));
    expect((await cli(["--endpoint", srv.url, "--model", "m", "--out", out, "--items", "all", "--retries", "0"])).code).toBe(0);
    const again = await cli(["--endpoint", `http://127.0.0.1:${port}/v1`, "--model", "m", "--out", out, "--items", "all"]);
    expect(again.code).toBe(0);
    expect(again.err).toContain("6 items, 0 generated, 6 already in the output");
  });

  it("a server that does not serve the model: one line naming what it serves, exit 2, no output folder", async () => {
    const srv = await serve(startModelListServer(["Qwen/Qwen3-8B"]));
    const out = fresh("wrong-model");
    const r = await cli(["--endpoint", srv.url, "--model", "qwen3", "--out", out]);
    expect(r.code).toBe(2);
    const lines = errorLines(r.err);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('the endpoint answers 404 to a request for model "qwen3"');
    expect(lines[0]).toContain(`GET ${srv.url}/models lists "Qwen/Qwen3-8B"`);
    expect(lines[0]).toMatch(/\[model-not-served\]$/);
    expect(existsSync(out)).toBe(false);
    // the served name goes through on the model list alone
    const ok = await cli(["--endpoint", srv.url, "--model", "Qwen/Qwen3-8B", "--out", out, "--items", "all", "--retries", "0"]);
    expect(ok.code).toBe(0);
  });
});
