/**
 * What a run reads before it generates: BFCL's function docs and questions of the run
 * categories, the reference trajectories (`--history reference` plays them), and the
 * prompting system prompt (a file of the user's, or BFCL's prompt module).
 */
import { docFile, multiTurnDocFiles, parseAnswers, questionsFile, type MultiTurnClass } from "../../bfcl/data.js";
import { answersFile, type BfclVersion } from "../../bfcl/categories.js";
import { err, ok, problem, type Result } from "../../messages/index.js";
import { PyDict } from "../../python/containers.js";
import { parsePyJsonLines } from "../../simulator/run-check.js";
import {
  prepareEntry,
  runCategories,
  systemPromptFromBfcl,
  systemPromptFromFile,
  type RolloutEntry,
  type SystemPromptBuilder,
} from "../../rollout/index.js";
import { nodeHost, type Host } from "../../io/host.js";
import type { RunRequest } from "./types.js";

/** Read the docs and the entries of the run categories from a BFCL data folder (v4 unless told: run generates v4; the exact-twin proof also reads v3). */
export function loadRunEntries(dataDir: string, version: BfclVersion = "v4", host: Host = nodeHost()): Result<Map<string, RolloutEntry>> {
  const docs = new Map<string, PyDict[]>();
  for (const cls of Object.keys(multiTurnDocFiles) as MultiTurnClass[]) {
    const file = `${dataDir}/${docFile(cls)}`;
    const text = host.readTextIfFile(file);
    if (text === null) return err(problem("file-missing", "BFCL function-doc file missing", { file }));
    const parsed = parsePyJsonLines(text, file);
    if (!parsed.ok) return parsed;
    docs.set(
      cls,
      parsed.value.map((x) => x.value as PyDict),
    );
  }
  const entries = new Map<string, RolloutEntry>();
  for (const category of runCategories) {
    const file = `${dataDir}/${questionsFile(version, category)}`;
    const text = host.readTextIfFile(file);
    if (text === null) return err(problem("file-missing", "BFCL questions file missing (run needs BFCL v4 data)", { file }));
    const parsed = parsePyJsonLines(text, file);
    if (!parsed.ok) return parsed;
    for (const { value, line } of parsed.value) {
      const e = prepareEntry(value, docs, { file, line });
      if (!e.ok) return e;
      entries.set(e.value.id, e.value);
    }
  }
  return ok(entries);
}

/** The reference trajectories (`possible_answer`) of the run categories: per id, per turn, the call strings. */
export function loadReferenceTurns(
  dataDir: string,
  version: BfclVersion = "v4",
  host: Host = nodeHost(),
): Result<Map<string, readonly (readonly string[])[]>> {
  const out = new Map<string, readonly (readonly string[])[]>();
  for (const category of runCategories) {
    const file = `${dataDir}/${answersFile(version, category)}`;
    const text = host.readTextIfFile(file);
    if (text === null) return err(problem("file-missing", "BFCL reference file missing (--history reference plays it)", { file }));
    const parsed = parseAnswers(text, file);
    if (!parsed.ok) return parsed;
    for (const a of parsed.value) out.set(a.id, a.groundTruth);
  }
  return ok(out);
}

/** A prompting run's system prompt: how it is built, and the user's file text (`run.json` records its digest; null for BFCL's). */
export interface SystemPromptSetup {
  readonly builder: SystemPromptBuilder | undefined;
  readonly text: string | null;
}

/** The system prompt of the run's mode: none in FC mode; in prompting mode the user's file, else BFCL's prompt module. */
export function loadSystemPrompt(
  req: Pick<RunRequest, "mode" | "systemPromptFile" | "bfclPromptsFile">,
  host: Host = nodeHost(),
): Result<SystemPromptSetup> {
  if (req.mode !== "prompting") return ok({ builder: undefined, text: null });
  if (req.systemPromptFile) {
    const text = host.readTextIfFile(req.systemPromptFile);
    if (text === null) return err(problem("file-missing", "cannot read the system prompt file", { file: req.systemPromptFile }));
    return ok({ builder: systemPromptFromFile(text), text });
  }
  if (req.bfclPromptsFile) {
    const text = host.readTextIfFile(req.bfclPromptsFile);
    if (text === null) return err(problem("file-missing", "cannot read BFCL's prompt module", { file: req.bfclPromptsFile }));
    const built = systemPromptFromBfcl(text, req.bfclPromptsFile);
    if (!built.ok) return built;
    return ok({ builder: built.value, text: null });
  }
  return err(
    problem(
      "system-prompt-missing",
      "prompting mode needs BFCL's system prompt: install bfcl-eval (its prompt texts are read at run time) or pass --system-prompt FILE",
    ),
  );
}
