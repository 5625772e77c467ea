/**
 * Small option readers shared by the commands, so a repeatable flag or a whole-number
 * flag behaves the same way everywhere (the use cases check the numbers and complain).
 */

/** Commander's accumulator for repeatable options (`--results A --results B`); none given reads as an empty list. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * A whole-number flag as a number for a use case to check its bounds: decimal digits,
 * with a minus sign at most (so the bound is what the message names). Anything else —
 * `""`, `" 5"`, `+5`, `1.5`, `0x10`, `1e3`, `5_000` — is NaN, refused there with the
 * flag's name.
 */
export function integerOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
}

/** A number flag (a percentage, seconds) for a use case to check: decimal digits with one decimal point at most, and a minus sign; anything else is NaN. */
export function numberOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}
