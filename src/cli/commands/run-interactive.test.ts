/**
 * `twinscore run --user-sim …` over real HTTP on 127.0.0.1, on a small BFCL data folder cut from the real one:
 * scripted equals a plain run, the flags and their errors, and a failing or dying simulator endpoint, resumed
 * to the uninterrupted run's files. More in this folder's README.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRunEntries, runCommand, type RunCommandRequest } from "../../app/run/index.js";
import { loadManifest } from "../../io/manifest.js";
import { newEvaluatorProcess } from "../../simulator/runtime.js";
import { sendJson, startChatServer, type TestServer } from "../../testing/replay.js";
import {
  askingOracle,
  expectedFacts,
  paramNamesOf,
  policyResponder,
  serveResponder,
  userSimStub,
  type UserSimStubLog,
} from "../../testing/interactive.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { serverPool, subsetBfclData } from "../../testing/run-fixtures.js";

const PER_CATEGORY = 10;
const categories = ["base", "miss_func", "miss_param"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-interactive-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();

/** A BFCL data folder with the first entries of each category (docs complete). */
const subsetData = subsetBfclData(join(tmp, "bfcl-data"), categories, PER_CATEGORY);

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("the committed manifest does not load");
  return m.value;
})();
const entries = (() => {
  const e = loadRunEntries(subsetData);
  if (!e.ok) throw new Error("the subset does not load");
  return e.value;
})();
const groundTruth = new Map<string, string[][]>();
for (const c of categories) {
  for (const l of readFileSync(join(subsetData, "possible_answer", `BFCL_v4_multi_turn_${c}.json`), "utf8").split("\n")) {
    if (l.trim() === "") continue;
    const v = JSON.parse(l) as { id: string; ground_truth: string[][] };
    groundTruth.set(v.id, v.ground_truth);
  }
}
/** The subset's should-ask items that get a simulated user: those of the manifest's pairs. */
const interactiveIds = manifest.pairs.map((p) => p.missId).filter((id) => entries.has(id));
const facts = expectedFacts(manifest.pairs, entries);
const oracleResponder = policyResponder(askingOracle(groundTruth), {
  pairs: manifest.pairs,
  entries,
  paramNames: paramNamesOf(entries, newEvaluatorProcess(undefined, true)),
});

function base(url: string, out: string, extra: Partial<RunCommandRequest> = {}): RunCommandRequest {
  return {
    endpoint: url,
    model: "scripted/asker",
    out,
    items: "all",
    bfclData: subsetData,
    concurrency: 4,
    retries: 1,
    timeoutSeconds: 10,
    now: () => 0,
    cwd: tmp,
    env: {},
    ...extra,
  };
}

