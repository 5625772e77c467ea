/**
 * Renders one held-back turn into an OpenAI-compatible chat request. The instructions
 * come from a prompt file the user can read and replace; placeholders are filled from
 * the turn, so the judge sees exactly that turn and nothing else.
 */
import { createHash } from "node:crypto";
import { judgeLabels } from "./types.js";
import type { HeldBackTurn } from "./types.js";

/** The placeholders a prompt file may use. */
export const promptPlaceholders = ["{{request}}", "{{base_request}}", "{{removed}}", "{{lookups}}", "{{reply}}", "{{labels}}"] as const;

/** A prompt file split into the system part and the per-turn user part. */
export interface JudgePrompt {
  readonly system: string;
  readonly user: string;
}

/**
 * Splits a prompt file at the line `---user---`: the text above is the system message,
 * the text below the user message template.
 */
export function parsePromptFile(text: string): { ok: true; prompt: JudgePrompt } | { ok: false; message: string } {
  const parts = text.split(/^---user---\s*$/m);
  if (parts.length !== 2)
    return { ok: false, message: "the prompt file needs exactly one line `---user---` separating the system part from the user template" };
  const user = parts[1].trim();
  if (!user.includes("{{reply}}")) return { ok: false, message: "the user template must contain {{reply}}" };
  return { ok: true, prompt: { system: parts[0].trim(), user } };
}

function fill(template: string, turn: HeldBackTurn): string {
  const values: Record<string, string> = {
    "{{request}}": turn.request,
    "{{base_request}}": turn.baseRequest,
    "{{removed}}": turn.removedFunctions.length
      ? turn.removedFunctions.join(", ")
      : "(none: a value was removed from the request, not a function)",
    "{{lookups}}": turn.lookups.length ? turn.lookups.join("\n") : "(none)",
    "{{reply}}": turn.reply.trim() === "" ? "(no text)" : turn.reply,
    "{{labels}}": judgeLabels.join(", "),
  };
  // One pass, so text inside a filled value is never re-expanded.
  return template.replace(/\{\{(request|base_request|removed|lookups|reply|labels)\}\}/g, (m) => values[m]);
}

/** The request body sent to `/chat/completions`, and its cache key. */
export interface JudgeRequest {
  readonly body: {
    readonly model: string;
    readonly temperature: number;
    readonly messages: readonly { readonly role: "system" | "user"; readonly content: string }[];
  };
  /** SHA-256 of the canonical body: the cache key and the resume key. */
  readonly key: string;
}

/** Build the request for one turn. Deterministic: the same turn, prompt and model give the same key. */
export function buildJudgeRequest(turn: HeldBackTurn, prompt: JudgePrompt, judgeModel: string): JudgeRequest {
  const body = {
    model: judgeModel,
    temperature: 0,
    messages: [
      { role: "system" as const, content: fill(prompt.system, turn) },
      { role: "user" as const, content: fill(prompt.user, turn) },
    ],
  };
  const key = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  return { body, key };
}
