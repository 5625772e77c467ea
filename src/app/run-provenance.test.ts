/**
 * What a run folder says of how it was made (`run.json`, the mode key on each line), and what that buys: a
 * resume with other settings refused, text-only FC runs read as FC, mixed folders not scored. More in this
 * folder's README.md.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runModel, type RunRequest } from "./run/index.js";
import { MODE_KEY } from "../bfcl/line-keys.js";
import { RUN_RECORD_FILE, type RunRecord } from "../rollout/run-record.js";
import { TWINSCORE_VERSION } from "../messages/version.js";
import { manifestSha256 } from "../pairs/digest.js";
import { inProcessEndpoint } from "../testing/replay.js";
import { inProcessRun } from "../testing/run-fixtures.js";
import { policyResponder, v4Manifest } from "../testing/policy-runs.js";
import { readForTest } from "../testing/read-models.js";
import { rolloutRunDir, rolloutRuns } from "../testing/shared.js";

const manifest = v4Manifest();
const tmp = mkdtempSync(join(tmpdir(), "twinscore-provenance-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const systemPrompt = join(tmp, "system-prompt.txt");
writeFileSync(systemPrompt, "Call the functions as Python. {functions}");

// a few scored pairs of each should-ask category, so every result file exists and score reads the folder
const scored = manifest.pairs.filter((p) => p.status === "scored");
const somePairs = [
  ...scored.filter((p) => p.missId.includes("miss_func")).slice(0, 3),
  ...scored.filter((p) => p.missId.includes("miss_param")).slice(0, 3),
];
const someIds = [...new Set(somePairs.flatMap((p) => [p.baseId, p.missId]))];

/** Text that reads as a Python call under the prompting decoder and as no call under FC's. */
const callLikeText = () => ({
  status: 200,
  body: {
    choices: [{ index: 0, message: { role: "assistant", content: "[ls(a=True)]" }, finish_reason: "stop" }],
    usage: { prompt_tokens: 3, completion_tokens: 2 },
  },
});

function request(outDir: string, extra: Partial<RunRequest> = {}): RunRequest {
  return inProcessRun({
    model: "scripted/policy",
    modelDir: "m",
    outDir,
    items: "pairs",
    manifest,
    chat: inProcessEndpoint(policyResponder("always-act", extra.mode ?? "fc"), "scripted/policy"),
    narrowing: { ids: someIds },
    clock: () => new Date("2026-01-02T03:04:05.000Z"),
    ...extra,
  });
}

/** Every file of a folder with its bytes, to show a refused resume wrote nothing. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(p, readFileSync(p, "latin1"));
    }
  };
  walk(dir);
  return out;
}

function record(outDir: string): RunRecord {
  return JSON.parse(readFileSync(join(outDir, "m", RUN_RECORD_FILE), "utf8")) as RunRecord;
}

/** Append to `into`'s result files the lines of `from`'s whose ids it does not hold yet (a folder finished by another run). */
function finishWith(into: string, from: string): void {
  const dir = join(into, "m", "multi_turn");
  for (const f of readdirSync(join(from, "m", "multi_turn"))) {
    const have = existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : "";
    const haveIds = new Set(
      have
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: string }).id),
    );
    const extra = readFileSync(join(from, "m", "multi_turn", f), "utf8")
      .split("\n")
      .filter((l) => l && !haveIds.has((JSON.parse(l) as { id: string }).id));
    writeFileSync(join(dir, f), have + extra.map((l) => l + "\n").join(""));
  }
}

/** Make the folder look as one written before run.json and the mode key: no record, no key on any line. */
function asBeforeRecords(outDir: string): void {
  unlinkSync(join(outDir, "m", RUN_RECORD_FILE));
  asBeforeRecordsKeepingNone(outDir);
}

/** Take the mode key off every line. */
function asBeforeRecordsKeepingNone(outDir: string): void {
  const dir = join(outDir, "m", "multi_turn");
  for (const f of readdirSync(dir)) {
    const lines = readFileSync(join(dir, f), "utf8").trimEnd().split("\n");
    writeFileSync(
      join(dir, f),
      lines.map((l) => l.replace(`, "${MODE_KEY}": "fc"`, "").replace(`, "${MODE_KEY}": "prompting"`, "")).join("\n") + "\n",
    );
  }
}

