/**
 * A function-calling run whose server returned the model's calls as Python-call text (a Mistral FC run whose
 * server's tool-call parser failed), made from the real gpt-oss-120b run: BFCL executed no call there, yet the
 * headline counts each as the model's attempt. More in this folder's README.md.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { registryEntryOfFolder } from "../../bfcl/decode/registry.js";
import { headlineOf, headlineSpec, readingRates } from "../../decision/readings.js";
import { loadManifest } from "../../io/manifest.js";
import { readForTest } from "../../testing/read-models.js";
import { rolloutRunDir, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const categories = ["base", "miss_func", "miss_param"] as const;
const FOLDER = "mistral-small-2506-FC";
const SOURCE = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
let root = "";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();
const table1 = manifest.pairs.filter((p) => p.status === "scored");

/** A value as Python source (what a model writes in a call). */
function pySource(v: unknown): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string" || typeof v === "number") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pySource).join(", ")}]`;
  return `{${Object.entries(v as object)
    .map(([k, x]) => `${JSON.stringify(k)}: ${pySource(x)}`)
    .join(", ")}}`;
}

/** A record step `[{name: "<json args>"}, …]` as the text a server hands back when it did not parse the calls; null when its arguments are not JSON objects. */
function asCallText(step: unknown): string | null {
  if (!Array.isArray(step) || step.length === 0) return null;
  const calls: string[] = [];
  for (const record of step) {
    if (record === null || typeof record !== "object" || Array.isArray(record)) return null;
    for (const [name, raw] of Object.entries(record)) {
      let args: unknown;
      try {
        args = typeof raw === "string" ? JSON.parse(raw) : raw;
      } catch {
        return null;
      }
      if (args === null || typeof args !== "object" || Array.isArray(args)) return null;
      calls.push(
        `${name}(${Object.entries(args)
          .map(([k, v]) => `${k}=${pySource(v)}`)
          .join(", ")})`,
      );
    }
  }
  return `[${calls.join(", ")}]`;
}

/** The anchor turns of every line the pairs read: a base line can be the twin of several should-ask items. */
function anchorTurns(): Map<string, Set<number>> {
  const turns = new Map<string, Set<number>>();
  for (const p of [...manifest.pairs, ...manifest.restoredPairs]) {
    for (const id of [p.baseId, p.missId]) turns.set(id, new Set([...(turns.get(id) ?? []), p.anchorTurn]));
  }
  return turns;
}

interface Line {
  id: string;
  result: unknown;
}

/** What the rewrite leaves to count: per line id, whether it is an inference error and how many turns it has. */
const shapes = new Map<string, { error: boolean; turns: number }>();
let rewritten = 0;
let stillNative = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "twinscore-text-calls-"));
  const turns = anchorTurns();
  const target = join(root, "result", FOLDER, "multi_turn");
  mkdirSync(target, { recursive: true });
  for (const c of categories) {
    const name = `BFCL_v4_multi_turn_${c}_result.json`;
    const out: string[] = [];
    for (const text of readFileSync(join(SOURCE, name), "utf8").split("\n")) {
      if (text.trim() === "") continue;
      const line = JSON.parse(text) as Line;
      const error = !Array.isArray(line.result);
      shapes.set(line.id, { error, turns: error ? 0 : (line.result as unknown[]).length });
      if (!error) {
        const result = line.result as unknown[][];
        for (const t of turns.get(line.id) ?? []) {
          if (!Array.isArray(result[t])) continue;
          result[t] = result[t].map((step) => {
            const call = asCallText(step);
            if (call !== null) rewritten++;
            else if (Array.isArray(step) && step.length > 0) stillNative++;
            return call ?? step;
          });
        }
      }
      out.push(JSON.stringify(line));
    }
    writeFileSync(join(target, name), out.join("\n") + "\n");
  }
});

