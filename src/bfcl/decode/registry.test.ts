import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../testing/shared.js";
import { decoderByName } from "./decoders.js";
import { registryEntryOfFolder, registryHandlers, registryModels, registryTables } from "./registry.js";

const vectors = JSON.parse(readFileSync(new URL("./testdata/handler-vectors.json", import.meta.url), "utf8")) as {
  sets: { handler: string; owner: string; isFcModel: boolean; decoder: string }[];
};

describe("the committed model registry table (generated from BFCL's model_config.py)", () => {
  it("has BFCL's 175 registry keys, each with its result folder and a known decoder", () => {
    expect(registryModels).toHaveLength(175);
    const folders = new Set<string>();
    for (const m of registryModels) {
      expect(m.folder).toBe(m.key.replaceAll("/", "_"));
      expect(folders.has(m.folder), m.folder).toBe(false);
      folders.add(m.folder);
      expect(m.decoder, m.key).not.toBeNull();
      expect(decoderByName(m.decoder!), m.key).toBeDefined();
      expect(registryHandlers[m.handler], m.handler).toBeDefined();
    }
  });

  it("gives one decoder per handler and mode, fixed by the mode only where decode_execute reads is_fc_model", () => {
    const byHandlerMode = new Map<string, string>();
    for (const m of registryModels) {
      const h = registryHandlers[m.handler];
      if (h.forcedIsFcModel !== null) expect(m.isFcModel, m.key).toBe(h.forcedIsFcModel);
      const key = h.dependsOnMode ? `${h.owner}/${m.isFcModel}` : h.owner;
      const seen = byHandlerMode.get(key);
      if (seen !== undefined) expect(m.decoder, m.key).toBe(seen);
      byHandlerMode.set(key, m.decoder!);
    }
    // the handler vectors were generated with the same owner → decoder reading: both artifacts agree
    for (const set of vectors.sets) {
      const key = registryHandlers[set.handler]?.dependsOnMode ? `${set.owner}/${set.isFcModel}` : set.owner;
      if (byHandlerMode.has(key)) expect(set.decoder, key).toBe(byHandlerMode.get(key));
    }
  });

  it("finds models by their result folder", () => {
    expect(registryEntryOfFolder("Salesforce_Llama-xLAM-2-8b-fc-r")).toMatchObject({
      handler: "SalesforceLlamaHandler",
      decoder: "xlam",
      isFcModel: true,
    });
    expect(registryEntryOfFolder("gpt-4o-2024-11-20-FC")).toMatchObject({ handler: "OpenAIResponsesHandler", decoder: "fc" });
    expect(registryEntryOfFolder("gpt-4o-2024-11-20")).toMatchObject({ handler: "OpenAIResponsesHandler", decoder: "prompting" });
    expect(registryEntryOfFolder("Qwen_Qwen3-8B-FC")).toMatchObject({ handler: "QwenFCHandler", decoder: "tool-call" });
    expect(registryEntryOfFolder("meta-llama_Llama-3.1-8B-Instruct-FC")).toMatchObject({ decoder: "llama-3.1" });
    expect(registryEntryOfFolder("openai_gpt-oss-120b")).toBeUndefined();
  });
});

