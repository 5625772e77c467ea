/**
 * Every BFCL handler's output read as BFCL reads it: the corpus (tools/gen-handler-corpus.py) holds the result
 * lines BFCL's own code wrote for every handler class and every kind of response, and twinscore must read each
 * as BFCL did. More in this folder's README.md.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decoderByName, decodePlainStep, type Decoder } from "./decoders.js";
import { failureMessage, failureType } from "./outcome.js";
import { registryEntryOfFolder } from "./registry.js";
import { looksLikeToolCall } from "./health.js";
import { scanTurnQueries, turnQueriesOf } from "../inference-log.js";
import { extractTurn } from "../../extract/index.js";
import { compareItem, dataCandidate } from "../../pairs/rollout-data.js";
import { loadCommittedManifest } from "../../io/manifest.js";
import { corpusText, loadCorpus, type Corpus, type CorpusHandler, type CorpusVector } from "../../testing/handler-corpus.js";
import { projectRoot, sharedPath } from "../../testing/shared.js";

/**
 * The decoder twinscore applies to a handler's folder of a revision: that revision's
 * registry's (as `score` and `check` choose it for a run of that version).
 */
function decoderOf(h: CorpusHandler, revision: "v3" | "v4"): Decoder {
  const entry = registryEntryOfFolder(h.folder, revision);
  expect(entry, `${revision} registry has no key ${h.key}`).toMatchObject({ handler: h.handler, isFcModel: h.isFcModel });
  return decoderByName(entry!.decoder)!;
}

/** A step BFCL logged, with what its decode gave: the handler_log record of that step. */
interface LoggedStep {
  readonly step: unknown;
  readonly bfcl: { calls: string[] } | { error: string } | null;
}

/** The steps of each turn with BFCL's logged decode of each (turn records of the inference log, in order). */
function loggedTurns(line: { result: unknown; inference_log?: unknown }): LoggedStep[][] {
  const records = (Array.isArray(line.inference_log) ? line.inference_log : []).filter(
    (e): e is Record<string, unknown> => e !== null && typeof e === "object" && !Array.isArray(e) && "begin_of_turn_query" in e,
  );
  const result = line.result as unknown[][];
  return result.map((steps, t) =>
    steps.map((step, s) => {
      const log = (records[t]?.[`step_${s}`] ?? []) as {
        role: string;
        content: unknown;
        model_response_decoded?: string[];
        error?: string;
      }[];
      const h = log.find((e) => e.role === "handler_log" && ("model_response_decoded" in e || "error" in e));
      const bfcl = h === undefined ? null : h.error !== undefined ? { error: h.error } : { calls: h.model_response_decoded! };
      return { step, bfcl };
    }),
  );
}

/** Whether our outcome is BFCL's: the same call strings, or a failure with the same text (a SyntaxError: the same type). */
function sameAsLogged(got: ReturnType<typeof decodePlainStep>, want: { calls: string[] } | { error: string }): boolean {
  if ("calls" in want) return got.ok && JSON.stringify(got.calls) === JSON.stringify(want.calls);
  if (got.ok) return false;
  return failureMessage(got) === want.error || failureType(got) === "SyntaxError";
}

function sameAsDecoded(got: ReturnType<typeof decodePlainStep>, want: { calls: string[] } | { error: string }): boolean {
  if ("calls" in want) return got.ok && JSON.stringify(got.calls) === JSON.stringify(want.calls);
  if (got.ok) return false;
  if (want.error.startsWith("SyntaxError:")) return failureType(got) === "SyntaxError";
  return got.error === want.error;
}

const PROSE = "I need your username and password before I can fund the account.";

/** A step holding nothing but the model's prose (or nothing at all), in any container a handler stores it in. */
function isTextReply(step: unknown): boolean {
  if (step === null || step === undefined) return true;
  if (typeof step === "string") return step.trim() === "" || step === PROSE;
  if (Array.isArray(step)) return step.every(isTextReply);
  return false;
}

/** The call name of a BFCL call string. */
const nameOf = (call: string): string => call.slice(0, call.indexOf("("));

const corpora = (["v4", "v3"] as const).map(loadCorpus);

