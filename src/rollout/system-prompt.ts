/**
 * The prompting-mode system prompt. BFCL's prompt texts are not shipped with twinscore: they are read at run
 * time from the user's installation or from a file the user gives (`--system-prompt`), and assembled in BFCL's
 * default format. More in this folder's README.md.
 */
import { PyDict, PyTuple } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonFloat, jsonQuote } from "../python/json.js";
import { evalLiteral } from "../python/literal-eval.js";
import { parseExpression } from "../python/parse.js";
import { intRepr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";
import { err, ok, problem, type Result } from "../messages/index.js";

/** The format BFCL uses for every multi-turn prompting entry. */
export const DEFAULT_PROMPT_FORMAT = {
  returnFormat: "python",
  functionDocFormat: "json",
  promptFormat: "plaintext",
  style: "classic",
} as const;

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)/;

/** Top-level `NAME = <literal>` constants of a Python module; statements that are not literals are skipped. */
export function moduleConstants(text: string): Map<string, PyValue> {
  const lines = text.split(/\r?\n/);
  const starts: { name: string; line: number; rhs: string }[] = [];
  lines.forEach((l, i) => {
    const m = ASSIGNMENT.exec(l);
    if (m) starts.push({ name: m[1], line: i, rhs: l.slice(m[0].length) });
  });
  const out = new Map<string, PyValue>();
  starts.forEach((s, k) => {
    const end = k + 1 < starts.length ? starts[k + 1].line : lines.length;
    // a statement ends at the next top-level line that is neither blank, a comment nor indented
    const body = [s.rhs];
    for (let i = s.line + 1; i < end; i++) {
      const l = lines[i];
      if (/^[^\s#)\]}"']/.test(l)) break;
      body.push(l);
    }
    const parsed = parseExpression(body.join("\n").trim());
    if (!parsed.ok) return;
    try {
      out.set(s.name, evalLiteral(parsed.expr));
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
    }
  });
  return out;
}

/** Python's `str.format` for named fields only (`{name}`, `{{`, `}}`); unknown fields fail. */
export function formatNamed(template: string, values: Readonly<Record<string, string>>): string {
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === "{" && template[i + 1] === "{") {
      out += "{";
      i++;
    } else if (c === "}" && template[i + 1] === "}") {
      out += "}";
      i++;
    } else if (c === "{") {
      const close = template.indexOf("}", i);
      const name = close < 0 ? "" : template.slice(i + 1, close);
      if (!(name in values)) throw new PyException("KeyError", `'${name}'`);
      out += values[name];
      i = close;
    } else out += c;
  }
  return out;
}

const MAX_DOC_DEPTH = 200;

/** `json.dumps(v, indent=4)` (ASCII escaping, `","` item separator, `": "` key separator). */
export function jsonDumpsIndent(v: PyValue, indent = 4, depth = 0): string {
  if (depth > MAX_DOC_DEPTH) throw new PyException("RecursionError", "maximum recursion depth exceeded while encoding a JSON object");
  const pad = " ".repeat(indent * (depth + 1));
  const close = " ".repeat(indent * depth);
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return intRepr(v);
  if (typeof v === "number") return jsonFloat(v);
  if (typeof v === "string") return jsonQuote(v);
  const items = Array.isArray(v) ? v : v instanceof PyTuple ? v.items : null;
  if (items)
    return items.length === 0 ? "[]" : `[\n${items.map((x) => pad + jsonDumpsIndent(x, indent, depth + 1)).join(",\n")}\n${close}]`;
  if (v instanceof PyDict) {
    const entries = v.entries();
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, x]) => `${pad}${jsonQuote(typeof k === "string" ? k : String(k))}: ${jsonDumpsIndent(x, indent, depth + 1)}`).join(",\n")}\n${close}}`;
  }
  throw new PyException("TypeError", "Object is not JSON serializable");
}

/** Builds the system prompt for an entry's docs. */
export type SystemPromptBuilder = (functions: readonly PyDict[]) => string;

/**
 * BFCL's default system prompt, from the text of its `default_prompts.py`. Reports the
 * constants it needs when the module lacks them (a BFCL version that moved them).
 */
export function systemPromptFromBfcl(moduleText: string, file: string): Result<SystemPromptBuilder> {
  const c = moduleConstants(moduleText);
  const template = c.get("_PLAINTEXT_SYSTEM_PROMPT_TEMPLATE");
  const styles = c.get("PROMPT_STYLE_TEMPLATES");
  const outputs = c.get("OUTPUT_FORMAT_MAPPING");
  const paramTypes = c.get("PARAM_TYPE_MAPPING");
  const style = styles instanceof PyDict ? styles.get(DEFAULT_PROMPT_FORMAT.style) : undefined;
  const text = (d: PyValue | undefined, k: string): string | null =>
    d instanceof PyDict && typeof d.get(k) === "string" ? (d.get(k) as string) : null;
  const pieces = {
    persona: text(style, "persona"),
    task: text(style, "task"),
    toolCall: text(style, "tool_call_no_tag"),
    multiturn: text(style, "multiturn_behavior"),
    tools: text(style, "available_tools"),
    output: text(outputs, DEFAULT_PROMPT_FORMAT.returnFormat),
    params: text(paramTypes, DEFAULT_PROMPT_FORMAT.returnFormat),
  };
  const missing = Object.entries(pieces)
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  if (typeof template !== "string" || missing.length > 0) {
    return err(
      problem(
        "bfcl-prompts-unreadable",
        `cannot find BFCL's default system prompt pieces${missing.length ? ` (${missing.join(", ")})` : " (_PLAINTEXT_SYSTEM_PROMPT_TEMPLATE)"}`,
        { file },
      ),
    );
  }
  const p = pieces as Record<keyof typeof pieces, string>;
  const toolCallFormat = formatNamed(p.toolCall, { output_format: p.output, param_types: p.params });
  return ok((functions) =>
    formatNamed(template, {
      persona: p.persona,
      task: p.task,
      tool_call_format: toolCallFormat,
      multiturn_behavior: p.multiturn,
      available_tools: formatNamed(p.tools, {
        format: DEFAULT_PROMPT_FORMAT.functionDocFormat,
        functions: jsonDumpsIndent([...functions]),
      }),
    }),
  );
}

/** A user's own system prompt file: its text, with `{functions}` replaced by the docs as `json.dumps(indent=4)`. */
export function systemPromptFromFile(text: string): SystemPromptBuilder {
  return (functions) => text.split("{functions}").join(jsonDumpsIndent([...functions]));
}
