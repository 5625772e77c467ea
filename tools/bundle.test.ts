/**
 * The build bundles through rolldown's API (tools/bundle.mjs), not its CLI, whose listing of
 * every chunk made up most of what `npm ci` printed; the bundles are the config's.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../src/testing/shared.js";

describe("the build's bundling step", () => {
  it("runs tools/bundle.mjs, which builds every configuration of rolldown.config.mjs through the API", async () => {
    const build = (JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { scripts: { build: string } }).scripts.build;
    expect(build).toContain("node tools/bundle.mjs");
    expect(build).not.toMatch(/\brolldown -c\b/);
    const script = readFileSync(join(projectRoot, "tools", "bundle.mjs"), "utf8");
    expect(script).toContain('import { build } from "rolldown";');
    const configs = (await import(join(projectRoot, "rolldown.config.mjs"))).default as unknown[];
    expect(configs).toHaveLength(2);
    expect(script).toContain("for (const config of configs) await build(config);");
  });

  it("leaves no bundle naming a chunk that is not beside it, in the bin and in the CommonJS library", () => {
    for (const [folder, entry] of [
      ["bin", "twinscore.js"],
      ["cjs", "index.js"],
    ]) {
      const dir = join(projectRoot, "dist", folder);
      if (!existsSync(join(dir, entry))) throw new Error(`dist/${folder}/${entry} is missing: run npm run build first`);
      const named = readdirSync(dir)
        .filter((f) => f.endsWith(".js"))
        .flatMap((f) => [...readFileSync(join(dir, f), "utf8").matchAll(/require\(["'`](\.\/[^"'`]+)["'`]\)/g)].map((m) => m[1]));
      expect(named.length).toBeGreaterThan(5);
      expect(named.filter((chunk) => !existsSync(join(dir, chunk)))).toEqual([]);
    }
  });
});
