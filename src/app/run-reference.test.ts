/**
 * `run --history reference` against scripted policies over Table 1's pairs of BFCL v4: each policy scores what
 * it must (the oracle 100, always-act and always-ask 50), the lines say what they are, and a run killed and
 * resumed scores as an uninterrupted one. More in this folder's README.md.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HISTORY_KEY, MODE_KEY, PLAYED_TURNS_KEY, STOPPED_AFTER_TURN_KEY } from "../bfcl/line-keys.js";
import { pyRepr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";
import { defaultScoreOptions } from "../decision/types.js";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { parseReferenceCall } from "../rollout/reference-history.js";
import { requireFreshBuild } from "../testing/build.js";
import { table1Numbers } from "../testing/numbers.js";
import {
  alwaysActScript,
  alwaysAskScript,
  oracleScript,
  scriptedResponder,
  startPolicyServer,
  turnAndStep,
  type CallScript,
} from "../testing/policies.js";
import { readForTest } from "../testing/read-models.js";
import { realV4RunInputs, serverPool, inProcessRun } from "../testing/run-fixtures.js";
import { bfclDataDir, projectRoot } from "../testing/shared.js";
import { inProcessEndpoint, sendJson, startChatServer } from "../testing/replay.js";
import { runModel, type RunDocument, type RunRequest } from "./run/index.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-reference-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
const { manifest, entries, references, paramNames } = realV4RunInputs();
const scored = manifest.pairs.filter((p) => p.status === "scored");
const MODEL = "scripted/policy";

type Line = Record<string, unknown> & { id: string; result: unknown };

function linesOf(out: string): Line[] {
  const dir = join(out, "scripted_policy", "multi_turn");
  return readdirSync(dir)
    .filter((f) => f.endsWith("_result.json"))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Line),
    );
}

/**
 * A policy's run over Table 1's pairs, answered in process: what these runs check is what
 * `run` plays and writes, not the transport, which the server-backed tests below (and the
 * killed CLI run, whose lines must equal these) keep exercising.
 */
async function runPolicy(out: string, script: CallScript, extra: Partial<RunRequest> = {}): Promise<RunDocument> {
  const chat = inProcessEndpoint(scriptedResponder(script, { paramNames }), MODEL);
  const doc = await runModel(inProcessRun({ model: MODEL, outDir: out, items: "pairs", manifest, chat, concurrency: 8, ...extra }));
  if (!doc.ok) throw new Error(doc.problems.map((p) => p.message).join("; "));
  return doc.value;
}

const referenceRuns = new Map<string, Promise<RunDocument>>();
/** A policy's --history reference run over Table 1's pairs (FC), made once and read by several tests. */
function referenceRun(name: string, script: CallScript): { out: string; doc: Promise<RunDocument> } {
  const out = join(tmp, `${name}-reference`);
  let doc = referenceRuns.get(name);
  if (doc === undefined) {
    doc = runPolicy(out, script, { history: "reference" });
    referenceRuns.set(name, doc);
  }
  return { out, doc };
}
const oracleReference = () => referenceRun("oracle", oracleScript(references));

function numbers(out: string) {
  const read = readForTest([out], { pairs: { headline: defaultScoreOptions }, cwd: "/" });
  const model = read.models.find((m) => m.model === "scripted_policy");
  if (!model?.score) throw new Error(`no score: ${JSON.stringify(read.problems.slice(0, 3))}`);
  return table1Numbers(model.score.records, manifest);
}