async function run(argv: string[]) {
  const io = memoryIo({}, root);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/**
 * BFCL's reading of the rewritten run, from the lines alone: every anchor-turn call is
 * text BFCL's FC decoder fails on (or a record BFCL could not decode), so no anchor turn
 * holds a call BFCL executed — act 0, hold 100 — on the Table 1 pairs whose two lines
 * reached the anchor turn.
 */
function bfclReading(): { n: number; act: number; hold: number; decision: number } {
  const reached = (id: string, anchor: number) => {
    const s = shapes.get(id);
    return s !== undefined && !s.error && s.turns > anchor;
  };
  const n = table1.filter((p) => reached(p.baseId, p.anchorTurn) && reached(p.missId, p.anchorTurn)).length;
  return { n, act: 0, hold: 100, decision: 50 };
}

describe("a function-calling run whose calls came back as text (real gpt-oss-120b lines, rewritten)", () => {
  it("score: no advice to change decoder, one audit line per category naming the cause, the BFCL-decoded reading beside the headline", async () => {
    // the folder is a registry model of an FC handler, and the rewrite turned the anchor calls into text
    expect(registryEntryOfFolder(FOLDER)).toMatchObject({ handler: "MistralHandler", isFcModel: true, decoder: "fc" });
    expect(rewritten).toBeGreaterThan(400);
    expect(stillNative).toBeLessThan(rewritten / 20);
    const r = await run(["score", "--results", join("result", FOLDER), "--bootstrap", "0"]);
    expect(r.code).toBe(0);
    expect(r.err).not.toMatch(/--decoder|another decoder|\[decode-failures\]/);
    const audit = r.err.split("\n").filter((l) => l.endsWith("[text-calls]"));
    expect(audit).toHaveLength(3);
    for (const [i, c] of categories.entries()) {
      expect(audit[i]).toContain(`BFCL_v4_multi_turn_${c}_result.json: warning: model ${FOLDER}: `);
      expect(audit[i]).toMatch(
        /anchor-turn call steps in \S+ \(\d+\.\d %\) are calls written as text that the handler BFCL's registry gives it \(key mistral-small-2506-FC: MistralHandler, function-calling mode; decoder fc\) does not parse/,
      );
      expect(audit[i]).toContain("likely cause: the server's tool-call parser or chat template");
    }
    const lines = r.out.split("\n");
    const header = lines.find((l) => l.startsWith("model"))!.split(/\s{2,}/);
    const row = lines.find((l) => l.startsWith(FOLDER))!.split(/\s{2,}/);
    const cell = (h: string) => row[header.indexOf(h)];
    const expected = bfclReading();
    expect([cell("bfcl.act"), cell("bfcl.hold"), cell("bfcl.dec")]).toEqual(
      [expected.act, expected.hold, expected.decision].map((v) => v.toFixed(1)),
    );
    // the headline stays the undecodable-attempt rule's: the model's decision, far from BFCL's reading
    expect(Number(cell("act"))).toBeGreaterThan(90);
    expect(Math.abs(Number(cell("decision")) - expected.decision)).toBeGreaterThanOrEqual(1);
    expect(r.out).toContain("bfcl.act, bfcl.hold, bfcl.dec: the same pairs as BFCL decodes the steps");
  });

  it("--format json carries the BFCL-decoded reading and the parse audit", async () => {
    const r = await run(["score", "--results", join("result", FOLDER), "--bootstrap", "0", "--format", "json"]);
    const m = JSON.parse(r.out).models[0];
    const expected = bfclReading();
    expect(m.bfclDecoded).toEqual(expected);
    expect(m.decoder).toMatchObject({ name: "fc", source: "registry" });
    expect(m.parseAudit.map((a: { category: string }) => a.category)).toEqual([...categories]);
    for (const a of m.parseAudit) {
      expect(a.steps.textCalls).toBeGreaterThan(a.steps.native * 19);
      expect(a.twins).toBeGreaterThan(0);
    }
  });

  it("report: the BFCL-decoded reading beside the decision in Table 1", async () => {
    const r = await run(["report", "--results", join("result", FOLDER), "--bootstrap", "0", "--out", "report.html"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("[text-calls]");
    const html = readFileSync(join(root, "report.html"), "utf8");
    const expected = bfclReading();
    const cell = html.match(new RegExp(`data-model="${FOLDER}" data-col="bfcl_decoded">([^<]*)<`));
    expect(cell?.[1]).toBe(`${expected.act.toFixed(1)} / ${expected.hold.toFixed(1)} / ${expected.decision.toFixed(1)}`);
    expect(html).toContain("as BFCL decodes: act / hold / decision");
  });

  it("the same lines in a folder BFCL's registry does not know (decoder detected) keep the wrong-decoder advice, with no audit line and the same BFCL-decoded reading", async () => {
    const own = join(root, "detected", "some-unregistered-model", "multi_turn");
    mkdirSync(own, { recursive: true });
    for (const c of categories)
      copyFileSync(
        join(root, "result", FOLDER, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`),
        join(own, `BFCL_v4_multi_turn_${c}_result.json`),
      );
    const r = await run(["score", "--results", join("detected", "some-unregistered-model"), "--bootstrap", "0", "--format", "json"]);
    expect(r.err).not.toContain("[text-calls]");
    expect(
      r.err
        .split("\n")
        .filter((l) =>
          l.endsWith(
            "fail to decode with decoder fc; the steps may need another decoder: pass --decoder NAME (see --help) [decode-failures]",
          ),
        ),
    ).toHaveLength(3);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out);
    expect(doc.models[0].decoder.source).toBe("detected");
    expect(doc.models[0].bfclDecoded).toEqual(bfclReading());
  });
});

describe("the real runs in ../shared: their readings agree, so no audit line and no BFCL-decoded columns", () => {
  const runs = [join(rolloutRunDir("2025-11-12-main"), ".."), sharedPath("rollouts", "xlam-v3")];
  for (const results of runs) {
    it(`score ${results.split("/").slice(-2).join("/")}: the table and the document as before`, async () => {
      const table = await run(["score", "--results", results, "--bootstrap", "0"]);
      expect(table.err).not.toContain("[text-calls]");
      expect(table.out).not.toContain("bfcl.");
      const json = await run(["score", "--results", results, "--bootstrap", "0", "--format", "json"]);
      const doc = JSON.parse(json.out);
      expect(doc.models.length).toBeGreaterThan(0);
      for (const m of doc.models) {
        expect(m).not.toHaveProperty("bfclDecoded");
        expect(m).not.toHaveProperty("parseAudit");
      }
      // the reading beside the headline is computed, and found within a point of it on every model
      for (const m of readForTest([results]).models) {
        const h = headlineOf(m.score!.records, m.manifest, headlineSpec({ pairSet: "certified", countLogin: false }), "decided", 100, null);
        const bfcl = readingRates(
          m.score!.records,
          m.manifest,
          { ...headlineSpec({ pairSet: "certified", countLogin: false }), decoding: "bfcl" },
          "decided",
        );
        expect(Math.abs(bfcl.decision - h.numbers.decision)).toBeLessThan(1);
        expect(h.bfclDecoded).toBeNull();
      }
    });
  }

  it("2025-11-12-main gpt-oss-120b: as BFCL decodes, act moves 1.4 points (records whose arguments BFCL could not decode) and the decision 0.7, under the 1-point line", async () => {
    const r = await run([
      "score",
      "--results",
      join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b"),
      "--bootstrap",
      "0",
      "--sensitivity",
      "--format",
      "json",
    ]);
    const doc = JSON.parse(r.out);
    const m = doc.models[0];
    const row = (id: string) => doc.sensitivity.rows.find((x: { reading: string }) => x.reading === id);
    expect(
      [row("table-1").act - row("bfcl-decoded").act, m.numbers.decision - row("bfcl-decoded").decision].map((v: number) => v.toFixed(1)),
    ).toEqual(["1.4", "0.7"]);
    expect(m).not.toHaveProperty("bfclDecoded");
    // the same reading the headline is compared with
    const read = readForTest([join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b")]).models[0];
    const spec = { ...headlineSpec({ pairSet: "certified", countLogin: false }), decoding: "bfcl" as const };
    expect(readingRates(read.score!.records, read.manifest, spec, "decided").decision).toBe(row("bfcl-decoded").decision);
  });
});
