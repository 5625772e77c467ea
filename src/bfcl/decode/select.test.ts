import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import type { PyValue } from "../../python/value.js";
import { sharedPath } from "../../testing/shared.js";
import { decodeFailureMessage, looksLikeToolCall, newDecodeHealth, countTurn } from "./health.js";
import { extractTurn } from "../../extract/extract.js";
import { decoderByName } from "./decoders.js";
import { sampleSteps } from "./sample.js";
import { chooseDecoder, detectDecoder } from "./select.js";

const J = JSON.stringify;

describe("chooseDecoder", () => {
  const none = () => [] as PyValue[];
  it("takes --decoder first, then the registry entry of the folder", () => {
    expect(chooseDecoder({ folder: "Salesforce_Llama-xLAM-2-8b-fc-r", override: "prompting", samples: none })).toMatchObject({
      source: "flag",
      reason: "--decoder prompting",
    });
    expect(chooseDecoder({ folder: "x", override: "nonsense", samples: none })).toBeNull();
    const reg = chooseDecoder({
      folder: "Salesforce_Llama-xLAM-2-8b-fc-r",
      samples: () => {
        throw new Error("a registry folder needs no samples");
      },
    })!;
    expect([reg.decoder.name, reg.source, reg.reason]).toEqual([
      "xlam",
      "registry",
      "BFCL registry key Salesforce/Llama-xLAM-2-8b-fc-r: SalesforceLlamaHandler, function-calling mode",
    ]);
    expect(chooseDecoder({ folder: "gpt-4o-2024-11-20", samples: none })!.decoder.name).toBe("prompting");
  });
  it("reads the registry of the run's BFCL version: a key's mode, and the handler code, are that version's", () => {
    const v3 = chooseDecoder({ folder: "palmyra-x-004", version: "v3", samples: none })!;
    expect([v3.decoder.name, v3.source, v3.reason]).toEqual([
      "prompting-v3",
      "registry",
      "BFCL v3 registry key palmyra-x-004: WriterHandler, prompting mode",
    ]);
    expect(chooseDecoder({ folder: "palmyra-x-004", version: "v4", samples: none })!.decoder.name).toBe("fc");
    // a handler BFCL has since dropped is decoded as v3's code did
    const dbrx = chooseDecoder({ folder: "databricks-dbrx-instruct", version: "v3", samples: () => ["[cd(folder='x')]"] })!;
    expect([dbrx.decoder.name, dbrx.source, dbrx.reason]).toEqual([
      "databricks",
      "registry",
      "BFCL v3 registry key databricks-dbrx-instruct: DatabricksHandler, prompting mode",
    ]);
    expect(chooseDecoder({ folder: "databricks-dbrx-instruct", samples: none })!.reason).toMatch(/^not in BFCL's model registry; /);
  });
  it("detects the decoder of a folder BFCL does not know, and says so", () => {
    const c = chooseDecoder({ folder: "my-model", samples: () => ["[cd(folder='x')]", "I need the name.", "[ls(a=True), pwd()]"] })!;
    expect([c.decoder.name, c.source]).toEqual(["prompting", "detected"]);
    expect(c.reason).toBe(
      "not in BFCL's model registry; 2 of 3 sampled text steps decode to calls with prompting; next best gemini-prompting: 2",
    );
  });
});

describe("detectDecoder", () => {
  const text = (steps: string[]) => detectDecoder(steps).decoder.name;
  it("tells each text format apart", () => {
    expect(text([J([{ name: "cd", arguments: { folder: "x" } }]), "Done."])).toBe("xlam");
    expect(text([J({ name: "cd", parameters: { folder: "x" } }) + "; " + J({ name: "ls", parameters: {} })])).toBe("llama-3.1");
    expect(text(["<tool_call>\n" + J({ name: "cd", arguments: { folder: "x" } }) + "\n</tool_call>"])).toBe("tool-call");
    expect(text(["<TOOLCALL>[cd(folder='x')]</TOOLCALL>"])).toBe("nemotron");
    expect(text(["```tool_code\ncd(folder='x')\n```"])).toBe("gemini-prompting");
    expect(text(["<start_function_call>call:cd{folder:<escape>x<escape>}<end_function_call>"])).toBe("functiongemma");
    expect(text(["<|tool_call_start|>\ncd(folder='x')\n<|tool_call_end|>"])).toBe("minicpm-fc");
  });
  it("tells record formats apart and falls back to BFCL's defaults when nothing decodes", () => {
    const rec = (o: Record<string, PyValue>) => new PyDict(Object.entries(o));
    expect(detectDecoder([[rec({ cd: J({ folder: "x" }) })]]).decoder.name).toBe("fc");
    expect(detectDecoder([[rec({ name: "cd", arguments: rec({ folder: "x" }) })]]).decoder.name).toBe("mining");
    expect(detectDecoder([[rec({ tool_name: "cd", parameters: rec({ folder: "x" }) })]]).decoder.name).toBe("cohere");
    expect(detectDecoder(["I cannot do that.", "Which file?"])).toMatchObject({ decoder: { name: "prompting" } });
    expect(detectDecoder([[], null, ""]).reason).toBe("no step with content to look at; BFCL's function-calling decoder");
  });
  it("picks xlam for the real xLAM run and fc for a real gpt-oss run, from their first 200 steps", () => {
    const xlam = readFileSync(
      join(sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r"), "BFCL_v3_multi_turn_base_result.json"),
    );
    expect(detectDecoder(sampleSteps([new Uint8Array(xlam)])).decoder.name).toBe("xlam");
    const oss = readFileSync(
      sharedPath(
        "rollouts",
        "gpt-oss",
        "2025-11-12-main",
        "result",
        "openai_gpt-oss-120b",
        "multi_turn",
        "BFCL_v4_multi_turn_base_result.json",
      ),
    );
    expect(detectDecoder(sampleSteps([new Uint8Array(oss)])).decoder.name).toBe("fc");
  });
});

describe("the wrong-decoder guard", () => {
  it("counts tool-looking steps only: records, call text, JSON calls, call markup — not prose or empty steps", () => {
    for (const s of [
      [{ ls: "{}" }],
      { ls: "{}" },
      "ls(a=True)",
      " [cd(folder='x')]",
      '[{"name": "cd"}]',
      "```json\n{'name': 'x'}",
      "<tool_call>",
      "x <|python_tag|>",
    ])
      expect(looksLikeToolCall(s), J(s)).toBe(true);
    for (const s of [[], null, "", "I need the file name.", "Sure (if you want).", "[1, 2]", '{"a": 1}'])
      expect(looksLikeToolCall(s), J(s)).toBe(false);
  });
  it("reports a file only past 5 % failures, with the count and the first error", () => {
    const h = newDecodeHealth();
    const tools = new Set(["ls"]);
    const read = (step: unknown) => countTurn(h, extractTurn([step], tools));
    for (let i = 0; i < 19; i++) read([{ ls: "{}" }]);
    read("prose");
    read("ls(a=True)");
    expect(h).toMatchObject({ steps: 21, toolLooking: 20, failed: 1 });
    expect(decodeFailureMessage(h, "fc")).toBeNull();
    read("ls(a=True)");
    expect(decodeFailureMessage(h, "fc")).toBe(
      "2 of 21 tool-call steps (9.5 %) fail to decode with decoder fc (first: AttributeError: 'str' object has no attribute 'items'); the steps may need another decoder: pass --decoder NAME (see --help)",
    );
  });
});
