#!/usr/bin/env python3
"""Independent reference for twinscore's repeated-trial statistics (src/stats/trials.ts).

Standard library only. Run from the project root:

    python3 tools/gen-trial-vectors.py            # writes src/stats/testdata/trial-vectors.json
    python3 tools/gen-trial-vectors.py --check    # exits 1 if the committed file differs
    python3 tools/gen-trial-vectors.py --stdin    # {"pairs", "B", "seed"} in, the expected numbers out
                                                  # ({"a", "b", "B", "seed"}: the paired difference)

It carries its own NumPy-compatible random stream (SeedSequence -> PCG64 -> the 32-bit
Lemire path of Generator.integers), written from NumPy's published algorithms with
Python integers, and its own numpy.percentile (linear). On synthetic models with K trials
per pair, and on the scripted policy that acts with probability p on each side
(src/testing/trial-policy.ts, the same FNV-1a coin) over the v4 manifest's 223 scored pairs, it
writes: the means over trials, each pair's flip rate, the stable share, each trial's
decision and their spread, and the two-level bootstrap (clusters = base twins, then the
trials within each drawn pair) intervals and first resamples, and the paired difference.
Floats are repr() strings; the test compares them exactly.
"""
import json
import math
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "src", "stats", "testdata", "trial-vectors.json")
MASK32 = (1 << 32) - 1
MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1


# --- NumPy's SeedSequence (pool size 4), as documented in numpy/random/bit_generator.pyx


def _hashmix(value, hash_const):
    value = (value ^ hash_const[0]) & MASK32
    hash_const[0] = (hash_const[0] * 0x931E8875) & MASK32
    value = (value * hash_const[0]) & MASK32
    return value ^ (value >> 16)


def _mix(x, y):
    r = (0xCA01F9DD * x - 0x4973F715 * y) & MASK32
    return r ^ (r >> 16)


def seed_state(seed, n64):
    entropy = []
    v = seed
    while True:
        entropy.append(v & MASK32)
        v >>= 32
        if v == 0:
            break
    hc = [0x43B0D7E5]
    pool = [_hashmix(entropy[i] if i < len(entropy) else 0, hc) for i in range(4)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], hc))
    for src in range(4, len(entropy)):
        for dst in range(4):
            pool[dst] = _mix(pool[dst], _hashmix(entropy[src], hc))
    hb = 0x8B51F9DD
    words = []
    for i in range(n64 * 2):
        w = (pool[i % 4] ^ hb) & MASK32
        hb = (hb * 0x58F38DED) & MASK32
        w = (w * hb) & MASK32
        words.append(w ^ (w >> 16))
    return [words[2 * i] | (words[2 * i + 1] << 32) for i in range(n64)]


class Pcg64:
    MULT = 0x2360ED051FC65DA44385DF649FCCF645

    def __init__(self, seed):
        s = seed_state(seed, 4)
        init_state = (s[0] << 64) | s[1]
        init_seq = (s[2] << 64) | s[3]
        self.inc = ((init_seq << 1) | 1) & MASK128
        self.has32 = False
        self.buf32 = 0
        self.state = 0
        self._step()
        self.state = (self.state + init_state) & MASK128
        self._step()

    def _step(self):
        self.state = (self.state * self.MULT + self.inc) & MASK128

    def next64(self):
        self._step()
        s = self.state
        rot = s >> 122
        x = ((s >> 64) ^ s) & MASK64
        return ((x >> rot) | (x << ((64 - rot) & 63))) & MASK64

    def next32(self):
        """PCG64's 32-bit output: the low half of a 64-bit draw, its high half kept for the next call."""
        if self.has32:
            self.has32 = False
            return self.buf32
        x = self.next64()
        self.has32 = True
        self.buf32 = x >> 32
        return x & MASK32

    def integers(self, n, size):
        """Generator.integers(0, n, size) for n <= 2**32: Lemire's rejection on 32-bit draws."""
        if n == 1:
            return [0] * size
        out = []
        next32 = self.next32
        threshold = ((1 << 32) - n) % n
        for _ in range(size):
            m = next32() * n
            if (m & MASK32) < n:
                while (m & MASK32) < threshold:
                    m = next32() * n
            out.append(m >> 32)
        return out


def percentile(values, q):
    s = sorted(values)
    n = len(s)
    virtual = (n - 1) * (q / 100)
    lo = min(max(math.floor(virtual), 0), n - 1)
    hi = min(lo + 1, n - 1)
    g = virtual - math.floor(virtual)
    a, b = s[lo], s[hi]
    return b - (b - a) * (1 - g) if g >= 0.5 else a + (b - a) * g


# --- the statistics, written the plain way


