import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PyDict, PySet, PyTuple } from "../python/containers.js";
import { jsonFloat, jsonLoadsOrThrow } from "../python/json.js";
import { rolloutRunDir } from "../testing/shared.js";
import { dumpScoreValue, redumpTopLevel, ScoreFileBuilder, scoreHeaderLine, scoreLineParts, VerbatimJson } from "./scorefile.js";

const faithful = (text: string) => new Map((jsonLoadsOrThrow(text) as PyDict).entries().map(([k, v]) => [k as string, dumpScoreValue(v)]));

const enc = new TextEncoder();
const dec = new TextDecoder();
/** A result line's score-file parts as text: copied bytes decoded, re-dumped text as is (null: the line needs json.loads). */
const partsText = (bytes: Uint8Array): Map<string, string> | null => {
  const parts = scoreLineParts(bytes, 0, bytes.length);
  return parts && new Map([...parts].map(([k, v]) => [k, v instanceof VerbatimJson ? dec.decode(v.bytes) : v.text]));
};
/** The keys whose values are copied as bytes. */
const verbatimKeys = (bytes: Uint8Array): string[] =>
  [...(scoreLineParts(bytes, 0, bytes.length) ?? [])].filter(([, v]) => v instanceof VerbatimJson).map(([k]) => k);

describe("score-file JSON (make_json_serializable + json.dumps(ensure_ascii=False))", () => {
  it("keeps non-ASCII, escapes controls, stringifies sets and objects, turns tuples into arrays", () => {
    const v = new PyDict([
      ["s", 'é\n"\u0001'],
      [1n, new PySet(["a"])],
      ["t", new PyTuple([1n, 2.0])],
      ["u", new PyTuple([new PySet([])])],
    ]);
    expect(dumpScoreValue(v)).toBe('{"s": "é\\n\\"\\u0001", "1": "{\'a\'}", "t": [1, 2.0], "u": "(set(),)"}');
  });
  it("writes the header with a float accuracy", () => {
    expect(scoreHeaderLine(124, 200)).toBe('{"accuracy": 0.62, "correct_count": 124, "total_count": 200}');
    expect(scoreHeaderLine(200, 200)).toBe('{"accuracy": 1.0, "correct_count": 200, "total_count": 200}');
  });
});

describe("redumpTopLevel equals json.loads + json.dumps", () => {
  it("on tricky hand-made lines", () => {
    for (const text of [
      '{"a":1,"b":-0,"c":1.50,"d":1E5,"e":12345678901234567890123,"f":[true,null,NaN,-Infinity],"g":{"x":"\\u00e9\\ud83d\\ude00\\n"},"h":"plain é"}',
      '{ "result" : [ [ ] , { } ] , "inference_log" : "" }',
      '{"z": 0.1, "y": 1e-7, "x": 2.5e16}',
      // already in json.dumps form except one detail each (copied only when every detail is canonical)
      '{"a": [1.0, 1e-07, 1e+16, -0.0, 0, 12], "b": {"k": 1, "j": {"k": 2}}, "c": "tab\\t \\" q"}',
      '{"a": [0.10], "b": [1e400], "c": [-0], "d": "x\\/y", "e": "\\u00e9", "f": [1,2], "g": {"k":1}, "h": [1 ]}',
      '{"a": {"k": 1, "j": {"k": 2}}, "b": [true, false, null, NaN, Infinity, -Infinity], "c": "ünïcode"}',
    ]) {
      expect(redumpTopLevel(text), text).toEqual(faithful(text));
    }
  });
  it("declines what it cannot prove (duplicate keys, not an object, bad JSON)", () => {
    expect(redumpTopLevel('{"a": {"k": 1, "k": 2}}')).toBeNull();
    expect(redumpTopLevel("[1]")).toBeNull();
    expect(redumpTopLevel('{"a": tru}')).toBeNull();
  });
  it("on every line of a real result file (2025-11-12-main, gpt-oss-20b, miss_param)", () => {
    const file = join(
      rolloutRunDir("2025-11-12-main"),
      "result",
      "openai_gpt-oss-20b",
      "multi_turn",
      "BFCL_v4_multi_turn_miss_param_result.json",
    );
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "");
    for (const l of lines) expect(redumpTopLevel(l)).toEqual(faithful(l));
    expect(lines).toHaveLength(200);
  });
});

