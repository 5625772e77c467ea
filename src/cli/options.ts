/**
 * Small option readers shared by the commands, so a repeatable flag or a whole-number
 * flag behaves the same way everywhere (the use cases check the numbers and complain).
 */

/** Commander's accumulator for repeatable options (`--results A --results B`). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * A whole-number flag as a number for a use case to check (NaN for text that is not a
 * plain integer, so `""` or `1.5` or `abc` is refused there with the flag's name).
 */
export function integerOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** The `--manifest` help, the same for every command that scores rollouts. */
export const manifestOptionHelp =
  "pair manifest for every model (default: the package's manifest of the BFCL version the result file names say: " +
  "data/manifest.json for BFCL_v4_, data/manifest-v3.json for BFCL_v3_; rollouts whose recorded first user turns show " +
  "other data stop the command with one line, and --manifest forces it)";

/** A number flag (a percentage, say) for a use case to check: NaN for text that is not a plain decimal number. */
export function numberOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : Number.NaN;
}
