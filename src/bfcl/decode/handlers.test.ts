import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { jsonLoadsOrThrow } from "../../python/json.js";
import { decoderByName, decoders } from "./decoders.js";
import { failureType } from "./outcome.js";

/** BFCL's own decode_execute of every handler on every corpus step, at one Gorilla revision (tools/gen-decode-vectors.py). */
interface HandlerVectors {
  steps: string[];
  sets: { handler: string; owner: string; isFcModel: boolean; decoder: string; outcomes: ({ calls: string[] } | { error: string })[] }[];
}
const load = (file: string): HandlerVectors =>
  JSON.parse(readFileSync(new URL(`./testdata/${file}`, import.meta.url), "utf8")) as HandlerVectors;
/** The current release's handlers (v4) and BFCL v3's, each set with the decoder its revision's registry gives. */
const revisions = [
  ["v4", load("handler-vectors.json")],
  ["v3", load("handler-vectors-v3.json")],
] as const;
const vectors = revisions[0][1];

/**
 * CPython's SyntaxError texts come from its own parser; ours says the same kind of thing in
 * other words, so for a SyntaxError only the type is compared.
 */
function sameOutcome(
  got: ReturnType<NonNullable<ReturnType<typeof decoderByName>>["decode"]>,
  want: { calls: string[] } | { error: string },
): boolean {
  if ("calls" in want) return got.ok && JSON.stringify(got.calls) === JSON.stringify(want.calls);
  if (got.ok) return false;
  if (want.error.startsWith("SyntaxError:") || want.error.startsWith("IndentationError:"))
    return failureType(got) === want.error.split(":")[0];
  return got.error === want.error;
}

describe("every decoder reproduces the real handlers' decode_execute (vectors from BFCL's classes)", () => {
  it("covers every decoder and every handler that owns a decode_execute, at both revisions", () => {
    const covered = new Set(revisions.flatMap(([, v]) => v.sets.map((s) => s.decoder)));
    expect([...covered].sort()).toEqual(decoders.map((d) => d.name).sort());
    expect(vectors.sets.length).toBeGreaterThanOrEqual(38);
    expect(revisions[1][1].sets.length).toBeGreaterThanOrEqual(35);
    for (const [, v] of revisions) expect(v.steps.length).toBeGreaterThan(120);
  });
  for (const [revision, v] of revisions)
    for (const set of v.sets) {
      it(`${revision} ${set.handler} (${set.isFcModel ? "FC" : "prompting"}) → ${set.decoder}`, () => {
        const decoder = decoderByName(set.decoder);
        expect(decoder, set.decoder).toBeDefined();
        const wrong: string[] = [];
        set.outcomes.forEach((want, i) => {
          const got = decoder!.decode(jsonLoadsOrThrow(v.steps[i]));
          if (!sameOutcome(got, want)) wrong.push(`${v.steps[i]}\n   ours: ${JSON.stringify(got)}\n   BFCL: ${JSON.stringify(want)}`);
        });
        expect(wrong).toEqual([]);
      });
    }
  it("a decoder run against another handler's vectors disagrees (the comparison can fail)", () => {
    const xlam = vectors.sets.find((s) => s.decoder === "xlam")!;
    const fc = decoderByName("fc")!;
    const differing = xlam.outcomes.filter((want, i) => !sameOutcome(fc.decode(jsonLoadsOrThrow(vectors.steps[i])), want)).length;
    expect(differing).toBeGreaterThan(50);
  });
});
