/**
 * Path arithmetic for the use cases (`src/app/`), which leave node built-ins to this
 * layer: a path the user gave, resolved against the request's folder.
 */
import { resolve } from "node:path";

/** `path` resolved against `cwd` (an absolute `path` stays as it is). */
export function resolvePath(cwd: string, path: string): string {
  return resolve(cwd, path);
}
