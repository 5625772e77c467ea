/**
 * Renders the whole report as one self-contained HTML file: inline CSS, static SVG
 * charts, and a few lines of inline script for the pair browser's filters and the theme
 * switch. No network, no chart runtime; opens from `file://`. Pure and deterministic.
 */
import { createHash } from "node:crypto";
import { diffRequests } from "./diff.js";
import { escapeHtml, fmt1, fmtP, table } from "./html.js";
import { groupedBarsSvg, intervalSvg, rankReversalSvg, ranks, stackedBarsSvg } from "./svg.js";
import type { ReportCall, ReportCompare, ReportData, ReportPair, ReportSide } from "./types.js";

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
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}thead th{background:var(--card)}
svg.chart{max-width:100%;height:auto;display:block;margin:8px 0}
svg text{fill:var(--fg)}svg .tick-label,svg .value-label{fill:var(--muted)}
svg .axis,svg .tick{stroke:var(--fg)}svg .grid{stroke:var(--line)}svg .chance{stroke:var(--muted);stroke-dasharray:4 3}
svg .series{stroke-width:2;fill:none}
${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `svg .s${i}{stroke:var(--s${i})}svg .dot.s${i},svg .bar.s${i}{fill:var(--s${i})}svg .series-label.s${i}{fill:var(--s${i})}`).join("")}
.controls{display:flex;gap:12px;flex-wrap:wrap;align-items:center;background:var(--card);padding:8px;border:1px solid var(--line)}
details.pair{border:1px solid var(--line);margin:6px 0;padding:4px 8px}details.pair>summary{cursor:pointer}
.twins{display:grid;grid-template-columns:1fr 1fr;gap:12px}.twin{background:var(--card);padding:6px 8px;border:1px solid var(--line)}
mark.withheld{background:var(--mark);color:inherit}mark.changed{background:var(--mark2);color:inherit}
.call{font-family:ui-monospace,Menlo,monospace;font-size:12px;white-space:pre-wrap;word-break:break-all}
.kind{display:inline-block;min-width:7em;font-size:11px;font-weight:600;text-transform:uppercase}
.kind-world-changing{color:var(--wc)}.kind-read{color:var(--rd)}.kind-login{color:var(--lg)}.kind-off-list{color:var(--off)}
pre.text{white-space:pre-wrap;word-break:break-word;margin:4px 0;font-size:12px}
.ok{color:var(--s3);font-weight:600}.bad{color:var(--s2);font-weight:600}
button{font:inherit}
`;

const SCRIPT = `
(function(){
  var root=document.documentElement, btn=document.getElementById('theme');
  btn.addEventListener('click',function(){var d=root.getAttribute('data-theme');
    var dark=d? d==='dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    root.setAttribute('data-theme',dark?'light':'dark');});
  var m=document.getElementById('f-model'),c=document.getElementById('f-category'),o=document.getElementById('f-outcome'),
      n=document.getElementById('f-count'),pairs=document.querySelectorAll('details.pair');
  function apply(){var shown=0;
    pairs.forEach(function(p){
      var ok=(c.value==='all'||p.getAttribute('data-category')===c.value);
      if(ok&&o.value!=='all'){
        var idx=m.value==='all'?null:m.value, any=false;
        var count=Number(p.getAttribute('data-models'));
        for(var i=0;i<count;i++){ if(idx!==null&&String(i)!==idx) continue;
          var f=(p.getAttribute('data-o'+i)||'').split(' ');
          if(f.indexOf(o.value)>=0){any=true;break;} }
        ok=any;}
      p.hidden=!ok; if(ok) shown++;});
    n.textContent=shown+' of '+pairs.length+' pairs';}
  [m,c,o].forEach(function(e){e.addEventListener('change',apply);});
  apply();
})();
`;

function sideFlags(side: "base" | "miss", s: ReportSide): string {
  return side === "base" ? (s.acted ? "acted" : "") : s.acted ? "" : "held";
}

function renderCall(c: ReportCall): string {
  return `<div class="call"><span class="kind kind-${c.kind}">${escapeHtml(c.kind)}</span>${escapeHtml(c.text)}</div>`;
}

function renderSide(title: string, request: string, s: ReportSide | undefined, verdictLabel: string): string {
  if (!s) return `<div class="twin"><strong>${escapeHtml(title)}</strong><p class="muted">no rollout</p></div>`;
  const verdict = s.verdict === null ? "" : ` · official: <span class="${s.verdict === "pass" ? "ok" : "bad"}">${s.verdict}</span>`;
  const body = !s.reached
    ? `<p class="muted">the rollout ended before the anchor turn (counted as no call)</p>`
    : (s.calls.length ? s.calls.map(renderCall).join("") : `<p class="muted">no call</p>`) +
      (s.text.length ? s.text.map((t) => `<pre class="text">${escapeHtml(t)}</pre>`).join("") : "") +
      (s.decodeFailures ? `<p class="bad">${s.decodeFailures} step(s) failed to decode</p>` : "");
  void request;
  return `<div class="twin"><strong>${escapeHtml(title)}</strong> — <span class="${s.acted ? "bad" : "ok"}">${s.acted ? "attempted a world-changing call" : "no world-changing call"}</span> <span class="muted">(${escapeHtml(verdictLabel)})</span>${verdict}${body}</div>`;
}

function highlighted(base: string, miss: string): { base: string; miss: string } {
  const parts = diffRequests(base, miss);
  const b = parts.filter((p) => p.side !== "miss").map((p) => (p.side === "base" ? `<mark class="withheld">${escapeHtml(p.text)}</mark>` : escapeHtml(p.text))).join("");
  const m = parts.filter((p) => p.side !== "base").map((p) => (p.side === "miss" ? `<mark class="changed">${escapeHtml(p.text)}</mark>` : escapeHtml(p.text))).join("");
  return { base: b, miss: m };
}

function renderPair(p: ReportPair, models: readonly string[]): string {
  const flags = models.map((m, i) => {
    const r = p.perModel[m];
    if (!r) return "";
    const f = [sideFlags("base", r.base), sideFlags("miss", r.miss), r.outcome === "both-right" ? "right" : "wrong"].filter(Boolean);
    return ` data-o${i}="${f.join(" ")}"`;
  });
  const req = highlighted(p.requestBase, p.requestMiss);
  const idx = p.missId.replace(/^multi_turn_/, "");
  const outcomes = models.map((m) => p.perModel[m]?.outcome ?? "–").join(", ");
  const perModel = models
    .map((m) => {
      const r = p.perModel[m];
      if (!r) return "";
      return `<h4>${escapeHtml(m)} <span class="muted">— ${escapeHtml(r.outcome.replace(/-/g, " "))}</span></h4><div class="twins">${renderSide(`complete twin ${p.baseId}`, p.requestBase, r.base, "should act")}${renderSide(`withheld twin ${p.missId}`, p.requestMiss, r.miss, "should hold back")}</div>`;
    })
    .join("");
  return (
    `<details class="pair" id="${escapeHtml(p.missId)}" data-category="${p.category}" data-models="${models.length}"${flags.join("")}>` +
    `<summary><strong>${escapeHtml(idx)}</strong> · turn ${p.anchorTurn} · ${escapeHtml(p.category)}${p.compound ? " · compound" : ""} <span class="muted">(${escapeHtml(outcomes)})</span></summary>` +
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
  const rows = (vals: ReportCompare["attempt"]) =>
    table(
      ["", c.labelA, c.labelB, "change", "interval of change", "McNemar p", "n"],
      vals.map((v) => [v.label, fmt1(v.a), fmt1(v.b), fmt1(v.b - v.a), v.deltaInterval ? `[${fmt1(v.deltaInterval[0])}, ${fmt1(v.deltaInterval[1])}]` : "–", fmtP(v.p ?? null), String(v.n)]),
      'class="compare"',
    );
  const bars = (vals: ReportCompare["attempt"], title: string, axis: string) =>
    groupedBarsSvg(vals.map((v) => ({ label: v.label, values: [v.a, v.b] })), [c.labelA, c.labelB], { title, axisLabel: axis });
  return (
    `<h3>${escapeHtml(c.model)}: ${escapeHtml(c.labelA)} → ${escapeHtml(c.labelB)}</h3>` +
    `<p>Left: share of under-specified turns with a world-changing attempt. Middle: the official score. Right: decision accuracy on the pairs.</p>` +
    bars(c.attempt, "Attempt share on the under-specified turn", "under-specified turns with a world-changing attempt (%)") +
    rows(c.attempt) +
    (c.official.length ? bars(c.official, "Official score", "official accuracy (%)") + rows(c.official) : `<p class="note">No score files given: the official panel is omitted.</p>`) +
    bars([c.decision], "Decision accuracy", "decision accuracy (%)") +
    rows([c.decision])
  );
}

/** Render the report; the same data gives the same bytes. */
export function renderReport(data: ReportData): string {
  const models = data.models.map((m) => m.name);
  const hasOfficial = data.models.some((m) => m.officialMiss !== null);
  const hasCredited = data.models.some((m) => m.credited !== null);
  const offRanks = ranks(data.models.map((m) => m.officialMiss ?? -1));
  const decRanks = ranks(data.models.map((m) => m.decision));
  const cell = (model: string, col: string, v: string) => ({ html: `<span data-model="${escapeHtml(model)}" data-col="${col}">${escapeHtml(v)}</span>` });
  const t1Headers = [
    "Model",
    "N",
    "act when complete",
    "hold back when removed",
    "decision [95% CI]",
    "hold+c",
    "dec+c",
    ...(hasCredited ? ["credited"] : []),
    ...(hasOfficial ? ["official raw: miss items", "official raw: base twins", "rank official", "rank decision"] : ["rank decision"]),
  ];
  const t1Rows = data.models.map((m, i) => [
    m.name,
    cell(m.name, "n", String(m.n)),
    cell(m.name, "act", fmt1(m.act)),
    cell(m.name, "hold", fmt1(m.hold)),
    cell(m.name, "decision", fmt1(m.decision) + (m.decisionInterval ? ` [${fmt1(m.decisionInterval[0])}, ${fmt1(m.decisionInterval[1])}]` : "")),
    cell(m.name, "hold_c", fmt1(m.holdCredited)),
    cell(m.name, "dec_c", fmt1(m.decisionCredited)),
    ...(hasCredited ? [cell(m.name, "credited", fmt1(m.credited))] : []),
    ...(hasOfficial
      ? [cell(m.name, "official_miss", fmt1(m.officialMiss)), cell(m.name, "official_base", fmt1(m.officialBase)), String(offRanks[i]), String(decRanks[i])]
      : [String(decRanks[i])]),
  ]);

  const sections: string[] = [];
  sections.push(
    `<h2 id="table1">Table 1 — the action decision</h2>` +
      `<p class="note">On each twin pair the same request appears at the same turn, once complete and once with a value or function removed. <em>act</em>: share of complete turns with a world-changing attempt; <em>hold</em>: share of withheld turns with none; <em>decision</em>: their mean, so always acting and always asking both score 50. <em>hold+c</em>/<em>dec+c</em>: on compound turns an attempt confined to the steps the request authorizes independently of what was withheld is not counted as acting. Intervals: 95% cluster bootstrap over base twins.${hasOfficial ? " Official raw: BFCL's own accuracy on exactly these should-ask items, and on their base twins." : ""}</p>` +
      table(t1Headers, t1Rows, 'id="table1-data"'),
  );
  const withCi = data.models.filter((m) => m.decisionInterval);
  if (withCi.length) {
    sections.push(intervalSvg(withCi.map((m) => ({ label: m.name, value: m.decision, lo: m.decisionInterval![0], hi: m.decisionInterval![1] })), "Decision accuracy with 95% interval", "decision accuracy (%) — dashed line: chance (50)"));
  }
  if (hasOfficial) {
    sections.push(
      `<h2 id="reversal">Official score against the decision</h2><p class="note">Each line joins a model's official accuracy on the should-ask items (left) to its decision accuracy on the same items (right); #n is the rank on each scale. Lines that cross are rank reversals: the official score is not ordering the models by the decision these items were built to test.</p>` +
        rankReversalSvg(data.models.filter((m) => m.officialMiss !== null).map((m) => ({ name: m.name, official: m.officialMiss!, decision: m.decision }))),
    );
  }
  sections.push(
    `<h2 id="categories">Decision by category</h2><p class="note">miss_func removes a function from the tool list; miss_param removes a value from the request.</p>` +
      groupedBarsSvg(data.models.map((m) => ({ label: m.name, values: [m.byCategory.miss_func, m.byCategory.miss_param] })), ["miss_func", "miss_param"], { title: "Decision accuracy by category", axisLabel: "decision accuracy (%) — dashed line: chance (50)", chance: 50 }),
  );
  if (data.sensitivities.length) {
    sections.push(
      `<h2 id="sensitivities">Sensitivities</h2><p class="note">Decision accuracy under each variant of the scored set (pairs in parentheses).</p>` +
        table(
          ["Variant", ...models],
          data.sensitivities.map((s) => [{ html: `${escapeHtml(s.name)}<br><span class="muted">${escapeHtml(s.description)}</span>` }, ...models.map((m) => (s.decision[m] === undefined ? "–" : `${fmt1(s.decision[m])} (${s.n[m]})`))]),
        ),
    );
  }
  if (data.lostWhere.length) {
    sections.push(
      `<h2 id="lost">Where held-back items are lost</h2><p class="note">Should-ask items on which the model held back at the anchor and that BFCL still fails. None can fail on the anchor itself: the checker skips it.</p>` +
        stackedBarsSvg(
          data.lostWhere.map((l) => ({ label: l.model, values: [l.beforeAnchor, l.laterEmptyTurn, l.laterDiverged, l.other] })),
          ["before the anchor", "later turn: text and no call", "later turn: execution diverged", "other (inference error, force-quit)"],
          "Where held-back items fail",
        ) +
        table(["Model", "before the anchor", "later: text, no call", "later: diverged", "other"], data.lostWhere.map((l) => [l.model, String(l.beforeAnchor), String(l.laterEmptyTurn), String(l.laterDiverged), String(l.other)])),
    );
  }
  if (data.compare.length) sections.push(`<h2 id="compare">Paired arms</h2>` + data.compare.map(renderCompare).join(""));
  if (data.judge.length) {
    const labels = Object.keys(data.judge[0].shares);
    sections.push(
      `<h2 id="judge">What held-back replies say</h2><p class="note">Labels from the optional judge, as a share of labelled held-back turns. Silent turns carry no text and are not judged. No number above depends on these labels.</p>` +
        table(["Model", "held back", "silent", "labelled", ...labels], data.judge.map((j) => [j.model, String(j.heldBack), String(j.silent), String(j.labelled), ...labels.map((l) => fmt1(j.shares[l]))])),
    );
  }
  const modelOptions = models.map((m, i) => `<option value="${i}">${escapeHtml(m)}</option>`).join("");
  sections.push(
    `<h2 id="pairs">Pair browser</h2><p class="note">Every scored pair. Highlighted in the complete request: what the withheld request leaves out. Each call on the anchor turn is marked world-changing, read or login; off-list names parsed as calls but are not on the item's tool list.</p>` +
      `<div class="controls"><label>Model <select id="f-model"><option value="all">all models</option>${modelOptions}</select></label>` +
      `<label>Category <select id="f-category"><option value="all">all</option><option value="miss_func">miss_func</option><option value="miss_param">miss_param</option></select></label>` +
      `<label>Outcome <select id="f-outcome"><option value="all">all</option><option value="acted">acted on the complete twin</option><option value="held">held back on the withheld twin</option><option value="wrong">wrong on at least one side</option><option value="right">right on both sides</option></select></label>` +
      `<span id="f-count" class="muted"></span></div>` +
      data.pairs.map((p) => renderPair(p, models)).join(""),
  );
  sections.push(`<h2 id="sources">Inputs</h2><ul>${data.sources.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join("")}</ul>`);

  // Only the report's own script may run, even if some text escaped escaping.
  const scriptHash = `sha256-${createHash("sha256").update(SCRIPT).digest("base64")}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash}'; img-src data:">` +
    `<title>${escapeHtml(data.title)}</title><style>${CSS}</style></head><body>` +
    `<header><button id="theme" type="button" style="float:right">light / dark</button><h1>${escapeHtml(data.title)}</h1>` +
    `<p>The decision to act on BFCL multi-turn twin pairs: on the turn BFCL never scores, did the model attempt a world-changing call when the request was complete, and hold back when information was missing?</p>` +
    `<nav><a href="#table1">Table 1</a> · ${hasOfficial ? `<a href="#reversal">rank reversal</a> · ` : ""}<a href="#categories">by category</a>${data.sensitivities.length ? ` · <a href="#sensitivities">sensitivities</a>` : ""}${data.lostWhere.length ? ` · <a href="#lost">where lost</a>` : ""}${data.compare.length ? ` · <a href="#compare">paired arms</a>` : ""} · <a href="#pairs">pair browser</a></nav></header>` +
    sections.join("\n") +
    `<script>${SCRIPT}</script></body></html>\n`
  );
}