def flip_rate(pair):
    k = len(pair["act"])
    if k < 2:
        return None
    outcomes = list(zip(pair["act"], pair["hold"]))
    differ = sum(1 for s in range(k) for t in range(s + 1, k) if outcomes[s] != outcomes[t])
    return differ / (k * (k - 1) / 2) * 100


def means(pairs):
    sa = sh = 0.0
    for p in pairs:
        k = len(p["act"])
        sa += sum(p["act"]) / k
        sh += sum(p["hold"]) / k
    n = len(pairs)
    act, hold = 100 * sa / n, 100 * sh / n
    return {"act": act, "hold": hold, "decision": (act + hold) / 2}


def stability(pairs):
    rates = [r for r in (flip_rate(p) for p in pairs) if r is not None]
    most = max(len(p["act"]) for p in pairs)
    by_trial = []
    for t in range(most):
        have = [p for p in pairs if t < len(p["act"])]
        a = sum(p["act"][t] for p in have)
        h = sum(p["hold"][t] for p in have)
        by_trial.append((100 * a / len(have) + 100 * h / len(have)) / 2)
    spread = None
    if len(by_trial) >= 2:
        mean = sum(by_trial) / len(by_trial)
        squares = 0.0
        for v in by_trial:
            squares += (v - mean) * (v - mean)
        spread = math.sqrt(squares / (len(by_trial) - 1))
    return {
        "meanFlipRate": (sum(rates) / len(rates)) if rates else None,
        "stableShare": (sum(1 for r in rates if r == 0) / len(rates) * 100) if rates else None,
        "decisionByTrial": by_trial,
        "decisionSpread": spread,
    }


def clusters_of(pairs):
    keys = sorted({p["cluster"] for p in pairs})
    return keys, {k: sorted((p for p in pairs if p["cluster"] == k), key=lambda p: p["id"]) for k in keys}


def resample_pair(p, rng):
    k = len(p["act"])
    idx = rng.integers(k, k)
    return sum(p["act"][t] for t in idx) / k, sum(p["hold"][t] for t in idx) / k


def two_level(pairs, B, seed):
    keys, members = clusters_of(pairs)
    rng = Pcg64(seed)
    dec, act, hold = [], [], []
    for _ in range(B):
        n, sa, sh = 0, 0.0, 0.0
        for c in rng.integers(len(keys), len(keys)):
            for p in members[keys[c]]:
                a, h = resample_pair(p, rng)
                n += 1
                sa += a
                sh += h
        act.append(sa / n * 100)
        hold.append(sh / n * 100)
        dec.append((sa / n + sh / n) / 2 * 100)
    return dec, act, hold


def paired_two_level(pairs_a, pairs_b, B, seed):
    keys, ma = clusters_of(pairs_a)
    _, mb = clusters_of(pairs_b)
    rng = Pcg64(seed)
    diffs = []
    for _ in range(B):
        n, aa, ha, ab, hb = 0, 0.0, 0.0, 0.0, 0.0
        for c in rng.integers(len(keys), len(keys)):
            for pa, pb in zip(ma[keys[c]], mb[keys[c]]):
                x, y = resample_pair(pa, rng)
                u, v = resample_pair(pb, rng)
                n += 1
                aa += x
                ha += y
                ab += u
                hb += v
        diffs.append((ab / n + hb / n) / 2 * 100 - (aa / n + ha / n) / 2 * 100)
    return diffs


def r(x):
    return None if x is None else repr(float(x))


def interval(values):
    return [r(percentile(values, 2.5)), r(percentile(values, 97.5))]


def expected(pairs, B, seed):
    dec, act, hold = two_level(pairs, B, seed)
    m = means(pairs)
    s = stability(pairs)
    return {
        "means": {k: r(v) for k, v in m.items()},
        "flipRates": [r(flip_rate(p)) for p in pairs],
        "meanFlipRate": r(s["meanFlipRate"]),
        "stableShare": r(s["stableShare"]),
        "decisionByTrial": [r(v) for v in s["decisionByTrial"]],
        "decisionSpread": r(s["decisionSpread"]),
        "decision95": interval(dec),
        "act95": interval(act),
        "hold95": interval(hold),
        "decisionFirst5": [r(v) for v in dec[:5]],
    }


# --- inputs


class Lcg:
    """A tiny deterministic source of synthetic outcomes (not the bootstrap's stream)."""

    def __init__(self, seed):
        self.x = seed

    def uniform(self):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & MASK64
        return (self.x >> 11) / float(1 << 53)


