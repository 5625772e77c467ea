import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as twinscore from "./index.js";
import { projectRoot } from "./testing/shared.js";

describe("the library entry point", () => {
  it("scores from text passed in: the committed manifest selects Table 1's 223 pairs", () => {
    const manifest = twinscore.parseManifest(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    expect(manifest.ok).toBe(true);
    if (!manifest.ok) return;
    expect(twinscore.selectPairs(manifest.value, { pairSet: "certified", countLogin: false })).toHaveLength(223);
    expect(twinscore.selectPairs(manifest.value, { pairSet: "certified", countLogin: true })).toHaveLength(225);
  });
  it("exposes the world-changing predicate and the parser", () => {
    const parsed = twinscore.parseExpression("echo(content='x', file_name='a.txt')");
    expect(parsed.ok).toBe(true);
    expect(twinscore.isWorldChanging({ name: "mv", positional: [], keywords: [] })).toBe(true);
    expect(twinscore.isWorldChanging({ name: "ls", positional: [], keywords: [] })).toBe(false);
  });
  it("exposes BFCL's decoders and the choice of a folder's decoder", () => {
    expect(twinscore.decoderByName("xlam")!.decode('[{"name": "cd", "arguments": {"folder": "x"}}]')).toEqual({ ok: true, calls: ["cd(folder='x')"] });
    expect(twinscore.chooseDecoder({ folder: "Salesforce_Llama-xLAM-2-8b-fc-r", samples: () => [] })!.decoder.name).toBe("xlam");
    expect(twinscore.DECODER_NAMES).toContain("tool-call");
  });
  it("exposes the prompt-arm injection check (and the generation loop beside it)", () => {
    const check = twinscore.injectionCheck(new Map([["a", 10], ["b", 3]]), new Map([["a", 25], ["b", 18]]));
    expect(check.mode).toBe(15);
    expect(check.breaks).toEqual([]);
  });
});
