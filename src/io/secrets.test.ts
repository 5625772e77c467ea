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
    for (const spelling of keySpellings.filter((s) => !s.startsWith("base64"))) {
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

  it("finds a key inside base64 text wherever it starts in a 3-byte group, standard and URL-safe, and leaves the rest of the text", () => {
    const r = redactorOf([KEY]);
    for (const prefix of ["", "a", "ab", "Bearer ", '{"key": "']) {
      for (const encoding of ["base64", "base64url"] as const) {
        const encoded = Buffer.from(`${prefix}${KEY} and more text after it`).toString(encoding);
        const text = `echo: ${encoded} end`;
        expect(r.finds(text), `${encoding} after ${JSON.stringify(prefix)}`).toBe(true);
        const clean = r.text(text);
        expect(clean).toMatch(/^echo: \S*\[redacted\]\S* end$/);
        expect(r.finds(clean)).toBe(false);
        // what encodes the text after the key is kept
        expect(clean.slice(clean.indexOf("[redacted]") + 10).length).toBeGreaterThan(20);
      }
    }
    // a short key is looked for only as written: its encoded core would be a few characters, common in any base64
    expect(redactorOf(["sk-12345"]).text(Buffer.from("sk-12345").toString("base64"))).toBe(Buffer.from("sk-12345").toString("base64"));
  });

  it("takes time linear in the text: runs of backslashes, escapes and near-misses of the key", () => {
    const r = redactorOf([KEY, "sk-sim/Us3r-Key_1357"]);
    for (const text of [
      "\\".repeat(40_000),
      "\\u0073".repeat(6_000),
      `${"\\".repeat(20_000)}u0073${"\\".repeat(20_000)}`,
      "sk-proj/Ab9_xY-4".repeat(4_000),
    ]) {
      const t0 = performance.now();
      expect(r.text(text)).toBe(text);
      expect(r.finds(text)).toBe(false);
      // quadratic, the first of these took about 6 s
      expect(performance.now() - t0, text.slice(0, 20)).toBeLessThan(1_000);
    }
    const echoed = `${"\\".repeat(40_000)}u0073k-proj\\/Ab9_xY-42`;
    expect(r.text(echoed)).toBe("[redacted]");
  });

  it("leaves everything else alone: other text, a key cut short, no key at all", () => {
    const r = redactorOf([KEY, null, ""]);
    expect(r.keys).toEqual([KEY]);
    expect(r.text("sk-proj/Ab9_xY-4 is not it; u0073k-proj/Ab9_xY-42 has no backslash")).toBe(
      "sk-proj/Ab9_xY-4 is not it; u0073k-proj/Ab9_xY-42 has no backslash",
    );
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
    const line = new PyDict([
      ["result", [[`said ${KEY}`]]],
      [KEY, "v"],
    ]);
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
