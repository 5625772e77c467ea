import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclDataDir, sharedPath } from "../testing/shared.js";
import { catalog, catalogEntry, classifyGoldCall, isWorldChanging, kindOf, parseGoldCall } from "./index.js";
import type { ExtractedCall } from "../extract/types.js";

const docNamesIn = (docDir: string) =>
  readdirSync(docDir).flatMap((f) =>
    readFileSync(join(docDir, f), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as { name: string }).name),
  );
const docNames = docNamesIn(join(bfclDataDir(), "multi_turn_func_doc"));

const call = (name: string, positional: ExtractedCall["positional"] = [], keywords: ExtractedCall["keywords"] = []): ExtractedCall => ({
  name,
  positional,
  keywords,
  shape: "fc-object",
});

describe("function catalog", () => {
  it("covers exactly the 128 names of ../shared/bfcl-v4/multi_turn_func_doc and the 3 that only v3's has, once each", () => {
    const v3Dir = join(sharedPath("bfcl-v3"), "multi_turn_func_doc");
    const v3Names = docNamesIn(v3Dir);
    expect(docNames).toHaveLength(128);
    expect(v3Names).toHaveLength(129);
    const v3Only = v3Names.filter((n) => !docNames.includes(n)).sort();
    expect(v3Only).toEqual(["make_transaction", "update_market_status", "update_stock_price"]);
    expect(catalog.map((e) => e.name).sort()).toEqual([...docNames, ...v3Only].sort());
    expect(new Set(catalog.map((e) => e.name)).size).toBe(131);
  });
  it("labels the seven login/logout functions login and nothing else", () => {
    expect(
      catalog
        .filter((e) => e.kind === "login")
        .map((e) => e.name)
        .sort(),
    ).toEqual([
      "authenticate_travel",
      "authenticate_twitter",
      "logout",
      "message_login",
      "ticket_login",
      "trading_login",
      "trading_logout",
    ]);
  });
  it("splits the rest into 44 mutators (41 of them in v4) and 80 read-only functions, each with a one-line reason", () => {
    expect(catalog.filter((e) => e.kind === "mutate")).toHaveLength(44);
    expect(catalog.filter((e) => e.kind === "mutate" && docNames.includes(e.name))).toHaveLength(41);
    expect(catalog.filter((e) => e.kind === "read")).toHaveLength(80);
    for (const e of catalog) expect(e.reason).toMatch(/^[^\n]{10,}$/);
  });
  it("reads cd as read-only (only the private current directory moves) and place_order as a mutation", () => {
    expect(kindOf("cd")).toBe("read");
    expect(kindOf("get_zipcode_based_on_city")).toBe("read");
    expect(kindOf("place_order")).toBe("mutate");
    expect(catalogEntry("lockDoors")?.apiClass).toBe("VehicleControlAPI");
  });
  it("reports an unknown name as undefined and never as world-changing", () => {
    expect(kindOf("confirm")).toBeUndefined();
    expect(isWorldChanging(call("confirm"), { countLogin: true })).toBe(false);
  });
});

describe("isWorldChanging", () => {
  it("counts logins only under countLogin", () => {
    expect(
      isWorldChanging(
        call(
          "trading_login",
          [],
          [
            ["username", "u"],
            ["password", "p"],
          ],
        ),
        { countLogin: false },
      ),
    ).toBe(false);
    expect(isWorldChanging(call("trading_login"), { countLogin: true })).toBe(true);
    expect(isWorldChanging(call("post_tweet", ["hello"]), { countLogin: false })).toBe(true);
    expect(isWorldChanging(call("get_stock_info", [], [["symbol", "AAPL"]]), { countLogin: true })).toBe(false);
  });
  it("counts echo only when it is given a file name, by keyword or as the 2nd positional, whatever its value", () => {
    const opts = { countLogin: false };
    expect(
      isWorldChanging(
        call(
          "echo",
          [],
          [
            ["content", "x"],
            ["file_name", "a.txt"],
          ],
        ),
        opts,
      ),
    ).toBe(true);
    expect(isWorldChanging(call("echo", ["x", "a.txt"]), opts)).toBe(true);
    expect(isWorldChanging(call("echo", [], [["content", "x"]]), opts)).toBe(false);
    expect(isWorldChanging(call("echo", ["x"]), opts)).toBe(false);
    expect(
      isWorldChanging(
        call(
          "echo",
          [],
          [
            ["content", "x"],
            ["file_name", null],
          ],
        ),
        opts,
      ),
    ).toBe(true);
    expect(isWorldChanging(call("echo", ["x", null]), opts)).toBe(true);
    expect(
      isWorldChanging(
        call(
          "echo",
          [],
          [
            ["content", "x"],
            ["file_name", ""],
          ],
        ),
        opts,
      ),
    ).toBe(true);
    // an invalid name is still an attempt to write
    expect(
      isWorldChanging(
        call(
          "echo",
          [],
          [
            ["content", "x"],
            ["file_name", "a/b.txt"],
          ],
        ),
        opts,
      ),
    ).toBe(true);
  });
});

