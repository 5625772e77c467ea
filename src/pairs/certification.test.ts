import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sharedPath } from "../testing/shared.js";
import { parseBadKeys, parseRulings } from "./certification.js";

const real = (name: string) => ({ file: name, text: readFileSync(sharedPath("certification", name), "utf8") });

describe("bad-key list", () => {
  it("reads the 31 bad keys of Appendix C, 14 of them should-ask items", () => {
    const r = parseBadKeys(real("bad-keys.tsv"));
    expect(r.ok && r.value).toHaveLength(31);
    expect(r.ok && r.value.filter((b) => /miss_(func|param)/.test(b.id))).toHaveLength(14);
    expect(r.ok && r.value.find((b) => b.id === "multi_turn_miss_func_83")).toMatchObject({ family: "C", line: 22 });
  });
  it("reports a wrong header, a short row and a non-id with file and line", () => {
    expect(parseBadKeys({ file: "b.tsv", text: "name\tfamily\n" })).toMatchObject({
      ok: false,
      problems: [{ code: "tsv-header", file: "b.tsv", line: 1 }],
    });
    expect(parseBadKeys({ file: "b.tsv", text: "id\tfamily\nmulti_turn_base_4\n" })).toMatchObject({
      ok: false,
      problems: [{ code: "tsv-columns", line: 2 }],
    });
    expect(parseBadKeys({ file: "b.tsv", text: "id\tfamily\nbase_4\tA\n" })).toMatchObject({
      ok: false,
      problems: [{ code: "bad-key-id", line: 2 }],
    });
  });
});

describe("certification rulings", () => {
  it("reads the 35 exceptions of Appendix E: 8 construction errors and 27 compound turns", () => {
    const r = parseRulings(real("rulings.tsv"));
    if (!r.ok) throw new Error(r.problems[0].message);
    expect(r.value.filter((x) => x.verdict === "construction")).toHaveLength(8);
    expect(r.value.filter((x) => x.verdict === "compound")).toHaveLength(27);
    expect(r.value.find((x) => x.missId === "multi_turn_miss_func_63")).toMatchObject({
      anchorTurn: 1,
      withheld: ["activateParkingBrake"],
      independent: ["fillFuelTank", "lockDoors", "pressBrakePedal"],
      gated: ["activateParkingBrake", "startEngine"],
    });
    expect(r.value.find((x) => x.missId === "multi_turn_miss_func_31")?.withheld).toEqual(["wc", "tail", "cat"]);
  });
  it("reports an unknown verdict, a non-numeric turn and a second ruling for one pair", () => {
    const head = "miss_id\tanchor_turn\twithheld\tverdict\tindependent\tgated\n";
    const row = (turn: string, verdict: string) => `multi_turn_miss_param_5\t${turn}\t\t${verdict}\t\t\n`;
    expect(parseRulings({ file: "r.tsv", text: head + row("1", "maybe") })).toMatchObject({
      ok: false,
      problems: [{ code: "ruling-verdict", line: 2 }],
    });
    expect(parseRulings({ file: "r.tsv", text: head + row("x", "construction") })).toMatchObject({
      ok: false,
      problems: [{ code: "ruling-turn", line: 2 }],
    });
    expect(parseRulings({ file: "r.tsv", text: head + row("1", "construction") + row("1", "compound") })).toMatchObject({
      ok: false,
      problems: [{ code: "ruling-duplicate", line: 3 }],
    });
  });
});
