#!/usr/bin/env python3
"""Generate data/expected/paper.json from the paper's published numbers.

    python3 tools/gen-expected-paper.py ../shared/paper-numbers/published.tsv

Every line of published.tsv becomes one expected number for `twinscore verify`, with the
paper's tolerances (0 for counts, 0.05 for rates, 0.1 for intervals, spreads and rank-1
frequencies, 0.005 for rank correlations; labels must match exactly) and the rollouts it
needs: a model's own numbers need that model, cross-model numbers (spread, rank-1,
Spearman, ranks, pooled counts, the model order) need all seven, and the manifest counts
need none. Numbers read from BFCL's score files are marked `scores: true`.
"""
import json
import os
import sys

COUNT_LEAVES = {"n", "anchors", "passes", "fails", "held", "read_only", "text", "silent", "zero_calls", "pairs", "added"}


def parse_value(raw):
    if "," in raw:
        return [float(x) if "." in x else int(x) for x in raw.split(",")]
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        return float(raw)
    except ValueError:
        return raw


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "paper-numbers", "published.tsv")
    rows = []
    with open(src, encoding="utf-8") as f:
        for i, line in enumerate(f):
            line = line.rstrip("\n")
            if i == 0 or not line:
                continue
            key, value = line.split("\t")
            rows.append((key, value))
    models = [v for k, v in rows if k.startswith("models_order[")]
    display = {}
    for k, v in rows:
        if k.startswith("tables.C.") and k.endswith(".display"):
            display[k[len("tables.C."):-len(".display")]] = v
    numbers = []
    for key, raw in rows:
        value = parse_value(raw)
        own = [m for m in models if f".{m}." in key + "."]
        own = sorted(own, key=len)[-1:] if own else []
        scores = key.startswith(("companions.official_raw.", "companions.verdict_vs_attempt.", "companions.spearman.", "companions.ranks.official"))
        if key.startswith("companions.official_raw.") and key.endswith(".decision"):
            scores = False
        cross = key.startswith(("spread.", "rank1.", "companions.spearman.", "companions.ranks.", "companions.heldback_pooled.", "models_order["))
        manifest_only = key.startswith("counts.") or key in {"definition", "bootstrap.B", "bootstrap.seed", "companions.distinct_base_twins", "companions.bad_keys_restored.pairs", "companions.bad_keys_restored.added"}
        if manifest_only:
            rollouts = []
        elif cross:
            rollouts = list(models)
        else:
            rollouts = own
            assert rollouts, key
        leaf = key.rsplit(".", 1)[-1]
        if isinstance(value, str):
            tol = 0
        elif key.startswith(("counts.", "bootstrap.", "truncation.")) or leaf in COUNT_LEAVES or key == "companions.distinct_base_twins":
            tol = 0
        elif key.startswith("companions.spearman."):
            tol = 0.005
        elif key.startswith(("spread.", "rank1.")) or leaf == "ci95":
            tol = 0.1
        else:
            tol = 0.05
        numbers.append({"name": key, "value": value, "tolerance": tol, "rollouts": rollouts, **({"scores": True} if scores else {})})
    data = {
        "description": "The paper's published numbers (paper-numbers/published.tsv), with the paper's tolerances. The seven models' rollouts are not public: their numbers SKIP unless you pass their result (and score) trees; the counts that depend only on the manifest are checked always.",
        "runs": [{
            "name": "paper",
            "models": [{"name": m, "display": display.get(m)} for m in models],
            "bootstrap": {"resamples": int(dict(rows)["bootstrap.B"]), "seed": int(dict(rows)["bootstrap.seed"])},
            "numbers": numbers,
        }],
    }
    out = os.path.join(os.path.dirname(__file__), "..", "data", "expected", "paper.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {out}: {len(numbers)} numbers")


if __name__ == "__main__":
    main()
