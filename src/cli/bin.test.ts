import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../testing/shared.js";

describe("the twinscore bin", () => {
  it("is built executable, so `npx twinscore` works right after `npm ci` (whose prepare step builds dist/)", () => {
    const bin = join(projectRoot, "dist", "cli", "main.js");
    let mode: number;
    try {
      mode = statSync(bin).mode;
    } catch {
      throw new Error(`${bin} is missing: run npm ci (or npm run build) first`);
    }
    expect(mode & 0o111).toBe(0o111);
  });
});
