import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../testing/shared.js";
import { declarationsTable, handlersTable, withDecoderTable } from "./decoder-docs.js";
import {
  decodeOwnerTable,
  decoders,
  DECODER_NAMES,
  detectionOrder,
  fcDecoder,
  promptingDecoder,
  toolCallTags,
  type Decoder,
} from "./decoders.js";
import { declaredDecoders } from "./decoders/index.js";
import { bfclVersions, type BfclVersion } from "../categories.js";
import { registryTables } from "./registry.js";

const decodersDir = join(projectRoot, "src", "bfcl", "decode", "decoders");
const vectors = JSON.parse(readFileSync(new URL("./testdata/handler-vectors.json", import.meta.url), "utf8")) as {
  sets: { owner: string }[];
};

/** What is wrong with a list of declarations, one line each (none for a consistent list). */
function declarationProblems(list: readonly Decoder[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const ranks = new Map<number, string>();
  const owners = new Map<string, string>();
  for (const d of list) {
    if (names.has(d.name)) problems.push(`${d.name}: declared twice`);
    names.add(d.name);
    if (d.detectionRank !== null) {
      const other = ranks.get(d.detectionRank);
      if (other !== undefined) problems.push(`${d.name}: detection rank ${d.detectionRank} is ${other}'s too`);
      ranks.set(d.detectionRank, d.name);
    }
    if (d.nameKeyed && !d.records) problems.push(`${d.name}: name-keyed steps are records`);
    if (d.records && (d.pythonSource !== undefined || d.tags.length > 0)) problems.push(`${d.name}: records have no Python source or tags`);
    if (d.bfclDefaultFor !== undefined && d.bfclDefaultFor !== (d.records ? "records" : "text"))
      problems.push(`${d.name}: BFCL's default for ${d.bfclDefaultFor} reads the other kind`);
    if (d.owners.length === 0) problems.push(`${d.name}: no decode_execute owner`);
    for (const o of d.owners)
      for (const revision of o.revision === undefined ? bfclVersions : [o.revision]) {
        const key = `${o.owner}/${o.mode ?? "any"}/${revision}`;
        const other = owners.get(key);
        if (other !== undefined) problems.push(`${d.name}: ${key} is ${other}'s`);
        owners.set(key, d.name);
      }
  }
  for (const kind of ["records", "text"] as const) {
    const defaults = list.filter((d) => d.bfclDefaultFor === kind).map((d) => d.name);
    if (defaults.length !== 1) problems.push(`BFCL's default for ${kind}: ${defaults.length === 0 ? "none" : defaults.join(", ")}`);
  }
  for (const key of owners.keys()) {
    const [owner, mode, revision] = key.split("/");
    const has = (m: string): boolean => owners.has(`${owner}/${m}/${revision}`);
    if (mode === "any" && (has("fc") || has("prompting"))) problems.push(`${owner} (${revision}): declared with and without a mode`);
    if (mode === "fc" && !has("prompting")) problems.push(`${owner} (${revision}): FC mode declared, prompting mode not`);
    if (mode === "prompting" && !has("fc")) problems.push(`${owner} (${revision}): prompting mode declared, FC mode not`);
  }
  return problems;
}

/** The declared decoder of a registry handler of a BFCL revision in a mode, by its decode_execute owner. */
function declaredDecoderOf(handler: string, isFcModel: boolean, revision: BfclVersion = "v4"): string | undefined {
  const facts = registryTables[revision].handlers[handler];
  const mode = facts.dependsOnMode ? (isFcModel ? "fc" : "prompting") : undefined;
  return decoders.find((d) => d.owners.some((o) => o.owner === facts.owner && o.mode === mode && (o.revision ?? revision) === revision))
    ?.name;
}

describe("the decoder declarations (one file per decoder, listed once in decoders/index.ts)", () => {
  it("every file of decoders/ is a declared decoder named after it, and every declared decoder has its file", async () => {
    const files = readdirSync(decodersDir).filter((f) => f.endsWith(".ts") && f !== "index.ts" && !f.endsWith(".test.ts"));
    expect(files.map((f) => f.slice(0, -3)).sort()).toEqual([...DECODER_NAMES].sort());
    for (const f of files) {
      const mod = (await import(pathToFileURL(join(decodersDir, f)).href)) as { decoder: Decoder };
      expect(mod.decoder.name, f).toBe(f.slice(0, -3));
      expect(
        declaredDecoders.filter((d) => d === mod.decoder),
        f,
      ).toHaveLength(1);
    }
  });

  it("names, detection ranks and decode_execute owners are unique, and each kind of step has one BFCL default", () => {
    expect(declarationProblems(decoders)).toEqual([]);
    expect([fcDecoder.name, promptingDecoder.name]).toEqual(["fc", "prompting"]);
  });

  it("the consistency check finds a broken list (a repeated name or rank, a lone mode, a second default)", () => {
    const xlam = decoders.find((d) => d.name === "xlam")!;
    const prompting = decoders.find((d) => d.name === "prompting")!;
    expect(declarationProblems([...decoders, xlam])).toContain("xlam: declared twice");
    expect(declarationProblems(decoders.map((d) => (d.name === "hammer" ? { ...d, detectionRank: xlam.detectionRank } : d)))).toContain(
      "hammer: detection rank 60 is xlam's too",
    );
    expect(declarationProblems(decoders.filter((d) => d.name !== "gemini-prompting"))).toContain(
      "GeminiHandler (v4): FC mode declared, prompting mode not",
    );
    // a revision's own decoder cannot also be declared for every revision
    expect(
      declarationProblems(decoders.map((d) => (d.name === "fc-list-v3" ? { ...d, owners: [{ owner: "NovaHandler" }] } : d))),
    ).toContain("fc-list-v3: NovaHandler/any/v4 is fc-list's");
    expect(declarationProblems(decoders.map((d) => (d.name === "xlam" ? { ...d, bfclDefaultFor: "text" as const } : d)))).toContain(
      "BFCL's default for text: prompting, xlam",
    );
    expect(
      declarationProblems(decoders.map((d) => (d.name === "bitagent" ? { ...d, owners: prompting.owners.slice(0, 1) } : d))),
    ).toContain("bitagent: OSSHandler/any/v4 is prompting's");
  });

  it("detection tries the ranked decoders in rank order, records first and BFCL's defaults first", () => {
    const ranks = detectionOrder.map((d) => d.detectionRank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a! - b!));
    expect(detectionOrder).toHaveLength(decoders.filter((d) => d.detectionRank !== null).length);
    // the order these decoders have always been tried in (a new decoder goes between them)
    const known = [
      "fc",
      "mining",
      "cohere",
      "gemini-fc",
      "prompting",
      "xlam",
      "llama-3.1",
      "tool-call",
      "functiongemma",
      "nemotron",
      "minicpm-fc",
      "gemini-prompting",
      "phi",
      "hammer",
      "bitagent",
      "falcon",
      "granite",
      "glm",
    ];
    expect(detectionOrder.map((d) => d.name).filter((n) => known.includes(n))).toEqual(known);
    for (const name of ["fc-list", "fc-dict-list", "think-agent", "gorilla", "nexus"])
      expect(decoders.find((d) => d.name === name)!.detectionRank, name).toBeNull();
    // BFCL v3's own decoders are chosen by v3's registry only; detection tries the current release's
    for (const d of decoders.filter((x) => x.owners.every((o) => o.revision === "v3"))) expect(d.detectionRank, d.name).toBeNull();
  });

  it("call extraction cuts prose at every declared tag pair, each once", () => {
    const declared = decoders.flatMap((d) => d.tags.map(([open, close]) => `${open} ${close}`));
    expect(toolCallTags.map(([open, close]) => `${open} ${close}`).sort()).toEqual([...new Set(declared)].sort());
    expect(toolCallTags.length).toBeLessThan(declared.length); // tool-call and falcon share <tool_call>
  });
});

