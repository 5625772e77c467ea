/**
 * What interactive result lines (`run --user-sim llm`) record beyond BFCL's fields, read
 * back from a result file: the model's reply that the simulated user answered on each
 * line's answer turn. Lines without the interactive key are skipped unparsed.
 */
import { readFileSync } from "node:fs";
import { PyDict } from "../python/containers.js";
import { jsonLoadsFast } from "../python/json.js";
import { openingMessageOf, USER_SIMULATOR_KEY } from "../rollout/user-sim.js";

/** The model's last reply on the anchor turn of every interactive line of a result file, by id (empty for an unreadable file: its reader reports it). */
export function openingMessagesOf(file: string): Map<string, string> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return out;
  }
  const marker = `"${USER_SIMULATOR_KEY}"`;
  for (const l of text.split("\n")) {
    if (!l.includes(marker)) continue;
    let line;
    try {
      line = jsonLoadsFast(l);
    } catch {
      continue;
    }
    const id = line instanceof PyDict ? line.get("id") : undefined;
    const message = openingMessageOf(line);
    if (typeof id === "string" && message !== null && !out.has(id)) out.set(id, message);
  }
  return out;
}
