import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PyDict } from "../../../python/containers.js";
import { jsonLoadsOrThrow } from "../../../python/json.js";
import type { PyValue } from "../../../python/value.js";
import { rolloutRunDir, rolloutRuns, sharedPath } from "../../../testing/shared.js";
import { decodeCohere, decodeCohereAsPython } from "./cohere.js";
import { decodeGeminiFc, decodeGeminiFcAsPython } from "./gemini-fc.js";

/** Every step of every result line of the real runs in ../shared (gpt-oss's FC records, xLAM's text). */
function realSteps(): PyValue[] {
  const folders = [
    ...rolloutRuns.flatMap((run) =>
      readdirSync(join(rolloutRunDir(run), "result")).map((m) => join(rolloutRunDir(run), "result", m, "multi_turn")),
    ),
    sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r"),
  ];
  const steps: PyValue[] = [];
  for (const folder of folders) {
    for (const file of readdirSync(folder).filter((f) => f.endsWith(".json"))) {
      for (const line of readFileSync(join(folder, file), "utf8").split("\n")) {
        if (line.trim() === "") continue;
        const result = (jsonLoadsOrThrow(line) as PyDict).get("result");
        if (Array.isArray(result)) for (const turn of result) if (Array.isArray(turn)) steps.push(...turn);
      }
    }
  }
  return steps;
}

const steps = realSteps();
const decoders = [
  { name: "cohere", decode: decodeCohere, asPython: decodeCohereAsPython },
  { name: "gemini-fc", decode: decodeGeminiFc, asPython: decodeGeminiFcAsPython },
];

describe("the record decoders that fail on FC records, without raising", () => {
  it.each(decoders)("$name decodes every real step as BFCL's Python does", ({ decode, asPython }) => {
    const fcRecords = steps.filter((s) => Array.isArray(s) && s[0] instanceof PyDict);
    expect(fcRecords.length).toBeGreaterThan(1000);
    expect(steps.length).toBeGreaterThan(fcRecords.length);
    for (const step of steps) expect(decode(step)).toEqual(asPython(step));
  });

  const hand: PyValue[] = [
    [],
    [new PyDict()],
    [
      new PyDict([
        ["tool_name", "ls"],
        ["parameters", new PyDict([["a", 1]])],
      ]),
    ],
    [new PyDict([["ls", new PyDict([["a", "b"]])]])],
    [new PyDict([["ls", "{}"]]), "text"],
    [new PyDict([[1, "{}"]])],
    [new PyDict([["parameters", "x"]])],
    ["not a record", new PyDict([["ls", "{}"]])],
    "text",
    null,
  ];
  it.each(decoders)("$name decodes hand-made steps of every shape as BFCL's Python does", ({ decode, asPython }) => {
    for (const step of hand) expect(decode(step)).toEqual(asPython(step));
    expect(decode([new PyDict([["ls", "{}"]])])).toEqual({ ok: false, error: expect.stringMatching(/^(KeyError|AttributeError): /) });
  });
});
