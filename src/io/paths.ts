/**
 * Path arithmetic for the use cases (`src/app/`), which leave node built-ins to this
 * layer: a path the user gave, resolved against the request's folder.
 */
import { join, resolve, sep } from "node:path";

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
