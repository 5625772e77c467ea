/**
 * Result trees made of links to a real run, for the tests of the tree walk: model folders
 * `m<i>-<model>` under `<root>/result` (200 unless a count is given), the models taken in
 * turn. Built in a temporary folder; nothing of the real run is changed.
 */
import { cpSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";

function modelFolders(
  root: string,
  models: readonly string[],
  count: number,
  fill: (modelDir: string, i: number, model: string) => void,
): string {
  for (let i = 1; i <= count; i++) {
    const model = models[(i - 1) % models.length];
    const dir = join(root, "result", `m${i}-${model}`);
    mkdirSync(dir, { recursive: true });
    fill(dir, i, model);
  }
  return root;
}

/**
 * The first folder of each model holds a copy of the real `multi_turn/` (from `realResult`,
 * a BFCL result root); every other folder's `multi_turn` is a link to its model's copy.
 */
export function linkedMultiTurnTree(root: string, realResult: string, models: readonly string[], count = 200): string {
  return modelFolders(root, models, count, (dir, i, model) => {
    if (i <= models.length) cpSync(join(realResult, model, "multi_turn"), join(dir, "multi_turn"), { recursive: true });
    else symlinkSync(join("..", `m${((i - 1) % models.length) + 1}-${model}`, "multi_turn"), join(dir, "multi_turn"));
  });
}

/** Every folder's `multi_turn/` is a real folder of links to the real result files. */
export function linkedFilesTree(root: string, realResult: string, models: readonly string[], count = 200): string {
  return modelFolders(root, models, count, (dir, _i, model) => {
    mkdirSync(join(dir, "multi_turn"));
    for (const f of readdirSync(join(realResult, model, "multi_turn")))
      symlinkSync(join(realResult, model, "multi_turn", f), join(dir, "multi_turn", f));
  });
}
