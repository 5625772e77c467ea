/**
 * The package as a user gets it: packed with `npm pack`, installed into a fresh project,
 * the README's library example type-checked and run as ESM on a real run (its numbers
 * checked against the CLI's), and the command installed globally into a temporary prefix.
 *
 * No network: the package is packed from the built `dist/` (`npm ci` builds it; run
 * `npm run build` after changing src/), its two dependencies are packed from this
 * project's node_modules, and all three tarballs are installed with `npm install
 * --offline`. The global install is `npm install -g --prefix <tmp> .` from the clone, as
 * the README says (a global install of the tarball alone would fetch its dependencies).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIo } from "./cli/io.js";
import { runCli } from "./cli/program.js";
import { projectRoot, rolloutRunDir } from "./testing/shared.js";
import { requireFreshBuild } from "./testing/build.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-package-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const npm = join(dirname(process.execPath), "npm");
function run(cmd: string, args: string[], cwd: string) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 120_000, env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The README's library example (the code block after its marker). */
function readmeExample(): string {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const at = readme.indexOf("<!-- library-example -->");
  const m = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !m) throw new Error("README has no library example after <!-- library-example -->");
  return m[1];
}

const project = join(tmp, "project");
const main = join(rolloutRunDir("2025-11-12-main"), "result");

beforeAll(() => {
  requireFreshBuild("index.js");
  const packs = join(tmp, "packs");
  mkdirSync(packs);
  run(npm, ["pack", "--ignore-scripts", "--pack-destination", packs, projectRoot], tmp);
  for (const dep of ["commander", "valibot"]) run(npm, ["pack", "--ignore-scripts", "--pack-destination", packs, join(projectRoot, "node_modules", dep)], tmp);
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "uses-twinscore", version: "1.0.0", private: true, type: "module" }));
  run(npm, ["install", "--offline", "--ignore-scripts", ...readdirSync(packs).map((f) => join(packs, f))], project);
}, 300_000);

describe("the packed package in a fresh project", () => {
  it("ships dist/ and data/, not the tests or test helpers", () => {
    const installed = join(project, "node_modules", "twinscore");
    expect(existsSync(join(installed, "dist", "index.d.ts"))).toBe(true);
    expect(existsSync(join(installed, "dist", "core.d.ts"))).toBe(true);
    expect(existsSync(join(installed, "data", "manifest.json"))).toBe(true);
    const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    const shipped = files(join(installed, "dist"));
    expect(shipped.filter((f) => f.includes(".test.") || f.includes("/testing/"))).toEqual([]);
    // no stale output of a source that is gone (the build starts from an empty dist/); dist/bin/ is
    // the bin bundled from dist/ in the same build (rolldown.config.mjs), its chunks named by content
    expect(existsSync(join(installed, "dist", "bin", "twinscore.js"))).toBe(true);
    const stale = shipped
      .filter((f) => f.endsWith(".js") && !f.startsWith(join(installed, "dist", "bin") + "/"))
      .map((f) => f.slice(join(installed, "dist").length + 1).replace(/\.js$/, ".ts"))
      .filter((rel) => !existsSync(join(projectRoot, "src", rel)));
    expect(stale).toEqual([]);
  });

  it("type-checks the README's library example and an import of twinscore/core", () => {
    writeFileSync(join(project, "example.mts"), readmeExample());
    writeFileSync(
      join(project, "core-check.mts"),
      'import { parseItemId, selectPairs, type Manifest } from "twinscore/core";\n' +
        "export const item = parseItemId(\"multi_turn_miss_func_3\");\n" +
        "export const count = (m: Manifest): number => selectPairs(m, { pairSet: \"certified\", countLogin: false }).length;\n",
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, noEmit: true, types: ["node"], typeRoots: [join(projectRoot, "node_modules", "@types")] },
        files: ["example.mts", "core-check.mts"],
      }),
    );
    run(process.execPath, [join(projectRoot, "node_modules", "typescript", "bin", "tsc"), "-p", project], project);
  }, 120_000);

  it("runs the example as ESM on the real 2025-11-12-main run, with the CLI's numbers", async () => {
    writeFileSync(join(project, "example.mjs"), readmeExample());
    const printed = run(process.execPath, [join(project, "example.mjs"), main], project).trim().split("\n");
    const io = memoryIo({}, projectRoot);
    expect(await runCli(["score", "--results", main, "--bootstrap", "0", "--format", "json"], io)).toBe(0);
    const cli = JSON.parse(io.out.join("")) as { models: { model: string; numbers: { decision: number; n: number } }[] };
    expect(printed).toEqual(cli.models.map((m) => `${m.model}: decision ${m.numbers.decision.toFixed(1)} on ${m.numbers.n} pairs`));
    expect(printed).toEqual(["openai_gpt-oss-120b: decision 83.2 on 223 pairs", "openai_gpt-oss-20b: decision 82.1 on 223 pairs"]);
  }, 120_000);
});

describe("the command installed globally (npm install -g --prefix <tmp> .)", () => {
  it("puts a working twinscore on the prefix's bin", () => {
    const prefix = join(tmp, "global");
    run(npm, ["install", "-g", "--prefix", prefix, "--offline", "--ignore-scripts", projectRoot], tmp);
    const bin = join(prefix, "bin", "twinscore");
    expect(run(bin, ["--version"], tmp).trim()).toBe(JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")).version);
    const csv = run(bin, ["score", "--results", main, "--model", "openai_gpt-oss-120b", "--bootstrap", "0", "--format", "csv"], tmp);
    expect(csv.split("\n")[1]).toMatch(/^openai_gpt-oss-120b,223,96\.9,69\.5,83\.2,/);
  }, 120_000);
});
