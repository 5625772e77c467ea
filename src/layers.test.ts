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
  /** Per folder: single modules (path under src/) it may import from a layer it may not import as a whole, with why. */
  moduleImports: Record<string, Record<string, string>>;
  /** Per folder, per io/ module: the names a use case reaches only through its host; `notYet`: the files that still import some, and why. */
  hostOnly: Record<string, Record<string, string[]>> & { notYet: Record<string, { names: string[]; why: string }> };
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

/** The violations of one source file, `rel` its path under src/ and `text` its source. */
export function importViolations(rel: string, text: string): string[] {
  const bad: string[] = [];
  const layer = rel.split("/")[0];
  const allowed = config.layers[layer];
  if (!allowed) return [`${rel}: folder ${layer} is not declared in layers.json`];
  const modules = config.moduleImports[layer] ?? {};
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith(".")) {
      const target = relative(srcDir, resolve(srcDir, dirname(rel), spec));
      const targetLayer = target.split("/")[0];
      const targetModule = target.replace(/\.js$/, ".ts");
      if (target.startsWith("..")) bad.push(`${rel}: imports outside src: ${spec}`);
      else if (targetLayer === "testing") bad.push(`${rel}: production code imports test helpers: ${spec}`);
      else if (targetLayer !== layer && !allowed.includes(targetLayer) && !(targetModule in modules))
        bad.push(`${rel}: ${layer} may not import ${targetLayer} (${spec})`);
    } else if (
      spec.startsWith("node:") ||
      ["fs", "path", "os", "child_process", "worker_threads", "http", "https", "net"].includes(spec.split("/")[0])
    ) {
      if (!spec.startsWith("node:")) bad.push(`${rel}: use the node: prefix for ${spec}`);
      else if (!config.nodeBuiltinsAllowed.includes(layer) && !config.nodeBuiltinsEverywhere.includes(spec)) {
        bad.push(`${rel}: only ${config.nodeBuiltinsAllowed.join("/")} may import ${spec}`);
      }
    }
  }
  return bad;
}

const namedImportRe = /(?:^|\n)\s*import\s+(type\s+)?\{([^}]*)\}\s*from\s+["']([^"']+)["']/g;

/** The names of io/ functions `rel` imports that its folder reaches only through its host (type-only imports are fine). */
export function hostOnlyViolations(rel: string, text: string): string[] {
  const layer = rel.split("/")[0];
  const banned = layer === "notYet" ? undefined : config.hostOnly[layer];
  if (banned === undefined) return [];
  const excused = config.hostOnly.notYet[rel]?.names ?? [];
  const bad: string[] = [];
  for (const m of text.matchAll(namedImportRe)) {
    if (m[1] !== undefined || !m[3].startsWith(".")) continue;
    const target = relative(srcDir, resolve(srcDir, dirname(rel), m[3])).replace(/\.js$/, ".ts");
    const names = m[2]
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n !== "" && !n.startsWith("type "))
      .map((n) => n.split(/\s+as\s+/)[0]);
    for (const name of names)
      if ((banned[target] ?? []).includes(name) && !excused.includes(name))
        bad.push(`${rel}: ${layer} reaches ${name} through its host (ctx.host.${name}), not from ${m[3]}`);
  }
  return bad;
}

/** Returns "layer: file imports X" strings for every violation found. */
export function layerViolations(): string[] {
  const bad: string[] = [];
  for (const file of sourceFiles(srcDir)) {
    const rel = relative(srcDir, file);
    const layer = rel.split("/")[0];
    if (layer === "testing" || !rel.includes("/")) continue;
    const text = readFileSync(file, "utf8");
    bad.push(...importViolations(rel, text), ...hostOnlyViolations(rel, text));
  }
  return bad;
}