describe("the committed v3 model registry table (generated from BFCL v3's model_config.py)", () => {
  const v3 = registryTables.v3;
  it("has BFCL v3's 161 registry keys, each with its folder, a known handler, and a decoder of v3's code", () => {
    expect(v3.models).toHaveLength(161);
    expect(new Set(v3.models.map((m) => m.folder)).size).toBe(161);
    for (const m of v3.models) {
      expect(m.folder).toBe(m.key.replaceAll("/", "_"));
      expect(v3.handlers[m.handler], m.handler).toBeDefined();
      const d = decoderByName(m.decoder)!;
      expect(d, m.key).toBeDefined();
      // the decoder reproduces this owner at v3: declared for it without a revision, or for v3
      const owner = v3.handlers[m.handler].owner;
      expect(
        d.owners.some((o) => o.owner === owner && (o.revision ?? "v3") === "v3"),
        `${m.key}: ${d.name}`,
      ).toBe(true);
    }
    // the handler BFCL dropped after v3 has its own decoder
    expect(v3.models.filter((m) => m.handler === "DatabricksHandler").map((m) => `${m.key}: ${m.decoder}`)).toEqual([
      "databricks-dbrx-instruct: databricks",
    ]);
  });

  it("is read for a v3 run: a key whose handler or mode changed gets that version's decoder", () => {
    // Writer's palmyra-x-004 was a prompting model in v3 and is a function-calling one in v4
    expect(registryEntryOfFolder("palmyra-x-004", "v3")).toMatchObject({
      handler: "WriterHandler",
      isFcModel: false,
      decoder: "prompting-v3",
    });
    expect(registryEntryOfFolder("palmyra-x-004", "v4")).toMatchObject({ handler: "WriterHandler", isFcModel: true, decoder: "fc" });
    expect(registryEntryOfFolder("palmyra-x-004")).toMatchObject({ decoder: "fc" });
    // v3 configured the xLAM-2 keys as prompting models; their decoder is xlam either way
    expect(registryEntryOfFolder("Salesforce_Llama-xLAM-2-8b-fc-r", "v3")).toMatchObject({
      handler: "SalesforceLlamaHandler",
      isFcModel: false,
      decoder: "xlam",
    });
    // v3's ClaudeHandler branches on "FC" in the model name (the key in v3): both modes still get their decoder
    expect(registryEntryOfFolder("claude-opus-4-20250514-FC", "v3")).toMatchObject({ decoder: "fc" });
    expect(registryEntryOfFolder("claude-opus-4-20250514", "v3")).toMatchObject({ decoder: "claude-prompting-v3" });
    // where v3's handler code differs from today's, its key gets the decoder of v3's code
    expect(registryEntryOfFolder("Qwen_Qwen3-4B-FC", "v3")).toMatchObject({ decoder: "tool-call-v3" });
    // keys of one version only
    const v4Keys = new Set(registryModels.map((m) => m.folder));
    const onlyV3 = v3.models.filter((m) => !v4Keys.has(m.folder));
    expect(onlyV3.length).toBeGreaterThan(0);
    for (const m of onlyV3) expect(registryEntryOfFolder(m.folder, "v4"), m.key).toBeUndefined();
  });
});

/**
 * Regeneration from a Gorilla checkout (GORILLA_DIR = the berkeley-function-call-leaderboard
 * folder): the committed table and vectors are exactly what the tools write. Skipped only
 * when no checkout is given; the table itself is checked above either way.
 */
const gorilla = process.env.GORILLA_DIR;
describe.skipIf(!gorilla)("regenerated from GORILLA_DIR", () => {
  it("tools/gen-model-registry.py writes the committed registry-table.ts", () => {
    const out = execFileSync("python3", [join(projectRoot, "tools", "gen-model-registry.py"), gorilla!], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(out).toBe(readFileSync(join(projectRoot, "src", "bfcl", "decode", "registry-table.ts"), "utf8"));
  });
  it("tools/gen-decode-vectors.py writes the committed handler vectors", () => {
    const out = execFileSync("python3", [join(projectRoot, "tools", "gen-decode-vectors.py"), gorilla!], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(out).toBe(readFileSync(join(projectRoot, "src", "bfcl", "decode", "testdata", "handler-vectors.json"), "utf8"));
  }, 60_000);
});

/**
 * The v3 table regenerated from the v3 checkout (GORILLA_V3_DIR = its
 * berkeley-function-call-leaderboard folder). Skipped only when no checkout is given; a
 * variable that names no checkout fails (the tool refuses a folder without BFCL's handlers).
 */
const gorillaV3 = process.env.GORILLA_V3_DIR;
describe.skipIf(!gorillaV3)("the v3 table regenerated from GORILLA_V3_DIR", () => {
  it("tools/gen-model-registry.py writes the committed registry-table-v3.ts", () => {
    const out = execFileSync("python3", [join(projectRoot, "tools", "gen-model-registry.py"), gorillaV3!, "--revision", "v3"], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(out).toBe(readFileSync(join(projectRoot, "src", "bfcl", "decode", "registry-table-v3.ts"), "utf8"));
  }, 60_000);
  it("tools/gen-decode-vectors.py writes the committed v3 handler vectors", () => {
    const out = execFileSync("python3", [join(projectRoot, "tools", "gen-decode-vectors.py"), gorillaV3!, "--revision", "v3"], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(out).toBe(readFileSync(join(projectRoot, "src", "bfcl", "decode", "testdata", "handler-vectors-v3.json"), "utf8"));
  }, 60_000);
});
