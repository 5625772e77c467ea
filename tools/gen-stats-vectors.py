#!/usr/bin/env python3
"""Generate NumPy / SciPy test vectors for twinscore's statistics (src/stats/).

Run with python3 (numpy 2.x, scipy) from the project root:

    python3 tools/gen-stats-vectors.py

Writes src/stats/testdata/vectors.json. Only numbers produced by this script are stored:

* rng: for several seeds, SeedSequence(seed).generate_state(4, uint64) (the PCG64 seed
  words), the first raw 64-bit outputs of PCG64, and Generator.integers(0, n, size=k)
  draws for a spread of n (including ranges where Lemire's method rejects), all from
  numpy.random.default_rng(seed). 64-bit values are decimal strings.
* percentile: numpy.percentile (default linear method) on seeded random arrays.
* binom / mcnemar: scipy.stats.binom.cdf and the exact two-sided McNemar p-value
  min(1, 2 * binom.cdf(min(b, c), b + c, 0.5)).
* spearman: scipy.stats.spearmanr rho and two-sided p on small arrays with ties.
* betainc: scipy.special.betainc on a grid.
* bootstrap: synthetic clustered 0/1 outcomes (ids that sort differently as strings and
  numbers) and the intervals, rank-1 frequencies and paired-difference interval of the
  paper's cluster bootstrap written the plain NumPy way (gather the drawn clusters' pairs).
Floats are stored as repr() strings so that the TypeScript test can compare them exactly
or with a stated tolerance.
"""
import json
import os

import numpy as np
from scipy import special, stats

OUT = os.path.join(os.path.dirname(__file__), "..", "src", "stats", "testdata", "vectors.json")


def rng_vectors():
    out = []
    for seed in [0, 1, 42, 12345, 20260612, 2**32 + 7, 2**64 - 1, 2**100 + 3]:
        seq = np.random.SeedSequence(seed)
        words = [str(int(w)) for w in seq.generate_state(4, np.uint64)]
        raw = [str(int(x)) for x in np.random.PCG64(seed).random_raw(12)]
        draws = {}
        for n in [1, 2, 3, 7, 151, 223, 1000, 65537, 2**31 + 11, 3_000_000_019, 2**32]:
            g = np.random.default_rng(seed)
            k = 64 if n < 10**6 else 24
            draws[str(n)] = [int(v) for v in g.integers(0, n, size=k)]
        # Consecutive calls on one generator share the buffered 32-bit half.
        g = np.random.default_rng(seed)
        chained = [[int(v) for v in g.integers(0, 151, size=151)] for _ in range(3)]
        g = np.random.default_rng(seed)
        odd = [[int(v) for v in g.integers(0, 7, size=5)] for _ in range(3)]
        out.append({"seed": str(seed), "stateWords": words, "raw": raw, "integers": draws, "chained151": chained, "chainedOdd7": odd})
    return out