def synthetic(n_clusters, trials, p_act, p_hold, seed, ragged=False):
    g = Lcg(seed)
    pairs = []
    order = list(range(n_clusters * 3))
    for i in range(len(order) - 1, 0, -1):
        j = int(g.uniform() * (i + 1))
        order[i], order[j] = order[j], order[i]
    for c in order[:n_clusters]:
        size = 1 + int(g.uniform() * 3)
        # a per-pair propensity, so some pairs are stable and others flip
        for j in range(size):
            pa = min(1.0, max(0.0, p_act + (g.uniform() - 0.5)))
            ph = min(1.0, max(0.0, p_hold + (g.uniform() - 0.5)))
            k = trials - (1 if ragged and g.uniform() < 0.2 else 0)
            pairs.append({
                "cluster": f"multi_turn_base_{c}",
                "id": f"multi_turn_miss_param_{c}_{j}" if j % 2 else f"multi_turn_miss_func_{c}_{j}",
                "act": [g.uniform() < pa for _ in range(k)],
                "hold": [g.uniform() < ph for _ in range(k)],
            })
    return pairs


def fnv1a(text):
    h = 0x811C9DC5
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 0x01000193) & MASK32
    return h


def coin_acts(seed, trial, item_id, anchor, p):
    """The scripted trial policy's coin: it acts on an item's anchor turn in a trial when the hash falls below p."""
    return fnv1a(f"{seed}:{trial}:{item_id}@{anchor}") / 2**32 < p


def certified_pairs():
    """The v4 manifest's scored pairs (Table 1's 223), in manifest order."""
    with open(os.path.join(ROOT, "data", "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    return [p for p in manifest["pairs"] if p["status"] == "scored"]


def policy_pairs(pairs, seed, trials, p_base, p_miss):
    """Each pair's outcomes under the policy: acted on base with p_base, held back on the should-ask twin unless it acted (p_miss)."""
    out = []
    for p in pairs:
        anchor = p["anchorTurn"]
        out.append({
            "cluster": p["baseId"],
            "id": p["missId"],
            "act": [coin_acts(seed, t, p["baseId"], anchor, p_base) for t in range(trials)],
            "hold": [not coin_acts(seed, t, p["missId"], anchor, p_miss) for t in range(trials)],
        })
    return out


def main():
    if "--stdin" in sys.argv:
        # one model's outcomes from a test: {"pairs": [...], "B": n, "seed": s} -> the expected numbers
        given = json.load(sys.stdin)
        if "a" in given:
            # two arms on the same pairs: {"a", "b", "B", "seed"} -> the paired difference's interval
            print(json.dumps({"difference95": interval(paired_two_level(given["a"], given["b"], given["B"], given["seed"]))}))
        else:
            print(json.dumps(expected(given["pairs"], given["B"], given["seed"])))
        return
    cases = []
    for name, pairs, B, seed in [
        ("5 clusters, 3 trials", synthetic(5, 3, 0.6, 0.7, 1), 400, 1),
        ("40 clusters, 5 trials", synthetic(40, 5, 0.7, 0.6, 2), 1000, 20260612),
        ("30 clusters, 4 or 5 trials", synthetic(30, 5, 0.5, 0.5, 3, ragged=True), 500, 7),
        ("25 clusters, 1 trial", synthetic(25, 1, 0.6, 0.6, 4), 500, 11),
    ]:
        cases.append({"name": name, "B": B, "seed": seed, "pairs": pairs, "expected": expected(pairs, B, seed)})
    paired_a = synthetic(20, 3, 0.6, 0.6, 5)
    paired_b = [dict(p, act=[not x if i == 0 else x for i, x in enumerate(p["act"])]) for p in synthetic(20, 3, 0.6, 0.6, 5)]
    paired = {"B": 500, "seed": 3, "a": paired_a, "b": paired_b, "difference95": interval(paired_two_level(paired_a, paired_b, 500, 3))}

    manifest_pairs = certified_pairs()
    policy = {"seed": 17, "trials": 5, "pBase": 0.7, "pMiss": 0.4, "B": 1000, "bootstrapSeed": 20260612}
    outcomes = policy_pairs(manifest_pairs, policy["seed"], policy["trials"], policy["pBase"], policy["pMiss"])
    policy["pairs"] = [{"cluster": p["cluster"], "id": p["id"]} for p in outcomes]
    policy["expected"] = expected(outcomes, policy["B"], policy["bootstrapSeed"])
    oracle = policy_pairs(manifest_pairs, policy["seed"], policy["trials"], 1.0, 0.0)
    policy["oracle"] = expected(oracle, policy["B"], policy["bootstrapSeed"])

    text = json.dumps({"cases": cases, "paired": paired, "policy": policy}, indent=1) + "\n"
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{OUT} differs from what tools/gen-trial-vectors.py computes", file=sys.stderr)
                sys.exit(1)
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
