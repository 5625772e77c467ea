import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docFile, type MultiTurnClass } from "../bfcl/data.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { decoderByName } from "../bfcl/decode/index.js";
import { extractTurn, listCallNames } from "./extract.js";
import { decodePythonText } from "./python-text.js";
import type { ArgValue, ExtractedCall, TurnExtraction } from "./types.js";
import { floatBits } from "../python/testing/pydump.js";
import { createHash } from "node:crypto";

// ---------------------------------------------------------------------------------------
// Shared data: tool lists per item and the real gpt-oss rollouts

function jsonLines<T>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);
}

const namesByClass = new Map<string, string[]>();
function classNames(cls: string): string[] {
  let names = namesByClass.get(cls);
  if (!names) {
    names = jsonLines<{ name: string }>(join(bfclDataDir(), docFile(cls as MultiTurnClass))).map((d) => d.name);
    namesByClass.set(cls, names);
  }
  return names;
}

/** The item's tool list: all functions of its involved classes (the miss_func removal included). */
const toolsById = new Map<string, Set<string>>();
function toolsOf(id: string): Set<string> {
  if (toolsById.size === 0) {
    for (const category of ["base", "miss_func", "miss_param", "long_context"]) {
      for (const q of jsonLines<{ id: string; involved_classes: string[] }>(join(bfclDataDir(), `BFCL_v4_multi_turn_${category}.json`))) {
        toolsById.set(q.id, new Set(q.involved_classes.flatMap(classNames)));
      }
    }
  }
  const t = toolsById.get(id);
  if (!t) throw new Error(`no question entry for ${id}`);
  return t;
}

interface ResultLine {
  id: string;
  result: unknown;
  inference_log?: unknown[];
}

const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const categories = ["base", "miss_func", "miss_param"] as const;