describe("scoreLineParts: bytes copied only where re-dumping changes nothing", () => {
  /** The values as the bytes they would be copied from, or null when any value is re-dumped instead. */
  const ranges = (text: string): Map<string, string> | null => {
    const b = enc.encode(text);
    const parts = partsText(b);
    return parts !== null && verbatimKeys(b).length === parts.size ? parts : null;
  };
  /** Every value as text, copied or re-dumped. */
  const all = (text: string): Map<string, string> | null => partsText(enc.encode(text));
  it("gives ranges for a line in json.dumps form, equal to the re-dumped values", () => {
    for (const text of [
      '{"a": [1.0, 1e-07, 1e+16, -0.0, 0, 12], "b": {"k": 1, "j": {"k": 2}}, "c": "tab\\t \\" q"}',
      '{ "result" : [[{"ls": "{\\"a\\": false}"}], []] , "inference_log" : "" }',
      '{"x": true, "y": null, "z": NaN, "w": -Infinity, "v": {}, "u": []}',
      // valid multi-byte text is copied too: the scan works on bytes, so no offsets differ
      '{"a": "ünï 😀 (multi-byte)"}',
    ]) {
      const r = ranges(text);
      expect(r, text).not.toBeNull();
      expect(r, text).toEqual(redumpTopLevel(text));
    }
  });
  it("declines any value re-dumping would change", () => {
    expect(redumpTopLevel('{"a": "raw \u0001 control"}')).toBeNull();
    for (const text of [
      '{"a": "raw \u0001 control"}',
      '{"a": [0.10]}',
      '{"a": [1e400]}',
      '{"a": -0}',
      '{"a": "x\\/y"}',
      '{"a": "\\u00e9"}',
      '{"a": [1,2]}',
      '{"a": {"k":1}}',
      '{"a": [1 ]}',
      '{"a": {"k": 1, "k": 2}}',
      "[1]",
      '{"a": tru}',
      '{"a": 1} x',
    ])
      expect(ranges(text), text).toBeNull();
  });
  it("covers the real result files: every value equals the re-dumped one, copied on most lines (2025-11-12-main, gpt-oss-120b, all three files)", () => {
    let withRanges = 0;
    let lines = 0;
    for (const c of ["base", "miss_func", "miss_param"]) {
      const file = join(
        rolloutRunDir("2025-11-12-main"),
        "result",
        "openai_gpt-oss-120b",
        "multi_turn",
        `BFCL_v4_multi_turn_${c}_result.json`,
      );
      for (const l of readFileSync(file, "utf8").split("\n")) {
        if (l === "") continue;
        lines++;
        // every value, copied or re-dumped, is what json.loads + json.dumps gives
        expect(all(l)).toEqual(redumpTopLevel(l));
        const r = ranges(l);
        if (r === null) continue;
        withRanges++;
        expect(r).toEqual(redumpTopLevel(l));
      }
    }
    expect(lines).toBe(600);
    // lines with \u escapes are re-dumped as text; the rest are copied as bytes
    expect(withRanges).toBeGreaterThan(450);
  });
});

