import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDecimal1 } from "../../decision/format.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const tmp = mkdtempSync(join(tmpdir(), "twinscore-report-aligned-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const [main, fixes] = rolloutRuns;

interface AlignedJson {
  model: string;
  aligned: number;
  alignedPct: number;
  withheld: Record<string, number>;
  baseActedCompleted: number;
}
interface EmptyTurnJson {
  model: string;
  category: string;
  strict: { accuracy: number };
  worldChanging: { accuracy: number };
  bfcl: { accuracy: number };
}

describe("report --bfcl-data on both gpt-oss runs with --compare: the aligned panel, the empty-turn table, the completions in the pair browser", () => {
  const out = join(tmp, "aligned.html");
  let html = "";
  let doc: { aligned: AlignedJson[]; emptyTurns: EmptyTurnJson[]; models: number };

  it("--format json carries the aligned rows and the empty-turn table, equal to `score --bfcl-data` on the same runs and bootstrap", async () => {
    const r = await run([
      "report",
      "--reading",
      "release",
      "--results",
      rolloutRunDir(main),
      "--scores",
      rolloutRunDir(main),
      "--results",
      rolloutRunDir(fixes),
      "--scores",
      rolloutRunDir(fixes),
      "--compare",
      main,
      fixes,
      "--bfcl-data",
      bfclDataDir(),
      "--bootstrap",
      "1000",
      "--out",
      out,
      "--format",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/checking 2025-11-12-harmony-fixes\/openai_gpt-oss-20b with BFCL's checker/);
    doc = JSON.parse(r.out);
    html = readFileSync(out, "utf8");
    const s = await run([
      "score",
      "--reading",
      "release",
      "--results",
      join(rolloutRunDir(main), ".."),
      "--bfcl-data",
      bfclDataDir(),
      "--bootstrap",
      "1000",
      "--format",
      "json",
    ]);
    const score = JSON.parse(s.out) as { aligned: { models: AlignedJson[] }; emptyTurns: EmptyTurnJson[] };
    const byName = (rows: readonly { model: string }[]) => [...rows].sort((a, b) => (a.model < b.model ? -1 : 1));
    expect(doc.aligned).toHaveLength(4);
    expect(byName(doc.aligned)).toEqual(byName(score.aligned.models));
    const key = (r: EmptyTurnJson) => `${r.model} ${r.category}`;
    expect(new Map(doc.emptyTurns.map((r) => [key(r), r]))).toEqual(new Map(score.emptyTurns.map((r) => [key(r), r])));
    expect(JSON.stringify({ a: doc.aligned, e: doc.emptyTurns })).not.toMatch(/"\d+(\.\d+)?"/);
  });

  it("the page: the aligned panel's cells and the empty-turn cells are the document's numbers", () => {
    expect(html).toContain('<h2 id="aligned">Asked, then did it');
    expect(html).toContain('<h2 id="empty-turns">The skipped turn, scored');
    const cell = (model: string, col: string) =>
      new RegExp(`data-model="${model.replace(/[/.|]/g, (c) => `\\${c}`)}" data-col="${col}">([^<]*)<`).exec(html)?.[1];
    for (const a of doc.aligned) {
      expect(cell(a.model, "aligned")).toBe(formatDecimal1(a.alignedPct));
      expect(cell(a.model, "aligned_held_completed")).toBe(String(a.withheld["held-completed"]));
      expect(cell(a.model, "aligned_base")).toBe(String(a.baseActedCompleted));
    }
    for (const e of doc.emptyTurns) {
      expect(cell(`${e.model}|${e.category}`, "et_strict")).toBe(formatDecimal1(e.strict.accuracy));
      expect(cell(`${e.model}|${e.category}`, "et_world_changing")).toBe(formatDecimal1(e.worldChanging.accuracy));
    }
  });

  it("the pair browser marks each model's pairs aligned or not, as many as the panel counts, and shows each twin's completion", () => {
    const order = [...html.matchAll(/<option value="(\d+)">([^<]+)<\/option>/g)].map((m) => m[2]);
    expect(order).toHaveLength(4);
    order.forEach((model, i) => {
      const flags = [...html.matchAll(new RegExp(`data-o${i}="([^"]*)"`, "g"))].map((m) => m[1].split(" "));
      expect(flags).toHaveLength(223);
      const aligned = doc.aligned.find((a) => a.model === model)!.aligned;
      expect(flags.filter((f) => f.includes("aligned")).length).toBe(aligned);
      expect(flags.filter((f) => f.includes("unaligned")).length).toBe(223 - aligned);
    });
    expect(html.match(/data-completed="base"/g)).toHaveLength(4 * 223);
    expect(html.match(/data-completed="miss"/g)).toHaveLength(4 * 223);
    expect(html).toContain('<option value="aligned">aligned: right and completed on both sides</option>');
    // the worked example of the README: both twins completed for main's gpt-oss-120b
    const pair = html.slice(
      html.indexOf('id="multi_turn_miss_func_111"'),
      html.indexOf("</details>", html.indexOf('id="multi_turn_miss_func_111"')),
    );
    expect(pair).toContain('2025-11-12-main/openai_gpt-oss-120b <span class="muted">— both right · aligned</span>');
  });

  it("the compare panels carry the change in aligned score with its interval and McNemar p, and the empty-turn readings", () => {
    const panels = html.split("<h3>").filter((s) => s.includes(": A = 2025-11-12-main, B = 2025-11-12-harmony-fixes"));
    expect(panels).toHaveLength(2);
    for (const p of panels) {
      const model = p.slice(0, p.indexOf(":"));
      const a = doc.aligned.find((x) => x.model === `${main}/${model}`)!;
      const b = doc.aligned.find((x) => x.model === `${fixes}/${model}`)!;
      const row = /<tr><td>aligned pair score<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>\[([^\]]*)\]<\/td>/.exec(p)!;
      expect(row.slice(1, 3)).toEqual([formatDecimal1(a.alignedPct), formatDecimal1(b.alignedPct)]);
      expect(p).toContain("<td>miss_func: strict</td>");
      expect(p).toContain("<td>miss_param: world-changing</td>");
    }
  });
});
