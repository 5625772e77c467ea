/**
 * The one renderer of every command's text output (and of the CSV files commands write): a use case returns a
 * typed document, `--format json` prints it as it is, and the other formats (table, csv, markdown, latex) print
 * its printout. What each format prints: this folder's README.md.
 */

import { visibleText } from "../messages/index.js";
/** The output formats every command accepts. */
export const outputFormats = ["table", "json", "csv", "markdown", "latex"] as const;
export type OutputFormat = (typeof outputFormats)[number];

/** An interval: `[low, high]` with one decimal (signed for a change), or two csv columns. */
export interface IntervalCell {
  readonly interval: readonly [number, number];
  /** Print a `+` before positive bounds (a change in points). */
  readonly signed?: boolean;
}

/** A cell as printed: text, a number printed as it is, an interval, or nothing. */
export type Cell = string | number | IntervalCell | null | undefined;

/** A column: its header and how to read a cell from a row. */
export interface Column<R> {
  header: string;
  value: (row: R) => Cell;
  /** Right-align in the terminal table (and in markdown). */
  align?: "left" | "right";
  /** An interval column: the headers of its two csv columns (low, high). */
  csvPair?: readonly [string, string];
}

/** An interval cell, or nothing when there is no interval. */
export function intervalCell(interval: readonly [number, number] | null | undefined, signed = false): IntervalCell | null {
  return interval === null || interval === undefined ? null : { interval, ...(signed ? { signed } : {}) };
}

/**
 * The `--help` lines that say what each column means: one per column, its header padded
 * to `width` (every table's help is laid out the same way), without a final newline.
 *
 * @example
 * columnMeanings([{ header: "act", meaning: "% acted" }], 5); // "  act   % acted"
 */
export function columnMeanings(columns: readonly { readonly header: string; readonly meaning: string }[], width: number): string {
  return columns.map((c) => `  ${c.header.padEnd(width)} ${c.meaning}`).join("\n");
}

/** One table of a printout. */
export interface PrintTable {
  /** Short name: the `table` column in CSV and the heading in markdown when there are several tables. */
  readonly id: string;
  readonly columns: readonly { readonly header: string; readonly align?: "left" | "right"; readonly csvPair?: readonly [string, string] }[];
  readonly rows: readonly (readonly Cell[])[];
  /** What the table is and what N counts; absent, the prose printed just above it in the table format. */
  readonly caption?: string;
}

/** A piece of a printout: prose, or a table. */
export type PrintBlock =
  | {
      readonly kind: "text";
      /** The prose in the table format. */
      readonly text: string;
      /** What goes to stderr instead in the csv and markdown formats (default: nothing). */
      readonly elsewhere?: string;
    }
  | {
      readonly kind: "table";
      readonly table: PrintTable;
      /** False for a table only the data formats print (the table format shows the same as prose). */
      readonly inTableFormat?: boolean;
    };

/** What a command prints, format-free. */
export interface Printout {
  readonly blocks: readonly PrintBlock[];
}

/** A table from typed rows and columns. */
export function tableOf<R>(id: string, rows: readonly R[], columns: readonly Column<R>[]): PrintTable {
  return {
    id,
    columns: columns.map((c) => ({ header: c.header, align: c.align, ...(c.csvPair !== undefined ? { csvPair: c.csvPair } : {}) })),
    rows: rows.map((r) => columns.map((c) => c.value(r))),
  };
}

const bound = (x: number, signed: boolean) => (Number.isFinite(x) ? (signed && x >= 0 ? "+" : "") + x.toFixed(1) : "");

function cellText(v: Cell): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "object") return `[${bound(v.interval[0], v.signed === true)}, ${bound(v.interval[1], v.signed === true)}]`;
  return typeof v === "number" ? String(v) : v;
}