describe("scoreLineParts: the byte scan gives the same score-file parts as json.loads + json.dumps", () => {
  it("copies valid UTF-8 and canonical values as bytes, re-dumps the rest, and agrees with redumpTopLevel", () => {
    const cases: [string, string[]][] = [
      ['{"a": "ünï 😀 ok", "b": [1, 2.5, -0.0, 1e+16, NaN, -Infinity], "c": {"k": "v", "j": {}}}', ["a", "b", "c"]],
      ['{"a": "\\u00e9", "b": "x\\/y", "c": [1,2], "d": {"k":1}, "e": [0.10], "f": -0, "g": [1e400], "h": 1}', ["h"]],
      ['{ "result" : [[{"ls": "{\\"a\\": false}"}], []] , "inference_log" : "tab\\t \\" q" }', ["result", "inference_log"]],
    ];
    for (const [text, verbatim] of cases) {
      const bytes = enc.encode(text);
      expect(partsText(bytes), text).toEqual(redumpTopLevel(text));
      expect(verbatimKeys(bytes), text).toEqual(verbatim);
    }
  });
  it("declines lines json.loads must decide: repeated keys (at any depth), text that is not JSON", () => {
    for (const text of ['{"a": {"k": 1, "k": 2}}', '{"a": 1, "a": 2}', "[1]", '{"a": tru}', '{"a": "raw \u0001 control"}'])
      expect(scoreLineParts(enc.encode(text), 0, enc.encode(text).length), text).toBeNull();
  });
  it("does not copy bytes that are not valid UTF-8 (the text path's decoding replaces them)", () => {
    const bytes = new Uint8Array([...enc.encode('{"a": "x'), 0xc3, 0x28, ...enc.encode('", "b": 1}')]);
    expect(verbatimKeys(bytes)).toEqual(["b"]);
    expect(partsText(bytes)).toEqual(redumpTopLevel(dec.decode(bytes)));
  });
  it("covers every line of the real result files of a run (2025-11-12-main, both models, all three categories)", () => {
    let lines = 0;
    let copied = 0;
    for (const model of ["openai_gpt-oss-120b", "openai_gpt-oss-20b"]) {
      for (const c of ["base", "miss_func", "miss_param"]) {
        const file = join(rolloutRunDir("2025-11-12-main"), "result", model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);
        const bytes = new Uint8Array(readFileSync(file));
        let start = 0;
        while (start < bytes.length) {
          let end = bytes.indexOf(0x0a, start);
          if (end < 0) end = bytes.length;
          if (end > start) {
            lines++;
            const line = bytes.subarray(start, end);
            expect(partsText(line)).toEqual(redumpTopLevel(dec.decode(line)));
            if (verbatimKeys(line).includes("inference_log")) copied++;
          }
          start = end + 1;
        }
      }
    }
    expect(lines).toBe(1200);
    // only lines with \u escapes re-dump their inference_log (non-ASCII UTF-8 is copied)
    expect(copied).toBeGreaterThan(1000);
  });
});

describe("ScoreFileBuilder: lines encoded as they come, the header put in front at the end", () => {
  it("gives header + lines byte for byte, growing past a too small guess and a reused buffer", () => {
    const reused = new Uint8Array(1400);
    const asked: number[] = [];
    const b = new ScoreFileBuilder(10, (bytes) => {
      asked.push(bytes);
      return bytes <= reused.length ? reused : new Uint8Array(bytes);
    });
    const lines: (string | Uint8Array)[][] = [
      ['{"id": "a", "x": ', enc.encode('"ünï 😀"'), "}"],
      ["{", "€".repeat(600), "}"],
    ];
    for (const l of lines) b.addLine(l);
    const bytes = b.finish(1, 3);
    const expected = `${scoreHeaderLine(1, 3)}\n{"id": "a", "x": "ünï 😀"}\n{${"€".repeat(600)}}\n`;
    expect(dec.decode(bytes)).toBe(expected);
    expect(bytes.length).toBe(enc.encode(expected).length);
    // the first buffer was the reused one; the euro signs (3 bytes each) made it grow
    expect(asked[0]).toBeLessThanOrEqual(reused.length);
    expect(asked.length).toBeGreaterThan(1);
  });
  it("writes just the header when nothing failed", () => {
    expect(dec.decode(new ScoreFileBuilder(0).finish(5, 5))).toBe(`${scoreHeaderLine(5, 5)}\n`);
  });
});

describe("canonical float tokens: the fixed-notation shortcut agrees with printing repr", () => {
  it("copies a float token exactly when json.dumps would print the same text (20,000 generated tokens)", () => {
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const tokens: string[] = [
      "0.0",
      "-0.0",
      "0.0001",
      "0.00001",
      "0.00010",
      "1.0",
      "1.50",
      "1000000000000000.0",
      "123456789012345.6",
      "0.1",
      "0.30000000000000004",
      "9999999999999998.0",
      "12345678901234567.0",
    ];
    for (let n = 0; n < 20_000; n++) {
      const magnitude = 10 ** Math.floor(rand() * 24 - 8);
      const x = (rand() - 0.5) * magnitude;
      const digits = Math.floor(rand() * 20);
      tokens.push(rand() < 0.5 ? x.toFixed(Math.min(digits, 20)) : String(x));
    }
    let copied = 0;
    for (const t of tokens) {
      if (!/^-?(0|[1-9]\d*)\.\d+$/.test(t)) continue;
      const text = `{"a": ${t}}`;
      const bytes = enc.encode(text);
      const parts = scoreLineParts(bytes, 0, bytes.length);
      const verbatim = parts?.get("a") instanceof VerbatimJson;
      expect(verbatim, t).toBe(jsonFloat(Number(t)) === t);
      if (verbatim) copied++;
    }
    expect(copied).toBeGreaterThan(1000);
  });
});
