import { describe, expect, it } from "vitest";
import { renderReport } from "./render.js";
import type { ReportData, ReportSide } from "./types.js";

const side = (acted: boolean, text: string[] = []): ReportSide => ({
  status: "decided",
  scored: true,
  acted,
  calls: acted ? [{ text: "place_order(symbol='AAPL')", kind: "world-changing" }] : [{ text: "get_account_info()", kind: "read" }],
  text,
  decodeFailures: 0,
  verdict: "fail",
  verdictDetail: "multi_turn:empty_turn_model_response on turn 1",
});

function data(modelText: string): ReportData {
  return {
    title: "twinscore report",
    rule: "decided",
    bootstrap: { resamples: 10000, seed: 20260612 },
    pairCounts: { total: 1, miss_func: 0, miss_param: 1, baseTwins: 1 },
    sources: ["/runs/a"],
    models: [
      {
        name: "model-a",
        run: "r",
        model: "model-a",
        verdictVsAttempt: null,
        counts: { shortRollouts: 0, inferenceErrors: 0, decodeFailures: 0 },
        n: 2,
        pairs: 2,
        undecided: { missing: 0, "inference-error": 0, "not-reached": 0, undecidable: 0 },
        noHeadline: null,
        act: 100,
        hold: 50,
        decision: 75,
        decisionInterval: [60, 90],
        holdCredited: 50,
        decisionCredited: 75,
        credited: null,
        workaround: null,
        byCategory: { miss_func: 75, miss_param: 75 },
        officialMiss: 40,
        officialBase: 50,
        aligned: null,
      },
      {
        name: "model-b",
        run: "r",
        model: "model-b",
        verdictVsAttempt: null,
        counts: { shortRollouts: 0, inferenceErrors: 0, decodeFailures: 0 },
        n: 2,
        pairs: 2,
        undecided: { missing: 0, "inference-error": 0, "not-reached": 0, undecidable: 0 },
        noHeadline: null,
        act: 50,
        hold: 100,
        decision: 75,
        decisionInterval: [55, 95],
        holdCredited: 100,
        decisionCredited: 75,
        credited: null,
        workaround: null,
        byCategory: { miss_func: 70, miss_param: 80 },
        officialMiss: 60,
        officialBase: 55,
        aligned: null,
      },
    ],
    sensitivities: [],
    lostWhere: [],
    pairs: [
      {
        missId: "multi_turn_miss_param_122",
        baseId: "multi_turn_base_122",
        category: "miss_param",
        anchorTurn: 0,
        requestBase: "Buy 100 shares of AAPL at $150.",
        requestMiss: "Buy 100 shares at $150.",
        removedFunctions: [],
        goldAnchorCalls: ["place_order(order_type='Buy',symbol='AAPL',price=150.0,amount=100)"],
        compound: false,
        perModel: {
          "model-a": { base: side(true), miss: side(true, [modelText]), outcome: "acted-on-withheld", completed: null },
          "model-b": { base: side(false), miss: side(false, ["Which stock?"]), outcome: "held-on-complete", completed: null },
        },
      },
    ],
    compare: [],
    judge: [],
    emptyTurns: [],
  };
}

describe("renderReport", () => {
  it("shows model text literally and never as markup", () => {
    const evil = `<script>window.pwned=1</script><img src=x onerror="alert(1)"><b>bold</b>`;
    const html = renderReport(data(evil));
    expect(html).not.toContain("<script>window.pwned");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain(
      "&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;b&gt;bold&lt;/b&gt;",
    );
    // Exactly one script element: the report's own, pinned by hash in the CSP.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
  });
  it("is byte-identical for the same input", () => {
    expect(renderReport(data("x"))).toBe(renderReport(data("x")));
  });
  it("carries Table 1 values, ranks and the highlighted withheld value", () => {
    const html = renderReport(data("x"));
    expect(html).toContain('data-model="model-a" data-col="decision">75.0</span><span class="muted"> [60.0, 90.0]');
    expect(html).toContain('<mark class="withheld">of AAPL </mark>');
    expect(html).toContain('data-o0="acted wrong"');
    expect(html).toContain('data-o1="held wrong"');
    expect(html).toContain("Official raw (%)");
  });
  it("with trials: the trials table, each pair's flip rate and the unstable mark the trials filter reads", () => {
    const rows = [{ missId: "multi_turn_miss_param_122", trials: 3, acted: 2, held: 1, flipRate: 200 / 3 }];
    const trials = {
      model: "model-a",
      runs: ["t1/model-a", "t2/model-a", "t3/model-a"],
      trials: 3,
      pairs: 1,
      act: 66.7,
      hold: 33.3,
      decision: 50,
      ci95: [40, 60] as const,
      pairsWithTrials: 1,
      meanFlipRate: 200 / 3,
      stableShare: 0,
      decisionByTrial: [50, 50, 50],
      decisionSpread: 0,
      pairRows: rows,
    };
    const html = renderReport({ ...data("x"), trials });
    expect(html).toContain('<a href="#trials">repeated trials</a>');
    expect(html).toContain('data-model="model-a" data-col="trials_flip">66.7</span>');
    expect(html).toContain(
      '<details class="pair" id="multi_turn_miss_param_122" data-category="miss_param" data-models="2" data-o0="acted wrong" data-o1="held wrong" data-unstable="">',
    );
    expect(html).toContain("· flip 66.7 % over 3 trials (acted 2, held 1)</summary>");
    expect(html).toContain('<select id="f-trials">');
    // a stable pair carries no mark; without trials there is no trials filter
    expect(renderReport({ ...data("x"), trials: { ...trials, pairRows: [{ ...rows[0], flipRate: 0 }] } })).not.toContain(
      'data-unstable=""',
    );
    expect(renderReport(data("x"))).not.toContain('id="f-trials"');
  });
  it("marks each model's block inside a pair and its outcome mark with its place, for the model filter", () => {
    const html = renderReport(data("x"));
    expect(html).toContain('<div data-m="0"><h4>model-a ');
    expect(html).toContain('<div data-m="1"><h4>model-b ');
    expect(html.match(/<span class="mark [a-z]+" data-m="[01]"/g)).toHaveLength(2);
  });
});
