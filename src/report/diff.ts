/**
 * Word-level difference of the two anchor requests, so the browser can highlight the
 * value the should-ask twin withholds. A longest-common-subsequence over tokens is
 * enough for one-sentence requests and never depends on anything but the two texts.
 */

/** A run of tokens: in both texts, only in the complete one, or only in the incomplete one. */
export interface DiffPart {
  readonly text: string;
  readonly side: "both" | "base" | "miss";
}

function tokens(s: string): string[] {
  return s.match(/\s+|[\p{L}\p{N}_'.$%@-]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

/** Diff `base` (complete) against `miss` (incomplete), merging adjacent runs of one side. */
export function diffRequests(base: string, miss: string): DiffPart[] {
  const a = tokens(base);
  const b = tokens(miss);
  // Guard the quadratic table: very long texts are shown without a diff.
  if (a.length * b.length > 4_000_000) return [{ text: base, side: "base" }];
  const dp: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
    }
  }
  const parts: DiffPart[] = [];
  const push = (text: string, side: DiffPart["side"]) => {
    const last = parts[parts.length - 1];
    if (last && last.side === side) parts[parts.length - 1] = { text: last.text + text, side };
    else parts.push({ text, side });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push(a[i], "both");
      i++;
      j++;
    } else if (dp[i + 1][j] >= dp[i][j + 1]) push(a[i++], "base");
    else push(b[j++], "miss");
  }
  while (i < a.length) push(a[i++], "base");
  while (j < b.length) push(b[j++], "miss");
  return parts;
}
