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

describe("the built bin's V8 tuning (cli/v8-tuning.ts)", () => {
  it("sets its flag without a word on stderr, and can be turned off with TWINSCORE_V8_DEFAULTS=1", async () => {
    const { spawnSync } = await import("node:child_process");
    const bin = join(projectRoot, "dist", "cli", "main.js");
    for (const env of [{}, { TWINSCORE_V8_DEFAULTS: "1" }]) {
      const run = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8", env: { ...process.env, ...env } });
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
      expect(run.status).toBe(0);
    }
  });
});

describe("the built bin with a reader that stops early", () => {
  it("ends quietly when stdout closes (`twinscore pairs --format json | head -c 10`): no stack trace, exit 0", async () => {
    const { spawnSync } = await import("node:child_process");
    // the committed manifest's listing (about 90 kB) is larger than a pipe's buffer, so the writer meets the closed pipe
    const bin = join(projectRoot, "dist", "cli", "main.js");
    const run = spawnSync("bash", ["-c", 'set -o pipefail; "$0" "$1" pairs --format json | head -c 10 > /dev/null', process.execPath, bin], { encoding: "utf8" });
    // pairs notes on stderr that it lists the committed manifest; nothing else may follow
    expect(run.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(run.status).toBe(0);
  });
});