/** The table as csv prints it: each interval column split into its two numeric columns. */
function splitIntervals(t: PrintTable): PrintTable {
  if (!t.columns.some((c) => c.csvPair !== undefined)) return t;
  const columns = t.columns.flatMap((c) => (c.csvPair === undefined ? [{ header: c.header }] : c.csvPair.map((header) => ({ header }))));
  const rows = t.rows.map((r) =>
    r.flatMap((v, i) => {
      if (t.columns[i].csvPair === undefined) return [v];
      return v !== null && typeof v === "object" ? v.interval.map((x) => bound(x, false)) : [null, null];
    }),
  );
  return { id: t.id, columns, rows };
}

/** A number as a cell holds it (a negative one starts with `-` and stays a number). */
const PLAIN_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?%?$/;

/**
 * A cell as csv writes it. A text a spreadsheet would run as a formula (starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return: a model's `miss_text`, a model folder's
 * name) gets a leading `'`, which spreadsheets show as text; numbers stay as they are.
 */
function csvCell(s: string): string {
  const safe = /^[=+\-@\t\r]/.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One table in one format (`tsv` for `pairs`, which also offers it). */
export function renderTable(table: PrintTable, format: Exclude<OutputFormat, "json"> | "tsv"): string {
  const t = format === "csv" ? splitIntervals(table) : table;
  // csv keeps a cell's text as it is (quoted); the other formats are read on a terminal
  const cells = t.rows.map((r) => r.map((v) => (format === "csv" ? cellText(v) : visibleText(cellText(v)))));
  const headers = t.columns.map((c) => c.header);
  switch (format) {
    case "latex": {
      const esc = latexText;
      const spec = t.columns.map((c) => (c.align === "right" ? "r" : "l")).join("");
      const line = (l: readonly string[]) => `${l.map(esc).join(" & ")} \\\\`;
      return (
        [
          "\\begin{table}[t]",
          "\\centering",
          ...(t.caption === undefined ? [] : [`\\caption{${esc(t.caption)}}`]),
          ...(t.id === "" ? [] : [`\\label{tab:${t.id.replace(/[^A-Za-z0-9:-]/g, "-")}}`]),
          `\\begin{tabular}{${spec}}`,
          "\\toprule",
          line(headers),
          "\\midrule",
          ...cells.map(line),
          "\\bottomrule",
          "\\end{tabular}",
          "\\end{table}",
        ].join("\n") + "\n"
      );
    }
    case "csv":
      return [headers, ...cells].map((line) => line.map(csvCell).join(",")).join("\n") + "\n";
    case "tsv":
      return [headers, ...cells].map((line) => line.map((s) => s.replace(/[\t\n]/g, " ")).join("\t")).join("\n") + "\n";
    case "markdown": {
      const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
      const head = `| ${headers.map(esc).join(" | ")} |`;
      const rule = `| ${t.columns.map((c) => (c.align === "right" ? "---:" : "---")).join(" | ")} |`;
      return [head, rule, ...cells.map((line) => `| ${line.map(esc).join(" | ")} |`)].join("\n") + "\n";
    }
    case "table": {
      const widths = headers.map((h, i) => cells.reduce((w, line) => Math.max(w, line[i].length), h.length));
      const pad = (s: string, i: number) => (t.columns[i].align === "right" ? s.padStart(widths[i]) : s.padEnd(widths[i]));
      const lines = [
        headers.map(pad).join("  "),
        widths.map((w) => "-".repeat(w)).join("  "),
        ...cells.map((line) => line.map(pad).join("  ")),
      ];
      return lines.map((l) => l.trimEnd()).join("\n") + "\n";
    }
  }
}

/** Text as LaTeX sets it: its special characters escaped (the table needs only booktabs). */
function latexText(s: string): string {
  const map: Record<string, string> = {
    "\\": "\\textbackslash{}",
    "&": "\\&",
    "%": "\\%",
    $: "\\$",
    "#": "\\#",
    _: "\\_",
    "{": "\\{",
    "}": "\\}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
  };
  return s.replace(/\s*\n\s*/g, " ").replace(/[\\&%$#_{}~^]/g, (c) => map[c]);
}

/**
 * The tables of a printout, each with its caption: its own, else the last prose block
 * printed above it since the table before (its title, saying what N counts). Prose that
 * the data formats send to stderr (`elsewhere`) is no caption: stdout stays data.
 */
export function captionedTables(p: Printout): PrintTable[] {
  const out: PrintTable[] = [];
  let last: string | undefined;
  for (const b of p.blocks) {
    if (b.kind === "text") {
      if (b.elsewhere !== undefined) continue;
      const t = b.text.trim();
      if (t !== "") last = t.replace(/:$/, "");
      continue;
    }
    const caption = b.table.caption ?? last;
    out.push(caption === undefined ? b.table : { ...b.table, caption });
    last = undefined;
  }
  return out;
}

/** Several tables as one CSV table: a `table` column, then every table's columns (first seen first). */
function mergedCsv(given: readonly PrintTable[]): string {
  const tables = given.map(splitIntervals);
  const headers: string[] = [];
  for (const t of tables) for (const c of t.columns) if (!headers.includes(c.header)) headers.push(c.header);
  const rows: Cell[][] = [];
  for (const t of tables) {
    const at = t.columns.map((c) => headers.indexOf(c.header));
    for (const r of t.rows) {
      const row: Cell[] = new Array(headers.length).fill(null);
      r.forEach((v, i) => (row[at[i]] = v));
      rows.push([t.id, ...row]);
    }
  }
  return renderTable({ id: "", columns: [{ header: "table" }, ...headers.map((header) => ({ header }))], rows }, "csv");
}

/** Prose as a terminal may show it: its own line breaks kept, any other control character (from a folder name, an id) made visible. */
function visibleLines(text: string): string {
  return text.split("\n").map(visibleText).join("\n");
}

/** One table alone, its caption above it in the table and markdown formats (csv is data only; latex has its own `\caption`). */
export function renderTableAlone(t: PrintTable, format: Exclude<OutputFormat, "json">): string {
  const table = renderTable(t, format);
  if (t.caption === undefined || format === "csv" || format === "latex") return table;
  return `${format === "markdown" ? t.caption.replace(/\s*\n\s*/g, " ") : t.caption}\n\n${table}`;
}

/** Render a printout; what goes to stdout and what to stderr. */
export function renderPrintout(p: Printout, format: Exclude<OutputFormat, "json">): { stdout: string; stderr: string } {
  const tables = p.blocks.flatMap((b) => (b.kind === "table" ? [b.table] : []));
  const stderr = format === "table" ? "" : p.blocks.map((b) => (b.kind === "text" ? visibleLines(b.elsewhere ?? "") : "")).join("");
  switch (format) {
    case "table":
      return {
        stdout: p.blocks
          .map((b) => (b.kind === "text" ? visibleLines(b.text) : b.inTableFormat === false ? "" : renderTable(b.table, "table")))
          .join(""),
        stderr,
      };
    case "csv":
      return { stdout: tables.length === 1 ? renderTable(tables[0], "csv") : tables.length === 0 ? "" : mergedCsv(tables), stderr };
    case "markdown": {
      const captioned = captionedTables(p);
      const one = (t: PrintTable) => renderTableAlone(t, "markdown");
      return { stdout: captioned.length === 1 ? one(captioned[0]) : captioned.map((t) => `### ${t.id}\n\n${one(t)}`).join("\n"), stderr };
    }
    case "latex":
      return {
        stdout: captionedTables(p)
          .map((t) => renderTable(t, "latex"))
          .join("\n"),
        stderr,
      };
  }
}

/** Deterministic JSON for files and stdout: two-space indent and a final newline; NaN and infinities become null. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Rows as one table in one format: the shortcut for a command that prints a single table. */
export function renderRows<R>(
  rows: readonly R[],
  columns: readonly Column<R>[],
  format: Exclude<OutputFormat, "json"> | "tsv" | "json",
): string {
  return renderTable(tableOf("", rows, columns), format === "json" ? "table" : format);
}
