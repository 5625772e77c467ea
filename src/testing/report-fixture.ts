/**
 * A copy of a real gpt-oss run with hostile text planted in one model output, for the
 * report's escaping tests (CLI and browser). The text goes in as an extra text step at
 * the end of the anchor turn of a real should-ask item, so every call — and so every
 * number — stays what the real run gives, while the pair browser must show the text.
 */
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadManifest } from "../io/manifest.js";
import { rolloutRunDir, type rolloutRuns } from "./shared.js";

/** Markup and script that must show literally and never run. */
export const hostileText = `<script>window.pwned=1</script><img src=x onerror="window.pwned2=1"><b>bold?</b> & "quotes" 'too'`;

/** The shared data is read-only; the copy must be writable (and removable by a non-root user). */
function makeWritable(path: string): void {
  if (statSync(path).isDirectory()) {
    chmodSync(path, 0o755);
    for (const name of readdirSync(path)) makeWritable(join(path, name));
  } else chmodSync(path, 0o644);
}

/** Where the text was planted. */
export interface PlantedRun {
  /** The copied run's root (named like the real run, so its report label is the same). */
  readonly runDir: string;
  readonly model: string;
  readonly missId: string;
  readonly file: string;
  readonly line: number;
}

/**
 * Copy `run` (result and score trees) under `parent/<run>` and plant `hostileText` in
 * `model`'s first scored miss_param item (manifest order) whose rollout reached the anchor.
 */
export function plantHostileText(parent: string, run: (typeof rolloutRuns)[number], model: string): PlantedRun {
  const runDir = join(parent, run);
  mkdirSync(runDir, { recursive: true });
  cpSync(rolloutRunDir(run), runDir, { recursive: true });
  makeWritable(runDir);
  const file = join(runDir, "result", model, "multi_turn", "BFCL_v4_multi_turn_miss_param_result.json");
  const manifest = loadManifest();
  if (!manifest.ok) throw new Error("the committed manifest does not load");
  const scored = manifest.value.pairs.filter((p) => p.status === "scored" && p.category === "miss_param");
  const lines = readFileSync(file, "utf8").split("\n");
  for (const pair of scored) {
    const i = lines.findIndex((l) => l.startsWith(`{"id": "${pair.missId}"`) || l.includes(`"id": "${pair.missId}",`));
    if (i < 0) continue;
    const record = JSON.parse(lines[i]) as { result: unknown };
    if (!Array.isArray(record.result) || record.result.length <= pair.anchorTurn) continue;
    (record.result[pair.anchorTurn] as unknown[]).push(hostileText);
    lines[i] = JSON.stringify(record);
    writeFileSync(file, lines.join("\n"));
    return { runDir, model, missId: pair.missId, file, line: i + 1 };
  }
  throw new Error(`no scored miss_param item of ${model} in ${run} reached its anchor`);
}
