import { describe, expect, it } from "vitest";
import { decodeResultBytes, scanLineHead, type RecordedRollout } from "../bfcl/results.js";
import { loadManifest } from "../io/manifest.js";
import { checkReferenceDecision, demoFiles, referencePolicies } from "./demo.js";
import { readingById, readingPairs, summarize } from "./readings.js";
import { scoreModel } from "./score.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();

/** Read a demo file back through the same line scanner `score` uses. */
function readBack(text: string): Map<string, RecordedRollout> {
  const out = new Map<string, RecordedRollout>();
  const enc = new TextEncoder();
  text
    .split("\n")
    .filter((l) => l !== "")
    .forEach((line, i) => {
      const bytes = enc.encode(line);
      const head = scanLineHead(bytes, 0, bytes.length);
      if ("error" in head) throw new Error(head.error);
      const r = decodeResultBytes(bytes, head, 100, { file: "demo", line: i + 1 });
      if ("code" in r) throw new Error(r.message);
      out.set(head.id, r);
    });
  return out;
}

describe("demo reference policies on the committed manifest's 223 pairs", () => {
  const table1 = readingById("table-1")!;
  const pairs = readingPairs(manifest, table1);
  it.each(referencePolicies.map((p) => [p.name, p.expectedDecision] as const))("%s scores %d", (name, expected) => {
    const files = demoFiles(name, pairs);
    if (!files.ok) throw new Error(files.problems[0].message);
    const scored = scoreModel(name, pairs, {
      base: readBack(files.value.base),
      miss_func: readBack(files.value.miss_func),
      miss_param: readBack(files.value.miss_param),
    });
    const numbers = summarize(scored.records, manifest, table1, "decided");
    expect(numbers.n).toBe(223);
    expect(numbers.decision).toBe(expected);
    expect(checkReferenceDecision(name, numbers.decision)).toBeNull();
  });

  it("writes one line per twin: 151 base twins, 116 miss_func and 107 miss_param items, with BFCL's turn counts", () => {
    const files = demoFiles("oracle", pairs);
    if (!files.ok) throw new Error("demo files");
    const base = readBack(files.value.base);
    expect([base.size, readBack(files.value.miss_func).size, readBack(files.value.miss_param).size]).toEqual([151, 116, 107]);
    const p = pairs[0];
    expect(base.get(p.baseId)).toMatchObject({ kind: "turns", turnCount: p.turnCount.base });
  });

  it("flags a policy that does not score what it must", () => {
    expect(checkReferenceDecision("oracle", 99.5)?.code).toBe("demo-mismatch");
  });
});
