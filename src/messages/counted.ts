/**
 * A count and its noun, as messages print them: the singular for exactly one ("1 line",
 * "0 lines", "2 error lines"). A noun whose plural is not the singular plus "s" gives it.
 */
export function counted(n: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : pluralNoun}`;
}
