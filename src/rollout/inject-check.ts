/**
 * The check that a prompt arm's injected block reached the model (the paper's §5.4):
 * on items both arms ran, the first step's input token counts differ by the same number
 * everywhere — the block's length in tokens. The distribution of that difference shows
 * it; items off the common value are where it broke (a truncated prompt, a server that
 * dropped a developer message, a different template).
 */

import { counted } from "../messages/index.js";

export { INJECTED_KEY } from "../bfcl/line-keys.js";

/** Where a run put the injected block. */
export type InjectedPlacement = "developer-message" | "system-prompt";

/** First-step input token count per item id (null when the line has none: an error line, no steps). */
export type FirstStepTokens = ReadonlyMap<string, number | null>;

/** The outcome of the check for one model. */
export interface InjectionCheck {
  /** Items with a first-step count in both arms. */
  readonly paired: number;
  /** Items present in both arms without a count in one of them. */
  readonly unpaired: number;
  /** B − A per value, most frequent first (ties: smaller difference first). */
  readonly distribution: readonly { readonly difference: number; readonly items: number }[];
  /** The most frequent difference (null with no paired item). */
  readonly mode: number | null;
  /** Items whose difference is not the mode, with their difference, by id. */
  readonly breaks: readonly { readonly id: string; readonly difference: number }[];
}

/** Compare arm B's first-step input tokens with arm A's on the items both have. */
export function injectionCheck(a: FirstStepTokens, b: FirstStepTokens): InjectionCheck {
  const diffs = new Map<string, number>();
  let unpaired = 0;
  for (const [id, ta] of a) {
    if (!b.has(id)) continue;
    const tb = b.get(id) ?? null;
    if (ta === null || tb === null) unpaired++;
    else diffs.set(id, tb - ta);
  }
  const counts = new Map<number, number>();
  for (const d of diffs.values()) counts.set(d, (counts.get(d) ?? 0) + 1);
  const distribution = [...counts]
    .map(([difference, items]) => ({ difference, items }))
    .sort((x, y) => y.items - x.items || x.difference - y.difference);
  const mode = distribution.length > 0 ? distribution[0].difference : null;
  const breaks = [...diffs]
    .filter(([, d]) => d !== mode)
    .map(([id, difference]) => ({ id, difference }))
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return { paired: diffs.size, unpaired, distribution, mode, breaks };
}

/**
 * One line of text for the check, as `compare` prints it. "Holds" is said only when an
 * arm records an injected block (`injectedLines`): between two arms where nothing was
 * injected an equal token count confirms nothing, and the line says so.
 */
export function injectionCheckLine(
  model: string,
  c: InjectionCheck,
  injectedLines: { readonly a: number; readonly b: number } = { a: 1, b: 1 },
): string {
  if (c.mode === null) return `${model}: injection check: no item has a first-step token count in both arms`;
  const spread = c.distribution
    .slice(0, 6)
    .map((d) => `${d.difference >= 0 ? "+" : ""}${d.difference} × ${d.items}`)
    .join(", ");
  const recorded = injectedLines.a + injectedLines.b > 0;
  const broken =
    c.breaks.length > 0
      ? `it breaks on ${c.breaks.length}: ${c.breaks
          .slice(0, 10)
          .map((b) => `${b.id} (${b.difference >= 0 ? "+" : ""}${b.difference})`)
          .join(", ")}${c.breaks.length > 10 ? ", …" : ""}`
      : recorded
        ? "it holds on every paired item"
        : "neither arm's lines record an injected block, so there is no block whose arrival this could confirm";
  return `${model}: injection check on ${counted(c.paired, "paired item")}: first-step input tokens B − A = ${c.mode >= 0 ? "+" : ""}${c.mode} on ${c.paired - c.breaks.length}; distribution ${spread}; ${broken}${c.unpaired ? `; ${counted(c.unpaired, "item")} without a count in one arm` : ""}`;
}
