import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { jsonDumps, jsonLoads, jsonLoadsFast, jsonLoadsOrThrow } from "./json.js";
import { PyDict, PySet, PyTuple } from "./containers.js";
import { pyRepr } from "./repr.js";
import { compareOutcome, decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";
import { bfclDataDir, rolloutRunDir, rolloutRuns } from "../testing/shared.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

describe("json.dumps matches CPython's defaults", () => {
  const cases = load<{ value: TaggedValue; repr: string; json: Outcome }[]>("containers");
  test.each(cases.map((c) => [c.repr, c] as const))("%s", (_, c) => {
    const v = decodeTagged(c.value);
    const want = c.json.error !== undefined ? `${c.json.error}: ${c.json.message}` : JSON.stringify(decodeTagged(c.json.ok!));
    let got: string;
    try {
      got = JSON.stringify(jsonDumps(v));
    } catch (e) {
      const x = e as { pyType: string; pyMessage: string };
      got = `${x.pyType}: ${x.pyMessage}`;
    }
    expect(got).toBe(want);
  });
  test("key coercion, NaN/Infinity, ASCII escaping with surrogate pairs, tuples as arrays", () => {
    const d = new PyDict([
      [1n, "é😀"],
      [false, NaN],
      [null, new PyTuple([Infinity, -0])],
      [2.5, 1e16],
    ]);
    expect(jsonDumps(d)).toBe('{"1": "\\u00e9\\ud83d\\ude00", "false": NaN, "null": [Infinity, -0.0], "2.5": 1e+16}');
    // 1 and True are one key in Python: the first key object stays, the last value wins
    expect(
      jsonDumps(
        new PyDict([
          [1n, "a"],
          [true, "b"],
        ]),
      ),
    ).toBe('{"1": "b"}');
    expect(() => jsonDumps(new PySet([1n]))).toThrow("Object of type set is not JSON serializable");
    expect(() => jsonDumps(new PyDict([[new PyTuple([1n]), 1n]]))).toThrow("keys must be str, int, float, bool or None, not tuple");
  });
});

describe("json.loads matches CPython (values and JSONDecodeError messages)", () => {
  const cases = load<({ doc: string } & Outcome)[]>("json-loads");
  test.each(cases.map((c) => [JSON.stringify(c.doc), c] as const))("%s", (_, c) => {
    expect(compareOutcome(() => jsonLoadsOrThrow(c.doc), c, pyRepr)).toBeNull();
  });
  test("Result form carries Python's message", () => {
    const r = jsonLoads("");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0].message).toBe("Expecting value: line 1 column 1 (char 0)");
    const v = jsonLoads('{"a": 1.0, "b": 1}');
    expect(v.ok && pyRepr(v.value)).toBe("{'a': 1.0, 'b': 1}");
  });
});

/** Every execution-result string the official checker stored that is a JSON object was written by Python's json.dumps. */
function storedResultStrings(): string[] {
  const out: string[] = [];
  for (const run of rolloutRuns) {
    const root = join(rolloutRunDir(run), "score");
    for (const model of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const dir = join(root, model.name, "multi_turn");
      for (const f of readdirSync(dir)) {
        const lines = readFileSync(join(dir, f), "utf8").split("\n").slice(1).filter(Boolean);
        for (const line of lines) {
          const exec = (JSON.parse(line) as { error?: { execution_result?: { model: string[][]; ground_truth: string[] }[] } }).error
            ?.execution_result;
          for (const turn of exec ?? []) {
            for (const step of turn.model) out.push(...step);
            out.push(...turn.ground_truth);
          }
        }
      }
    }
  }
  return out.filter((s) => s.startsWith("{"));
}

describe("real data: BFCL's stored execution results round-trip through jsonLoads → jsonDumps", () => {
  test("every json.dumps-produced result string in both gpt-oss runs' score files is reproduced byte for byte", () => {
    const strings = storedResultStrings();
    expect(strings.length).toBeGreaterThan(1000);
    const mismatches: string[] = [];
    let parsed = 0;
    for (const s of strings) {
      const r = jsonLoads(s);
      if (!r.ok) continue; // `str(dict)` fallbacks (e.g. mpf values) are Python reprs, not JSON
      parsed++;
      if (jsonDumps(r.value) !== s) mismatches.push(s);
    }
    expect(parsed).toBeGreaterThan(1000);
    expect(mismatches).toEqual([]);
  });
});

describe("jsonLoadsFast equals json.loads (jsonLoadsOrThrow) exactly", () => {
  const same = (text: string) => {
    let want: string;
    try {
      want = pyRepr(jsonLoadsOrThrow(text));
    } catch (e) {
      want = `raises ${(e as { pyMessage: string }).pyMessage}`;
    }
    let got: string;
    try {
      got = pyRepr(jsonLoadsFast(text));
    } catch (e) {
      got = `raises ${(e as { pyMessage: string }).pyMessage}`;
    }
    expect(got, text).toBe(want);
  };
  test("on hand-made cases where the native parser alone would differ", () => {
    for (const text of [
      '{"balance": 10000.0, "n": 3, "x": -0, "f": 1.5, "e": 1e5, "E": 2E-3, "big": 123456789012345678901234567890}',
      '{"a": "x", "b": 1.0, "a": 2}', // repeated key: last value, first position
      '{"1": "one", "b": 2, "0": 3}', // index-like keys JavaScript would move
      '{"__proto__": {"x": 1}, "s": "a \\" 1.0 \\\\ \\u00e9 \\ud83d"}',
      '[1, 2.0, [3, {"k": [4.5, 6]}], "7.0", "8"]',
      '{"nan": NaN, "inf": -Infinity}',
      '{"huge": 1e400, "tiny": 5e-324}',
      '{"a": 1,}', // malformed: Python's message
      "",
      '  {"ws" :\t[ 1 ,2 ] }  ',
    ])
      same(text);
  });
  test("on every line of the BFCL v4 data (questions, references, function docs)", () => {
    const dir = bfclDataDir();
    const files = [
      ...readdirSync(dir).filter((f) => f.endsWith(".json")),
      ...readdirSync(join(dir, "possible_answer")).map((f) => join("possible_answer", f)),
      ...readdirSync(join(dir, "multi_turn_func_doc")).map((f) => join("multi_turn_func_doc", f)),
    ];
    let lines = 0;
    for (const f of files) {
      for (const l of readFileSync(join(dir, f), "utf8").split("\n")) {
        if (l.trim() === "") continue;
        same(l);
        lines++;
      }
    }
    expect(lines).toBeGreaterThan(1600);
  });
});
