import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, contentDifferences, contentDigest, shortDigest, turnDigests, turnText, type ItemContent } from "./digest.js";

describe("item digests", () => {
  it("are the first 16 hex digits of the text's sha256", () => {
    expect(shortDigest("abc")).toBe(createHash("sha256").update("abc").digest("hex").slice(0, 16));
  });
  it("are the same when asked again (remembered) and for texts outside ASCII, 5000 texts past the memory bound", () => {
    const texts = Array.from({ length: 5000 }, (_, i) => `turn ${i % 4500}: caf\u00e9 \u2014 \u{1f600} ${"x".repeat(i % 300)}`);
    for (const round of [0, 1]) {
      for (const text of texts)
        expect(shortDigest(text), `round ${round}`).toBe(createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16));
    }
  });
  it("compare JSON values whatever the key order", () => {
    expect(canonicalJson({ b: [1, { d: null, c: "x" }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(canonicalJson(null)).toBe("null");
  });
  it("read a turn as its user messages joined by a blank line; a turn with none has no digest", () => {
    const turn = [
      { role: "system", content: "be brief" },
      { role: "user", content: "a" },
      { role: "user", content: "b" },
    ];
    expect(turnText(turn)).toBe("a\n\nb");
    expect(turnDigests([turn, []])).toEqual([shortDigest("a\n\nb"), null]);
  });
  it("name the fields that differ, and the overall digest changes with any of them", () => {
    const a: ItemContent = { question: "1", initial_config: "2", involved_classes: "3", missed_function: "4", reference: "5" };
    const b: ItemContent = { ...a, reference: "6", question: "0" };
    expect(contentDifferences(a, b)).toEqual(["question", "reference"]);
    expect(contentDifferences(a, { ...a })).toEqual([]);
    expect(contentDigest(a)).not.toBe(contentDigest(b));
    expect(contentDigest(a)).toBe(contentDigest({ ...a }));
  });
});