describe("run.json", () => {
  it("records versions, digests and settings, never a key or query string; a resume counts a session", async () => {
    const out = join(tmp, "record");
    const first = await runModel(
      request(out, {
        endpoint: "http://user:pw@127.0.0.1:9/v1?api_key=sekrit#frag",
        narrowing: { ids: someIds.slice(0, 4) },
        inject: "Always ask first.",
      }),
    );
    expect(first.ok).toBe(true);
    const r = record(out);
    expect(r).toMatchObject({
      schemaVersion: 1,
      twinscoreVersion: TWINSCORE_VERSION,
      manifestSha256: manifestSha256(manifest),
      endpoint: "http://127.0.0.1:9/v1",
      settings: {
        model: "scripted/policy",
        mode: "fc",
        history: "own",
        untilAnchor: false,
        continueAfterAnchor: false,
        sampling: { temperature: 0.001, seed: null },
        systemPrompt: null,
        trials: 1,
      },
      startedAt: "2026-01-02T03:04:05.000Z",
      endedAt: "2026-01-02T03:04:05.000Z",
      sessions: 1,
    });
    expect(r.bfcl.dataSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.settings.inject).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), chars: 17, head: "Always ask first." });
    const text = readFileSync(join(out, "m", RUN_RECORD_FILE), "utf8");
    for (const secret of ["sekrit", "pw@", "user:", "?", "#frag"]) expect(text).not.toContain(secret);
    // every line ends with its mode
    for (const f of readdirSync(join(out, "m", "multi_turn"))) {
      for (const l of readFileSync(join(out, "m", "multi_turn", f), "utf8")
        .trimEnd()
        .split("\n"))
        expect(l.endsWith(`, "${MODE_KEY}": "fc"}`), l.slice(0, 80)).toBe(true);
    }
    const resumed = await runModel(request(out, { inject: "Always ask first.", clock: () => new Date("2026-02-03T00:00:00.000Z") }));
    expect(resumed.ok && resumed.value.generated).toBe(someIds.length - 4);
    expect(record(out)).toMatchObject({
      startedAt: "2026-01-02T03:04:05.000Z",
      lastStartedAt: "2026-02-03T00:00:00.000Z",
      endedAt: "2026-02-03T00:00:00.000Z",
      sessions: 2,
    });
  });

  const changes: [string, Partial<RunRequest>, Partial<RunRequest>, string][] = [
    ["mode", {}, { mode: "prompting", systemPromptFile: systemPrompt }, "--mode (run.json: fc; now: prompting)"],
    ["inject", {}, { inject: "Always ask before acting." }, '--inject (run.json: none; now: "Always ask before acting." (sha256 '],
    ["temperature", {}, { temperature: 0.7 }, "--temperature (run.json: temperature 0.001; now: temperature 0.7)"],
    ["history", {}, { history: "reference" }, "--history (run.json: own; now: reference)"],
    ["until-anchor", {}, { untilAnchor: true }, "--until-anchor (run.json: off; now: on)"],
    ["model", {}, { model: "other/model" }, "--model (run.json: scripted/policy; now: other/model)"],
  ];
  for (const [what, before, after, named] of changes) {
    it(`a resume with another ${what} is refused, the setting named, nothing written`, async () => {
      const out = join(tmp, `change-${what}`);
      const first = await runModel(request(out, { ...before, narrowing: { ids: someIds.slice(0, 2) } }));
      expect(first.ok).toBe(true);
      const kept = snapshot(out);
      const again = await runModel(request(out, { ...before, ...after, inject: after.inject ?? before.inject ?? null }));
      expect(again.ok).toBe(false);
      if (again.ok) return;
      expect(again.problems[0].code).toBe("settings-differ");
      expect(again.problems[0].message).toContain(named);
      expect(again.problems[0].message).toContain("nothing was written");
      expect(snapshot(out)).toEqual(kept);
    });
  }

  it("a prompting resume with another system prompt file is refused", async () => {
    const out = join(tmp, "system-prompt");
    const [a, b] = [join(tmp, "sp-a.txt"), join(tmp, "sp-b.txt")];
    writeFileSync(a, "You call functions. {functions}");
    writeFileSync(b, "You may call functions. {functions}");
    const first = await runModel(request(out, { mode: "prompting", systemPromptFile: a, narrowing: { ids: someIds.slice(0, 2) } }));
    expect(first.ok).toBe(true);
    const kept = snapshot(out);
    const again = await runModel(request(out, { mode: "prompting", systemPromptFile: b }));
    expect(!again.ok && again.problems[0].message).toContain('--system-prompt (run.json: "You call functions. {functions}" (sha256');
    expect(snapshot(out)).toEqual(kept);
  });

  it("a folder made before run.json: the lines' tool-call steps and injected blocks refuse another mode or block", async () => {
    const out = join(tmp, "before-records");
    const first = await runModel(request(out, { inject: "Ask first.", narrowing: { ids: someIds.slice(0, 4) } }));
    expect(first.ok).toBe(true);
    asBeforeRecords(out);
    const kept = snapshot(out);
    const mode = await runModel(request(out, { inject: "Ask first.", mode: "prompting", systemPromptFile: systemPrompt }));
    expect(!mode.ok && mode.problems[0].message).toContain("--mode (the lines: fc; now: prompting)");
    const block = await runModel(request(out, {}));
    expect(!block.ok && block.problems[0].message).toContain('--inject (the lines: "Ask first."; now: none)');
    expect(snapshot(out)).toEqual(kept);
    // the same settings go on, and the record is written from then on
    const same = await runModel(request(out, { inject: "Ask first." }));
    expect(same.ok && same.value.generated).toBe(someIds.length - 4);
    expect(record(out).settings.inject?.head).toBe("Ask first.");
  });

  it("--dry-run reads the folder, plans, and changes nothing", async () => {
    const out = join(tmp, "dry");
    let planned: unknown = null;
    const dry = await runModel(
      request(out, { dryRun: true, onPlan: (p) => (planned = p), chat: () => Promise.reject(new Error("a dry run sent a request")) }),
    );
    expect(dry.ok).toBe(true);
    if (!dry.ok) return;
    expect(dry.value).toMatchObject({ dryRun: true, exitCode: 0, generated: 0, requests: 0, record: null });
    expect(planned).toEqual(dry.value.plan);
    const pairsTouched = scored.filter((p) => someIds.includes(p.baseId) || someIds.includes(p.missId)).length;
    expect(dry.value.plan).toMatchObject({
      items: someIds.length,
      lines: someIds.length,
      pairs: pairsTouched,
      resumed: 0,
      pending: someIds.length,
    });
    expect(dry.value.plan!.minRequests).toBeGreaterThanOrEqual(someIds.length);
    expect(existsSync(out)).toBe(false);
  });
});

