/**
 * Small option readers shared by the commands, so a repeatable flag or a whole-number
 * flag behaves the same way everywhere (the use cases check the numbers and complain).
 */

/** Commander's accumulator for repeatable options (`--results A --results B`); none given reads as an empty list. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * A whole-number flag as a number for a use case to check (NaN for text that is not a
 * plain integer, so `""` or `1.5` or `abc` is refused there with the flag's name).
 */
export function integerOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** A number flag (a percentage, say) for a use case to check: NaN for text that is not a plain decimal number. */
export function numberOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : Number.NaN;
}
