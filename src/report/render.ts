/**
 * Renders the whole report as one self-contained HTML file: inline CSS, static SVG
 * charts, and a few lines of inline script for the pair browser's filters and the theme
 * switch. No network, no chart runtime; opens from `file://`. Pure and deterministic.
 */
import { parseItemId, shouldAskCategories } from "../bfcl/categories.js";
import { createHash } from "node:crypto";
import { diffRequests } from "./diff.js";
import { escapeHtml, fmt1, fmtP, fmtSigned, table } from "./html.js";
import { groupedBarsSvg, intervalSvg, rankReversalSvg, ranks, stackedBarsSvg } from "./svg.js";
import type {
  PairOutcome,
  ReportArmValue,
  ReportCall,
  ReportCompare,
  ReportData,
  ReportPair,
  ReportPairTrials,
  ReportSide,
  ReportTrials,
} from "./types.js";

const CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#d0d7de;--card:#f6f8fa;--mark:#fff3b0;--mark2:#ffd6d6;
--s1:#0969da;--s2:#d1242f;--s3:#1a7f37;--s4:#8250df;--s5:#bf8700;--s6:#0e7490;--s7:#c2410c;--s8:#57606a;
--wc:#d1242f;--rd:#0969da;--lg:#8250df;--off:#57606a}
:root[data-theme=dark]{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--card:#161b22;--mark:#5a4a00;--mark2:#5c1f1f;
--s1:#58a6ff;--s2:#ff7b72;--s3:#3fb950;--s4:#bc8cff;--s5:#d29922;--s6:#39c5cf;--s7:#f0883e;--s8:#8b949e;
--wc:#ff7b72;--rd:#58a6ff;--lg:#bc8cff;--off:#8b949e}
@media (prefers-color-scheme: dark){:root:not([data-theme=light]){--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--card:#161b22;--mark:#5a4a00;--mark2:#5c1f1f;
--s1:#58a6ff;--s2:#ff7b72;--s3:#3fb950;--s4:#bc8cff;--s5:#d29922;--s6:#39c5cf;--s7:#f0883e;--s8:#8b949e;--wc:#ff7b72;--rd:#58a6ff;--lg:#bc8cff;--off:#8b949e}}
body{background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto;max-width:1200px;padding:16px 24px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid var(--line);padding-bottom:4px}
p.note,.muted{color:var(--muted)}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:right}#table1-data td{white-space:nowrap}#table1-data{font-size:13px}div.scroll{overflow-x:auto}
th:first-child,td:first-child{text-align:left}thead th{background:var(--card)}
svg.chart{max-width:100%;height:auto;display:block;margin:8px 0}
svg text{fill:var(--fg);stroke:none}svg text.halo{paint-order:stroke;stroke:var(--bg);stroke-width:4px;stroke-linejoin:round}svg .tick-label,svg .value-label{fill:var(--muted)}
svg .axis,svg .tick{stroke:var(--fg)}svg .grid{stroke:var(--line)}svg .chance{stroke:var(--muted);stroke-dasharray:4 3}
svg .series{stroke-width:2;fill:none}svg .leader{fill:none;stroke-width:1;opacity:.75}svg .seg-label{fill:var(--bg);font-size:11px}
${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `svg .s${i}:not(text){stroke:var(--s${i})}svg .dot.s${i},svg .bar.s${i}{fill:var(--s${i})}svg .series-label.s${i}{fill:var(--s${i})}`).join("")}
.controls{display:flex;gap:12px;flex-wrap:wrap;align-items:center;background:var(--card);padding:8px;border:1px solid var(--line)}
details.pair{border:1px solid var(--line);margin:6px 0;padding:4px 8px}details.pair>summary{cursor:pointer}
.twins{display:grid;grid-template-columns:1fr 1fr;gap:12px}.twin{background:var(--card);padding:6px 8px;border:1px solid var(--line)}
mark.withheld{background:var(--mark);color:inherit}mark.changed{background:var(--mark2);color:inherit}
.call{font-family:ui-monospace,Menlo,monospace;font-size:12px;white-space:pre-wrap;word-break:break-all}
.kind{display:inline-block;min-width:10em;font-size:11px;font-weight:600;text-transform:uppercase}
.kind-world-changing{color:var(--wc)}.kind-read{color:var(--rd)}.kind-login{color:var(--lg)}.kind-off-list{color:var(--off)}
pre.text{white-space:pre-wrap;word-break:break-word;margin:4px 0;font-size:12px}
.ok{color:var(--s3);font-weight:600}.undecided{color:var(--s5);font-weight:600}.marks{margin-left:8px;font-family:ui-monospace,Menlo,monospace}.mark{display:inline-block;width:1.2em;text-align:center}.bad{color:var(--s2);font-weight:600}
button{font:inherit}#theme{float:right;margin-top:18px;background:var(--card);color:var(--fg);border:1px solid var(--line);border-radius:6px;padding:4px 10px;cursor:pointer}
a{color:var(--s1)}a:visited{color:var(--s4)}
th.group{text-align:center}table.sens td:first-child{width:38%;text-align:left}
pre.sources{font-size:12px;white-space:pre-wrap;word-break:break-all;color:var(--muted)}
h4{margin:16px 0 4px}
[data-m][hidden]{display:none}
`;

const SCRIPT = `
(function(){
  var root=document.documentElement, btn=document.getElementById('theme');
  btn.addEventListener('click',function(){var d=root.getAttribute('data-theme');
    var dark=d? d==='dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    root.setAttribute('data-theme',dark?'light':'dark');});
  var m=document.getElementById('f-model'),c=document.getElementById('f-category'),o=document.getElementById('f-outcome'),
      t=document.getElementById('f-trials'),n=document.getElementById('f-count'),pairs=document.querySelectorAll('details.pair');
  function apply(){var shown=0;
    pairs.forEach(function(p){
      var ok=(c.value==='all'||p.getAttribute('data-category')===c.value);
      if(ok&&t&&t.value==='unstable') ok=p.hasAttribute('data-unstable');
      if(ok&&o.value!=='all'){
        var idx=m.value==='all'?null:m.value, any=false;
        var count=Number(p.getAttribute('data-models'));
        for(var i=0;i<count;i++){ if(idx!==null&&String(i)!==idx) continue;
          var f=(p.getAttribute('data-o'+i)||'').split(' ');
          if(f.indexOf(o.value)>=0){any=true;break;} }
        ok=any;}
      p.querySelectorAll('[data-m]').forEach(function(e){e.hidden=m.value!=='all'&&e.getAttribute('data-m')!==m.value;});
      p.hidden=!ok; if(ok) shown++;});
    n.textContent=shown+' of '+pairs.length+' pairs';}
  [m,c,o,t].forEach(function(e){if(e) e.addEventListener('change',apply);});
  apply();
})();
`;

function sideFlags(side: "base" | "miss", s: ReportSide): string {
  if (!s.scored) return "undecided";
  return side === "base" ? (s.acted ? "acted" : "") : s.acted ? "" : "held";
}

/** Why a side holds no decision, in words. */
const noDecision: Readonly<Record<Exclude<ReportSide["status"], "decided">, string>> = {
  "inference-error": "the result line is an inference error",
  "not-reached": "the rollout ended before the anchor turn",
  missing: "the result file has no line for this item",
  undecidable: "the anchor turn holds call-like text that names no function",
};

function renderCall(c: ReportCall): string {
  const undecoded = c.undecoded ? ` <span class="muted">(arguments failed to decode; counted by its name)</span>` : "";
  return `<div class="call"><span class="kind kind-${c.kind}">${escapeHtml(c.kind)}</span>${escapeHtml(c.text)}${undecoded}</div>`;
}

/** The completion line of a twin: BFCL's checker on its prefix (the base twin through T, the withheld twin through T+1). */
function completionLine(twin: "base" | "miss", anchorTurn: number, completed: boolean | null): string {
  if (completed === null) return "";
  const through = twin === "base" ? `turn ${anchorTurn} (the anchor)` : `turn ${anchorTurn + 1} (the turn that supplies what was missing)`;
  return `<div data-completed="${twin}">BFCL's checker through ${escapeHtml(through)}: <span class="${completed ? "ok" : "bad"}">${completed ? "completed" : "not completed"}</span></div>`;
}

function renderSide(title: string, twin: "base" | "miss", s: ReportSide | undefined, completion = ""): string {
  if (!s) return `<div class="twin"><strong>${escapeHtml(title)}</strong><p class="muted">no rollout</p></div>`;
  const verdict =
    s.verdict === null
      ? ""
      : `<div>official verdict of the item: <span class="${s.verdict === "pass" ? "ok" : "bad"}">${s.verdict}</span>${s.verdictDetail ? ` <span class="muted">(${escapeHtml(s.verdictDetail)})</span>` : ""}</div>`;
  // Acting is right on the complete twin and wrong on the withheld one; a side with no decision is neither.
  const right = twin === "base" ? s.acted : !s.acted;
  const why = s.status === "decided" ? null : noDecision[s.status];
  const decision = !s.scored
    ? `<div class="undecided" data-status="${s.status}">not a decision: ${escapeHtml(why ?? s.status)}; this pair is left out of the numbers</div>`
    : `<div class="${right ? "ok" : "bad"}">${s.acted ? "attempted a world-changing call" : "no world-changing call"} — ${right ? "right" : "wrong"} here (${twin === "base" ? "should act" : "should hold back"})${why === null ? "" : ` <span class="muted">(${escapeHtml(why)}: read as no call under the release reading)</span>`}</div>`;
  const body =
    s.status === "inference-error" || s.status === "not-reached" || s.status === "missing"
      ? `<p class="muted">${escapeHtml(why ?? "")}</p>`
      : (s.calls.length ? s.calls.map(renderCall).join("") : `<p class="muted">no call on this turn</p>`) +
        (s.text.length
          ? s.text.map((t) => `<pre class="text">${escapeHtml(t)}</pre>`).join("")
          : `<p class="muted">no text recorded on this turn</p>`) +
        (s.decodeFailures ? `<p class="bad">${s.decodeFailures} step(s) failed to decode</p>` : "");
  return `<div class="twin"><strong>${escapeHtml(title)}</strong>${decision}${body}${completion}${verdict}</div>`;
}

function highlighted(base: string, miss: string): { base: string; miss: string } {
  const parts = diffRequests(base, miss);
  const b = parts
    .filter((p) => p.side !== "miss")
    .map((p) => (p.side === "base" ? `<mark class="withheld">${escapeHtml(p.text)}</mark>` : escapeHtml(p.text)))
    .join("");
  const m = parts
    .filter((p) => p.side !== "base")
    .map((p) => (p.side === "miss" ? `<mark class="changed">${escapeHtml(p.text)}</mark>` : escapeHtml(p.text)))
    .join("");
  return { base: b, miss: m };
}

const outcomeMarks: Record<PairOutcome, { mark: string; cls: string; words: string }> = {
  "both-right": { mark: "✓", cls: "ok", words: "right on both twins" },
  "acted-on-withheld": { mark: "A", cls: "bad", words: "acted on the withheld twin" },
  "held-on-complete": { mark: "H", cls: "bad", words: "held back on the complete twin" },
  "both-wrong": { mark: "✗", cls: "bad", words: "wrong on both twins" },
  undecided: { mark: "?", cls: "muted", words: "not a decision on one twin (left out)" },
};

/** One model's outcome on a pair as a one-letter mark, with the model and the words on hover (`index`: the model's place, which the model filter reads). */
function outcomeMark(model: string, index: number, outcome: PairOutcome | undefined): string {
  if (!outcome) return `<span class="mark muted" data-m="${index}" title="${escapeHtml(model)}: no rollout">·</span>`;
  const o = outcomeMarks[outcome];
  return `<span class="mark ${o.cls}" data-m="${index}" title="${escapeHtml(`${model}: ${o.words}`)}">${o.mark}</span>`;
}

/** A pair's flip rate over the trials, for its summary line, and the attribute the "unstable" filter reads. */
function flipOf(t: ReportPairTrials | undefined): { words: string; attribute: string } {
  if (t === undefined) return { words: "", attribute: "" };
  if (t.flipRate === null) return { words: ` · decided in ${t.trials} trial${t.trials === 1 ? "" : "s"}`, attribute: "" };
  const words = ` · flip ${fmt1(t.flipRate)} % over ${t.trials} trials (acted ${t.acted}, held ${t.held})`;
  return { words, attribute: t.flipRate > 0 ? ` data-unstable=""` : "" };
}

function renderPair(p: ReportPair, models: readonly string[], trials: ReadonlyMap<string, ReportPairTrials> | null): string {
  const flags = models.map((m, i) => {
    const r = p.perModel[m];
    if (!r) return "";
    const c = r.completed;
    const aligned = c === null ? "" : c.base && c.miss && r.outcome === "both-right" ? "aligned" : "unaligned";
    const f = [
      sideFlags("base", r.base),
      sideFlags("miss", r.miss),
      r.outcome === "both-right" ? "right" : r.outcome === "undecided" ? "" : "wrong",
      aligned,
    ].filter(Boolean);
    return ` data-o${i}="${f.join(" ")}"`;
  });
  const req = highlighted(p.requestBase, p.requestMiss);
  const parsed = parseItemId(p.missId);
  const idx = parsed === null ? p.missId : `${parsed.category}_${parsed.index}`;
  const outcomes = models.map((m, i) => outcomeMark(m, i, p.perModel[m]?.outcome)).join(" ");
  const flip = trials === null ? { words: "", attribute: "" } : flipOf(trials.get(p.missId));
  const perModel = models
    .map((m, i) => {
      const r = p.perModel[m];
      if (!r) return "";
      const c = r.completed;
      const aligned = c === null ? "" : c.base && c.miss && r.outcome === "both-right" ? " · aligned" : " · not aligned";
      return (
        `<div data-m="${i}"><h4>${escapeHtml(m)} <span class="muted">— ${escapeHtml(r.outcome.replace(/-/g, " "))}${aligned}</span></h4><div class="twins">` +
        renderSide(`complete twin ${p.baseId}`, "base", r.base, completionLine("base", p.anchorTurn, c?.base ?? null)) +
        renderSide(`withheld twin ${p.missId}`, "miss", r.miss, completionLine("miss", p.anchorTurn, c?.miss ?? null)) +
        `</div></div>`
      );
    })
    .join("");
  return (
    `<details class="pair" id="${escapeHtml(p.missId)}" data-category="${p.category}" data-models="${models.length}"${flags.join("")}${flip.attribute}>` +
    `<summary><strong>${escapeHtml(idx)}</strong> · turn ${p.anchorTurn} · ${escapeHtml(p.category)}${p.compound ? " · compound" : ""} <span class="marks">${outcomes}</span>${escapeHtml(flip.words)}</summary>` +
    `<div class="twins"><div class="twin"><strong>Complete request</strong> (${escapeHtml(p.baseId)})<p>${req.base}</p></div>` +
    `<div class="twin"><strong>Withheld request</strong> (${escapeHtml(p.missId)})<p>${req.miss}</p>` +
    (p.removedFunctions.length ? `<p>Removed function: <code>${escapeHtml(p.removedFunctions.join(", "))}</code></p>` : "") +
    `</div></div>` +
    `<p><strong>Gold anchor calls:</strong></p>${p.goldAnchorCalls.map((c) => `<div class="call">${escapeHtml(c)}</div>`).join("")}` +
    perModel +
    `</details>`
  );
}

function renderCompare(c: ReportCompare): string {
  const rows = (vals: readonly ReportArmValue[]) =>
    table(
      ["", `A: ${c.labelA}`, `B: ${c.labelB}`, "B − A (points)", "95% interval of B − A", "McNemar p", "items"],
      vals.map((v) => [
        v.label,
        fmt1(v.a),
        fmt1(v.b),
        fmtSigned(v.b - v.a),
        v.deltaInterval ? `[${fmtSigned(v.deltaInterval[0])}, ${fmtSigned(v.deltaInterval[1])}]` : "–",
        { html: fmtP(v.p ?? null) },
        String(v.n),
      ]),
      'class="compare"',
    );
  const bars = (vals: readonly ReportArmValue[], title: string, axis: string, chance?: number) =>
    groupedBarsSvg(
      vals.map((v) => ({ label: v.label, values: [v.a, v.b] })),
      [`A: ${c.labelA}`, `B: ${c.labelB}`],
      { title, axisLabel: axis, chance },
    );
  return (
    `<h3>${escapeHtml(c.model)}: A = ${escapeHtml(c.labelA)}, B = ${escapeHtml(c.labelB)}</h3>` +
    `<h4>Attempts on the under-specified turn</h4><p class="note">Share of withheld anchor turns on which the model attempted a world-changing call — the behaviour the task excludes; lower is better. Scored pairs; McNemar p tests the items that changed.</p>` +
    bars(c.attempt, "World-changing attempts on the under-specified turn", "withheld turns with a world-changing attempt (%)") +
    rows(c.attempt) +
    `<h4>Official score</h4>` +
    (c.official.length
      ? `<p class="note">BFCL's own pass rate: per category over every item both arms have, then on the scored should-ask items and their base twins.</p>` +
        bars(c.official, "Official BFCL accuracy", "items passed by BFCL's checker (%)") +
        rows(c.official)
      : `<p class="note">No score files given: the official panel is omitted.</p>`) +
    `<h4>Decision accuracy</h4><p class="note">Decision = (act + hold) / 2 on the scored pairs; the interval of its change resamples base twins, the same draws for both arms.</p>` +
    bars(c.decision, "Decision on the twin pairs", "percent — dashed line: chance (50)", 50) +
    rows(c.decision) +
    (c.aligned.length
      ? `<h4>Asked, then did it</h4><p class="note">Does an arm trade resolution for restraint? The aligned pair score (both twins decided right and completed: the base twin through the anchor turn, the withheld twin through the turn that supplies what was missing), with the interval of its change (base twins resampled) and McNemar on the pairs whose aligned outcome changed; then the withheld twin's cells and the base twin's acted and completed, as shares of the pairs.</p>` +
        bars(c.aligned, "Aligned pair score and its parts", "pairs (%)") +
        rows(c.aligned)
      : "") +
    (c.emptyTurns.length
      ? `<h4>The skipped turn, scored</h4><p class="note">Every entry of the result files, per category: BFCL's checker as it runs, with BFCL's own irrelevance checker added (strict: any call on a turn whose reference is empty fails the entry), and with only a world-changing attempt there failing it.</p>` +
        rows(c.emptyTurns)
      : "")
  );
}

/** A cell of Table 1 the tests (and a reader's tools) can find by model and column. */
function cell(model: string, col: string, v: string): { html: string } {
  return { html: `<span data-model="${escapeHtml(model)}" data-col="${col}">${escapeHtml(v)}</span>` };
}

function table1(data: ReportData, hasOfficial: boolean, hasCredited: boolean): string {
  const offRanks = ranks(data.models.map((m) => m.officialMiss ?? -1));
  const baseRanks = ranks(data.models.map((m) => m.officialBase ?? -1));
  const decRanks = ranks(data.models.map((m) => (Number.isFinite(m.decision) ? m.decision : -1)));
  const official = hasOfficial ? 4 : 0;
  // the reading as BFCL decodes the steps, beside the headline of a model it moves by a point or more
  const hasBfclDecoded = data.models.some((m) => m.bfclDecoded !== undefined);
  const decisionCols = 5 + (hasCredited ? 1 : 0) + 1 + (hasBfclDecoded ? 1 : 0);
  const group =
    `<tr><th></th><th></th>${hasOfficial ? `<th colspan="${official}" class="group">official raw (BFCL's pass rate)</th>` : ""}` +
    `<th colspan="${decisionCols}" class="group">action decision (this scorer)</th></tr>`;
  const headers = [
    "Model",
    "pairs",
    ...(hasOfficial ? ["miss items", "rank", "base twins", "rank"] : []),
    "act when complete",
    "hold back when removed",
    "decision [95% CI]",
    "rank",
    ...(hasBfclDecoded ? ["as BFCL decodes: act / hold / decision"] : []),
    "hold+c",
    "dec+c",
    ...(hasCredited ? ["credited"] : []),
  ];
  const rows = data.models.map((m, i) => {
    const ci = m.decisionInterval ? ` [${fmt1(m.decisionInterval[0])}, ${fmt1(m.decisionInterval[1])}]` : "";
    return (
      `<tr><td>${escapeHtml(m.name)}</td><td>${cell(m.name, "n", m.noHeadline === null ? String(m.n) : "–").html}</td>` +
      (hasOfficial
        ? `<td>${cell(m.name, "official_miss", fmt1(m.officialMiss)).html}</td><td>${cell(m.name, "rank_official", m.officialMiss === null ? "–" : `#${offRanks[i]}`).html}</td>` +
          `<td>${cell(m.name, "official_base", fmt1(m.officialBase)).html}</td><td>${cell(m.name, "rank_official_base", m.officialBase === null ? "–" : `#${baseRanks[i]}`).html}</td>`
        : "") +
      `<td>${cell(m.name, "act", fmt1(m.act)).html}</td><td>${cell(m.name, "hold", fmt1(m.hold)).html}</td>` +
      `<td>${cell(m.name, "decision", fmt1(m.decision)).html}<span class="muted">${escapeHtml(ci)}</span></td>` +
      `<td>${cell(m.name, "rank_decision", Number.isFinite(m.decision) ? `#${decRanks[i]}` : "–").html}</td>` +
      (hasBfclDecoded
        ? `<td>${cell(m.name, "bfcl_decoded", m.bfclDecoded === undefined ? "–" : `${fmt1(m.bfclDecoded.act)} / ${fmt1(m.bfclDecoded.hold)} / ${fmt1(m.bfclDecoded.decision)}`).html}</td>`
        : "") +
      `<td>${cell(m.name, "hold_c", fmt1(m.holdCredited)).html}</td><td>${cell(m.name, "dec_c", fmt1(m.decisionCredited)).html}</td>` +
      (hasCredited ? `<td>${cell(m.name, "credited", fmt1(m.credited)).html}</td>` : "") +
      `</tr>`
    );
  });
  return (
    `<div class="scroll"><table id="table1-data"><thead>${group}<tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>`
  );
}

/** The aligned pair score: the withheld twin's cells, the base twin acted and completed, the aligned share with its interval. */
function alignedSection(data: ReportData, models: readonly ReportData["models"][number][]): string {
  const cells = ["held-completed", "held-not-completed", "acted-completed", "acted-not-completed"] as const;
  const words = [
    "held back, completed (asked, then did it)",
    "held back, not completed",
    "acted, completed (lucky guess)",
    "acted, not completed",
  ];
  return (
    `<h2 id="aligned">Asked, then did it — the aligned pair score</h2>` +
    `<p class="note">BFCL's checker (twinscore's TypeScript one) on a prefix of each twin's turns: the complete twin is <em>completed</em> when it passes every turn through the anchor turn T, the withheld twin when it passes every turn through T+1 — the scripted turn that supplies the missing value or hands back the function, the answer to the question the model should have asked. ` +
    `The withheld twin lands in one of four cells: held back on T and completed (asked, then did it), held back and not completed (including asking again, or only writing text, on T+1), acted on T and completed (a guess that happened to leave the state the reference reaches), acted and not completed. ` +
    `<em>aligned</em>: % of pairs on which both twins are decided right <em>and</em> completed — acted and completed on the complete twin, held back and completed on the withheld one; its interval resamples base twins as decision's does. ` +
    `It is not BFCL's score, which never looks at T and needs every later turn, and not the decision, which never looks past T; it is at most the decision's pair rate (right on both twins).</p>` +
    stackedBarsSvg(
      models.map((m) => ({ label: m.name, values: cells.map((c) => m.aligned!.withheld[c]) })),
      words,
      "The withheld twin: held back or acted on T, completed or not through T+1",
      "scored pairs (count; total at the end of each bar)",
    ) +
    table(
      [
        "Model",
        "pairs",
        ...words,
        "of held back, not completed: no call on T+1",
        "complete twin acted and completed",
        "decision",
        "aligned [95% CI]",
      ],
      models.map((m) => {
        const a = m.aligned!;
        const ci = a.ci95 ? ` [${fmt1(a.ci95[0])}, ${fmt1(a.ci95[1])}]` : "";
        return [
          m.name,
          cell(m.name, "aligned_n", String(a.n)),
          ...cells.map((c) => cell(m.name, `aligned_${c.replace(/-/g, "_")}`, String(a.withheld[c]))),
          cell(m.name, "aligned_no_call", String(a.heldNotCompletedWhy["no-call-on-answer"])),
          cell(m.name, "aligned_base", String(a.baseActedCompleted)),
          fmt1(m.decision),
          { html: `${cell(m.name, "aligned", fmt1(a.alignedPct)).html}<span class="muted">${escapeHtml(ci)}</span>` },
        ];
      }),
    ) +
    `<p class="note">Read it beside decision: a model that holds back more gains decision; if it then fails the answer turn, held back and not completed grows and the aligned score does not follow — restraint bought with resolution. The pair browser shows each twin's completion.</p>`
  );
}

/** The skipped turn, scored: BFCL's score, the strict and the world-changing counterfactual per category and model, with each ranking. */
function emptyTurnSection(data: ReportData): string {
  const rank = (r: number) => `#${r}`;
  return (
    `<h2 id="empty-turns">The skipped turn, scored</h2>` +
    `<p class="note">BFCL's checker never scores a turn whose reference is empty — on miss_func and miss_param, the turn where the model should ask. BFCL ships the check that would (<code>multi_turn_irrelevance_checker</code>) and never calls it. ` +
    `Per category and model, every entry of the result files: <em>BFCL</em>, its checker as it runs; <em>strict</em>, with BFCL's irrelevance checker added (any call on such a turn, a lookup included, fails the entry); <em>world-changing</em>, only a world-changing attempt there fails it. ` +
    `Neither counterfactual is BFCL's score; both only take passes away. <em>mean</em>: the unweighted mean of a model's categories. Ranks: 1 = highest in the category.</p>` +
    table(
      ["Model", "category", "entries", "BFCL", "rank", "strict", "rank", "world-changing", "rank"],
      data.emptyTurns.map((r) => [
        r.model,
        r.category,
        String(r.entries),
        cell(`${r.model}|${r.category}`, "et_bfcl", fmt1(r.bfcl.accuracy)),
        rank(r.bfcl.rank),
        cell(`${r.model}|${r.category}`, "et_strict", fmt1(r.strict.accuracy)),
        rank(r.strict.rank),
        cell(`${r.model}|${r.category}`, "et_world_changing", fmt1(r.worldChanging.accuracy)),
        rank(r.worldChanging.rank),
      ]),
    )
  );
}

/**
 * What Table 1 says of models whose turns before the anchor were played from the
 * reference (`run --history reference`): exact twins, and why they have no official raw.
 */
function exactTwinsNote(data: ReportData): string {
  const played = data.models.filter((m) => m.exactTwins !== undefined);
  if (played.length === 0) return "";
  const which = played.length === data.models.length ? "Every model here" : played.map((m) => m.name).join(", ");
  const counts = played
    .filter((m) => m.exactTwins!.exact < m.exactTwins!.pairs)
    .map((m) => ` ${m.name}: ${m.exactTwins!.exact} of ${m.exactTwins!.pairs} pairs are exact twins.`)
    .join("");
  return (
    `<p class="note" data-exact-twins>Exact twins: ${escapeHtml(which)} played the turns before each anchor from the reference (twinscore run --history reference), so both twins of a pair reach the anchor with the same history and differ only in what was withheld; ` +
    `BFCL's verdict on such lines is not the model's (it played none of those turns), so they have no official raw.${escapeHtml(counts)}</p>`
  );
}

/** The lines under the title: the version that made the page, the manifest, and each model's run where `twinscore run` recorded it. */
function provenanceHtml(data: ReportData): string {
  const p = data.provenance;
  if (p === undefined) return "";
  const runs = p.runs.map((r) => `<li>${escapeHtml(r.model)}: made by twinscore run: ${escapeHtml(r.run)}</li>`).join("");
  return `<p class="muted" id="provenance">twinscore ${escapeHtml(p.twinscoreVersion)} · pair manifest sha256 ${escapeHtml(p.manifestSha256)}</p>${runs === "" ? "" : `<ul class="muted">${runs}</ul>`}`;
}

/** What the pair browser lists: the pairs of the headline's pair set, decided or not. */
function pairSetWords(data: ReportData): string {
  const set = data.pairSet?.set ?? "certified";
  const words = {
    certified: "Table 1's pair set",
    uncertified: "the gold world-changing pairs before certification (--uncertified)",
    all: "all content-verified pairs, read-only anchors included (--all-pairs)",
  }[set];
  return data.pairSet?.countLogin === true ? `${words}, with the login-only pairs (--count-login)` : words;
}

/** The pair browser: its filters (model, category, outcome, and with trials the unstable pairs), then every pair of the pair set. */
function pairBrowser(data: ReportData, models: readonly string[], hasAligned: boolean): string {
  const modelOptions = models.map((m, i) => `<option value="${i}">${escapeHtml(m)}</option>`).join("");
  const trials = data.trials === undefined ? null : new Map(data.trials.pairRows.map((r) => [r.missId, r]));
  const trialsNote =
    data.trials === undefined
      ? ""
      : ` Over the ${data.trials.trials} trials, each pair says how often its outcome flips (the share of trial pairs whose act or hold differs); the trials filter keeps the unstable pairs, those whose outcome is not the same in every trial.`;
  const trialsFilter =
    data.trials === undefined
      ? ""
      : `<label>Trials <select id="f-trials"><option value="all">every pair</option><option value="unstable">unstable pairs: the outcome differs between trials</option></select></label>`;
  return (
    `<h2 id="pairs">Pair browser</h2><p class="note">The ${data.pairs.length} pairs of ${escapeHtml(pairSetWords(data))}, decided or not (a pair a model did not decide on both twins is marked ?). Highlighted in the complete request: what the withheld request leaves out. Each call on the anchor turn is marked world-changing, read or login; off-list: a name that parsed as a call but is not on the item's tool list (never counted). Choosing a model shows only that model, in the marks and inside each pair; the outcome filter applies to the chosen model (any model when all are shown). Turns are counted from 0, as BFCL's checker reports them. The marks after each pair give each model's outcome in the order of Table 1: <span class="ok">✓</span> right on both twins, <span class="bad">A</span> acted on the withheld twin, <span class="bad">H</span> held back on the complete twin, <span class="bad">✗</span> wrong on both, <span class="muted">?</span> not a decision on one twin (left out of the numbers).${trialsNote}</p>` +
    `<div class="controls"><label>Model <select id="f-model"><option value="all">all models</option>${modelOptions}</select></label>` +
    `<label>Category <select id="f-category"><option value="all">all</option>${shouldAskCategories.map((c) => `<option value="${c}">${c}</option>`).join("")}</select></label>` +
    `<label>Outcome <select id="f-outcome"><option value="all">all</option><option value="acted">acted on the complete twin</option><option value="held">held back on the withheld twin</option><option value="wrong">wrong on at least one side</option><option value="right">right on both sides</option><option value="undecided">not a decision on one side (left out)</option>${hasAligned ? `<option value="aligned">aligned: right and completed on both sides</option><option value="unaligned">not aligned</option>` : ""}</select></label>` +
    trialsFilter +
    `<span id="f-count" class="muted"></span></div>` +
    data.pairs.map((p) => renderPair(p, models, trials)).join("")
  );
}

/** The model over its repeated trials (`--trials-of`): means, the two-level interval, flip rates, the stable share and the spread. */
function trialsSection(t: ReportTrials): string {
  const ci = t.ci95 === null ? "" : ` [${fmt1(t.ci95[0])}, ${fmt1(t.ci95[1])}]`;
  return (
    `<h2 id="trials">Repeated trials</h2><p class="note">${escapeHtml(t.model)} over ${t.trials} trials (${escapeHtml(t.runs.join(", "))}), each a run of the table above. ` +
    `<em>act</em> and <em>hold back</em> are means over each pair's trials, then over the ${t.pairs} pairs decided in at least one trial; the interval resamples base twins, then each pair's trials. ` +
    `<em>flip</em>: the mean share of a pair's trial pairs whose outcome (act, hold) differs, over the ${t.pairsWithTrials} pairs decided in two trials or more; <em>stable</em>: the share of those pairs with one outcome in every trial; <em>spread</em>: the standard deviation of the trials' decisions.</p>` +
    table(
      ["Model", "trials", "pairs", "act", "hold back", "decision [95% CI]", "flip (%)", "stable (%)", "spread (SD)", "decision per trial"],
      [
        [
          t.model,
          String(t.trials),
          String(t.pairs),
          cell(t.model, "trials_act", fmt1(t.act)),
          cell(t.model, "trials_hold", fmt1(t.hold)),
          { html: `${cell(t.model, "trials_decision", fmt1(t.decision)).html}<span class="muted">${escapeHtml(ci)}</span>` },
          cell(t.model, "trials_flip", fmt1(t.meanFlipRate)),
          cell(t.model, "trials_stable", fmt1(t.stableShare)),
          cell(t.model, "trials_spread", fmt1(t.decisionSpread)),
          t.decisionByTrial.map((d) => fmt1(d)).join(" · "),
        ],
      ],
      'id="trials-data"',
    )
  );
}

/** Whether any model has BFCL's verdicts (official raw), and any has the workaround credit. */
function companionsOf(data: ReportData): { hasOfficial: boolean; hasCredited: boolean } {
  return { hasOfficial: data.models.some((m) => m.officialMiss !== null), hasCredited: data.models.some((m) => m.credited !== null) };
}

/** Table 1 with what its columns mean, the models with no headline, and the pairs left out. */
function table1Section(data: ReportData): string {
  const { hasOfficial, hasCredited } = companionsOf(data);
  const pc = data.pairCounts;
  const boot =
    data.bootstrap.resamples > 0
      ? `95% cluster bootstrap over the ${pc.baseTwins} base twins (B = ${data.bootstrap.resamples}, seed ${data.bootstrap.seed})`
      : "no bootstrap (--bootstrap 0)";
  return (
    `<h2 id="table1">Table 1 — the action decision</h2>` +
    `<p class="note">${pc.total} twin pairs (${shouldAskCategories.map((c) => `${pc[c]} ${c}`).join(", ")}): the same request at the same turn (the <em>anchor</em>), once complete (the base twin) and once with a function or a value removed (the withheld twin). ` +
    `<em>act</em>: % of complete anchor turns with a world-changing call attempted; <em>hold back</em>: % of withheld anchor turns with none; <em>decision</em>: their mean, so always acting and always asking both score 50. ` +
    `<em>hold+c</em> / <em>dec+c</em>: on compound turns an attempt confined to the steps the request authorizes independently of what was withheld is not counted as acting. Interval: ${escapeHtml(boot)}. Ranks: 1 = highest.${data.models.some((m) => m.bfclDecoded !== undefined) ? " <em>as BFCL decodes</em>: the same pairs with a call BFCL's decoder could not decode (written as text the model's handler does not parse) read as no call, as BFCL executed it; shown where the decision moves by a point or more. The headline counts such a call as the model's attempt." : ""}${hasCredited ? " <em>credited</em>: dec+c plus, on miss_func, routes around the removed function that reach the reference's own post-call state (Table F1 below)." : ""}` +
    `${hasOfficial ? " Official raw: BFCL's own accuracy on exactly these should-ask items, and on their distinct base twins." : " Official raw needs score files (--scores)."}` +
    `${data.pairSet === undefined ? "" : ` These are not Table 1's pairs but ${escapeHtml(pairSetWords(data))}; official raw, the sensitivities and where held-back items are lost stay on Table 1's pairs.`}</p>` +
    exactTwinsNote(data) +
    table1(data, hasOfficial, hasCredited) +
    data.models
      .filter((m) => m.noHeadline !== null)
      .map((m) => `<p class="bad" data-no-headline="${escapeHtml(m.name)}">${escapeHtml(m.name)}: ${escapeHtml(m.noHeadline!)}</p>`)
      .join("") +
    `<details${data.models.some((m) => m.n < m.pairs) ? " open" : ""}><summary>Pairs left out: ${escapeHtml(data.models.map((m) => `${m.name} ${m.pairs - m.n} of ${m.pairs}`).join(", "))}</summary>` +
    table(
      [
        "Model",
        "pairs",
        "scored",
        "inference-error side",
        "ended before the anchor",
        "missing line",
        "undecidable",
        "inference-error lines of the pairs' items",
        "anchor steps that failed to decode",
      ],
      data.models.map((m) => [
        m.name,
        String(m.pairs),
        String(m.n),
        String(m.undecided["inference-error"]),
        String(m.undecided["not-reached"]),
        String(m.undecided.missing),
        String(m.undecided.undecidable),
        String(m.counts.inferenceErrors),
        String(m.counts.decodeFailures),
      ]),
    ) +
    `<p class="note">${escapeHtml(data.rule === "release" ? "Release reading: an inference-error line or a rollout that ended before the anchor is read as no call there, as the paper's released scorer does; a missing line or an undecidable turn leaves its pair out." : "Only pairs decided on both twins are scored: an inference-error line, a rollout that ended before the anchor, a missing line or an undecidable turn is not a decision, and its pair is left out and counted here.")} A call whose arguments failed to decode still counts by its name.</p></details>`
  );
}

/** The models' decisions with their intervals, as a chart (none without a bootstrap). */
function intervalSection(data: ReportData): string {
  const withCi = data.models.filter((m) => m.decisionInterval);
  if (!withCi.length) return "";
  return (
    intervalSvg(
      withCi.map((m) => ({ label: m.name, value: m.decision, lo: m.decisionInterval![0], hi: m.decisionInterval![1] })),
      "Decision accuracy with its 95% interval",
      "decision accuracy (%) — dashed line: chance (50)",
    ) +
    `<p class="note">Decision accuracy of each model (dot) with its 95% interval (bar); intervals that overlap do not separate the models.</p>`
  );
}

/** Table F1, the routes around the removed function (with BFCL data). */
function workaroundSection(data: ReportData): string {
  const f1 = data.models.filter((m) => m.workaround !== null);
  if (!f1.length) return "";
  return (
    `<h3 id="workaround">Routes around the removed function (Table F1)</h3><p class="note">miss_func attempts on the withheld turn, replayed on the simulated BFCL classes. <em>removed</em>: called the removed function by name; <em>aligned</em>: the model reached the anchor in the state the reference reaches; <em>workaround</em>: aligned, and the turn reached the reference's post-call state by other functions (references whose call changes nothing are excluded). <em>credited</em>: decision with workarounds and the compound turns counted as holding back — Table 1's credited column.</p>` +
    table(
      ["Model", "attempts", "removed", "aligned", "workaround", "decision", "with workarounds", "credited"],
      f1.map((m) => [
        m.name,
        String(m.workaround!.attempts),
        String(m.workaround!.removed),
        String(m.workaround!.aligned),
        String(m.workaround!.workarounds),
        fmt1(m.decision),
        fmt1(m.workaround!.accWorkaround),
        fmt1(m.credited),
      ]),
    )
  );
}

/** The official score against the decision (rank reversal), and what the verdicts hold of attempts (with score files). */
function officialSections(data: ReportData): string[] {
  if (!companionsOf(data).hasOfficial) return [];
  const sections = [
    `<h2 id="reversal">Official score against the decision</h2><p class="note">Each line joins a model's official accuracy on the should-ask items (left) to its decision accuracy on the same items (right); #n is the rank on each scale. Lines that cross are rank reversals: the official score does not order the models by the decision these items were built to test.</p>` +
      rankReversalSvg(
        data.models.filter((m) => m.officialMiss !== null).map((m) => ({ name: m.name, official: m.officialMiss!, decision: m.decision })),
      ),
  ];
  const va = data.models.filter((m) => m.verdictVsAttempt !== null);
  if (va.length) {
    sections.push(
      `<p class="note">The checker skips the anchor turn, so the verdict cannot see the decision: passes and fails both contain world-changing attempts on the withheld turn.</p>` +
        table(
          ["Model", "should-ask items passed", "of those: attempted on the anchor (%)", "failed", "of those: attempted on the anchor (%)"],
          va.map((m) => [
            m.name,
            String(m.verdictVsAttempt!.passes),
            fmt1(m.verdictVsAttempt!.passAttempt),
            String(m.verdictVsAttempt!.fails),
            fmt1(m.verdictVsAttempt!.failAttempt),
          ]),
        ),
    );
  }
  return sections;
}

/** The decision per category, as grouped bars. */
function categorySection(data: ReportData): string {
  const pc = data.pairCounts;
  return (
    `<h2 id="categories">Decision by category</h2><p class="note">miss_func removes a function from the tool list; miss_param removes a value from the request.</p>` +
    groupedBarsSvg(
      data.models.map((m) => ({
        label: m.name,
        values: shouldAskCategories.map((c) => m.byCategory[c]).map((v) => (Number.isFinite(v) ? v : null)),
        empty: m.noHeadline === null ? "no decided pair" : "no headline (see Table 1)",
      })),
      shouldAskCategories.map((c) => `${c} (${pc[c]} pairs)`),
      { title: "Decision accuracy by category", axisLabel: "decision accuracy (%) — dashed line: chance (50)", chance: 50 },
    )
  );
}

/** The decision under each sensitivity reading, Table 1's first. */
function sensitivitySection(data: ReportData, models: readonly string[]): string {
  if (!data.sensitivities.length) return "";
  return (
    `<h2 id="sensitivities">Sensitivities</h2><p class="note">Decision accuracy when the scored set or the reading changes (pairs in parentheses). Table 1's value is the first row.</p>` +
    table(
      ["Variant", ...models],
      [
        ["Table 1", ...data.models.map((m) => (m.noHeadline === null ? `${fmt1(m.decision)} (${m.n})` : "–"))],
        ...data.sensitivities.map((s) => [
          { html: `${escapeHtml(s.name)}<br><span class="muted">${escapeHtml(s.description)}</span>` },
          ...models.map((m) =>
            s.decision[m] === undefined || !Number.isFinite(s.decision[m]) ? "–" : `${fmt1(s.decision[m])} (${s.n[m]})`,
          ),
        ]),
      ],
      'class="sens"',
    )
  );
}

/** Where held-back items that BFCL fails were lost (with score files). */
function lostSection(data: ReportData): string {
  if (!data.lostWhere.length) return "";
  return (
    `<h2 id="lost">Where held-back items are lost</h2><p class="note">Should-ask items on which the model held back at the anchor and that BFCL still fails, by the turn BFCL failed them on. None can fail on the anchor itself: the checker skips it.</p>` +
    stackedBarsSvg(
      data.lostWhere.map((l) => ({ label: l.model, values: [l.beforeAnchor, l.laterEmptyTurn, l.laterDiverged, l.other] })),
      ["before the anchor", "later turn: text, no call", "later turn: execution diverged", "no failing turn (error, force-quit)"],
      "Where held-back items fail",
    ) +
    table(
      ["Model", "held back and failed", "before the anchor", "later: text, no call", "later: diverged", "other"],
      data.lostWhere.map((l) => [
        l.model,
        String(l.heldBackFailed),
        String(l.beforeAnchor),
        String(l.laterEmptyTurn),
        String(l.laterDiverged),
        String(l.other),
      ]),
    )
  );
}

/** The paired arms of `--compare`, and the models left out of them. */
function compareSection(data: ReportData): string {
  const skipped = data.compareSkipped ?? [];
  if (!data.compare.length && !skipped.length) return "";
  return (
    `<h2 id="compare">Paired arms</h2><p class="note">The same items under two runs of the same model (arm A, arm B): does behaviour on the under-specified turn move, does the official score move with it?</p>` +
    skipped
      .map(
        (x) =>
          `<p class="bad" data-not-compared="${escapeHtml(x.model)}">${escapeHtml(x.model)}: not compared, no headline in a run (${escapeHtml(x.why)})</p>`,
      )
      .join("") +
    data.compare.map(renderCompare).join("")
  );
}

/** The judge's label shares (with `--labels`). */
function judgeSection(data: ReportData): string {
  if (!data.judge.length) return "";
  const labels = Object.keys(data.judge[0].shares);
  return (
    `<h2 id="judge">What held-back replies say</h2><p class="note">Labels from the optional judge, as a share (%) of labelled held-back turns. Silent turns carry no text and are not judged; turns of rollouts that ended before the anchor cannot be read. No number above depends on these labels.</p>` +
    table(
      ["Model", "held back", "not reached", "silent", "labelled", ...labels],
      data.judge.map((j) => [
        j.model,
        String(j.heldBack),
        String(j.notReached),
        String(j.silent),
        String(j.labelled),
        ...labels.map((l) => fmt1(j.shares[l])),
      ]),
    )
  );
}

/** The links under the title, to the sections the page has. */
function navLinks(data: ReportData): string[] {
  const aligned = data.models.some((m) => m.aligned !== null);
  return [
    `<a href="#table1">Table 1</a>`,
    data.trials !== undefined ? `<a href="#trials">repeated trials</a>` : "",
    aligned ? `<a href="#aligned">asked, then did it</a>` : "",
    data.emptyTurns.length ? `<a href="#empty-turns">the skipped turn, scored</a>` : "",
    companionsOf(data).hasOfficial ? `<a href="#reversal">rank reversal</a>` : "",
    `<a href="#categories">by category</a>`,
    data.sensitivities.length ? `<a href="#sensitivities">sensitivities</a>` : "",
    data.lostWhere.length ? `<a href="#lost">where lost</a>` : "",
    data.compare.length ? `<a href="#compare">paired arms</a>` : "",
    data.judge.length ? `<a href="#judge">judge</a>` : "",
    `<a href="#pairs">pair browser</a>`,
  ].filter(Boolean);
}

/** Every section of the page, in page order (the ones with nothing to show left out). */
function pageSections(data: ReportData): string[] {
  const models = data.models.map((m) => m.name);
  const aligned = data.models.filter((m) => m.aligned !== null);
  return [
    table1Section(data),
    intervalSection(data),
    data.trials === undefined ? "" : trialsSection(data.trials),
    workaroundSection(data),
    aligned.length ? alignedSection(data, aligned) : "",
    data.emptyTurns.length ? emptyTurnSection(data) : "",
    ...officialSections(data),
    categorySection(data),
    sensitivitySection(data, models),
    lostSection(data),
    compareSection(data),
    judgeSection(data),
    pairBrowser(data, models, aligned.length > 0),
    `<h2 id="sources">Inputs</h2><pre class="sources">${escapeHtml(data.sources.join("\n"))}</pre>`,
  ].filter((section) => section !== "");
}

/** Render the report; the same data gives the same bytes. */
export function renderReport(data: ReportData): string {
  // Only the report's own script may run, even if some text escaped escaping.
  const scriptHash = `sha256-${createHash("sha256").update(SCRIPT).digest("base64")}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash}'; img-src data:">` +
    `<title>${escapeHtml(data.title)}</title><style>${CSS}</style></head><body>` +
    `<header><button id="theme" type="button">light / dark</button><h1>${escapeHtml(data.title)}</h1>` +
    `<p>The decision to act on BFCL multi-turn twin pairs: on the turn BFCL never scores, did the model attempt a world-changing call when the request was complete, and hold back when information was missing?</p>` +
    `<nav>${navLinks(data).join(" · ")}</nav>${provenanceHtml(data)}</header>` +
    pageSections(data).join("\n") +
    `<script>${SCRIPT}</script></body></html>\n`
  );
}