function resultLines(run: (typeof rolloutRuns)[number], model: string, category: string): ResultLine[] {
  return jsonLines<ResultLine>(join(rolloutRunDir(run), "result", model, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`));
}

function findLine(run: (typeof rolloutRuns)[number], model: string, id: string): ResultLine {
  const category = id.replace(/^multi_turn_/, "").replace(/_\d+$/, "");
  const line = resultLines(run, model, category).find((l) => l.id === id);
  if (!line) throw new Error(`${id} not found in ${run}/${model}`);
  return line;
}

function turnOf(line: ResultLine, turn: number): unknown[] {
  return (line.result as unknown[][])[turn]!;
}

const prompting = { decoder: decoderByName("prompting")! };
const dec = (name: string) => ({ decoder: decoderByName(name)! });

// ---------------------------------------------------------------------------------------
// BFCL decoder vectors (tools/gen-bfcl-decode-vectors.py)

interface Vectors {
  prompting: { text: string; error?: string; executeError?: string; decoded?: unknown[]; execute?: string[] }[];
  fc: { step: unknown; error?: string; execute?: string[] }[];
}
const vectors = JSON.parse(readFileSync(join(projectRoot, "src/extract/testdata/bfcl-decode-vectors.json"), "utf8")) as Vectors;
const gtHashes = JSON.parse(readFileSync(join(projectRoot, "src/extract/testdata/gt-decode-hashes.json"), "utf8")) as {
  calls: number;
  hashes: Record<string, string>;
};

/** The generator's JSON-like form of a value (numbers as float bits, dicts as ordered pairs). */
function lit(v: ArgValue): unknown {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") return { num: floatBits(v) };
  if (Array.isArray(v)) return v.map(lit);
  return { dict: Object.entries(v).map(([k, x]) => [k, lit(x)]) };
}

function decodedForm(calls: readonly { name: string; keywords: readonly (readonly [string, ArgValue])[] }[]): unknown[] {
  return calls.map((c) => [c.name, c.keywords.map(([k, v]) => [k === "**" ? "None" : k, lit(v)])]);
}

function canonical(x: unknown): string {
  return JSON.stringify(x).replace(/[\u007f-\uffff]/g, (ch) =>
    ch === "\u007f" ? ch : "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

describe("decodePythonText agrees with BFCL's default prompting decoder", () => {
  it("has the generated vectors", () => {
    expect(vectors.prompting.length).toBeGreaterThan(80);
  });
  for (const v of vectors.prompting) {
    const bfclFails = v.error !== undefined || v.executeError !== undefined;
    it(`${bfclFails ? "fails on" : "decodes"} ${JSON.stringify(v.text).slice(0, 60)}`, () => {
      const d = decodePythonText(v.text);
      expect(d.failure === null, `our failure: ${d.failure}; BFCL: ${v.error ?? v.executeError ?? "ok"}`).toBe(!bfclFails);
      if (v.decoded !== undefined) expect(decodedForm(d.calls)).toEqual(v.decoded);
    });
  }
});

describe("extractTurn on native function-calling records agrees with convert_to_function_call", () => {
  for (const v of vectors.fc) {
    it(`${v.error === undefined ? "decodes" : "fails on"} ${JSON.stringify(v.step).slice(0, 70)}`, () => {
      const names = new Set<string>();
      const entries = Array.isArray(v.step) ? v.step : [v.step];
      for (const e of entries) if (e && typeof e === "object") for (const k of Object.keys(e)) names.add(k);
      const x = extractTurn([v.step], names);
      if (typeof v.step === "string") {
        // a text step of an FC run is text, not a decode failure
        expect(x).toMatchObject({ calls: [], decodeFailures: 0, text: [v.step] });
        return;
      }
      if (Array.isArray(v.step) && v.step.length > 0 && v.step.every((e) => typeof e === "string")) {
        // BFCL's FC decoder rejects a list of texts (how Claude, Nova and Gemini store a reply), but it is text all the same
        expect(v.error).toBeDefined();
        expect(x).toMatchObject({ calls: [], decodeFailures: 0, undecidableSteps: 0, text: v.step });
        return;
      }
      if (v.error !== undefined) {
        expect(x.decodeFailures).toBe(1);
        expect(x.decodeErrors.map((e) => e.message)).toContain(v.error);
      } else {
        expect(x.decodeFailures).toBe(0);
        expect(x.calls.map((c) => c.name)).toEqual(v.execute!.map((s) => s.slice(0, s.indexOf("("))));
      }
    });
  }
});

describe("decodePythonText against BFCL's decoder on 1,500 seeded fuzz texts (tools/gen-bfcl-decode-vectors.py)", () => {
  const fuzz = JSON.parse(readFileSync(join(projectRoot, "src/extract/testdata/decode-fuzz.json"), "utf8")) as {
    cases: [string, string][];
  };
  it("fails exactly where BFCL fails and decodes the same names and values elsewhere", () => {
    expect(fuzz.cases).toHaveLength(1500);
    const wrong: string[] = [];
    let compared = 0;
    for (const [text, outcome] of fuzz.cases) {
      const d = decodePythonText(text);
      if ((d.failure === null) !== (outcome !== "E")) {
        wrong.push(`${JSON.stringify(text)}: BFCL ${outcome === "E" ? "fails" : "decodes"}, ours ${d.failure ?? "decodes"}`);
        continue;
      }
      // values are compared where the two documented differences cannot arise (dict key order, opaque layouts)
      if (outcome === "E" || /lambda|\bfor\b|f'|f"|\{/.test(text)) continue;
      compared++;
      const hash = createHash("sha256")
        .update(canonical(decodedForm(d.calls)), "ascii")
        .digest("hex")
        .slice(0, 12);
      if (hash !== outcome) wrong.push(`${JSON.stringify(text)}: decoded differently ${canonical(decodedForm(d.calls)).slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    expect(compared).toBeGreaterThan(200);
  });
});

// ---------------------------------------------------------------------------------------

describe("gold-derived Python-call text: every ground-truth call is recovered", () => {
  it("decodes all 4,625 ground-truth calls of the four categories exactly as BFCL's decoder does", () => {
    let calls = 0;
    const mismatched: string[] = [];
    const missing: string[] = [];
    for (const category of ["base", "long_context", "miss_func", "miss_param"]) {
      for (const entry of jsonLines<{ id: string; ground_truth: string[][] }>(
        join(bfclDataDir(), "possible_answer", `BFCL_v4_multi_turn_${category}.json`),
      )) {
        const tools = toolsOf(entry.id);
        const turns = entry.ground_truth.map((turn, t) => {
          calls += turn.length;
          const text = `[${turn.join(", ")}]`;
          const d = decodePythonText(text);
          // through the full extractor, with the item's own tool list
          const x = extractTurn([text], tools, prompting);
          const expectedNames = turn.map((s) => s.slice(0, s.indexOf("(")));
          if (x.calls.length !== turn.length || x.calls.some((c, i) => c.name !== expectedNames[i] || c.shape !== "python-text")) {
            missing.push(`${entry.id} turn ${t}`);
          }
          return d.failure !== null ? { error: true } : { decoded: decodedForm(d.calls) };
        });
        const hash = createHash("sha256").update(canonical(turns), "ascii").digest("hex").slice(0, 16);
        if (hash !== gtHashes.hashes[`${category}/${entry.id}`]) mismatched.push(`${category}/${entry.id}`);
      }
    }
    expect(calls).toBe(4625);
    expect(gtHashes.calls).toBe(4625);
    expect(missing).toEqual([]);
    expect(mismatched).toEqual([]);
  });

  it("keeps positional arguments BFCL drops: multi_turn_base_0 turn 2 `sort('final_report.pdf')`", () => {
    const x = extractTurn(["[sort('final_report.pdf')]"], toolsOf("multi_turn_base_0"), prompting);
    expect(x.calls).toEqual([{ name: "sort", positional: ["final_report.pdf"], keywords: [], shape: "python-text", step: 0 }]);
  });
});