describe("reference call strings", () => {
  it("reads name, positional and keyword arguments of real reference calls", () => {
    // multi_turn_base_1 turn 1; an escaped quote as in the long_context references
    expect(parseGoldCall("mv(source='log.txt',destination='archive')")).toEqual({
      ok: true,
      value: {
        name: "mv",
        positional: [],
        keywords: [
          ["source", "log.txt"],
          ["destination", "archive"],
        ],
        shape: "python-text",
      },
    });
    const r = parseGoldCall(
      "echo(content='Create a file name based on the number of byte used. It should be in \\'number.pdf\\' format.', file_name='3354.pdf')",
    );
    expect(r.ok && r.value.keywords).toEqual([
      ["content", "Create a file name based on the number of byte used. It should be in 'number.pdf' format."],
      ["file_name", "3354.pdf"],
    ]);
    const z = parseGoldCall("get_zipcode_based_on_city('Rivermist')");
    expect(z.ok && z.value.positional).toEqual(["Rivermist"]);
    const l = parseGoldCall("ls(a=True)");
    expect(l.ok && l.value.keywords).toEqual([["a", true]]);
    const f = parseGoldCall("fillFuelTank(fuelAmount=45.0)");
    expect(f.ok && f.value.keywords).toEqual([["fuelAmount", 45]]);
    const s = parseGoldCall("mean(numbers=[1, 2.5, -3])");
    expect(s.ok && s.value.keywords).toEqual([["numbers", [1, 2.5, -3]]]);
    const d = parseGoldCall("edit_ticket(ticket_id=1, updates={'priority': 3})");
    expect(d.ok && d.value.keywords).toEqual([
      ["ticket_id", 1],
      ["updates", { priority: 3 }],
    ]);
    expect(parseGoldCall("pwd()").ok && parseGoldCall("pwd()")).toMatchObject({ value: { positional: [], keywords: [] } });
  });
  it("classifies echo by its file name, logins as login, reads as read", () => {
    expect(classifyGoldCall("echo(content='x', file_name='a.txt')")).toEqual({ ok: true, value: "world-changing" });
    expect(classifyGoldCall("echo(content='x')")).toEqual({ ok: true, value: "read" });
    expect(classifyGoldCall("echo(content='x', file_name=None)")).toEqual({ ok: true, value: "world-changing" });
    expect(classifyGoldCall("authenticate_twitter(username='john', password='john123')")).toEqual({ ok: true, value: "login" });
    expect(classifyGoldCall("authenticate_twitter(username='john', password='john123')", { countLogin: true })).toEqual({
      ok: true,
      value: "world-changing",
    });
    expect(classifyGoldCall("cd(folder='document')")).toEqual({ ok: true, value: "read" });
    expect(classifyGoldCall("frobnicate()")).toEqual({ ok: true, value: "unknown" });
  });
  it("rejects text that is not a call", () => {
    for (const bad of ["mv", "mv(source='a'", "mv(a=1, 'b')", "mv(a,,b)", "os.mv('a')", "f(*xs)"]) {
      const r = parseGoldCall(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.problems[0].code).toBe("gold-call");
    }
  });
});

describe("every reference call in ../shared/bfcl-v4", () => {
  it("parses and names a catalogued function (4,625 calls over the four categories)", () => {
    const dir = join(bfclDataDir(), "possible_answer");
    let n = 0;
    const unknown = new Set<string>();
    for (const f of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
        if (line.trim() === "") continue;
        for (const turn of (JSON.parse(line) as { ground_truth: string[][] }).ground_truth) {
          for (const c of turn) {
            n++;
            const r = classifyGoldCall(c);
            expect(r.ok, c).toBe(true);
            if (r.ok && r.value === "unknown") unknown.add(c);
          }
        }
      }
    }
    expect(n).toBe(4625);
    expect([...unknown]).toEqual([]);
  });
});
