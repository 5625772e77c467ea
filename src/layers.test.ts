/**
 * The layer rule, checked on every run: a folder imports only what layers.json allows,
 * and only io/ and cli/ touch node built-ins. This is what keeps the core pure and
 * stops the same logic from growing in two commands.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./testing/shared.js";

interface LayerFile {
  layers: Record<string, string[]>;
  nodeBuiltinsAllowed: string[];
  nodeBuiltinsEverywhere: string[];
}

const config = JSON.parse(readFileSync(join(projectRoot, "layers.json"), "utf8")) as LayerFile;
const srcDir = join(projectRoot, "src");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

const importRe = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Returns "layer: file imports X" strings for every violation found. */
export function layerViolations(): string[] {
  const bad: string[] = [];
  for (const file of sourceFiles(srcDir)) {
    const rel = relative(srcDir, file);
    const layer = rel.split("/")[0];
    if (layer === "testing" || !rel.includes("/")) continue;
    const allowed = config.layers[layer];
    if (!allowed) {
      bad.push(`${rel}: folder ${layer} is not declared in layers.json`);
      continue;
    }
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith(".")) {
        const target = relative(srcDir, resolve(dirname(file), spec));
        const targetLayer = target.split("/")[0];
        if (target.startsWith("..")) bad.push(`${rel}: imports outside src: ${spec}`);
        else if (targetLayer === "testing") bad.push(`${rel}: production code imports test helpers: ${spec}`);
        else if (targetLayer !== layer && !allowed.includes(targetLayer)) bad.push(`${rel}: ${layer} may not import ${targetLayer} (${spec})`);
      } else if (spec.startsWith("node:") || ["fs", "path", "os", "child_process", "worker_threads", "http", "https", "net"].includes(spec.split("/")[0])) {
        if (!spec.startsWith("node:")) bad.push(`${rel}: use the node: prefix for ${spec}`);
        else if (!config.nodeBuiltinsAllowed.includes(layer) && !config.nodeBuiltinsEverywhere.includes(spec)) {
          bad.push(`${rel}: only ${config.nodeBuiltinsAllowed.join("/")} may import ${spec}`);
        }
      }
    }
  }
  return bad;
}

describe("layers", () => {
  it("every folder imports only what layers.json allows", () => {
    expect(layerViolations()).toEqual([]);
  });
  it("the check can fail: a core file importing node:fs is caught", () => {
    const probe = "import { readFileSync } from \"node:fs\";";
    const m = [...probe.matchAll(importRe)];
    expect(m[0][1]).toBe("node:fs");
    expect(config.nodeBuiltinsAllowed).not.toContain("decision");
  });
});
