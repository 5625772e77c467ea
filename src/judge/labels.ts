/**
 * Reads a label out of the judge's reply. Judges are asked for `{"label": "…"}`, but a
 * model may wrap it in prose or code fences; anything that does not name exactly one
 * label is a malformed reply, reported rather than guessed.
 */
import { judgeLabels, type JudgeLabel, type JudgeRecord } from "./types.js";

/** Parse a judge reply into a label, or say why it cannot be read. */
export function parseJudgeReply(content: string): { ok: true; label: JudgeLabel } | { ok: false; message: string } {
  const trimmed = content.trim();
  const jsonMatch = trimmed.match(/\{[^{}]*\}/);
  if (jsonMatch) {
    try {
      const parsed: unknown = JSON.parse(jsonMatch[0]);
      if (parsed && typeof parsed === "object" && "label" in parsed) {
        const label = String((parsed as { label: unknown }).label)
          .trim()
          .toLowerCase();
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

/** The well-formed label records among the values of a labels file (anything else is left out: its turn is judged again). */
export function judgeRecordsOf(values: readonly unknown[]): JudgeRecord[] {
  const out: JudgeRecord[] = [];
  for (const v of values) {
    const r = v as JudgeRecord | null;
    if (r && typeof r.missId === "string" && typeof r.requestKey === "string" && typeof r.label === "string") out.push(r);
  }
  return out;
}

/**
 * The label of a cache entry, or null (none, or an older entry whose reply has no label).
 * Entries hold `{label, raw}`; an older shape kept only the reply (`content`), read again here.
 */
export function cachedLabel(entry: unknown): { label: JudgeLabel; raw: string } | null {
  if (entry === null || typeof entry !== "object") return null;
  const c = entry as { label?: unknown; raw?: unknown; content?: unknown };
  if (typeof c.label === "string" && (judgeLabels as readonly string[]).includes(c.label) && typeof c.raw === "string")
    return { label: c.label as JudgeLabel, raw: c.raw };
  if (typeof c.content === "string") {
    const parsed = parseJudgeReply(c.content);
    return parsed.ok ? { label: parsed.label, raw: c.content } : null;
  }
  return null;
}
