import { describe, expect, it } from "vitest";
import { PyDict } from "../python/containers.js";
import { keySpellings, spellKey } from "../testing/hostile-servers.js";
import { cleanPlainValue, keyProblemText, redactorOf, redactPyValue } from "./secrets.js";

const KEY = "sk-proj/Ab9_xY-42";

/** The text a JSON reader gets from raw JSON string content. */
const decoded = (raw: string): string => JSON.parse(`"${raw}"`) as string;

describe("one redactor for every spelling of a key", () => {
  it("finds the key as written, as each JSON escape spells it, and inside JSON nested in a string", () => {
    const r = redactorOf([KEY]);
    for (const spelling of keySpellings) {
      const raw = spellKey(KEY, spelling);
      // in the raw JSON text, and in the text a JSON reader decodes from it
      for (const text of [raw, decoded(raw)]) {
        expect(r.finds(`before ${text} after`), `${spelling}: ${text}`).toBe(true);
        const clean = r.text(`before ${text} after`);
        expect(clean, spelling).toBe(`before ${text.replace(/sk-proj.*42|\\+u0073.*\\+u0032/i, "[redacted]")} after`);
        expect(r.finds(clean)).toBe(false);
      }
    }
  });

  it("leaves everything else alone: other text, a key cut short, no key at all", () => {
    const r = redactorOf([KEY, null, ""]);
    expect(r.keys).toEqual([KEY]);
    expect(r.text("sk-proj/Ab9_xY-4 is not it; u0073k-proj/Ab9_xY-42 has no backslash")).toBe("sk-proj/Ab9_xY-4 is not it; u0073k-proj/Ab9_xY-42 has no backslash");
    expect(redactorOf([]).text(KEY)).toBe(KEY);
    // both keys of an interactive run, the longer first
    const both = redactorOf(["sk-a/1234567", "sk-a/1234567-long"]);
    expect(both.text("x sk-a/1234567-long y sk-a/1234567 z")).toBe("x [redacted] y [redacted] z");
  });

  it("redacts decoded values: every string and key of a parsed reply, numbers JSON cannot hold read as null", () => {
    const r = redactorOf([KEY]);
    const raw = `{"content": "${spellKey(KEY, "unicode")}", "${spellKey(KEY, "escaped-slash")}": [1e309, -1e309, 2, {"deep": "x ${spellKey(KEY, "nested-json")}"}]}`;
    const clean = JSON.stringify(cleanPlainValue(JSON.parse(raw), r));
    expect(clean).toBe('{"content":"[redacted]","[redacted]":[null,null,2,{"deep":"x {\\"echo\\": \\"[redacted]\\"}"}]}');
    const line = new PyDict([["result", [[`said ${KEY}`]]], [KEY, "v"]]);
    expect(JSON.stringify((redactPyValue(line, r) as PyDict).entries())).toBe('[["result",[["said [redacted]"]]],["[redacted]","v"]]');
  });

  it("a key with a newline or another control character is refused by a message that never shows it", () => {
    for (const [key, what] of [
      [`${KEY}\n`, "a newline"],
      [`${KEY}\r\nmore`, "a carriage return"],
      [`a\tb${KEY}`, "a tab"],
      [`${KEY}\u0000`, "U+0000"],
      [`${KEY}\u2028`, "beyond Latin-1"],
    ] as const) {
      const text = keyProblemText(key, "--key-env", "MY_KEY");
      expect(text, what).toContain(what);
      expect(text).toContain("--key-env MY_KEY");
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("sk-");
    }
    expect(keyProblemText(KEY, "--key-env", "MY_KEY")).toBeNull();
  });
});
