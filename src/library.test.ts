/**
 * The package as a user gets it: packed with `npm pack`, installed into a fresh project
 * made by `npm init -y` (so `"type": "commonjs"`, npm's default), the README's two library
 * examples (ES module and CommonJS) type-checked and run on a real run (their numbers
 * checked against the CLI's) and where nothing can be scored (they print the problems),
 * and the packed copy installed globally into a temporary prefix as the README says.
 *
 * The package is packed from the built `dist/` (`npm ci` builds it; run `npm run build`
 * after changing src/). The project install needs no network: its three dependencies are
 * packed from this project's node_modules and installed `--offline`. The global install
 * resolves them as a user's does, by name: `--prefer-offline`, so npm's cache serves them
 * where it can and the registry where it lacks their metadata (`npm ci` caches only the
 * tarballs, so a fresh machine has none).
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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
const quietNpm = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };

/** Run a command: its exit code and output. */
function spawn(cmd: string, args: string[], cwd: string) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 120_000, env: quietNpm });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Run a command that must succeed: its stdout. */
function run(cmd: string, args: string[], cwd: string) {
  const r = spawn(cmd, args, cwd);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.code}):\n${r.out}\n${r.err}`);
  return r.out;
}

/** A code block of the README: the first ```js block after `marker`. */
function readmeBlock(marker: string): string {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const at = readme.indexOf(marker);
  const m = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !m) throw new Error(`README has no library example after ${marker}`);
  return m[1];
}

/** The README's library examples: as an ES module, and with CommonJS `require`. */
const examples = {
  esm: readmeBlock("<!-- library-example -->"),
  cjs: readmeBlock("<!-- library-example-cjs -->"),
};

const project = join(tmp, "project");
const main = join(rolloutRunDir("2025-11-12-main"), "result");

let tarball = "";

interface ScoreDocument {
  models: { model: string; numbers: { decision: number; n: number } | null; noHeadline: string | null }[];
}
let cliDocument: Promise<ScoreDocument> | null = null;
/** The CLI's `score --format json` of the real run (exit 1, as for the examples), scored once for both examples. */
function cliScore(): Promise<ScoreDocument> {
  cliDocument ??= (async () => {
    const io = memoryIo({}, projectRoot);
    expect(await runCli(["score", "--results", main, "--bootstrap", "0", "--format", "json"], io)).toBe(1);
    return JSON.parse(io.out.join("")) as ScoreDocument;
  })();
  return cliDocument;
}

beforeAll(() => {
  requireFreshBuild("index.js");
  const packs = join(tmp, "packs");
  mkdirSync(packs);
  // one npm for the four tarballs (this package and its three dependencies); it prints their names, one a line
  const dependencies = ["commander", "openai", "valibot"];
  const packed = run(
    npm,
    [
      "pack",
      "--ignore-scripts",
      "--pack-destination",
      packs,
      projectRoot,
      ...dependencies.map((dep) => join(projectRoot, "node_modules", dep)),
    ],
    tmp,
  )
    .trim()
    .split("\n");
  const ours = packed.filter((f) => f.startsWith("twinscore-"));
  expect(ours).toHaveLength(1);
  tarball = join(packs, ours[0]);
  expect(readdirSync(packs)).toHaveLength(1 + dependencies.length);
  mkdirSync(project);
  run(npm, ["init", "-y"], project);
  expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).type).toBe("commonjs");
  run(npm, ["install", "--offline", "--ignore-scripts", ...readdirSync(packs).map((f) => join(packs, f))], project);
}, 300_000);

