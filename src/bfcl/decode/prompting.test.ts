import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodePromptingStep } from "./prompting.js";

/** Vectors produced by running BFCL's own prompting decoder functions (testdata/prompting-vectors.json). */
const vectors = JSON.parse(readFileSync(new URL("./testdata/prompting-vectors.json", import.meta.url), "utf8")) as {
  vectors: ({ text: string; ok: true; calls: string[] } | { text: string; ok: false; error: string })[];
};

describe("BFCL's prompting decoder (default_decode_execute_prompting)", () => {
  it("produces BFCL's execution strings, quirks included, and fails where BFCL fails", () => {
    for (const v of vectors.vectors) {
      const got = decodePromptingStep(v.text);
      if (v.ok) expect(got, v.text).toEqual({ ok: true, calls: v.calls });
      else expect(got.ok, v.text).toBe(false);
    }
    expect(vectors.vectors.length).toBeGreaterThan(20);
  });
  it("names the exception type of the failures", () => {
    for (const v of vectors.vectors) {
      if (v.ok) continue;
      const got = decodePromptingStep(v.text);
      expect(!got.ok && got.error.split(":")[0], v.text).toBe(v.error.split(":")[0]);
    }
  });
  it("rejects a non-text step", () => {
    expect(decodePromptingStep(null)).toEqual({ ok: false, error: "AttributeError: 'NoneType' object has no attribute 'strip'" });
  });
});