describe.each(corpora.map((c) => [c.revision, c] as const))(
  "the handler corpus of %s (BFCL's own handler code)",
  (_rev, corpus: Corpus) => {
    const manifest = loadCommittedManifest(corpus.revision);
    const tools = new Set(corpus.tools);
    const byHandler = new Map(corpus.handlers.map((h) => [`${h.handler}/${h.key}`, h]));

    it("gives every handler the decoder its revision declares for the handler's decode_execute owner", () => {
      for (const h of corpus.handlers) {
        const d = decoderOf(h, corpus.revision);
        const owners = d.owners.filter((o) => o.owner === h.decodeOwner && (o.revision ?? corpus.revision) === corpus.revision);
        expect(owners, `${h.handler} ${h.key}: ${d.name}`).not.toEqual([]);
      }
    });

    it("covers every handler class the registry maps but those BFCL's own code cannot build", () => {
      const driven = new Set(corpus.handlers.map((h) => h.handler));
      expect(driven.size).toBe(corpus.drivenClasses);
      expect(corpus.drivenClasses + new Set(corpus.notDriven.map((n) => n.handler)).size).toBe(corpus.handlerClasses);
      for (const n of corpus.notDriven) expect(n.reason, n.handler).toMatch(/^BFCL's build_handler raises /);
      expect(corpus.vectors).toHaveLength(corpus.handlers.length * 7);
    });

    it("decodes every parsed response with the registry's decoder as the handler's decode_execute does", () => {
      const wrong: string[] = [];
      let decoded = 0;
      for (const v of corpus.vectors) {
        if (v.decoded === null || v.parsed.error !== undefined) continue;
        const decoder = decoderOf(byHandler.get(`${v.handler}/${v.key}`)!, corpus.revision);
        const got = decodePlainStep(decoder, v.parsed.model_responses);
        decoded++;
        if (!sameAsDecoded(got, v.decoded))
          wrong.push(`${v.handler} ${v.kind}: ours ${JSON.stringify(got)}, BFCL ${JSON.stringify(v.decoded)}`);
      }
      expect(wrong).toEqual([]);
      expect(decoded).toBeGreaterThan(corpus.vectors.length / 2);
    });

    it("decodes every logged step to what BFCL logged for it, and reads text replies as decided no-calls", () => {
      const wrong: string[] = [];
      let steps = 0;
      let textReplies = 0;
      for (const v of corpus.vectors) {
        const line = JSON.parse(v.line) as { result: unknown; inference_log?: unknown };
        if (typeof line.result === "string") continue; // an inference error line
        const h = byHandler.get(`${v.handler}/${v.key}`)!;
        const decoder = decoderOf(h, corpus.revision);
        loggedTurns(line).forEach((turn, t) => {
          const extraction = extractTurn(
            turn.map((s) => s.step),
            tools,
            { decoder },
          );
          turn.forEach(({ step, bfcl }, s) => {
            steps++;
            const where = `${v.handler} (${h.loop}) ${v.kind} turn ${t} step ${s}`;
            if (bfcl === null) {
              wrong.push(`${where}: no handler_log`);
              return;
            }
            const got = decodePlainStep(decoder, step);
            if (!sameAsLogged(got, bfcl)) wrong.push(`${where}: ours ${JSON.stringify(got)}, BFCL ${JSON.stringify(bfcl)}`);
            const failed = extraction.decodeErrors.filter((e) => e.step === s);
            if ("calls" in bfcl && bfcl.calls.length > 0 && bfcl.calls.every((c) => tools.has(nameOf(c)))) {
              const names = extraction.calls.filter((c) => c.step === s).map((c) => c.name);
              if (JSON.stringify(names) !== JSON.stringify(bfcl.calls.map(nameOf)))
                wrong.push(`${where}: calls ${JSON.stringify(names)}, BFCL ${JSON.stringify(bfcl.calls)}`);
              if (failed.length > 0) wrong.push(`${where}: decoded by BFCL but read as a decode failure`);
            }
            if (isTextReply(step)) {
              textReplies++;
              if (failed.length > 0) wrong.push(`${where}: text reply ${JSON.stringify(step)} read as a decode failure`);
              if (looksLikeToolCall(step)) wrong.push(`${where}: text reply ${JSON.stringify(step)} counted as a tool-call attempt`);
              if (extraction.calls.some((c) => c.step === s)) wrong.push(`${where}: text reply read as a call`);
            }
          });
          if (turn.every((s) => isTextReply(s.step)) && extraction.undecidableSteps > 0)
            wrong.push(`${v.handler} ${v.kind} turn ${t}: text replies left undecidable`);
        });
      }
      expect(wrong).toEqual([]);
      expect(steps).toBeGreaterThan(corpus.vectors.length * 2);
      expect(textReplies).toBeGreaterThan(corpus.vectors.length);
    });

    it("passes the data check on every logged user turn, whatever form the handler logs it in", () => {
      expect(manifest.ok).toBe(true);
      if (!manifest.ok) return;
      const data = dataCandidate(manifest.value);
      const wrong: string[] = [];
      const forms = new Set<string>();
      for (const v of corpus.vectors) {
        const line = JSON.parse(v.line) as { id: string; result: unknown; inference_log?: unknown };
        if (typeof line.result === "string") continue;
        const turns = turnQueriesOf(line.inference_log);
        const bytes = new TextEncoder().encode(v.line);
        expect(scanTurnQueries(bytes, 0, bytes.length)).toEqual(turns);
        const cmp = compareItem({ id: line.id, turns }, data, "all");
        if (cmp.kind !== "equal" || cmp.turnsCompared !== (line.result as unknown[]).length)
          wrong.push(`${v.handler} ${v.kind}: ${JSON.stringify(cmp)}`);
        for (const rec of line.inference_log as Record<string, unknown>[])
          if (rec !== null && typeof rec === "object" && "begin_of_turn_query" in rec)
            for (const m of rec.begin_of_turn_query as { content: unknown }[])
              forms.add(typeof m.content === "string" ? "string" : JSON.stringify(Object.keys((m.content as object[])[0] ?? {})));
      }
      expect(wrong).toEqual([]);
      // the content-block forms are in the corpus (Claude's {type, text}, Nova's {text})
      expect([...forms].sort()).toEqual(
        corpus.revision === "v4" ? ['["text"]', '["type","text"]', "string"].sort() : expect.arrayContaining(["string", '["type","text"]']),
      );
    });
  },
);

/** A vector the tests above lean on, to show they can fail. */
function claudeText(corpus: Corpus): CorpusVector {
  return corpus.vectors.find((v) => v.handler === "ClaudeHandler" && v.kind === "text" && byLoop(corpus, v) === "FC")!;
}
function byLoop(corpus: Corpus, v: CorpusVector): string {
  return corpus.handlers.find((h) => h.handler === v.handler && h.key === v.key)!.loop;
}

describe("the corpus checks can fail", () => {
  it("Claude's FC text reply is a one-string list that BFCL's FC decoder rejects, and it is read as text", () => {
    const v = claudeText(corpora[0]);
    const line = JSON.parse(v.line) as { result: unknown[][] };
    expect(line.result[0][0]).toEqual([PROSE]);
    const out = decodePlainStep(decoderByName("fc")!, line.result[0][0]);
    expect(out.ok).toBe(false);
    const x = extractTurn(line.result[0], new Set(corpora[0].tools), { decoder: decoderByName("fc")! });
    expect(x.decodeFailures).toBe(0);
    expect(x.undecidableSteps).toBe(0);
    expect(x.text).toEqual([PROSE]);
  });
  it("a list is a tool-call attempt by its entries: records and call text are, prose is not", () => {
    expect(looksLikeToolCall([PROSE])).toBe(false);
    expect(looksLikeToolCall(["", PROSE])).toBe(false);
    expect(looksLikeToolCall([])).toBe(false);
    expect(looksLikeToolCall(["[get_stock_info(symbol='NVDA')]"])).toBe(true);
    expect(looksLikeToolCall([{ get_stock_info: '{"symbol": "NVDA"}' }])).toBe(true);
    expect(looksLikeToolCall([[1, 2]])).toBe(true);
  });
  it("a Python-call text the server did not parse, in the same list, is still an attempt", () => {
    const x = extractTurn([["[get_stock_info(symbol='NVDA')]"]], new Set(corpora[0].tools), { decoder: decoderByName("fc")! });
    expect(x.toolCallSteps).toBe(1);
    expect(x.decodeFailures).toBe(1);
    expect(x.decodeErrors[0]).toMatchObject({ name: "get_stock_info", onToolList: true });
  });
});

/**
 * Regeneration from the Gorilla checkouts (GORILLA_DIR = the v4 checkout's
 * berkeley-function-call-leaderboard folder, GORILLA_V3_DIR = the v3 one's): the committed
 * corpus is exactly what tools/gen-handler-corpus.py prints. Skipped only when no checkout
 * is given; the committed corpus is read above either way.
 */
const checkouts = { v4: process.env.GORILLA_DIR, v3: process.env.GORILLA_V3_DIR };
for (const revision of ["v4", "v3"] as const) {
  const dir = checkouts[revision];
  describe.skipIf(!dir)(`the ${revision} handler corpus regenerated from its checkout`, () => {
    it("tools/gen-handler-corpus.py prints the committed corpus", () => {
      const out = execFileSync("python3", [join(projectRoot, "tools", "gen-handler-corpus.py"), dir!, sharedPath(`bfcl-${revision}`)], {
        encoding: "utf8",
        maxBuffer: 1 << 28,
        stdio: ["ignore", "pipe", "ignore"],
      });
      expect(out === corpusText(revision), `handler-corpus-${revision}.jsonl.gz differs from what the tool prints`).toBe(true);
    }, 180_000);
  });
}
