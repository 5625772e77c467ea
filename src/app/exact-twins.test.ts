/**
 * The twins of `run --history reference` are exact: the anchor turn's first request differs between the twins
 * only in what the pair withholds, and the played prefix is the history BFCL's loop builds for the reference's
 * calls. More in this folder's README.md.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import type { BfclVersion } from "../bfcl/categories.js";
import { decodeFcStep, decodePromptingStep } from "../bfcl/decode/index.js";
import { loadManifest, committedManifestPath } from "../io/manifest.js";
import type { Manifest, ManifestPair } from "../pairs/types.js";
import type { PyDict } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import {
  methodParameterNames,
  playedHistory,
  processExecutor,
  pyToPlain,
  runEntry,
  systemPromptFromFile,
  convertToTools,
  type ChatEndpoint,
  type ChatRequest,
  type RolloutEntry,
} from "../rollout/index.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { oracleScript, paramNamesOf, SCRIPTED_CLOSING_TEXT, scriptedResponder, turnAndStep } from "../testing/policies.js";
import { inProcessEndpoint } from "../testing/replay.js";
import { sharedPath } from "../testing/shared.js";
import { loadReferenceTurns, loadRunEntries } from "./run/index.js";

type Mode = "fc" | "prompting";
type Msg = Record<string, unknown>;
const modes: readonly Mode[] = ["fc", "prompting"];

/** A system prompt of BFCL's shape: a fixed text and the docs where `{functions}` stands (tests never read a BFCL installation). */
const systemPrompt = systemPromptFromFile(
  "Answer with Python calls in brackets, e.g. [f(a=1)].\n\nHere is a list of functions in json format that you can invoke.\n{functions}\n",
);

/** The should-ask items whose anchor turn BFCL's data words otherwise than the base twin's, though only a function is removed. */
const rewordedAnchors: Record<BfclVersion, readonly string[]> = {
  v4: [
    "multi_turn_miss_func_3",
    "multi_turn_miss_func_5",
    "multi_turn_miss_func_8",
    "multi_turn_miss_func_32",
    "multi_turn_miss_func_48",
    "multi_turn_miss_func_187",
  ],
  v3: ["multi_turn_miss_func_3", "multi_turn_miss_func_5", "multi_turn_miss_func_8", "multi_turn_miss_func_32", "multi_turn_miss_func_48"],
};
/** The scored ones of them, the four the pairing's content check (turns before the anchor only) lets into Table 1 on v4. */
const rewordedScoredV4 = ["multi_turn_miss_func_5", "multi_turn_miss_func_8", "multi_turn_miss_func_32", "multi_turn_miss_func_187"];
/** The miss_param items whose anchor turn is the base twin's word for word (nothing is withheld: v4 rules 199 a construction error). */
const unchangedAnchors: Record<BfclVersion, readonly string[]> = {
  v4: ["multi_turn_miss_param_199"],
  v3: ["multi_turn_miss_param_156", "multi_turn_miss_param_195", "multi_turn_miss_param_199"],
};

interface VersionData {
  readonly manifest: Manifest;
  readonly entries: Map<string, RolloutEntry>;
  readonly references: Map<string, readonly (readonly string[])[]>;
}

function loadVersion(version: BfclVersion): VersionData {
  const dir = sharedPath(`bfcl-${version}`);
  const manifest = loadManifest(committedManifestPath(version));
  const entries = loadRunEntries(dir, version);
  const references = loadReferenceTurns(dir, version);
  if (!manifest.ok || !entries.ok || !references.ok) throw new Error(`BFCL ${version} data or manifest does not load`);
  return { manifest: manifest.value, entries: entries.value, references: references.value };
}

class Captured extends Error {}

/**
 * The first request of `turn` of an entry run through the loop, and the entry stopped
 * there: with the reference played before `turn` (`played`), or with `chat` answering.
 */
async function requestAt(
  version: BfclVersion,
  data: VersionData,
  id: string,
  turn: number,
  mode: Mode,
  chat: ChatEndpoint | null,
): Promise<ChatRequest> {
  const entry = data.entries.get(id);
  if (entry === undefined) throw new Error(`${id} is not in the data`);
  const process = newEvaluatorProcess(undefined, true, version);
  let played = null;
  if (chat === null) {
    const built = playedHistory(mode, data.references.get(id) ?? [], turn, methodParameterNames(process, entry.involvedClasses));
    if (!built.ok) throw new Error(`${id}: ${built.problems[0].message}`);
    played = built.value;
  }
  let captured: ChatRequest | null = null;
  const capture: ChatEndpoint = async (req) => {
    const at = turnAndStep(req.messages as Msg[]);
    if (at.turn === turn && at.step === 0) {
      captured = req;
      return { ok: false, error: "captured" };
    }
    if (chat === null) throw new Captured(`${id}: a request before turn ${turn} although the turns before it are played`);
    return chat(req);
  };
  const outcome = await runEntry(entry, {
    mode,
    chat: capture,
    now: () => 0,
    executor: processExecutor(process, entry, "exact/twins"),
    decode: mode === "fc" ? decodeFcStep : (step: PyValue) => decodePromptingStep(step),
    systemPrompt,
    played,
  });
  if (captured === null) throw new Error(`${id}: no request on turn ${turn} (${outcome.error ?? "the entry ended before it"})`);
  return captured;
}

