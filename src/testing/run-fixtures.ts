/**
 * What the `run` tests share: an in-process run request with BFCL's defaults, a pool of
 * 127.0.0.1 test servers closed after each test, and a small BFCL data folder. One copy, so
 * a new field of the run request or a new server rule is added once.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { loadReferenceTurns, loadRunEntries, type RunRequest } from "../app/run/index.js";
import { loadManifest } from "../io/manifest.js";
import { paramNamesOf } from "./policies.js";
import { answersFile, questionsFile, type MultiTurnCategory } from "../bfcl/categories.js";
import { docFile, type MultiTurnClass } from "../bfcl/classes.js";
import type { PyDict } from "../python/containers.js";
import { jsonLoadsFast } from "../python/json.js";
import type { TestServer } from "./replay.js";
import { bfclDataDir } from "./shared.js";

/** What a test must say about its run; everything else takes the value below unless given. */
export type InProcessRun = Pick<RunRequest, "model" | "outDir" | "items" | "manifest" | "chat"> & Partial<RunRequest>;

/**
 * A run against an in-process endpoint: FC mode, BFCL's temperature 0.001, 16 at a time, no
 * retries, no key, the shared BFCL v4 data, every line generated whole, no injection, and
 * latency 0 (so the written lines do not depend on the clock).
 */
export function inProcessRun(fields: InProcessRun): RunRequest {
  return {
    endpoint: "in-process",
    mode: "fc",
    temperature: 0.001,
    concurrency: 16,
    timeoutMs: 60_000,
    retries: 0,
    apiKey: null,
    bfclDataDir: bfclDataDir(),
    untilAnchor: false,
    retryErrors: false,
    inject: null,
    now: () => 0,
    ...fields,
  };
}

/** Test servers started by `serve`, all closed after each test (none outlives its test). */
export function serverPool(): { serve: (started: Promise<TestServer>) => Promise<TestServer> } {
  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  return {
    serve: async (started) => {
      const s = await started;
      servers.push(s);
      return s;
    },
  };
}

/** A BFCL v4 data folder under `dir` with the first `perCategory` entries of each category (function docs complete). */
export function subsetBfclData(dir: string, categories: readonly MultiTurnCategory[], perCategory: number): string {
  const data = bfclDataDir();
  mkdirSync(join(dir, "multi_turn_func_doc"), { recursive: true });
  mkdirSync(join(dir, "possible_answer"), { recursive: true });
  for (const f of readdirSync(join(data, "multi_turn_func_doc")))
    copyFileSync(join(data, "multi_turn_func_doc", f), join(dir, "multi_turn_func_doc", f));
  for (const c of categories) {
    for (const rel of [questionsFile("v4", c), answersFile("v4", c)]) {
      const lines = readFileSync(join(data, rel), "utf8").split("\n").slice(0, perCategory);
      writeFileSync(join(dir, rel), lines.join("\n") + "\n");
    }
  }
  return dir;
}

/** The function docs of these classes from the shared BFCL v4 data, as `prepareEntry` takes them. */
export function functionDocs(classes: readonly MultiTurnClass[]): Map<string, PyDict[]> {
  return new Map(
    classes.map((cls) => [
      cls,
      readFileSync(join(bfclDataDir(), docFile(cls)), "utf8")
        .trim()
        .split("\n")
        .map((l) => jsonLoadsFast(l) as PyDict),
    ]),
  );
}

/**
 * What a run over the real v4 data needs, loaded once per test file: the committed manifest,
 * BFCL's entries and reference turns, and the parameter names the scripted policies fill.
 */
export function realV4RunInputs() {
  const manifest = loadManifest();
  if (!manifest.ok) throw new Error("the committed manifest does not load");
  const entries = loadRunEntries(bfclDataDir());
  if (!entries.ok) throw new Error("the BFCL data does not load");
  const references = loadReferenceTurns(bfclDataDir());
  if (!references.ok) throw new Error("the BFCL references do not load");
  return { manifest: manifest.value, entries: entries.value, references: references.value, paramNames: paramNamesOf(entries.value) };
}
