/**
 * Path arithmetic for the use cases (`src/app/`), which leave node built-ins to this
 * layer: a path the user gave, resolved against the request's folder.
 */
import { basename, dirname, join, relative, resolve, sep } from "node:path";

/** `path` resolved against `cwd` (an absolute `path` stays as it is). */
export function resolvePath(cwd: string, path: string): string {
  return resolve(cwd, path);
}

/** Whether one of the components of an absolute path equals `name` (`/runs/main/result` has `main`). */
export function pathHasComponent(path: string, name: string): boolean {
  return path.split(sep).includes(name);
}

/** `parts` joined into one path. */
export function joinPath(...parts: string[]): string {
  return join(...parts);
}

/** The folder holding `path`. */
export function parentOf(path: string): string {
  return dirname(path);
}

/**
 * A run's label: the directory's base name, or its parent's when the directory is a
 * BFCL `result` folder (…/2025-11-12-main/result → 2025-11-12-main).
 */
export function runLabel(dir: string): string {
  const abs = resolve(dir);
  const name = basename(abs);
  return name === "result" ? basename(dirname(abs)) : name;
}

/** Labels for the runs, made unique by a `#2`, `#3` suffix when two trees share a name. */
export function runLabels(dirs: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return dirs.map((d) => {
    const label = runLabel(d);
    const k = (seen.get(label) ?? 0) + 1;
    seen.set(label, k);
    return k === 1 ? label : `${label}#${k}`;
  });
}

/** The path from `from` to `to`. */
export function relativePath(from: string, to: string): string {
  return relative(from, to);
}