/** The tool entries of docs, as the FC request holds them. */
const toolsOf = (docs: readonly PyDict[]) => pyToPlain(convertToTools(docs)) as Msg[];
const toolName = (t: Msg) => (t.function as Msg).name as string;
const docName = (d: PyDict) => d.get("name") as string;

/**
 * Every field where the two requests differ, as `field: what`: an empty list when they
 * differ only in what the pair withholds (the anchor turn's text where `differsIn` has
 * `anchor-request`; the removed functions, in the tools or the system prompt, where it has
 * `tools`), after checking that the withheld part is really what differs.
 */
function unexpectedDifferences(
  pair: ManifestPair,
  entries: Map<string, RolloutEntry>,
  base: ChatRequest,
  miss: ChatRequest,
  mode: Mode,
): string[] {
  const out: string[] = [];
  const removed = new Set(pair.removedFunctions);
  const baseEntry = entries.get(pair.baseId) as RolloutEntry;
  const missEntry = entries.get(pair.missId) as RolloutEntry;
  // the docs offered: the base twin's without the removed ones, in order
  const kept = baseEntry.functions.filter((d) => !removed.has(docName(d)));
  if (!isDeepStrictEqual(pyToPlain(missEntry.functions as PyValue[]), pyToPlain(kept as PyValue[])))
    out.push("functions: the should-ask twin's docs are not the base twin's without the removed ones");
  if (baseEntry.functions.length - kept.length !== removed.size)
    out.push("functions: a removed function is not among the base twin's docs");
  // tools: FC only, the base twin's minus the removed entries
  if (mode === "fc") {
    const baseTools = (base.tools ?? []) as Msg[];
    const missTools = (miss.tools ?? []) as Msg[];
    if (!isDeepStrictEqual(baseTools, toolsOf(baseEntry.functions))) out.push("tools: the base request's tools are not its docs converted");
    if (
      !isDeepStrictEqual(
        missTools,
        baseTools.filter((t) => !removed.has(toolName(t))),
      )
    )
      out.push("tools: differ otherwise than by the removed functions");
    if (pair.differsIn.includes("tools") !== baseTools.length > missTools.length)
      out.push(`tools: the manifest says differsIn ${JSON.stringify(pair.differsIn)}`);
  } else if (base.tools !== null || miss.tools !== null) out.push("tools: a prompting request sends tools");
  const [b, m] = [base.messages as Msg[], miss.messages as Msg[]];
  if (b.length !== m.length) return [...out, `messages: ${b.length} on the base twin, ${m.length} on the should-ask twin`];
  // the anchor turn's messages are the last ones of its first request (the turn's user message)
  const anchorTurnMessages = (baseEntry.turns[pair.anchorTurn] ?? []).length;
  for (let i = 0; i < b.length; i++) {
    if (isDeepStrictEqual(b[i], m[i])) continue;
    const inAnchorTurn = i >= b.length - anchorTurnMessages;
    if (mode === "prompting" && i === 0 && b[0].role === "system") {
      // the system prompt: built from each twin's docs, the removed ones absent on the should-ask side
      if (b[0].content !== systemPrompt(baseEntry.functions) || m[0].content !== systemPrompt(kept))
        out.push("messages[0]: a system prompt is not the template filled with its twin's docs");
      if (!pair.differsIn.includes("tools")) out.push("messages[0]: the system prompts differ and the manifest lists no tools difference");
      continue;
    }
    const onlyContent =
      b[i].role === m[i].role &&
      Object.keys(b[i]).join() === Object.keys(m[i]).join() &&
      Object.keys(b[i]).every((k) => k === "content" || isDeepStrictEqual(b[i][k], m[i][k]));
    if (inAnchorTurn && b[i].role === "user" && onlyContent && pair.differsIn.includes("anchor-request")) continue;
    out.push(`messages[${i}] (${String(b[i].role)}${inAnchorTurn ? ", anchor turn" : ", before the anchor"}) differ`);
  }
  if (pair.differsIn.includes("anchor-request") && isDeepStrictEqual(b.slice(-anchorTurnMessages), m.slice(-anchorTurnMessages)))
    out.push("the manifest lists an anchor-request difference the requests do not show");
  return out;
}

