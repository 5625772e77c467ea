import { expect, test } from "vitest";
import { callText } from "../decision/read-twin.js";
import type { ArgValue } from "../extract/types.js";

test("a call's arguments are shown 32 levels deep, then elided (the page never recurses on input depth)", () => {
  let v: ArgValue = "x";
  for (let i = 0; i < 100_000; i++) v = [v];
  const text = callText({ name: "mkdir", positional: [], keywords: [["dir_name", v]] });
  expect(text).toBe(`mkdir(dir_name=${"[".repeat(32)}[…]${"]".repeat(32)})`);
});
