import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { everyReadingPair } from "./readings.js";
import { parseAudit, textCallLine, textCallsPastLimit } from "./parse-audit.js";
import { decoderByName } from "../bfcl/decode/index.js";
import { readForTest } from "../testing/read-models.js";
import { rolloutRunDir, sharedPath } from "../testing/shared.js";

/**
 * The anchor-turn steps of a model's files counted from the JSON alone, each twin once:
 * record steps (a non-empty list of objects), text (a non-blank string), nothing.
 */
function stepShapes(
  files: Record<string, string>,
  pairs: ReturnType<typeof everyReadingPair>,
  decodesToCalls: (step: string) => boolean = () => false,
) {
  const lines = new Map<string, unknown>();
  for (const file of Object.values(files)) {
    for (const text of readFileSync(file, "utf8").split("\n")) {
      if (text.trim() === "") continue;
      const o = JSON.parse(text) as { id: string; result: unknown };
      lines.set(o.id, o.result);
    }
  }
  const counts: Record<string, { records: number; text: number; decodedText: number; empty: number }> = {};
  const seen = new Set<string>();
  for (const p of pairs) {
    for (const [category, id] of [
      ["base", p.baseId],
      [p.category, p.missId],
    ] as const) {
      const key = `${id}@${p.anchorTurn}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const result = lines.get(id);
      const c = (counts[category] ??= { records: 0, text: 0, decodedText: 0, empty: 0 });
      if (!Array.isArray(result) || !Array.isArray(result[p.anchorTurn])) continue;
      for (const step of result[p.anchorTurn] as unknown[]) {
        if (step === null || (Array.isArray(step) && step.length === 0) || (typeof step === "string" && step.trim() === "")) c.empty++;
        else if (typeof step === "string") {
          c.text++;
          if (decodesToCalls(step)) c.decodedText++;
        } else c.records++;
      }
    }
  }
  return counts;
}

describe("the parse audit on the real runs", () => {
  it("gpt-oss (FC records): native steps are the record steps, text splits into prose and a few text calls, never past the limit", () => {
    for (const run of ["2025-11-12-main", "2025-11-12-harmony-fixes"] as const) {
      const { models } = readForTest([join(rolloutRunDir(run), "result")]);
      expect(models).toHaveLength(2);
      for (const m of models) {
        const records = m.score!.records;
        const audit = parseAudit(records);
        const files = Object.fromEntries(Object.entries(m.filesUsed).map(([c, f]) => [c, f.file]));
        const shapes = stepShapes(files, everyReadingPair(m.manifest));
        for (const a of audit) {
          const s = shapes[a.category];
          expect(a.steps.native).toBe(s.records);
          expect(a.steps.textCalls + a.steps.prose).toBe(s.text);
          expect(a.steps.empty).toBe(s.empty);
          expect(a.steps.native).toBeGreaterThan(100);
          expect(textCallsPastLimit(a)).toBe(false);
          expect(textCallLine(m.model, a, "its handler")).toBeNull();
        }
      }
    }
  });

  it("xLAM-2-8b (v3, JSON text): every anchor step is text, and the ones the xlam decoder decodes to calls are native", () => {
    const { models } = readForTest([sharedPath("rollouts", "xlam-v3")]);
    const m = models[0];
    const audit = parseAudit(m.score!.records);
    const files = Object.fromEntries(Object.entries(m.filesUsed).map(([c, f]) => [c, f.file]));
    expect(m.decoder).toMatchObject({ name: "xlam", source: "registry" });
    const xlam = decoderByName("xlam")!;
    const shapes = stepShapes(files, everyReadingPair(m.manifest), (step) => {
      const out = xlam.decode(step);
      return out.ok && out.calls.length > 0;
    });
    for (const a of audit) {
      const s = shapes[a.category];
      expect(s.records).toBe(0);
      expect(a.steps.native + a.steps.textCalls + a.steps.prose).toBe(s.text);
      expect(a.steps.native).toBe(s.decodedText);
      expect(a.steps.native).toBeGreaterThan(50);
      expect(textCallsPastLimit(a)).toBe(false);
    }
  });
});