for (const version of ["v4", "v3"] as const) {
  describe(`exact twins on BFCL ${version}`, () => {
    const data = loadVersion(version);
    const pairs = data.manifest.pairs;

    it("the manifest lists the anchor turns BFCL's data rewords and the ones it leaves unchanged", () => {
      const reworded = pairs.filter((p) => p.category === "miss_func" && p.differsIn.includes("anchor-request")).map((p) => p.missId);
      expect(reworded).toEqual(rewordedAnchors[version]);
      const unchanged = pairs.filter((p) => p.category === "miss_param" && !p.differsIn.includes("anchor-request")).map((p) => p.missId);
      expect(unchanged).toEqual(unchangedAnchors[version]);
      if (version === "v4")
        expect(reworded.filter((id) => pairs.find((p) => p.missId === id)?.status === "scored")).toEqual(rewordedScoredV4);
      // what the manifest says agrees with the data: every miss_func pair removes functions, no miss_param pair does
      for (const p of pairs) expect(p.differsIn.includes("tools"), p.missId).toBe(p.category === "miss_func");
      // and with the text it records
      for (const p of pairs) expect(p.differsIn.includes("anchor-request"), p.missId).toBe(p.anchorRequest.base !== p.anchorRequest.miss);
    });

    for (const mode of modes) {
      it(`${mode}: on every pair the anchor turn's first request differs between the twins only in what is withheld`, async () => {
        const failures: string[] = [];
        let compared = 0;
        for (const pair of pairs) {
          const base = await requestAt(version, data, pair.baseId, pair.anchorTurn, mode, null);
          const miss = await requestAt(version, data, pair.missId, pair.anchorTurn, mode, null);
          const diff = unexpectedDifferences(pair, data.entries, base, miss, mode);
          if (diff.length > 0) failures.push(`${pair.missId}: ${diff.join("; ")}`);
          compared++;
        }
        expect(failures).toEqual([]);
        expect(compared).toBe(pairs.length);
      }, 300_000);
    }
  });
}

describe("the played prefix is BFCL's history for the reference's calls", () => {
  const data = loadVersion("v4");
  const paramNames = paramNamesOf(data.entries);
  const oracle = oracleScript(data.references);
  const items = new Map<string, Set<number>>();
  for (const p of data.manifest.pairs) {
    for (const id of [p.baseId, p.missId]) items.set(id, (items.get(id) ?? new Set()).add(p.anchorTurn));
  }

  /** A closing step of the policy: FC, its closing text without calls; prompting, empty text. */
  const isClosing = (m: Msg, mode: Mode) =>
    m.role === "assistant" &&
    (mode === "fc" ? m.content === SCRIPTED_CLOSING_TEXT && Array.isArray(m.tool_calls) && m.tool_calls.length === 0 : m.content === "");

  for (const mode of modes) {
    it(`${mode}: message for message, on every item and anchor of the v4 pairs, apart from the policy's closing steps`, async () => {
      const policy = inProcessEndpoint(scriptedResponder(oracle, { mode, paramNames, asPlayed: true }), "exact/twins");
      const failures: string[] = [];
      let compared = 0;
      let closings = 0;
      for (const [id, anchors] of items) {
        for (const anchor of anchors) {
          const played = await requestAt("v4", data, id, anchor, mode, null);
          const generated = await requestAt("v4", data, id, anchor, mode, policy);
          const kept = (generated.messages as Msg[]).filter((m) => !isClosing(m, mode));
          closings += generated.messages.length - kept.length;
          if (!isDeepStrictEqual(played.messages, kept)) failures.push(`${id} anchor ${anchor}`);
          if (!isDeepStrictEqual(played.tools, generated.tools)) failures.push(`${id} anchor ${anchor}: tools`);
          // the played prefix holds no closing text: one assistant message per played turn
          expect((played.messages as Msg[]).filter((m) => m.role === "assistant")).toHaveLength(anchor);
          compared++;
        }
      }
      expect(failures).toEqual([]);
      expect(compared).toBe([...items.values()].reduce((n, s) => n + s.size, 0));
      // the policy closed every turn before the anchor once
      expect(closings).toBe([...items.values()].reduce((n, s) => n + [...s].reduce((a, t) => a + t, 0), 0));
    }, 300_000);
  }
});