describe("run --history reference over Table 1's pairs", () => {
  const policies: [string, CallScript][] = [
    ["oracle", oracleScript(references)],
    ["always-act", alwaysActScript(references, manifest.pairs)],
    ["always-ask", alwaysAskScript],
  ];
  const perPair: Record<string, Record<string, string>> = {};

  for (const [name, script] of policies) {
    it(`${name}: the decision numbers, one line per item and anchor, the played turns, and fewer requests than the model's own history`, async () => {
      const run = referenceRun(name, script);
      const out = run.out;
      const doc = await run.doc;
      expect(doc.errors).toEqual([]);
      expect(doc.history).toBe("reference");
      expect(doc.pairs).toBe(223);
      // one line per should-ask item, one per base item and distinct anchor among its pairs
      const baseAnchors = new Set(scored.map((p) => `${p.baseId}@${p.anchorTurn}`));
      expect(baseAnchors.size).toBe(manifest.funnel.distinctBaseAnchorTurnsScored);
      expect(doc.selected).toBe(223 + baseAnchors.size);
      expect(doc.generated).toBe(doc.selected);

      const lines = linesOf(out);
      expect(lines).toHaveLength(doc.selected);
      const keys = lines.map((l) => `${l.id}@${(l[PLAYED_TURNS_KEY] as number[]).length}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(new Set(keys)).toEqual(new Set([...baseAnchors, ...scored.map((p) => `${p.missId}@${p.anchorTurn}`)]));
      let played = 0;
      for (const l of lines) {
        expect(l[HISTORY_KEY]).toBe("reference");
        const turns = l[PLAYED_TURNS_KEY] as number[];
        const anchor = turns.length;
        expect(turns).toEqual(Array.from({ length: anchor }, (_, t) => t));
        const result = l.result as unknown[][];
        const count = entries.get(l.id)?.turns.length ?? 0;
        // stopped after the anchor, the key after the played turns where turns were left out, and the mode last
        expect(result).toHaveLength(anchor + 1);
        expect(l[STOPPED_AFTER_TURN_KEY]).toBe(anchor + 1 < count ? anchor : undefined);
        expect(Object.keys(l).slice(6)).toEqual(
          anchor + 1 < count
            ? [HISTORY_KEY, PLAYED_TURNS_KEY, STOPPED_AFTER_TURN_KEY, MODE_KEY]
            : [HISTORY_KEY, PLAYED_TURNS_KEY, MODE_KEY],
        );
        expect(l[MODE_KEY]).toBe("fc");
        // each played turn: one step holding the reference's calls, decoded as any step is, no tokens
        for (let t = 0; t < anchor; t++) {
          expect(result[t]).toHaveLength(1);
          // what BFCL's decoder made of the step (the log) is the reference's calls, arguments by name
          const want = (references.get(l.id)?.[t] ?? []).map((c) => {
            const p = parseReferenceCall(c, (m) => paramNames(l.id, m));
            if (!p.ok) throw new Error(c);
            return `${p.value.name}(${p.value.args
              .entries()
              .map(([k, v]) => `${String(k)}=${pyRepr(v as PyValue)}`)
              .join(",")})`;
          });
          const turnLog = (l.inference_log as unknown[]).filter((x) => !Array.isArray(x))[t] as Record<string, Record<string, unknown>[]>;
          const decoded = turnLog.step_0.find((e) => e.content === "Successfully decoded model response.")?.model_response_decoded;
          expect(decoded, `${l.id} turn ${t}`).toEqual(want);
          expect(Object.keys(turnLog)).toEqual(["begin_of_turn_query", "step_0"]);
          expect((l.input_token_count as number[][])[t]).toEqual([0]);
          played++;
        }
      }
      expect(doc.playedSteps).toBe(played);

      const got = numbers(out);
      expect(got.pairs).toBe(223);
      expect(got.n).toBe(223);
      if (name === "oracle") expect([got.act, got.hold, got.decision]).toEqual([100, 100, 100]);
      if (name === "always-act") expect([got.act, got.hold, got.decision]).toEqual([100, 0, 50]);
      if (name === "always-ask") expect([got.act, got.hold, got.decision]).toEqual([0, 100, 50]);

      // the same policy with its own history, whole and cut at the anchor: the requests per pair
      const own = await runPolicy(join(tmp, `${name}-own`), script);
      const cut = await runPolicy(join(tmp, `${name}-until-anchor`), script, { untilAnchor: true });
      expect(numbers(join(tmp, `${name}-own`)).decision).toBe(got.decision);
      expect(numbers(join(tmp, `${name}-until-anchor`)).decision).toBe(got.decision);
      expect(doc.requests).toBeLessThan(cut.requests);
      expect(cut.requests).toBeLessThan(own.requests);
      perPair[name] = Object.fromEntries(
        (
          [
            ["own", own],
            ["own --until-anchor", cut],
            ["reference", doc],
          ] as const
        ).map(([k, d]) => [k, `${(d.requests / d.pairs).toFixed(2)} (${d.requests} requests, ${d.selected} lines)`]),
      );
      console.log(`requests per pair, ${name}: ${JSON.stringify(perPair[name])}`);
    }, 300_000);
  }
});

describe("run --history reference in prompting mode", () => {
  it("the oracle writing Python-call text: the played steps are keyword text BFCL's decoder reads, act = hold = 100", async () => {
    const promptFile = join(tmp, "system.txt");
    writeFileSync(promptFile, "Answer with the calls as a Python list, e.g. [f(a=1)], and nothing else.\n\n{functions}\n");
    const out = join(tmp, "prompting-reference");
    const chat = inProcessEndpoint(scriptedResponder(oracleScript(references), { paramNames, mode: "prompting" }), MODEL);
    const run = await runModel(
      inProcessRun({
        model: MODEL,
        outDir: out,
        items: "pairs",
        manifest,
        chat,
        mode: "prompting",
        systemPromptFile: promptFile,
        history: "reference",
      }),
    );
    if (!run.ok) throw new Error(run.problems[0].message);
    expect(run.value.errors).toEqual([]);
    // the FC run of the same policy: the same world, output for output
    const toolOutputs = (l: Line, t: number) => {
      const turnLog = (l.inference_log as unknown[]).filter((x) => !Array.isArray(x))[t] as Record<string, Record<string, unknown>[]>;
      return turnLog.step_0.filter((e) => e.role === "tool").map((e) => e.content);
    };
    const key = (l: Line) => `${l.id}@${(l[PLAYED_TURNS_KEY] as number[]).length}`;
    const fcRun = oracleReference();
    await fcRun.doc;
    const fc = new Map(linesOf(fcRun.out).map((l) => [key(l), l]));
    let compared = 0;
    for (const l of linesOf(out)) {
      const result = l.result as unknown[][];
      const twin = fc.get(key(l));
      expect(twin, key(l)).toBeDefined();
      for (const t of l[PLAYED_TURNS_KEY] as number[]) {
        // one step of text; every reference call decoded (a positional argument by its name, or BFCL's decoder would drop it) and executed as in FC
        expect(result[t]).toHaveLength(1);
        expect(typeof result[t][0]).toBe("string");
        expect(toolOutputs(l, t), `${key(l)} turn ${t}`).toEqual(toolOutputs(twin as Line, t));
        expect(toolOutputs(l, t)).toHaveLength(references.get(l.id)?.[t].length ?? -1);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
    const got = numbers(out);
    expect([got.n, got.act, got.hold]).toEqual([223, 100, 100]);
  }, 300_000);
});

describe("run --history reference: options, resume and errors", () => {
  const few = ["multi_turn_base_5", "multi_turn_miss_func_5", "multi_turn_miss_param_5", "multi_turn_base_1", "multi_turn_miss_func_1"];

  it("--continue generates the turns after the anchor; --items all, --continue without it and a folder of the other history are refused", async () => {
    const out = join(tmp, "continue");
    const doc = await runPolicy(out, oracleScript(references), { history: "reference", continueAfterAnchor: true, onlyIds: few });
    expect(doc.errors).toEqual([]);
    const lines = linesOf(out);
    // one line per item and anchor of the scored pairs among these items
    const key = (l: Line) => `${l.id}@${(l[PLAYED_TURNS_KEY] as number[]).length}`;
    const wanted = scored
      .flatMap((p) => [`${p.baseId}@${p.anchorTurn}`, `${p.missId}@${p.anchorTurn}`])
      .filter((k) => few.includes(k.split("@")[0]));
    expect(new Set(lines.map(key))).toEqual(new Set(wanted));
    expect(lines).toHaveLength(new Set(wanted).size);
    // base_5 is the twin of pairs at two anchors: a line for each
    expect(lines.filter((l) => l.id === "multi_turn_base_5").map((l) => (l[PLAYED_TURNS_KEY] as number[]).length)).toEqual([2, 3]);
    for (const l of lines) {
      expect(l[STOPPED_AFTER_TURN_KEY]).toBeUndefined();
      expect(l.result as unknown[]).toHaveLength(entries.get(l.id)?.turns.length ?? -1);
    }
    const refusals: [Partial<RunRequest>, RegExp][] = [
      [{ history: "reference", items: "all" }, /needs --items pairs or all-pairs/],
      [{ continueAfterAnchor: true }, /--continue only applies with --history reference/],
      [{ history: "reference", continueAfterAnchor: true, untilAnchor: true }, /not both/],
      [
        {},
        /^the output was made with other settings: --history \(run\.json: reference; now: own\), --continue \(run\.json: on; now: off\);/,
      ],
    ];
    const again = (extra: Partial<RunRequest>) =>
      runModel(
        inProcessRun({
          model: MODEL,
          outDir: out,
          items: "pairs",
          manifest,
          chat: async () => ({ ok: false, error: "no request expected" }),
          onlyIds: few,
          ...extra,
        }),
      );
    for (const [extra, message] of refusals) {
      const r = await again(extra);
      expect(!r.ok && r.problems[0].message).toMatch(message);
    }
    // a folder made before run.json: its lines say which history they hold
    rmSync(join(out, "scripted_policy", "run.json"));
    const r = await again({});
    expect(!r.ok && r.problems[0].message).toMatch(/holds lines generated with --history reference/);
  }, 120_000);

  it("one line with malformed history keys: resume names that line and what is malformed, not 'lines generated with --history own'", async () => {
    const out = join(tmp, "malformed-history");
    await runPolicy(out, oracleScript(references), { history: "reference", onlyIds: few });
    const file = join(out, "scripted_policy", "multi_turn", "BFCL_v4_multi_turn_base_result.json");
    const original = readFileSync(file, "utf8");
    const lines = original.split("\n");
    const cases: [(l: Record<string, unknown>) => void, string][] = [
      [
        (l) => (l[PLAYED_TURNS_KEY] = [0, 2]),
        "`twinscore_played_turns` is not the list of the turns before an anchor turn T (0, 1, …, T-1)",
      ],
      [(l) => (l[HISTORY_KEY] = "referense"), '`twinscore_history` is "referense": neither "reference" nor "own"'],
      [(l) => delete l[HISTORY_KEY], "`twinscore_played_turns` without `twinscore_history`: whose calls its turns hold cannot be told"],
    ];
    for (const [mutate, what] of cases) {
      const line = JSON.parse(lines[1]) as Record<string, unknown>;
      mutate(line);
      writeFileSync(file, [lines[0], JSON.stringify(line), ...lines.slice(2)].join("\n"));
      const r = await runModel(
        inProcessRun({
          model: MODEL,
          outDir: out,
          items: "pairs",
          manifest,
          chat: async () => ({ ok: false, error: "no request expected" }),
          history: "reference",
          onlyIds: few,
        }),
      );
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.problems).toEqual([
        {
          code: "history-malformed",
          severity: "error",
          file,
          line: 2,
          message: `${line.id as string}: ${what}; resume cannot tell which history the line was generated with: correct the line or remove it`,
        },
      ]);
    }
  }, 120_000);

  it("an error line carries the history keys, so resume keeps it per anchor and --retry-errors generates only it again", async () => {
    const out = join(tmp, "errors");
    const respond = scriptedResponder(oracleScript(references), { paramNames });
    let failing = true;
    const srv = await serve(
      startChatServer((body, req, res) => {
        const item = String(req.headers["x-twinscore-item"] ?? "");
        // the base_5 line for anchor 3 fails: the first request of its turn 3 (the other line stops after turn 2)
        const at = turnAndStep(body.messages as Record<string, unknown>[]);
        if (failing && item === "multi_turn_base_5" && at.turn === 3 && at.step === 0) {
          sendJson(res, 500, { error: { message: "boom" } });
          return;
        }
        const a = respond(body, item);
        sendJson(res, a.status, a.body);
      }),
    );
    const request = (extra: Partial<RunRequest> = {}) =>
      runModel(
        inProcessRun({
          model: MODEL,
          outDir: out,
          items: "pairs",
          manifest,
          endpoint: srv.url,
          chat: undefined,
          history: "reference",
          onlyIds: few,
          ...extra,
        }),
      );
    const first = await request();
    expect(first.ok && first.value.errors.map((e) => [e.id, e.anchorTurn])).toEqual([["multi_turn_base_5", 3]]);
    const failed = linesOf(out).find((l) => typeof l.result === "string");
    expect(failed && [failed.id, failed[HISTORY_KEY], failed[PLAYED_TURNS_KEY]]).toEqual(["multi_turn_base_5", "reference", [0, 1, 2]]);
    const again = await request();
    expect(again.ok && [again.value.generated, again.value.keptErrors.map((e) => e.anchorTurn)]).toEqual([0, [3]]);
    failing = false;
    const retried = await request({ retryErrors: true });
    expect(retried.ok && [retried.value.generated, retried.value.errors, retried.value.resumed]).toEqual([
      1,
      [],
      retried.ok ? retried.value.selected - 1 : -1,
    ]);
    const lines = linesOf(out);
    expect(
      lines.filter((l) => l.id === "multi_turn_base_5").map((l) => [(l[PLAYED_TURNS_KEY] as number[]).length, Array.isArray(l.result)]),
    ).toEqual([
      [2, true],
      [3, true],
    ]);
  }, 120_000);

  it("killed mid-run (SIGKILL) and resumed: no line lost or repeated, and score gives the uninterrupted run's numbers", async () => {
    requireFreshBuild("cli/main.js");
    const { spawn } = await import("node:child_process");
    const wholeRun = oracleReference();
    await wholeRun.doc;
    const whole = wholeRun.out;
    const wholeLines = linesOf(whole);
    let child: ReturnType<typeof spawn> | null = null;
    const srv = await serve(
      startPolicyServer(scriptedResponder(oracleScript(references), { paramNames }), {
        delayMs: 2,
        onRequest: (n) => {
          if (n === 200) child?.kill("SIGKILL");
        },
      }),
    );
    const out = join(tmp, "killed");
    const args = [
      "run",
      "--endpoint",
      srv.url,
      "--model",
      MODEL,
      "--out",
      out,
      "--items",
      "pairs",
      "--history",
      "reference",
      "--bfcl-data",
      bfclDataDir(),
      "--concurrency",
      "8",
      "--retries",
      "0",
    ];
    child = spawn(process.execPath, [join(projectRoot, "dist", "cli", "main.js"), ...args], { stdio: "ignore" });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child?.on("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");
    const kept = readdirSync(join(out, "scripted_policy", "multi_turn"))
      .filter((f) => f.endsWith("_result.json"))
      .flatMap((f) =>
        readFileSync(join(out, "scripted_policy", "multi_turn", f), "utf8")
          .split("\n")
          .filter((l) => l.startsWith("{") && l.endsWith("}")),
      ).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(wholeLines.length);

    const io = memoryIo({}, tmp);
    expect(await runCli(args, io)).toBe(0);
    const summary = io.err.join("");
    expect(summary).toContain(
      `${wholeLines.length} lines (one per item and anchor), ${wholeLines.length - kept} generated, ${kept} already in the output`,
    );
    expect(summary).toMatch(/requests per pair \(223 pairs\)/);
    const resumed = linesOf(out);
    const key = (l: Line) => `${l.id}@${(l[PLAYED_TURNS_KEY] as number[]).length}`;
    expect(resumed.map(key)).toEqual(wholeLines.map(key));
    // everything but the wall-clock latencies is the uninterrupted run's
    const canonical = (ls: Line[]) => ls.map((l) => JSON.stringify({ ...l, latency: null }));
    expect(canonical(resumed)).toEqual(canonical(wholeLines));
    expect(numbers(out)).toEqual(numbers(whole));
  }, 300_000);
});
