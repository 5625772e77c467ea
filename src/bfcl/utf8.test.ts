import { describe, expect, it } from "vitest";
import { firstInvalidUtf8 } from "./utf8.js";

const at = (bytes: number[]) => firstInvalidUtf8(Uint8Array.from(bytes), 0, bytes.length);
const decodes = (bytes: number[]) => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
    return true;
  } catch {
    return false;
  }
};

describe("firstInvalidUtf8 follows the strict codec", () => {
  it("accepts ASCII and well-formed sequences of every length", () => {
    const text = new TextEncoder().encode('{"id": "café ✓ 𝄞"}');
    expect(firstInvalidUtf8(text, 0, text.length)).toBe(-1);
  });
  it.each([
    ["a lone continuation byte", [0x61, 0x80], 1],
    ["an invalid start byte", [0x61, 0x62, 0xff], 2],
    ["an overlong two-byte form", [0xc0, 0xaf], 0],
    ["an overlong three-byte form", [0xe0, 0x80, 0xaf], 0],
    ["a surrogate", [0x61, 0xed, 0xa0, 0x80], 1],
    ["a code point past U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["a sequence cut short", [0x61, 0xe2, 0x9c], 1],
  ])("finds %s where it starts, as TextDecoder's fatal mode refuses it", (_what, bytes, offset) => {
    expect(at(bytes)).toBe(offset);
    expect(decodes(bytes)).toBe(false);
  });
  it("agrees with TextDecoder's fatal mode on every two-byte pair after an ASCII byte", () => {
    for (let a = 0x80; a < 0x100; a++)
      for (let b = 0; b < 0x100; b += 7) expect(at([0x41, a, b, 0x80, 0x80]) === -1, `${a},${b}`).toBe(decodes([0x41, a, b, 0x80, 0x80]));
  });
});