describe("the packed package in a fresh project", () => {
  it("ships dist/ and data/, not the tests or test helpers", () => {
    const installed = join(project, "node_modules", "twinscore");
    for (const f of ["index.d.ts", "core.d.ts", "cjs/index.js", "cjs/core.js", "cjs/index.d.ts", "cjs/core.d.ts", "cjs/check-worker.js"]) {
      expect(existsSync(join(installed, "dist", f)), f).toBe(true);
    }
    expect(existsSync(join(installed, "data", "manifest.json"))).toBe(true);
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    const shipped = files(join(installed, "dist"));
    expect(shipped.filter((f) => f.includes(".test.") || f.includes("/testing/"))).toEqual([]);
    // no stale output of a source that is gone (the build starts from an empty dist/); dist/bin/ and
    // dist/cjs/ are bundled from dist/ in the same build (rolldown.config.mjs), their chunks named by content
    expect(existsSync(join(installed, "dist", "bin", "twinscore.js"))).toBe(true);
    const bundled = [join(installed, "dist", "bin") + "/", join(installed, "dist", "cjs") + "/"];
    const stale = shipped
      .filter((f) => f.endsWith(".js") && !bundled.some((b) => f.startsWith(b)))
      .map((f) => f.slice(join(installed, "dist").length + 1).replace(/\.js$/, ".ts"))
      .filter((rel) => !existsSync(join(projectRoot, "src", rel)));
    expect(stale).toEqual([]);
  });

  it("type-checks both README examples and imports of twinscore/core from an ES module and from CommonJS", () => {
    writeFileSync(join(project, "example.mts"), examples.esm);
    // A .cjs file is checked as JavaScript, where TypeScript types what `require` returns.
    writeFileSync(join(project, "example-check.cjs"), examples.cjs);
    // The checks can fail: a CommonJS file that uses a name the package does not export does not
    // type-check. Checked in the same run: its errors must be the only ones, and name only it.
    writeFileSync(join(project, "example-wrong.cjs"), examples.cjs.replace("scoreRuns(", "scoreRunz("));
    const coreCheck =
      'import { parseItemId, readingPairs, type Manifest } from "twinscore/core";\n' +
      'export const item = parseItemId("multi_turn_miss_func_3");\n' +
      'export const count = (m: Manifest): number => readingPairs(m, { pairSet: "certified", countLogin: false }).length;\n';
    writeFileSync(join(project, "core-check.mts"), coreCheck);
    // In a .cts file the import compiles to require(): it resolves through the `require` condition.
    writeFileSync(
      join(project, "core-check.cts"),
      coreCheck +
        'import { scoreRuns } from "twinscore";\nexport const scoring: Promise<{ exitCode: 0 | 1 | 2 }> = scoreRuns({ results: ["result/"] });\n',
    );
    // Node16, not NodeNext: TypeScript's NodeNext lets CommonJS require() ES modules, as Node 22
    // does; Node 20 does not, and under Node16 a require() of the ES declarations is an error.
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "Node16",
          moduleResolution: "Node16",
          target: "ES2022",
          strict: true,
          noEmit: true,
          allowJs: true,
          checkJs: true,
          types: ["node"],
          typeRoots: [join(projectRoot, "node_modules", "@types")],
        },
        files: ["example.mts", "example-check.cjs", "core-check.mts", "core-check.cts", "example-wrong.cjs"],
      }),
    );
    const tsc = spawn(
      process.execPath,
      [join(projectRoot, "node_modules", "typescript", "bin", "tsc"), "-p", project, "--pretty", "false"],
      project,
    );
    expect(tsc.code).not.toBe(0);
    const errors = tsc.out.split("\n").filter((l) => l.includes("error TS"));
    expect(errors.length, tsc.out).toBeGreaterThan(0);
    expect(
      errors.filter((l) => !l.startsWith("example-wrong.cjs(")),
      tsc.out,
    ).toEqual([]);
    expect(errors.join("\n")).toContain("scoreRunz");
  }, 120_000);

  it.each([
    ["esm", "index.mjs"],
    ["cjs", "index.js"],
  ] as const)(
    "runs the %s example (%s in the npm init -y project) on the real 2025-11-12-main run, with the CLI's numbers",
    async (kind, file) => {
      writeFileSync(join(project, file), examples[kind]);
      const r = spawn(process.execPath, [join(project, file), main], project);
      // gpt-oss-20b has 23 of 223 pairs undecided on this run: no headline, exit 1, the reason on stderr
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^error: model openai_gpt-oss-20b: no act, hold or decision: 23 of 223 pairs undecided .*\[no-headline\]\n$/);
      const printed = r.out.trim().split("\n");
      const cli = await cliScore();
      expect(printed).toEqual(
        cli.models.map((m) =>
          m.numbers ? `${m.model}: decision ${m.numbers.decision.toFixed(1)} on ${m.numbers.n} pairs` : `${m.model}: ${m.noHeadline}`,
        ),
      );
      expect(printed[0]).toBe("openai_gpt-oss-120b: decision 82.4 on 213 pairs");
      expect(printed[1]).toMatch(/^openai_gpt-oss-20b: no act, hold or decision: 23 of 223/);
    },
    120_000,
  );

  it.each([
    ["esm", "failing.mjs"],
    ["cjs", "failing.js"],
  ] as const)(
    "the %s example, run where there is no result/, prints the problem and exits 2 as the CLI does",
    async (kind, file) => {
      const empty = join(tmp, `empty-${kind}`);
      mkdirSync(empty);
      writeFileSync(join(project, file), examples[kind]);
      const r = spawn(process.execPath, [join(project, file)], empty);
      expect(r).toEqual({ code: 2, out: "", err: `${join(empty, "result")}: error: results directory not found [results-missing]\n` });
      const io = memoryIo({}, empty);
      expect(await runCli(["score", "--results", "result/"], io)).toBe(2);
      expect(io.err.join("")).toContain(r.err.trim());
    },
    120_000,
  );
});

describe("the packed copy installed globally (npm install -g --ignore-scripts --prefix <tmp> twinscore-<version>.tgz)", () => {
  it("puts a working twinscore on the prefix's bin, a copy that needs neither the clone nor the tarball", () => {
    const prefix = join(tmp, "global");
    const copy = join(tmp, "to-delete");
    mkdirSync(copy);
    const copied = join(copy, "twinscore.tgz");
    writeFileSync(copied, readFileSync(tarball));
    const r = spawn(npm, ["install", "-g", "--ignore-scripts", "--prefix", prefix, "--prefer-offline", copied], tmp);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toMatch(/install-scripts/);
    rmSync(copy, { recursive: true });
    expect(lstatSync(join(prefix, "lib", "node_modules", "twinscore")).isDirectory()).toBe(true);
    const bin = join(prefix, "bin", "twinscore");
    expect(run(bin, ["--version"], tmp).trim()).toBe(JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")).version);
    const csv = run(bin, ["score", "--results", main, "--model", "openai_gpt-oss-120b", "--bootstrap", "0", "--format", "csv"], tmp);
    expect(csv.split("\n")[1]).toMatch(/^openai_gpt-oss-120b,213,96\.7,68\.1,82\.4,/);
  }, 120_000);
});
