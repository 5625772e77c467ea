/**
 * How the report bounds a text it embeds: on its own, so the readers that cut texts as
 * lines stream by (`app/long-texts.ts`) do not load the report's assembly.
 */

/**
 * The longest text the page embeds for one call or one side's anchor text. A real anchor
 * turn's text is a few kilobytes; a page holding every text of a run whose turns are
 * millions of characters would not fit in memory (or in a string) at all.
 */
export const REPORT_TEXT_LIMIT = 20_000;

/** What follows the first `limit` characters of a text the report cut. */
const CUT_MARK = /^ … \[cut by the report: \d+ more characters of \d+; the whole text is in the result file\]$/;

/**
 * A text cut to `REPORT_TEXT_LIMIT` characters, saying how much was left out and where the
 * rest is. A text cut already (as the report's reader cuts long texts) is returned as it is.
 */
export function boundedText(text: string, limit = REPORT_TEXT_LIMIT): string {
  if (text.length <= limit || CUT_MARK.test(text.slice(limit))) return text;
  return `${text.slice(0, limit)} … [cut by the report: ${text.length - limit} more characters of ${text.length}; the whole text is in the result file]`;
}