describe("the readers and what made a folder", () => {
  it("a text-only FC run whose text reads as calls is decoded as FC: from run.json, from the lines' mode, and only without both is it detected", async () => {
    const out = join(tmp, "text-only-fc");
    const made = await runModel(request(out, { chat: inProcessEndpoint(callLikeText, "scripted/policy") }));
    expect(made.ok).toBe(true);
    const read = () => readForTest([out]).models[0];
    const withRecord = read();
    expect(withRecord.decoder).toMatchObject({ name: "fc", source: "run" });
    expect(withRecord.runRecord?.settings.mode).toBe("fc");
    const attempts = (m: ReturnType<typeof read>) => m.score!.records.filter((r) => r.base.acted || r.miss.acted).length;
    expect(attempts(withRecord)).toBe(0);
    unlinkSync(join(out, "m", RUN_RECORD_FILE));
    const fromLines = read();
    expect(fromLines.decoder).toMatchObject({ name: "fc", source: "run", reason: "its lines record twinscore run's fc mode" });
    expect(attempts(fromLines)).toBe(0);
    // nothing recorded (BFCL's own format): detection reads the text as Python calls, what the record prevents
    asBeforeRecordsKeepingNone(out);
    expect(read().decoder).toMatchObject({ name: "prompting", source: "detected" });
    // a record that cannot be read is said, and the folder read as one without it
    writeFileSync(join(out, "m", RUN_RECORD_FILE), "{}");
    const broken = readForTest([out]);
    expect(broken.models[0].problems.find((p) => p.code === "run-record-malformed")?.message).toBe(
      "the run record cannot be read: schemaVersion undefined is not 1; the folder is read as one without it",
    );
  });

  it("a folder holding two modes, or lines with and without the injected block, is not scored", async () => {
    const out = join(tmp, "mixed");
    const first = await runModel(request(out, { narrowing: { ids: someIds.slice(0, 6) } }));
    expect(first.ok).toBe(true);
    // finished by a run of the old code in the other mode: no record to refuse it
    unlinkSync(join(out, "m", RUN_RECORD_FILE));
    const other = join(tmp, "mixed-other");
    const second = await runModel(
      request(other, {
        mode: "prompting",
        systemPromptFile: systemPrompt,
        chat: inProcessEndpoint(policyResponder("always-act", "prompting"), "scripted/policy"),
      }),
    );
    expect(second.ok).toBe(true);
    finishWith(out, other);
    const m = readForTest([out]).models[0];
    expect(m.score).toBeNull();
    const refusal = m.problems.find((p) => p.code === "run-mixed");
    expect(refusal?.message).toMatch(/^model m: its lines were made in two modes \(\d+ fc, \d+ prompting\)/);

    const injected = join(tmp, "mixed-inject");
    await runModel(request(injected, { narrowing: { ids: someIds.slice(0, 6) } }));
    unlinkSync(join(injected, "m", RUN_RECORD_FILE));
    const arm = await runModel(request(join(tmp, "mixed-inject-b"), { inject: "Always ask before acting." }));
    expect(arm.ok).toBe(true);
    finishWith(injected, join(tmp, "mixed-inject-b"));
    const mi = readForTest([injected]).models[0];
    expect(mi.score).toBeNull();
    expect(mi.problems.find((p) => p.code === "run-mixed")?.message).toMatch(
      /different injected blocks \(\d+ without an injected block, \d+ with "Always ask before acting\."\)|different injected blocks \(\d+ with "Always ask before acting\.", \d+ without an injected block\)/,
    );
  });

  it("the real runs in ../shared have no run.json and read as before: decoder detected, one mode, no block", () => {
    for (const run of rolloutRuns) {
      const { models } = readForTest([join(rolloutRunDir(run), "result")]);
      expect(models.length).toBe(2);
      for (const m of models) {
        expect(m.runRecord).toBeNull();
        expect(m.decoder?.source).toBe("detected");
        expect(m.score).not.toBeNull();
        expect(m.blocks?.byBlock.size).toBe(1);
        expect([...m.blocks!.byBlock.keys()]).toEqual(["none"]);
      }
    }
  });
});
