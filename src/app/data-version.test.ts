import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { committedManifestPath } from "../io/manifest.js";
import { committedManifests } from "../io/rollout-data.js";
import { walkBfclTree } from "../io/tree.js";
import { rolloutRunDir, sharedPath } from "../testing/shared.js";
import { contextOf } from "./common.js";
import { manifestsForModels, oneManifestForModels, versionsOfModel } from "./data-version.js";

const xlamDir = () => sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r");
const gptDir = () => join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b", "multi_turn");

/** A copy of a model folder's three result files under another BFCL prefix (and optionally one file kept under its own). */
function relabel(from: string, own: "v3" | "v4", as: "v3" | "v4", keep: string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), "twinscore-relabel-"));
  const dir = join(root, "result", "model");
  mkdirSync(dir, { recursive: true });
  for (const c of ["base", "miss_func", "miss_param"]) {
    const version = keep.includes(c) ? own : as;
    copyFileSync(join(from, `BFCL_${own}_multi_turn_${c}_result.json`), join(dir, `BFCL_${version}_multi_turn_${c}_result.json`));
  }
  return root;
}

const ctx = contextOf({});
const modelsUnder = (dir: string) => walkBfclTree([dir], ctx.cwd, "result").models;

let fakeV4: string;
let fakeV3: string;
beforeAll(() => {
  fakeV4 = relabel(xlamDir(), "v3", "v4");
  fakeV3 = relabel(gptDir(), "v4", "v3");
});

describe("the manifest each model is scored on", () => {
  it("is the package's manifest of the version the file names say, when the rollouts were generated on that data", () => {
    for (const [dir, version] of [
      [gptDir(), "v4"],
      [xlamDir(), "v3"],
    ] as const) {
      const found = manifestsForModels(modelsUnder(dir), undefined, ctx);
      if (!found.ok) throw new Error(found.problems[0].message);
      const [model] = modelsUnder(dir);
      expect(versionsOfModel(model)).toEqual([version]);
      expect(found.value.problems).toEqual([]);
      expect(found.value.manifestOf.get(model.name)?.source.bfclVersion).toBe(version);
      expect(found.value.forced).toBe(false);
    }
  });

  it("stops a v3 run named as v4 (and a v4 run named as v3) with one line naming the data they look like", () => {
    const a = manifestsForModels(modelsUnder(fakeV4), undefined, ctx);
    expect(a.ok && a.value.problems).toEqual([
      {
        code: "rollouts-other-data",
        severity: "error",
        message:
          "model model: 214 of 600 rollouts were not generated on BFCL v4 data (first: multi_turn_base_6, turn 4); rollouts look like BFCL v3 data; pass --manifest to force",
        file: join(fakeV4, "result", "model"),
      },
    ]);
    expect(a.ok && a.value.manifestOf.size).toBe(0);
    const b = manifestsForModels(modelsUnder(fakeV3), undefined, ctx);
    expect(b.ok && b.value.problems.map((p) => [p.severity, p.message])).toEqual([
      [
        "error",
        expect.stringMatching(
          /^model model: 2\d\d of 5\d\d rollouts were not generated on BFCL v3 data \(first: multi_turn_base_\d+, turn \d+\); rollouts look like BFCL v4 data; pass --manifest to force$/,
        ),
      ],
    ]);
  });

  it("takes --manifest for every model: silent when the data match it, a warning when they do not", () => {
    const forcedV3 = manifestsForModels(modelsUnder(fakeV4), committedManifestPath("v3"), ctx);
    expect(
      forcedV3.ok && [forcedV3.value.forced, forcedV3.value.problems, forcedV3.value.manifestOf.get("model")?.source.bfclVersion],
    ).toEqual([true, [], "v3"]);
    const forcedV4 = manifestsForModels(modelsUnder(xlamDir()), committedManifestPath("v4"), ctx);
    expect(forcedV4.ok && forcedV4.value.problems.map((p) => [p.severity, p.message])).toEqual([
      [
        "warning",
        "model Salesforce_Llama-xLAM-2-8b-fc-r: 214 of 600 rollouts were not generated on BFCL v4 data (first: multi_turn_base_6, turn 4); rollouts look like BFCL v3 data; scored on the --manifest given anyway",
      ],
    ]);
    expect(forcedV4.ok && forcedV4.value.manifestOf.get("Salesforce_Llama-xLAM-2-8b-fc-r")?.source.bfclVersion).toBe("v4");
    const missing = manifestsForModels(modelsUnder(xlamDir()), "/nonexistent/m.json", ctx);
    expect(!missing.ok && missing.problems[0]).toMatchObject({ code: "file-missing", file: "/nonexistent/m.json" });
  });

  it("says so when a model folder mixes versions, or when no manifest of a version is available", () => {
    const mixed = relabel(xlamDir(), "v3", "v4", ["base"]);
    const m = manifestsForModels(modelsUnder(mixed), undefined, ctx);
    expect(m.ok && m.value.problems.map((p) => [p.code, p.message])).toEqual([
      ["bfcl-version-mixed", "model model mixes BFCL v3 and v4 result files; keep one version in a model folder"],
    ]);
    const onlyV4 = new Map([...committedManifests()].filter(([v]) => v === "v4"));
    const none = manifestsForModels(modelsUnder(xlamDir()), undefined, ctx, { committed: onlyV4 });
    expect(none.ok && none.value.problems[0]).toMatchObject({ code: "manifest-missing", severity: "error" });
    expect(none.ok && none.value.problems[0].message).toMatch(
      /^model Salesforce_Llama-xLAM-2-8b-fc-r holds BFCL v3 results and the package has no v3 pair manifest /,
    );
  });

  it("puts report, compare and verify on one manifest, and refuses runs of two versions without --manifest", () => {
    const both = [...modelsUnder(gptDir()), ...modelsUnder(xlamDir())];
    const one = oneManifestForModels(both, undefined, ctx, "report");
    expect(!one.ok && one.problems.map((p) => p.message)).toEqual([
      "report puts every model on one pair manifest, and these result files are of several BFCL versions: v3 (Salesforce_Llama-xLAM-2-8b-fc-r); v4 (openai_gpt-oss-20b); give one version's runs, or --manifest FILE to force one",
    ]);
    const v4only = oneManifestForModels(modelsUnder(gptDir()), undefined, ctx, "report");
    expect(v4only.ok && v4only.value.manifest.source.bfclVersion).toBe("v4");
  });
});