describe("the generated artifacts agree with the declarations", () => {
  it("every registry model's decoder is the one declaring its handler's decode_execute owner (and mode) at its revision", () => {
    for (const revision of bfclVersions) {
      // v3's methods branch on "FC" in the model name (the key) instead of, or as well as, is_fc_model
      const modes = (m: { key: string; isFcModel: boolean }): boolean[] =>
        revision === "v3" ? [m.isFcModel, m.key.includes("FC")] : [m.isFcModel];
      const wrong = registryTables[revision].models
        .filter((m) => !modes(m).some((fc) => declaredDecoderOf(m.handler, fc, revision) === m.decoder))
        .map((m) => `${revision} ${m.key}: ${m.decoder} vs ${declaredDecoderOf(m.handler, m.isFcModel, revision)}`);
      expect(wrong).toEqual([]);
    }
    // and every declared owner is a real one: in BFCL's registry, or a handler the vectors were made with
    const real = new Set([
      ...bfclVersions.flatMap((v) => Object.values(registryTables[v].handlers).map((h) => h.owner)),
      ...vectors.sets.map((s) => s.owner),
    ]);
    expect(decoders.flatMap((d) => d.owners.map((o) => o.owner)).filter((o) => !real.has(o))).toEqual([]);
  });

  it("tools/decoder-owners.mjs prints the declared owner table, which tools/gen-model-registry.py maps handlers with", () => {
    const printed = JSON.parse(execFileSync("node", [join(projectRoot, "tools", "decoder-owners.mjs")], { encoding: "utf8" })) as unknown;
    expect(printed).toEqual(decodeOwnerTable());
    expect(decodeOwnerTable()).toMatchObject({ ClaudeHandler: ["fc", "prompting"], OSSHandler: "prompting", MiningHandler: "mining" });
    // each revision's own: v3's code where it differs, the shared decoders where it does not
    const v3 = JSON.parse(execFileSync("node", [join(projectRoot, "tools", "decoder-owners.mjs"), "v3"], { encoding: "utf8" })) as unknown;
    expect(v3).toEqual(decodeOwnerTable("v3"));
    expect(decodeOwnerTable("v3")).toMatchObject({
      ClaudeHandler: ["fc", "claude-prompting-v3"],
      OSSHandler: "prompting-v3",
      MiningHandler: "mining",
      SalesforceLlamaHandler: "xlam",
      DatabricksHandler: "databricks",
    });
    expect(decodeOwnerTable("v4")).not.toHaveProperty("DatabricksHandler");
  });

  it("the decoder tables of README.md and src/bfcl/decode/README.md are the ones tools/gen-decoder-docs.mjs writes", () => {
    for (const [file, table] of [
      [join(projectRoot, "README.md"), handlersTable(decoders)],
      [join(projectRoot, "src", "bfcl", "decode", "README.md"), declarationsTable(decoders)],
    ] as const) {
      const doc = readFileSync(file, "utf8");
      expect(withDecoderTable(doc, table), file).toBe(doc);
    }
    // a stale table is found: one decoder fewer changes it
    const doc = readFileSync(join(projectRoot, "README.md"), "utf8");
    expect(withDecoderTable(doc, handlersTable(decoders.slice(1)))).not.toBe(doc);
  });
});
