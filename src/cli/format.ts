/**
 * One renderer for every tabular output, so `--format table|json|csv|markdown` means the
 * same thing in every command. JSON output is produced by the command itself (it carries
 * more than the table); this module renders the rows.
 */

/** The output formats every command accepts. */
export const outputFormats = ["table", "json", "csv", "markdown"] as const;
export type OutputFormat = (typeof outputFormats)[number];

/** A column: its header and how to read a cell from a row. */
export interface Column<R> {
  header: string;
  value: (row: R) => string | number | null | undefined;
  /** Right-align numbers in the terminal table. */
  align?: "left" | "right";
}

function cellText(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "";
  return typeof v === "number" ? String(v) : v;
}

function csvCell(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Render rows as a terminal table, CSV, TSV or Markdown (JSON is the caller's). */
export function renderRows<R>(rows: readonly R[], columns: readonly Column<R>[], format: OutputFormat | "tsv"): string {
  const cells = rows.map((r) => columns.map((c) => cellText(c.value(r))));
  const headers = columns.map((c) => c.header);
  switch (format) {
    case "csv":
      return [headers, ...cells].map((line) => line.map(csvCell).join(",")).join("\n") + "\n";
    case "tsv":
      return [headers, ...cells].map((line) => line.map((s) => s.replace(/[\t\n]/g, " ")).join("\t")).join("\n") + "\n";
    case "markdown": {
      const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
      const head = `| ${headers.map(esc).join(" | ")} |`;
      const rule = `| ${columns.map((c) => (c.align === "right" ? "---:" : "---")).join(" | ")} |`;
      return [head, rule, ...cells.map((line) => `| ${line.map(esc).join(" | ")} |`)].join("\n") + "\n";
    }
    case "table":
    case "json": {
      const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((line) => line[i].length)));
      const pad = (s: string, i: number) => (columns[i].align === "right" ? s.padStart(widths[i]) : s.padEnd(widths[i]));
      const lines = [headers.map(pad).join("  "), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map((line) => line.map(pad).join("  "))];
      return lines.map((l) => l.trimEnd()).join("\n") + "\n";
    }
  }
}

/** Deterministic JSON for files and stdout: two-space indent and a final newline. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}
