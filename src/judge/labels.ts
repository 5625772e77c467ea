/**
 * Reads a label out of the judge's reply. Judges are asked for `{"label": "…"}`, but a
 * model may wrap it in prose or code fences; anything that does not name exactly one
 * label is a malformed reply, reported rather than guessed.
 */
import { judgeLabels, type JudgeLabel } from "./types.js";

/** Parse a judge reply into a label, or say why it cannot be read. */
export function parseJudgeReply(content: string): { ok: true; label: JudgeLabel } | { ok: false; message: string } {
  const trimmed = content.trim();
  const jsonMatch = trimmed.match(/\{[^{}]*\}/);
  if (jsonMatch) {
    try {
      const parsed: unknown = JSON.parse(jsonMatch[0]);
      if (parsed && typeof parsed === "object" && "label" in parsed) {
        const label = String((parsed as { label: unknown }).label).trim().toLowerCase();
        if ((judgeLabels as readonly string[]).includes(label)) return { ok: true, label: label as JudgeLabel };
        return { ok: false, message: `unknown label ${JSON.stringify(label)}` };
      }
    } catch {
      // fall through to the bare-word reading
    }
  }
  const found = judgeLabels.filter((l) => new RegExp(`(^|[^a-z_])${l}([^a-z_]|$)`).test(trimmed.toLowerCase()));
  if (found.length === 1) return { ok: true, label: found[0] };
  if (found.length > 1) return { ok: false, message: `reply names several labels (${found.join(", ")})` };
  return { ok: false, message: `no label in reply ${JSON.stringify(trimmed.slice(0, 80))}` };
}