function allFiles(out: string): string {
  return categories
    .map((c) => readFileSync(join(out, "scripted_asker", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "utf8"))
    .join("");
}

/** The interactive run without faults, made once and shared by the fault tests. */
let reference: Promise<string> | null = null;
function referenceText(): Promise<string> {
  reference ??= (async () => {
    const model = await startChatServer((body, req, res) => {
      const a = oracleResponder(body, String(req.headers["x-twinscore-item"]));
      sendJson(res, a.status, a.body);
    });
    const sim = await serveResponder(userSimStub(facts, { asks: [], mismatches: [] }));
    try {
      const out = join(tmp, "reference");
      const doc = await runCommand(base(model.url, out, { userSim: "llm", userEndpoint: sim.url, userModel: "stub/user" }));
      if (doc.exitCode !== 0) throw new Error(`the reference run failed: ${JSON.stringify(doc.problems)} ${JSON.stringify(doc.errors)}`);
      return allFiles(out);
    } finally {
      await Promise.all([model.close(), sim.close()]);
    }
  })();
  return reference;
}

describe("twinscore run --user-sim over HTTP", () => {
  it("the subset has should-ask items of pairs to simulate", () => {
    expect(interactiveIds.length).toBeGreaterThanOrEqual(8);
  });

  it("--user-sim scripted is BFCL's script: the same bytes as a plain run", async () => {
    const model = await serve(serveResponder(oracleResponder));
    const plain = await runCommand(base(model.url, join(tmp, "plain")));
    const scripted = await runCommand(base(model.url, join(tmp, "scripted"), { userSim: "scripted" }));
    expect(plain.exitCode).toBe(0);
    expect(scripted.exitCode).toBe(0);
    expect(scripted.userSimulator).toBeNull();
    expect(allFiles(join(tmp, "scripted"))).toBe(allFiles(join(tmp, "plain")));
    expect(allFiles(join(tmp, "plain"))).not.toContain("twinscore_user_simulator");
    // and the interactive run differs exactly on the should-ask items of pairs
    const interactive = await referenceText();
    const differing = new Set<string>();
    const plainLines = new Set(allFiles(join(tmp, "plain")).split("\n"));
    for (const l of interactive.split("\n")) if (!plainLines.has(l)) differing.add(/^\{"id": "([^"]+)"/.exec(l)?.[1] ?? l);
    expect([...differing].sort()).toEqual([...interactiveIds].sort());
  }, 120_000);

  it("the CLI flags: the simulator gets the item header and its own key (never written), the summary names what it did", async () => {
    const KEY = "sk-user-sim-5551234";
    const seen: { item: string; auth: string }[] = [];
    const log: UserSimStubLog = { asks: [], mismatches: [] };
    const stub = userSimStub(facts, log);
    const model = await serve(serveResponder(oracleResponder));
    const sim = await serve(
      startChatServer((body, req, res) => {
        seen.push({ item: String(req.headers["x-twinscore-item"]), auth: String(req.headers.authorization) });
        const a = stub(body, String(req.headers["x-twinscore-item"]));
        sendJson(res, a.status, a.body);
      }),
    );
    const out = join(tmp, "cli");
    const io = memoryIo({ SIM_KEY: KEY }, tmp);
    const args = [
      "run",
      "--endpoint",
      model.url,
      "--model",
      "scripted/asker",
      "--out",
      out,
      "--items",
      "all",
      "--bfcl-data",
      subsetData,
      "--user-sim",
      "llm",
      "--user-endpoint",
      sim.url,
      "--user-model",
      "stub/user",
      "--user-key-env",
      "SIM_KEY",
      "--max-clarifications",
      "1",
    ];
    const code = await runCli(args, io);
    const err = io.err.join("");
    expect(code, err).toBe(0);
    expect(log.mismatches).toEqual([]);
    expect(seen.length).toBe(2 * interactiveIds.length); // the anchor question, the closing "Done."
    expect(new Set(seen.map((s) => s.item))).toEqual(new Set(interactiveIds));
    expect(seen.every((s) => s.auth === `Bearer ${KEY}`)).toBe(true);
    expect(err).toContain(
      `note: simulated user stub/user: ${interactiveIds.length} answer turns (${interactiveIds.length} answered, 0 no question, 0 no text: scripted line), 0 clarification rounds (at most 1 per item); ${2 * interactiveIds.length} requests`,
    );
    expect(err + io.out.join("") + allFiles(out)).not.toContain(KEY);
  }, 120_000);

  it("refuses bad interactive arguments in one line, exit 2, before sending anything", async () => {
    const cases: [string[], RegExp][] = [
      [["--user-sim", "llm", "--user-model", "u"], /--user-sim llm needs --user-endpoint/],
      [["--user-sim", "llm", "--user-endpoint", "http://127.0.0.1:9/v1"], /--user-sim llm needs --user-model/],
      [
        ["--user-endpoint", "http://127.0.0.1:9/v1", "--max-clarifications", "1"],
        /--user-endpoint, --max-clarifications only apply with --user-sim llm/,
      ],
      [
        ["--user-sim", "llm", "--user-endpoint", "http://127.0.0.1:9/v1", "--user-model", "u", "--max-clarifications", "-1"],
        /--max-clarifications must be an integer >= 0/,
      ],
      [
        ["--user-sim", "llm", "--user-endpoint", "http://127.0.0.1:9/v1", "--user-model", "u", "--user-key-env", "NOT_SET_ANYWHERE"],
        /--user-key-env NOT_SET_ANYWHERE/,
      ],
      [
        ["--user-sim", "llm", "--user-endpoint", "http://127.0.0.1:9/v1", "--user-model", "u", "--user-prompt", "nowhere.md"],
        /cannot read the user-simulator prompt file/,
      ],
      [["--user-sim", "maybe"], /maybe/],
    ];
    for (const [extra, message] of cases) {
      const io = memoryIo({}, tmp);
      const code = await runCli(
        ["run", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--out", join(tmp, "never"), "--bfcl-data", subsetData, ...extra],
        io,
      );
      const err = io.err.join("");
      expect(code, extra.join(" ")).toBe(2);
      expect(err).toMatch(message);
      expect(err.trim().split("\n").length, err).toBeLessThanOrEqual(2);
      expect(err).not.toMatch(/at .*\.js:\d+/);
    }
  });

  it("--help and its topic teach interactive mode: what it replaces, how a question is told, the bound, the cost", async () => {
    const io = memoryIo({}, tmp);
    await runCli(["run", "--help"], io);
    await runCli(["help", "interactive"], io);
    const help = io.out.join("") + io.err.join("");
    for (const text of [
      "--user-sim <kind>",
      "--user-endpoint <url>",
      "--user-model <name>",
      "--user-key-env <var>",
      "--max-clarifications <n>",
      "--user-prompt <file>",
      "NO_QUESTION",
      "answer turn",
      "Cost:",
    ])
      expect(help, text).toContain(text);
  });

  it("the simulator failing: each request retried, then an error line naming the simulator; a resume with --retry-errors gives the uninterrupted run's files", async () => {
    const expected = await referenceText();
    const model = await serve(serveResponder(oracleResponder));
    let attempts = 0;
    const broken = await serve(
      startChatServer((_body, _req, res) => {
        attempts++;
        sendJson(res, 500, { error: { message: "simulator overloaded", type: "server_error", param: null, code: 500 } });
      }),
    );
    const out = join(tmp, "sim-failing");
    const first = await runCommand(base(model.url, out, { userSim: "llm", userEndpoint: broken.url, userModel: "stub/user", retries: 1 }));
    expect(first.exitCode).toBe(1);
    expect(first.errors.map((e) => e.id).sort()).toEqual([...interactiveIds].sort());
    expect(
      first.errors.every(
        (e) =>
          e.message ===
          "user simulator: Error code: 500 - {'error': {'message': 'simulator overloaded', 'type': 'server_error', 'param': None, 'code': 500}}",
      ),
    ).toBe(true);
    expect(attempts).toBe(2 * interactiveIds.length); // the first try and one retry each
    expect(allFiles(out)).toContain('"result": "Error during inference: user simulator: Error code: 500');

    const sim = await serve(serveResponder(userSimStub(facts, { asks: [], mismatches: [] })));
    const second = await runCommand(
      base(model.url, out, { userSim: "llm", userEndpoint: sim.url, userModel: "stub/user", retryErrors: true }),
    );
    expect(second.exitCode).toBe(0);
    expect(second.generated).toBe(interactiveIds.length);
    expect(allFiles(out)).toBe(expected);
  }, 120_000);

  it("the simulator dying mid-run: connection errors become error lines, and a resume gives the uninterrupted run's files", async () => {
    const expected = await referenceText();
    const model = await serve(serveResponder(oracleResponder));
    const stub = userSimStub(facts, { asks: [], mismatches: [] });
    let served = 0;
    const victim: TestServer = await serve(
      startChatServer((body, req, res) => {
        // a few items get both their answers; then the server goes away in the middle of a request
        if (++served > interactiveIds.length + 2) {
          req.socket.destroy();
          void victim.close();
          return;
        }
        const a = stub(body, String(req.headers["x-twinscore-item"]));
        sendJson(res, a.status, a.body);
      }),
    );
    const out = join(tmp, "sim-killed");
    const first = await runCommand(base(model.url, out, { userSim: "llm", userEndpoint: victim.url, userModel: "stub/user", retries: 1 }));
    expect(first.exitCode).toBe(1);
    expect(first.errors.length).toBeGreaterThan(0);
    expect(first.errors.length).toBeLessThan(interactiveIds.length);
    expect(first.errors.every((e) => e.message === "user simulator: Connection error.")).toBe(true);

    const revived = await serve(serveResponder(stub));
    const second = await runCommand(
      base(model.url, out, { userSim: "llm", userEndpoint: revived.url, userModel: "stub/user", retryErrors: true }),
    );
    expect(second.exitCode).toBe(0);
    expect(second.generated).toBe(first.errors.length);
    expect(second.resumed).toBe(3 * PER_CATEGORY - first.errors.length);
    expect(allFiles(out)).toBe(expected);
  }, 120_000);
});
