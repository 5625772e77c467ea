/**
 * Prompting mode against the replay of a recorded run rendered as Python-call text: decoded, executed and sent
 * back as BFCL does, every tool output and state snapshot matches the recording. More in this folder's
 * README.md.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../io/manifest.js";
import { PyDict } from "../python/containers.js";
import { jsonDumps, jsonLoadsFast } from "../python/json.js";
import { systemPromptFromBfcl } from "../rollout/system-prompt.js";
import { rolloutRunDir } from "../testing/shared.js";
import { inProcessEndpoint, parseRecording, renderAsPythonCalls, replayResponder } from "../testing/replay.js";
import { runModel } from "./run/index.js";
import { inProcessRun } from "../testing/run-fixtures.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-prompting-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("the committed manifest does not load");
  return m.value;
})();

/** The turn records and state lists of a line's log, keeping only tool outputs and snapshots. */
function toolsAndStates(line: PyDict): string {
  const log = line.get("inference_log") as unknown[];
  return jsonDumps(
    log.map((x) => {
      if (Array.isArray(x)) return x;
      const turn = x as PyDict;
      return turn
        .entries()
        .filter(([k]) => k !== "begin_of_turn_query")
        .map(([, steps]) => (steps as PyDict[]).filter((e) => e.get("role") === "tool"));
    }) as never,
  );
}

describe("run --mode prompting", () => {
  it("reproduces every tool output and state snapshot of the recorded run rendered as Python calls", async () => {
    const file = join(
      rolloutRunDir("2025-11-12-main"),
      "result",
      "openai_gpt-oss-120b",
      "multi_turn",
      "BFCL_v4_multi_turn_base_result.json",
    );
    const text = readFileSync(file, "utf8");
    const recording = parseRecording(text);
    const renderable = [...recording.values()]
      .filter((e) => e.error === null && e.steps.every((s) => renderAsPythonCalls(s.response) !== null))
      .map((e) => e.id);
    expect(renderable.length).toBeGreaterThan(150);
    const promptFile = join(tmp, "system.txt");
    writeFileSync(promptFile, "Call the functions below as a Python list of calls, e.g. [f(a=1)], and nothing else.\n\n{functions}\n");
    const mismatches: string[] = [];
    const out = join(tmp, "out");
    const doc = await runModel(
      inProcessRun({
        model: "openai/gpt-oss-120b",
        outDir: out,
        items: "all",
        mode: "prompting",
        manifest,
        inject: "Ask before acting when something is missing.",
        systemPromptFile: promptFile,
        onlyIds: renderable,
        chat: inProcessEndpoint(replayResponder(recording, { mode: "prompting", mismatches }), "openai/gpt-oss-120b"),
      }),
    );
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(mismatches).toEqual([]);
    expect(doc.value.errors).toEqual([]);
    const recordedById = new Map(
      text
        .trimEnd()
        .split("\n")
        .map((l) => [(JSON.parse(l) as { id: string }).id, l]),
    );
    const produced = readFileSync(join(out, "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json"), "utf8")
      .trimEnd()
      .split("\n");
    expect(produced.length).toBe(renderable.length);
    let executedSteps = 0;
    for (const l of produced) {
      const p = jsonLoadsFast(l) as PyDict;
      const id = p.get("id") as string;
      const r = jsonLoadsFast(recordedById.get(id) as string) as PyDict;
      // same course: steps per turn, tool outputs and state snapshots
      expect(
        (p.get("result") as unknown[][]).map((t) => t.length),
        id,
      ).toEqual((r.get("result") as unknown[][]).map((t) => t.length));
      expect(toolsAndStates(p), id).toBe(toolsAndStates(r));
      // each step is the model's text; the system prompt (with the injected block) opens turn 0
      const firstTurn = (p.get("inference_log") as unknown[])[1] as PyDict;
      const query = firstTurn.get("begin_of_turn_query") as PyDict[];
      expect(query[0].get("role")).toBe("system");
      expect(String(query[0].get("content"))).toMatch(
        /^Call the functions below[\s\S]*"name": "[\s\S]*\n\nAsk before acting when something is missing\.$/,
      );
      for (const turn of p.get("result") as unknown[][])
        for (const step of turn) if (typeof step === "string" && step !== "") executedSteps++;
    }
    expect(executedSteps).toBeGreaterThan(1000);
  }, 300_000);

  it("builds BFCL's default system prompt from a prompt module of BFCL's shape", () => {
    const moduleText = [
      "MAXIMUM_STEP_LIMIT = 20",
      'OUTPUT_FORMAT_MAPPING = {"python": "[f(a=1)]", "json": "x"}',
      'PARAM_TYPE_MAPPING = {"python": "", "json": ""}',
      "PROMPT_STYLE_TEMPLATES = {",
      '    "classic": {',
      '        "persona": "P.",',
      '        "task": " T.",',
      '        "tool_call_no_tag": "Format {output_format}. {param_types}End.",',
      '        "tool_call_with_tag": "unused",',
      '        "multiturn_behavior": "M.",',
      '        "available_tools": "Tools in {format}:\\n{functions}\\n",',
      "    },",
      "}",
      "",
      "_PLAINTEXT_SYSTEM_PROMPT_TEMPLATE = (",
      '    "{persona}{task}\\n\\n{tool_call_format}\\n\\n{multiturn_behavior}\\n\\n{available_tools}"',
      ")",
      'PROMPT_TEMPLATE_MAPPING = {"plaintext": _PLAINTEXT_SYSTEM_PROMPT_TEMPLATE}',
      "",
    ].join("\n");
    const built = systemPromptFromBfcl(moduleText, "default_prompts.py");
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    const doc = new PyDict([
      ["name", "ls"],
      ["description", "List \u00e9."],
      ["parameters", new PyDict([["a", 1.0]])],
      ["list", []],
    ]);
    expect(built.value([doc])).toBe(
      'P. T.\n\nFormat [f(a=1)]. End.\n\nM.\n\nTools in json:\n[\n    {\n        "name": "ls",\n        "description": "List \\u00e9.",\n        "parameters": {\n            "a": 1.0\n        },\n        "list": []\n    }\n]\n',
    );
    const broken = systemPromptFromBfcl("X = 1\n", "default_prompts.py");
    expect(broken.ok).toBe(false);
  });
});