describe("layers", () => {
  it("every folder imports only what layers.json allows", () => {
    expect(layerViolations()).toEqual([]);
  });
  it("the check can fail: a core file importing node:fs is caught", () => {
    const probe = 'import { readFileSync } from "node:fs";';
    const m = [...probe.matchAll(importRe)];
    expect(m[0][1]).toBe("node:fs");
    expect(config.nodeBuiltinsAllowed).not.toContain("decision");
    expect(importViolations("decision/probe.ts", probe)).toEqual(["decision/probe.ts: only io/cli may import node:fs"]);
  });
  it("io holds adapters only: an io file importing decision, a use case's module or the judge is caught", () => {
    expect(importViolations("io/probe.ts", 'import { isKnownItemId } from "../decision/score.js";')).toEqual([
      "io/probe.ts: io may not import decision (../decision/score.js)",
    ]);
    expect(importViolations("io/probe.ts", 'import type { DemoFiles } from "../decision/demo.js";')).toEqual([
      "io/probe.ts: io may not import decision (../decision/demo.js)",
    ]);
    expect(importViolations("io/probe.ts", 'import { parseJudgeReply } from "../judge/labels.js";')).toEqual([
      "io/probe.ts: io may not import judge (../judge/labels.js)",
    ]);
    expect(importViolations("io/probe.ts", 'import { runJudge } from "../app/judge-run.js";')).toEqual([
      "io/probe.ts: io may not import app (../app/judge-run.js)",
    ]);
  });
  it("io may import a listed parser or codec of another layer, and no other module of that layer", () => {
    expect(importViolations("io/probe.ts", 'import { parseManifest } from "../pairs/manifest-json.js";')).toEqual([]);
    expect(importViolations("io/probe.ts", 'import { detectVersion } from "../bfcl/data.js";')).toEqual([]);
    expect(importViolations("io/probe.ts", 'import { decodeFcStep } from "../bfcl/decode/index.js";')).toEqual([
      "io/probe.ts: io may not import bfcl (../bfcl/decode/index.js)",
    ]);
    expect(importViolations("io/probe.ts", 'import { scanLineHead } from "../bfcl/results.js";')).toEqual([
      "io/probe.ts: io may not import bfcl (../bfcl/results.js)",
    ]);
    expect(importViolations("io/probe.ts", 'import { rolloutDataCheckBuilder } from "../pairs/rollout-data.js";')).toEqual([
      "io/probe.ts: io may not import pairs (../pairs/rollout-data.js)",
    ]);
    expect(importViolations("io/probe.ts", 'import { runModelLoop } from "../rollout/loop.js";')).toEqual([
      "io/probe.ts: io may not import rollout (../rollout/loop.js)",
    ]);
  });
  it("a use case importing a file function the host provides is caught, a type from the same module is not", () => {
    expect(hostOnlyViolations("app/probe.ts", 'import { walkBfclTree, type TreeModel } from "../io/tree.js";')).toEqual([
      "app/probe.ts: app reaches walkBfclTree through its host (ctx.host.walkBfclTree), not from ../io/tree.js",
    ]);
    expect(hostOnlyViolations("app/probe.ts", 'import {\n  readTextIfFile as read,\n} from "../io/manifest.js";')).toEqual([
      "app/probe.ts: app reaches readTextIfFile through its host (ctx.host.readTextIfFile), not from ../io/manifest.js",
    ]);
    expect(hostOnlyViolations("app/probe.ts", 'import type { TreeWalk } from "../io/tree.js";')).toEqual([]);
    expect(hostOnlyViolations("app/probe.ts", 'import { walkPart, matchingModel } from "../io/tree.js";')).toEqual([]);
    expect(hostOnlyViolations("cli/probe.ts", 'import { walkBfclTree } from "../io/tree.js";')).toEqual([]);
  });
  it("every host-only name exists in its module, and every file still excused imports what it is excused for", () => {
    for (const [layer, modules] of Object.entries(config.hostOnly)) {
      if (layer === "$comment" || layer === "notYet") continue;
      for (const [module, names] of Object.entries(modules)) {
        const text = readFileSync(join(srcDir, module), "utf8");
        for (const name of names)
          expect(text, `${module} ${name}`).toMatch(new RegExp(`export (?:const |(?:async )?function |\\{[^}]*\\b)${name}\\b`));
      }
    }
    for (const [file, { names, why }] of Object.entries(config.hostOnly.notYet)) {
      const text = readFileSync(join(srcDir, file), "utf8");
      for (const name of names) expect(text, `${file} ${name}`).toMatch(new RegExp(`\\b${name}\\(`));
      expect(why.length, file).toBeGreaterThan(20);
    }
  });
  it("every module listed in moduleImports exists and says why", () => {
    for (const [layer, modules] of Object.entries(config.moduleImports)) {
      if (layer === "$comment") continue;
      for (const [module, why] of Object.entries(modules)) {
        expect(statSync(join(srcDir, module)).isFile(), module).toBe(true);
        expect(why.length, module).toBeGreaterThan(20);
      }
    }
  });
});