def percentile_vectors():
    g = np.random.default_rng(7)
    out = []
    for n in [1, 2, 5, 10, 101, 1000]:
        a = g.random(n) * 100
        if n > 5:
            a[: n // 3] = np.round(a[: n // 3], 1)
        qs = [0, 2.5, 25, 50, 97.5, 100]
        out.append({"values": [repr(float(x)) for x in a], "q": qs, "expected": [repr(float(np.percentile(a, q))) for q in qs]})
    return out


def binom_vectors():
    out = []
    for n in [0, 1, 2, 5, 10, 17, 40, 100, 223, 500]:
        for k in sorted({0, 1, n // 4, n // 2, max(n - 1, 0), n}):
            out.append({"k": k, "n": n, "cdf": repr(float(stats.binom.cdf(k, n, 0.5)))})
    mc = []
    for b, c in [(0, 0), (0, 1), (1, 0), (3, 3), (5, 0), (28, 0), (0, 28), (10, 4), (4, 10), (24, 26), (40, 17), (100, 80), (7, 1)]:
        n = b + c
        p = 1.0 if n == 0 else min(1.0, 2.0 * float(stats.binom.cdf(min(b, c), n, 0.5)))
        mc.append({"b": b, "c": c, "p": repr(p)})
    return out, mc


def spearman_vectors():
    g = np.random.default_rng(11)
    cases = [
        ([47.1, 32.7, 58.7, 50.7, 52.0, 52.5, 22.9], [78.3, 80.7, 77.1, 78.5, 75.8, 77.4, 67.7]),
        ([52.3, 39.1, 77.5, 62.9, 66.9, 57.6, 25.8], [78.3, 80.7, 77.1, 78.5, 75.8, 77.4, 67.7]),
        ([1, 2, 3], [3, 2, 1]),
        ([1, 2, 2, 3], [1, 3, 2, 4]),
        ([1, 1, 2, 2, 3], [5, 5, 4, 4, 1]),
    ]
    for n in [4, 8, 15, 30]:
        x = list(np.round(g.random(n) * 10))
        y = list(np.round(g.random(n) * 10))
        cases.append((x, y))
    out = []
    for x, y in cases:
        r = stats.spearmanr(x, y)
        out.append({"x": [float(v) for v in x], "y": [float(v) for v in y], "rho": repr(float(r.statistic)), "p": repr(float(r.pvalue))})
    return out


def betainc_vectors():
    out = []
    for a in [0.5, 1.0, 2.5, 10.0, 50.0]:
        for b in [0.5, 1.0, 3.0, 20.0]:
            for x in [0.0, 0.01, 0.3, 0.5, 0.77, 0.999, 1.0]:
                out.append({"a": a, "b": b, "x": x, "value": repr(float(special.betainc(a, b, x)))})
    return out


def bootstrap_reference(clusters, pairs_act, pairs_hold, pairs_cluster, B, seed, rng=None):
    """The paper's cluster bootstrap written the plain NumPy way: gather the pairs of the drawn clusters."""
    keys = sorted(set(pairs_cluster))
    members = {k: [i for i, c in enumerate(pairs_cluster) if c == k] for k in keys}
    act = np.array(pairs_act, dtype=float)
    hold = np.array(pairs_hold, dtype=float)
    rng = rng or np.random.default_rng(seed)
    K = len(keys)
    dec, a, h = [], [], []
    for _ in range(B):
        pick = rng.integers(0, K, size=K)
        sel = np.concatenate([members[keys[k]] for k in pick])
        dec.append((act[sel].mean() + hold[sel].mean()) / 2 * 100)
        a.append(act[sel].mean() * 100)
        h.append(hold[sel].mean() * 100)
    return dec, a, h


def bootstrap_vectors():
    g = np.random.default_rng(99)
    cases = []
    for n_clusters, B, seed in [(5, 500, 1), (40, 2000, 20260612), (151, 1000, 7)]:
        sizes = g.integers(1, 5, size=n_clusters)
        # ids sort differently as strings and as numbers ("base_10" < "base_2").
        cluster_ids = [f"multi_turn_base_{int(i)}" for i in g.permutation(n_clusters * 3)[:n_clusters]]
        models = []
        pairs_cluster = [cid for cid, sz in zip(cluster_ids, sizes) for _ in range(sz)]
        for m in range(3):
            pa = [int(x) for x in (g.random(len(pairs_cluster)) < 0.6 + 0.1 * m)]
            ph = [int(x) for x in (g.random(len(pairs_cluster)) < 0.8 - 0.1 * m)]
            dec, a, h = bootstrap_reference(None, pa, ph, pairs_cluster, B, seed)
            models.append({
                "act": pa, "hold": ph,
                "decision95": [repr(float(v)) for v in np.percentile(dec, [2.5, 97.5])],
                "act95": [repr(float(v)) for v in np.percentile(a, [2.5, 97.5])],
                "hold95": [repr(float(v)) for v in np.percentile(h, [2.5, 97.5])],
                "decisionFirst5": [repr(float(v)) for v in dec[:5]],
            })
        # rank-1 from one shared stream, ties to the first model listed
        keys = sorted(set(pairs_cluster))
        members = {k: [i for i, c in enumerate(pairs_cluster) if c == k] for k in keys}
        rng = np.random.default_rng(seed)
        wins = [0, 0, 0]
        diffs = []
        for _ in range(B):
            pick = rng.integers(0, len(keys), size=len(keys))
            sel = np.concatenate([members[keys[k]] for k in pick])
            ds = [(np.array(mm["act"], float)[sel].mean() + np.array(mm["hold"], float)[sel].mean()) / 2 * 100 for mm in models]
            wins[int(np.argmax(ds))] += 1
        rng = np.random.default_rng(seed)
        for _ in range(B):
            pick = rng.integers(0, len(keys), size=len(keys))
            sel = np.concatenate([members[keys[k]] for k in pick])
            d0 = (np.array(models[0]["act"], float)[sel].mean() + np.array(models[0]["hold"], float)[sel].mean()) / 2 * 100
            d1 = (np.array(models[1]["act"], float)[sel].mean() + np.array(models[1]["hold"], float)[sel].mean()) / 2 * 100
            diffs.append(d1 - d0)
        cases.append({
            "B": B, "seed": seed, "clusters": pairs_cluster, "models": models,
            "rank1": [repr(w / B * 100) for w in wins],
            "paired95": [repr(float(v)) for v in np.percentile(diffs, [2.5, 97.5])],
        })
    return cases


def main():
    binom, mcnemar = binom_vectors()
    data = {
        "generator": f"tools/gen-stats-vectors.py with numpy {np.__version__}",
        "rng": rng_vectors(),
        "percentile": percentile_vectors(),
        "binom": binom,
        "mcnemar": mcnemar,
        "spearman": spearman_vectors(),
        "betainc": betainc_vectors(),
        "bootstrap": bootstrap_vectors(),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
