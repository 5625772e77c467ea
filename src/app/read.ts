/**
 * `readRun`: the rollouts of a run as the scorer sees them, for programs that want to look
 * at them. The models are found by the one walk every command uses (`io/tree.ts`); each
 * result file is streamed line by line, and every line's `result` is decoded (every turn,
 * or BFCL's inference-error string). Lines that are not result lines are problems with
 * their `file:line`; the rest is read.
 */
import { isMultiTurnCategory, multiTurnCategories, type MultiTurnCategory } from "../bfcl/categories.js";
import { decodeResultBytes, scanLineHead, type RecordedRollout } from "../bfcl/results.js";
import { problem, type Problem } from "../messages/index.js";
import { readFailure } from "../io/results-read.js";
import { selectModels } from "./pipeline.js";
import { contextOf, type RequestContext, type ModelsOption } from "./common.js";
import { requestShapeProblems, type RequestShape } from "./request-shape.js";

/** Which run to read. */
export interface ReadRunRequest extends RequestContext, ModelsOption {
  /** Result trees (a model folder, a result root, a run, or a folder of runs). */
  readonly results: readonly string[];
  /** Categories to read (default: every multi-turn category found). */
  readonly categories?: readonly MultiTurnCategory[];
}

/** What a library caller's read request must hold (see `request-shape.ts`). */
const readShape: RequestShape = { results: { rule: "list", required: true }, models: { rule: "list" }, categories: { rule: "list" } };

/** One model's rollouts. */
export interface RunModel {
  /** Its name: the folder's, or `<run>/<model>` when several runs were found. */
  readonly model: string;
  /** The model folder's name (BFCL's model name). */
  readonly folder: string;
  readonly run: string;
  /** The file read per category (the first found when a folder holds two copies). */
  readonly files: Readonly<Partial<Record<MultiTurnCategory, string>>>;
  /** Every line's rollout by item id (the last line of an id wins: a retried line replaces the one before it). */
  readonly rollouts: ReadonlyMap<string, RecordedRollout>;
}

/** The models read, and the problems met. */
export interface RunReading {
  readonly models: readonly RunModel[];
  readonly problems: readonly Problem[];
}

/**
 * Read the rollouts of every model under the result trees.
 *
 * @example
 * import { readRun } from "twinscore";
 * const run = await readRun({ results: ["runs/main"], categories: ["base"] });
 * const r = run.models[0].rollouts.get("multi_turn_base_0");
 * if (r?.kind === "turns") console.log(r.turnCount, r.turns[0]);
 */
export async function readRun(req: ReadRunRequest): Promise<RunReading> {
  const shape = requestShapeProblems(req, readShape, '{ results: ["runs/main"] }');
  if (shape.length > 0) return { models: [], problems: shape };
  const ctx = contextOf(req);
  const walk = ctx.host.walkBfclTree(req.results, ctx.cwd, "result");
  const selected = selectModels(walk, req.models ?? []);
  const problems: Problem[] = [...walk.problems, ...selected.problems];
  const wanted = (req.categories ?? multiTurnCategories).filter(isMultiTurnCategory);
  const models: RunModel[] = selected.models.map((m) => {
    const files: Partial<Record<MultiTurnCategory, string>> = {};
    const rollouts = new Map<string, RecordedRollout>();
    for (const category of wanted) {
      const file = m.files[category]?.[0]?.path;
      if (file === undefined) continue;
      files[category] = file;
      try {
        ctx.host.forEachLine(file, (bytes, start, end, line) => {
          const head = scanLineHead(bytes, start, end);
          if ("error" in head) {
            if (bytes.subarray(start, end).some((b) => b !== 0x20 && b !== 0x09 && b !== 0x0d))
              problems.push(problem("json-malformed", head.error, { file, line, severity: "warning" }));
            return;
          }
          if (rollouts.has(head.id)) return;
          const decoded = decodeResultBytes(bytes, head, Number.POSITIVE_INFINITY, { file, line });
          if ("code" in decoded) problems.push({ ...decoded, severity: "warning" });
          else rollouts.set(head.id, decoded);
        });
      } catch (e) {
        problems.push(problem("file-unreadable", `cannot read result file (${readFailure(e)})`, { file }));
      }
    }
    return { model: m.name, folder: m.model, run: m.run, files, rollouts };
  });
  return { models, problems };
}