// ---------------------------------------------------------------------------------------

describe("extractTurn on the real gpt-oss rollouts", () => {
  it("multi_turn_base_0 (2025-11-12-main, gpt-oss-120b), turn 0: FC string records, then an empty step", () => {
    const line = findLine("2025-11-12-main", "openai_gpt-oss-120b", "multi_turn_base_0");
    const x = extractTurn(turnOf(line, 0), toolsOf(line.id));
    const expected = [...Array<string>(13).fill("ls"), "cd", "mkdir", "ls", "mv"];
    expect(x.steps).toBe(18);
    expect(x.calls.map((c) => c.name)).toEqual(expected);
    expect(x.calls.every((c) => c.shape === "fc-json-string")).toBe(true);
    expect(x.calls[16]!.keywords).toEqual([
      ["source", "final_report.pdf"],
      ["destination", "temp"],
    ]);
    expect(x.calls[13]!.step).toBe(13);
    expect(x.calls[0]!.keywords).toEqual([["a", false]]);
    expect(x).toMatchObject({ decodeFailures: 0, offListNames: [], text: [] });
    expect(listCallNames(turnOf(line, 0), toolsOf(line.id))).toEqual(expected);
  });

  it("multi_turn_base_2 (2025-11-12-main, gpt-oss-20b), turn 0: leaked-token names decode but are off the tool list", () => {
    const line = findLine("2025-11-12-main", "openai_gpt-oss-20b", "multi_turn_base_2");
    const x = extractTurn(turnOf(line, 0), toolsOf(line.id));
    expect(x.offListNames).toEqual(expect.arrayContaining(["cat<|channel|>", "echo<|channel|>commentary"]));
    expect(x.calls.some((c) => c.name.includes("<|"))).toBe(false);
    expect(x.calls.filter((c) => c.step === 6)).toEqual([]);
    expect(x.decodeFailures).toBe(0);
  });

  it("multi_turn_base_171 (harmony-fixes, gpt-oss-20b), turn 2: bad argument JSON on an on-list name is a decode failure", () => {
    const line = findLine("2025-11-12-harmony-fixes", "openai_gpt-oss-20b", "multi_turn_base_171");
    const x = extractTurn(turnOf(line, 2), toolsOf(line.id));
    expect(x.decodeFailures).toBe(1);
    expect(x.decodeErrors).toEqual([
      {
        step: 2,
        shape: "fc-json-string",
        message: "Expecting ':' delimiter: line 1 column 4 (char 3)",
        name: "view_messages_sent",
        onToolList: true,
      },
    ]);
    expect(x.calls.map((c) => c.name)).not.toContain("view_messages_sent");
  });

  it("multi_turn_miss_func_39 (main, gpt-oss-20b), turn 2 step 6: a good echo beside a garbled entry counts, flagged stepDecodeFailed", () => {
    const line = findLine("2025-11-12-main", "openai_gpt-oss-20b", "multi_turn_miss_func_39");
    const x = extractTurn(turnOf(line, 2), toolsOf(line.id));
    const echo = x.calls.find((c) => c.step === 6 && c.name === "echo");
    expect(echo).toBeDefined();
    expect(echo!.stepDecodeFailed).toBe(true);
    expect(echo!.keywords).toEqual([
      ["content", "Hi World!"],
      ["file_name", "index.html"],
    ]);
    expect(
      x.decodeErrors.some((e) => e.step === 6 && e.message === "Expecting value: line 1 column 1 (char 0)" && e.onToolList === false),
    ).toBe(true);
  });

  it("agrees with BFCL's inference log on every step of all 12 result files (decoded / empty / decode error, with Python's message)", () => {
    const totals = {
      files: 0,
      lines: 0,
      errorLines: 0,
      turns: 0,
      steps: 0,
      emptySteps: 0,
      decodedSteps: 0,
      decodeErrorSteps: 0,
      calls: 0,
      offList: 0,
      leaked: 0,
    };
    const disagreements: string[] = [];
    for (const run of rolloutRuns) {
      for (const model of models) {
        for (const category of categories) {
          totals.files++;
          for (const line of resultLines(run, model, category)) {
            totals.lines++;
            if (!Array.isArray(line.result)) {
              totals.errorLines++;
              continue;
            }
            const logTurns = (line.inference_log ?? []).filter(
              (e): e is Record<string, unknown> => !Array.isArray(e) && typeof e === "object" && e !== null,
            );
            const tools = toolsOf(line.id);
            (line.result as unknown[][]).forEach((steps, t) => {
              totals.turns++;
              const x: TurnExtraction = extractTurn(steps, tools);
              totals.calls += x.calls.length;
              totals.offList += x.offListNames.length;
              totals.leaked += x.offListNames.filter((n) => n.includes("<|")).length;
              steps.forEach((step, s) => {
                totals.steps++;
                const log = (logTurns[t]?.[`step_${s}`] ?? []) as {
                  role: string;
                  content?: string;
                  error?: string;
                  model_response_decoded?: string[];
                }[];
                const handler = log.find((m) => m.role === "handler_log");
                const ours = { failed: x.decodeErrors.filter((e) => e.step === s), calls: x.calls.filter((c) => c.step === s).length };
                const where = `${run}/${model}/${line.id} turn ${t} step ${s}`;
                if (Array.isArray(step) && step.length === 0) totals.emptySteps++;
                if (handler?.content?.startsWith("Error decoding")) {
                  totals.decodeErrorSteps++;
                  if (ours.failed.length === 0 || ours.failed[0]!.message !== handler.error)
                    disagreements.push(`${where}: BFCL error ${handler.error}, ours ${JSON.stringify(ours.failed)}`);
                } else if (handler?.content?.startsWith("Successfully decoded")) {
                  totals.decodedSteps++;
                  const offListHere = (step as Record<string, unknown>[])
                    .flatMap((e) => Object.keys(e))
                    .filter((n) => !tools.has(n)).length;
                  if (ours.failed.length > 0 || ours.calls + offListHere !== handler.model_response_decoded!.length)
                    disagreements.push(`${where}: decoded ${handler.model_response_decoded!.length}, ours ${ours.calls}+${offListHere}`);
                } else if (handler?.content?.startsWith("Empty response")) {
                  if (ours.failed.length > 0 || ours.calls > 0) disagreements.push(`${where}: BFCL empty, ours ${JSON.stringify(ours)}`);
                }
              });
            });
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(totals.files).toBe(12);
    expect(totals.decodeErrorSteps).toBe(79);
    expect(totals.leaked).toBeGreaterThan(0);
    expect(totals.emptySteps).toBeGreaterThan(9000);
    console.log("real-rollout extraction totals", JSON.stringify(totals));
  });
});

// ---------------------------------------------------------------------------------------

describe("extractTurn with each model's decoder", () => {
  const tools = new Set(["cd", "mv", "echo", "ls", "confirm", "cp"]);

  it("reads {name: {…args}} records and a bare dict step (fc)", () => {
    const x = extractTurn([[{ mv: { source: "a", destination: "b" } }], { cd: { folder: "x" } }], tools);
    expect(x.calls.map((c) => [c.name, c.shape, c.step, c.keywords])).toEqual([
      [
        "mv",
        "fc-object",
        0,
        [
          ["source", "a"],
          ["destination", "b"],
        ],
      ],
      ["cd", "fc-object", 1, [["folder", "x"]]],
    ]);
  });

  it("reads <tool_call> JSON blocks (tool-call) and keeps the surrounding prose as text", () => {
    const text =
      'Let me do that.\n<tool_call>\n{"name": "cd", "arguments": {"folder": "docs"}}\n</tool_call>\n<tool_call>\n{"name": "echo", "arguments": "{\\"content\\": \\"hi\\", \\"file_name\\": \\"a.txt\\"}"}\n</tool_call>';
    const x = extractTurn([text], tools, dec("tool-call"));
    expect(x.calls.map((c) => [c.name, c.shape, c.keywords])).toEqual([
      ["cd", "tool-call-tag", [["folder", "docs"]]],
      [
        "echo",
        "tool-call-tag",
        [
          ["content", "hi"],
          ["file_name", "a.txt"],
        ],
      ],
    ]);
    expect(x.text).toEqual(["Let me do that."]);
    expect(x.decodeFailures).toBe(0);
  });

  it("reads xLAM's JSON text and Llama 3.1's {name, parameters} text through their decoders", () => {
    const x = extractTurn(
      ['[{"name": "cd", "arguments": {"folder": "x"}}, {"name": "nope", "arguments": {}}]', "Done."],
      tools,
      dec("xlam"),
    );
    expect(x.calls.map((c) => [c.name, c.shape, c.keywords])).toEqual([["cd", "json-text", [["folder", "x"]]]]);
    expect(x).toMatchObject({ offListNames: ["nope"], decodeFailures: 0, text: ["Done."] });
    const y = extractTurn(
      ['<|python_tag|>{"name": "mv", "parameters": {"source": "a", "destination": "b"}}; {"name": "ls", "parameters": {}}'],
      tools,
      dec("llama-3.1"),
    );
    expect(y.calls.map((c) => [c.name, c.keywords])).toEqual([
      [
        "mv",
        [
          ["source", "a"],
          ["destination", "b"],
        ],
      ],
      ["ls", []],
    ]);
  });

  it("reads prose as text, never as a call or a failure, whatever the decoder", () => {
    for (const name of ["prompting", "xlam", "tool-call", "llama-3.1", "fc"]) {
      for (const prose of [
        "I need the file name first. Which file?",
        "confirm you are already logged in",
        "Sure",
        "Rivermist is a nice destination.",
      ]) {
        const x = extractTurn([prose], tools, dec(name));
        expect(x, `${name}: ${prose}`).toMatchObject({
          calls: [],
          offListNames: [],
          decodeFailures: 0,
          undecidableSteps: 0,
          text: [prose],
        });
      }
    }
  });

  it("counts call-like text BFCL cannot decode as a failure, keeping calls that parse", () => {
    expect(extractTurn(["ls(a=True"], tools, prompting).decodeFailures).toBe(1);
    expect(extractTurn(["Calling cd(folder='x') now."], tools, prompting).decodeFailures).toBe(1);
    expect(extractTurn(["[ls<|channel|>commentary(a=True)]"], tools, prompting).decodeFailures).toBe(1);
    const x = extractTurn(["[mv(source=a.b, destination='c')]"], tools, prompting);
    expect(x.decodeFailures).toBe(1);
    expect(x.calls).toEqual([
      {
        name: "mv",
        positional: [],
        keywords: [
          ["source", "a.b"],
          ["destination", "c"],
        ],
        shape: "python-text",
        step: 0,
        stepDecodeFailed: true,
      },
    ]);
  });

  it("counts the calls inside a code fence BFCL's default decoder rejects, flagged stepDecodeFailed", () => {
    const x = extractTurn(["```python\n[cd(folder='x'), mv(source='a', destination='b')]\n```"], tools, prompting);
    expect(x.decodeFailures).toBe(1);
    expect(x.calls.map((c) => [c.name, c.stepDecodeFailed])).toEqual([
      ["cd", true],
      ["mv", true],
    ]);
    expect(extractTurn(["```\nNo call needed here.\n```"], tools, prompting)).toMatchObject({ calls: [], decodeFailures: 0 });
  });

  it("reads Gemini's ```tool_code fence through the gemini-prompting decoder (the default prompting decoder fails on it)", () => {
    const text = "```tool_code\n[cd(folder='x')]\n```";
    expect(extractTurn([text], tools, dec("gemini-prompting"))).toMatchObject({
      decodeFailures: 0,
      calls: [{ name: "cd", keywords: [["folder", "x"]], shape: "python-text" }],
    });
    expect(extractTurn([text], tools, prompting)).toMatchObject({ decodeFailures: 1, calls: [{ name: "cd", stepDecodeFailed: true }] });
  });

  it("keeps a decodable call of an off-list name aside (print is not a tool)", () => {
    expect(extractTurn(["print('hello')"], tools, prompting)).toMatchObject({ calls: [], offListNames: ["print"], decodeFailures: 0 });
  });

  it("treats null, empty text and [] as steps without calls", () => {
    const x = extractTurn([null, "", [], "[]", "```\n```"], tools, prompting);
    expect(x).toMatchObject({ calls: [], decodeFailures: 0, text: [], steps: 5 });
  });

  it("reports unreadable step shapes instead of throwing", () => {
    const x = extractTurn([5, [["x"]], [{ cd: 5 }], true], tools);
    expect(x.decodeFailures).toBe(4);
    expect(x.undecidableSteps).toBe(3);
    expect(x.decodeErrors.filter((e) => e.name === "cd")).toHaveLength(1);
    expect(extractTurn("not a turn", tools).decodeFailures).toBe(1);
  });

  it("survives hostile text: deep operator chains in arguments, huge and garbage text", () => {
    // 2,000 prefix operators still parse in CPython (its limits are near 3,000); 100,000 do not
    const deep = "-".repeat(2000) + "1";
    const x = extractTurn([`[cd(${deep}, folder=${deep})]`], tools, prompting);
    expect(x.calls.map((c) => c.name)).toEqual(["cd"]);
    expect(x.decodeFailures).toBe(1);
    expect(extractTurn([`[cd(folder=1 + ${deep})]`], tools, prompting).decodeFailures).toBe(1);
    const tooDeep = "-".repeat(100000) + "1";
    expect(extractTurn([`[cd(folder=${tooDeep})]`], tools, prompting)).toMatchObject({ calls: [], decodeFailures: 1 });
    // garbage that is not call-like reads as text (rule of looksLikeCallText)
    expect(extractTurn(["[" + "(".repeat(50000)], tools, prompting)).toMatchObject({ calls: [], decodeFailures: 0 });
    expect(extractTurn(["[cd(" + "(".repeat(50000)], tools, prompting).decodeFailures).toBe(1);
    const prose = "word ".repeat(200000);
    expect(extractTurn([prose], tools, prompting)).toMatchObject({ calls: [], decodeFailures: 0, text: [prose] });
    expect(extractTurn(["<tool_call>\n".repeat(10000)], tools, dec("tool-call"))).toMatchObject({ decodeFailures: 1, undecidableSteps: 1 });
  });

  it("builds keyword lists lazily but serialises like plain calls", () => {
    const c: ExtractedCall = extractTurn([[{ cd: '{"folder": "x"}' }]], tools).calls[0]!;
    expect(JSON.parse(JSON.stringify(c))).toEqual({
      name: "cd",
      positional: [],
      keywords: [["folder", "x"]],
      shape: "fc-json-string",
      step: 0,
      stepDecodeFailed: false,
    });
  });
});

describe("undecodable call text is an attempt by name, or undecidable — never holding back", () => {
  const tools = new Set(["cd", "mv", "echo", "ls", "cp"]);

  it("a tool name in call position counts as an attempt by that name, reported undecoded", () => {
    const x = extractTurn(["cp(source='log.txt, destination='archive')"], tools, prompting);
    expect(x).toMatchObject({ calls: [], decodeFailures: 1, undecidableSteps: 0 });
    expect(x.decodeErrors.map((e) => [e.name, e.onToolList])).toEqual([["cp", true]]);
    // a <tool_call> block cut mid-JSON: BFCL's tool-call decoder drops it silently; the name is still there
    const cut = '<tool_call>\n{"name": "cp", "arguments": {"source": "lo';
    expect(decoderByName("tool-call")!.decode(cut)).toEqual({ ok: true, calls: [] });
    const y = extractTurn([cut], tools, dec("tool-call"));
    expect(y.decodeErrors.map((e) => [e.name, e.onToolList])).toEqual([["cp", true]]);
    // the same text under xLAM's decoder: it fails, and names cp too
    expect(extractTurn(['[{"name": "cp", "arguments": {"source": "lo'], tools, dec("xlam")).decodeErrors.map((e) => e.name)).toEqual([
      "cp",
    ]);
  });

  it("call-like text that names no function is undecidable; naming only off-list functions is not an attempt", () => {
    expect(extractTurn(['<tool_call>\n{"arguments": {"source": "lo'], tools, dec("tool-call"))).toMatchObject({
      calls: [],
      decodeFailures: 1,
      undecidableSteps: 1,
    });
    expect(extractTurn(['[{"arguments": {"folder": "x"}}]'], tools, dec("xlam"))).toMatchObject({ decodeFailures: 1, undecidableSteps: 1 });
    expect(extractTurn(["[fetch(url='x'"], tools, prompting)).toMatchObject({
      offListNames: ["fetch"],
      decodeFailures: 1,
      undecidableSteps: 0,
    });
  });
});
