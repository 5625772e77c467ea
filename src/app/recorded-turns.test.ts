import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnQueriesAt } from "../bfcl/inference-log.js";
import { scanLineHead, type LineHead } from "../bfcl/results.js";
import { sameBytes } from "../io/results-read.js";
import { rolloutRunDir } from "../testing/shared.js";
import { LoggedTurnsMemo } from "./recorded-turns.js";

/** The first line of the real gpt-oss-120b base file (main run), its bytes and head. */
function firstLine(): { bytes: Uint8Array; end: number; head: LineHead } {
  const file = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json");
  const all = readFileSync(file);
  const end = all.indexOf(0x0a);
  const bytes = Uint8Array.from(all.subarray(0, end));
  const head = scanLineHead(bytes, 0, end, true);
  if ("error" in head) throw new Error(head.error);
  return { bytes, end, head };
}

describe("LoggedTurnsMemo", () => {
  it("hands the same turns back for a line whose query bytes are the same, and parses a line whose bytes differ by one", () => {
    const { bytes, end, head } = firstLine();
    expect(head.logQueries!.length).toBeGreaterThan(2);
    const memo = new LoggedTurnsMemo();
    const first = memo.turnsOf(head.id, bytes, 0, end, head);
    expect(first).toEqual(turnQueriesAt(bytes, 0, end, head));
    expect(memo.turnsOf(head.id, Uint8Array.from(bytes), 0, end, head)).toBe(first);

    // one letter of the last turn's question changed, the length kept
    const changed = Uint8Array.from(bytes);
    const [from, to] = head.logQueries!.slice(-2);
    const at = changed.subarray(from, to).findLastIndex((b) => b >= 0x61 && b <= 0x79) + from;
    changed[at] += 1;
    const reread = memo.turnsOf(head.id, changed, 0, end, head);
    expect(reread).not.toBe(first);
    expect(reread).toEqual(turnQueriesAt(changed, 0, end, head));
    expect(reread).not.toEqual(first);
  });
});

describe("sameBytes", () => {
  it("compares two ranges of different arrays byte for byte", () => {
    const a = new TextEncoder().encode('xx[{"role": "user"}]');
    const b = new TextEncoder().encode('[{"role": "user"}]yy');
    expect(sameBytes(a, 2, b, 0, b.length - 2)).toBe(true);
    expect(sameBytes(a, 1, b, 0, b.length - 2)).toBe(false);
    expect(sameBytes(a, 2, b, 0, 0)).toBe(true);
  });
});
