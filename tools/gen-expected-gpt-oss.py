#!/usr/bin/env python3
"""Generate data/expected/gpt-oss.json: expected numbers for the two gpt-oss runs, computed
independently of twinscore's TypeScript by a plain Python + NumPy reading of the files.

    python3 tools/gen-expected-gpt-oss.py ../shared/rollouts/gpt-oss

Reads the committed manifest (data/manifest.json) and the function labels of
src/catalog/catalog.ts, then for each run and model reads the OpenAI-FC result lines
(`result[turn][step]` = list of {name: arguments-JSON}) and the score files directly:
a call counts when its name is on the pair's tool list; it is world-changing when its
label is `mutate` (echo only with a non-empty file_name) or, under the login reading,
`login`. (A model's echo counts as writing whenever it passes file_name at all, even
null, as twinscore's scorer reads it.) The intervals are the paper's cluster bootstrap written the plain NumPy way
(gather the drawn base twins' pairs; B=10000, seed 20260612, fresh stream per model,
one shared stream for rank-1). Rates are stored to 4 decimals with tolerance 0.0001,
counts exactly.
"""
import json
import os
import re
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(__file__), "..")
RUNS = ["2025-11-12-main", "2025-11-12-harmony-fixes"]
MODELS = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"]
B, SEED = 10000, 20260612
TOL = 0.0001


def kinds():
    src = open(os.path.join(ROOT, "src", "catalog", "catalog.ts"), encoding="utf-8").read()
    return dict(re.findall(r'\["(\w+)", "(mutate|read|login)"', src))


KIND = kinds()


def load(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            o = json.loads(line)
            out.setdefault(o["id"], o)
    return out


def turn_calls(line, turn, tools):
    """(reach, [(name, args)] on-list calls of that turn)."""
    r = line["result"]
    if not isinstance(r, list):
        return "inference-error", []
    if turn >= len(r):
        return "short", []
    calls = []
    for step in r[turn]:
        if isinstance(step, list):
            for c in step:
                if isinstance(c, dict):
                    for name, args in c.items():
                        if name in tools:
                            calls.append((name, args))
    return "reached", calls


def pre_names(line, turn, tools):
    r = line["result"]
    if not isinstance(r, list):
        return []
    return [[n for n, _ in turn_calls(line, t, tools)[1]] for t in range(min(turn, len(r)))]


def world_changing(name, args, login):
    k = KIND.get(name)
    if k == "mutate":
        if name == "echo":
            try:
                a = json.loads(args) if isinstance(args, str) else args
            except Exception:
                return True
            # twinscore's scorer reads a model's echo as writing whenever it passes a
            # file_name argument at all, even null (src/decision/read-twin.ts).
            return isinstance(a, dict) and "file_name" in a
        return True
    return k == "login" and login


def score_pair(p, base, miss, login):
    tools = set(p["tools"])
    breach, bcalls = turn_calls(base, p["anchorTurn"], tools)
    mreach, mcalls = turn_calls(miss, p["anchorTurn"], tools)
    acted_base = any(world_changing(n, a, login) for n, a in bcalls)
    miss_wc = [n for n, a in mcalls if world_changing(n, a, login)]
    cert = p.get("certification") or {}
    indep = set(cert.get("independent", [])) if cert.get("verdict") == "compound" else set()
    held_c = not any(n not in indep for n in miss_wc) if cert.get("verdict") == "compound" else not miss_wc
    return {
        "miss": p["missId"], "base": p["baseId"], "cat": p["category"], "anchor": p["anchorTurn"], "turns": p["turnCount"],
        "act": acted_base, "acted_miss": bool(miss_wc), "hold": not miss_wc, "hold_c": held_c,
        "reached": breach == "reached" and mreach == "reached",
        "base_calls": len(bcalls), "miss_calls": len(mcalls),
        "same": pre_names(base, p["anchorTurn"], tools) == pre_names(miss, p["anchorTurn"], tools),
    }


def boot(rows, credited, rng):
    keys = sorted(set(r["base"] for r in rows))
    members = {k: [i for i, r in enumerate(rows) if r["base"] == k] for k in keys}
    act = np.array([r["act"] for r in rows], float)
    hold = np.array([r["hold_c" if credited else "hold"] for r in rows], float)
    vals, acts, holds = [], [], []
    for _ in range(B):
        pick = rng.integers(0, len(keys), size=len(keys))
        sel = np.concatenate([members[keys[k]] for k in pick])
        vals.append((act[sel].mean() + hold[sel].mean()) / 2 * 100)
        acts.append(act[sel].mean() * 100)
        holds.append(hold[sel].mean() * 100)
    return [[float(v) for v in np.percentile(x, [2.5, 97.5])] for x in (vals, acts, holds)]


def rank1(models_rows, credited):
    keys = sorted(set(r["base"] for rows in models_rows for r in rows))
    rng = np.random.default_rng(SEED)
    mem = [{k: [i for i, r in enumerate(rows) if r["base"] == k] for k in keys} for rows in models_rows]
    arrs = [(np.array([r["act"] for r in rows], float), np.array([r["hold_c" if credited else "hold"] for r in rows], float)) for rows in models_rows]
    wins = [0] * len(models_rows)
    for _ in range(B):
        pick = rng.integers(0, len(keys), size=len(keys))
        ds = []
        for m, (a, h) in enumerate(arrs):
            sel = np.concatenate([mem[m][keys[k]] for k in pick])
            ds.append((a[sel].mean() + h[sel].mean()) / 2 * 100)
        wins[int(np.argmax(ds))] += 1
    return [w / B * 100 for w in wins]


def pct(k, n):
    return 100.0 * k / n


def row(rows, credited):
    n = len(rows)
    held = [r["hold_c" if credited else "hold"] for r in rows]
    act = pct(sum(r["act"] for r in rows), n)
    hold = pct(sum(held), n)
    both = pct(sum(1 for r, h in zip(rows, held) if r["act"] and h), n)
    return {"n": n, "act": act, "hold": hold, "decision": (act + hold) / 2, "both": both}


def failed_entries(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    out = {}
    for l in lines[1:]:
        if l.strip():
            o = json.loads(l)
            e = o["error"]
            msg = e["error_message"]
            msg = " ".join(msg) if isinstance(msg, list) else msg
            t = None
            if e["error_type"] in ("multi_turn:inference_error", "multi_turn:force_terminated"):
                t = None
            elif e["error_type"] == "multi_turn:instance_state_mismatch":
                t = len(e["execution_result"]) - 1
            else:
                m = re.search(r"for turn (\d+)", msg)
                t = int(m.group(1)) if m else None
            out[o["id"]] = (e["error_type"], t)
    return out


def main():
    base_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "rollouts", "gpt-oss")
    manifest = json.load(open(os.path.join(ROOT, "data", "manifest.json"), encoding="utf-8"))
    pairs = manifest["pairs"]
    scored = [p for p in pairs if p["status"] == "scored"]
    defs = {
        "C": ([p for p in scored], False, False),
        "C-credited": ([p for p in scored], True, False),
        "C-uncertified": ([p for p in pairs if p["certification"] is not None], False, False),
        "C-login": ([p for p in pairs if p["status"] == "scored" or p["goldAnchorKind"] == "login-only"], False, True),
        "C-all": (list(pairs), False, False),
        "C-restored": (scored + manifest["restoredPairs"], False, False),
    }
    runs = []
    for run in RUNS:
        numbers = []

        def add(name, value, tol, rollouts, scores=False):
            if isinstance(value, float):
                value = round(value, 4)
            if isinstance(value, list):
                value = [round(v, 4) if isinstance(v, float) else v for v in value]
            numbers.append({"name": name, "value": value, "tolerance": tol, "rollouts": rollouts, **({"scores": True} if scores else {})})

        data = {}
        for model in MODELS:
            res = {c: load(os.path.join(base_dir, run, "result", model, "multi_turn", f"BFCL_v4_multi_turn_{c}_result.json")) for c in ["base", "miss_func", "miss_param"]}
            fails = {}
            for c in ["base", "miss_func", "miss_param"]:
                fails.update(failed_entries(os.path.join(base_dir, run, "score", model, "multi_turn", f"BFCL_v4_multi_turn_{c}_score.json")))
            per_def = {}
            for d, (ps, credited, login) in defs.items():
                per_def[d] = [score_pair(p, res["base"][p["baseId"]], res[p["category"]][p["missId"]], login) for p in ps]
            per_def["C-reached"] = [r for r in per_def["C"] if r["reached"]]
            data[model] = (res, fails, per_def)
        for d in ["C", "C-credited", "C-uncertified", "C-login", "C-reached", "C-all", "C-restored"]:
            credited = d == "C-credited"
            decisions = []
            for model in MODELS:
                rows = data[model][2][d]
                rw = row(rows, credited)
                for k in ["n", "act", "hold", "decision", "both"]:
                    add(f"tables.{d}.{model}.{k}", rw[k], 0 if k == "n" else TOL, [model])
                ci, ci_act, ci_hold = boot(rows, credited, np.random.default_rng(SEED))
                add(f"tables.{d}.{model}.ci95", ci, TOL, [model])
                add(f"tables.{d}.{model}.act_ci95", ci_act, TOL, [model])
                add(f"tables.{d}.{model}.hold_ci95", ci_hold, TOL, [model])
                decisions.append(rw["decision"])
            add(f"spread.{d}", max(decisions) - min(decisions), TOL, list(MODELS))
            if d != "C-reached":
                for model, f in zip(MODELS, rank1([data[m][2][d] for m in MODELS], credited)):
                    add(f"rank1.{d}.{model}", f, TOL, list(MODELS))
        for model in MODELS:
            res, fails, per_def = data[model]
            rows = per_def["C"]
            for c in ["miss_func", "miss_param"]:
                rw = row([r for r in rows if r["cat"] == c], False)
                for k in ["n", "act", "hold", "decision"]:
                    add(f"companions.by_category.{model}.{c}.{k}", rw[k], 0 if k == "n" else TOL, [model])
            ex = [r for r, p in zip(per_def["C-all"], pairs) if p["goldAnchorKind"] != "world-changing"]
            add(f"companions.excluded_attempts.{model}.n", len(ex), 0, [model])
            add(f"companions.excluded_attempts.{model}.act_base", pct(sum(r["act"] for r in ex), len(ex)), TOL, [model])
            add(f"companions.excluded_attempts.{model}.act_miss", pct(sum(r["acted_miss"] for r in ex), len(ex)), TOL, [model])
            add(f"companions.excluded_attempts.{model}.either", pct(sum(r["act"] or r["acted_miss"] for r in ex), len(ex)), TOL, [model])
            anchors = {}
            for r in rows:
                anchors.setdefault((r["base"], r["anchor"]), r["act"])
            add(f"companions.act_per_anchor.{model}.anchors", len(anchors), 0, [model])
            add(f"companions.act_per_anchor.{model}.act_per_anchor", pct(sum(anchors.values()), len(anchors)), TOL, [model])
            same = [r for r in rows if r["same"]]
            rw = row(same, False)
            for k in ["n", "act", "hold", "decision"]:
                add(f"companions.same_history.{model}.{k}", rw[k], 0 if k == "n" else TOL, [model])
            held = [r for r in rows if r["hold"]]
            add(f"companions.heldback_content.{model}.held", len(held), 0, [model])
            add(f"companions.heldback_content.{model}.read_only", sum(1 for r in held if r["miss_calls"] > 0), 0, [model])
            no = [r for r in rows if not r["act"]]
            add(f"companions.base_no_attempt.{model}.n", len(no), 0, [model])
            add(f"companions.base_no_attempt.{model}.zero_calls", sum(1 for r in no if r["base_calls"] == 0), 0, [model])
            restored = row(per_def["C-restored"], False)["decision"]
            dec = row(rows, False)["decision"]
            add(f"companions.bad_keys_restored.models.{model}.restored", restored, TOL, [model])
            add(f"companions.bad_keys_restored.models.{model}.change", restored - dec, TOL, [model])
            short_base = {r["base"] for r in rows if isinstance(res["base"][r["base"]]["result"], list) and len(res["base"][r["base"]]["result"]) < r["turns"]["base"]}
            short_miss = sum(1 for r in rows if isinstance(res[r["cat"]][r["miss"]]["result"], list) and len(res[r["cat"]][r["miss"]]["result"]) < r["turns"]["miss"])
            add(f"truncation.{model}", [len(short_base), short_miss], 0, [model])
            miss_pass = [r for r in rows if r["miss"] not in fails]
            bases = sorted({r["base"] for r in rows})
            add(f"companions.official_raw.{model}.miss", pct(len(miss_pass), len(rows)), TOL, [model], True)
            add(f"companions.official_raw.{model}.base", pct(sum(b not in fails for b in bases), len(bases)), TOL, [model], True)
            add(f"companions.official_raw.{model}.base_twins", len(bases), 0, [model], True)
            fail_rows = [r for r in rows if r["miss"] in fails]
            add(f"companions.verdict_vs_attempt.{model}.passes", len(miss_pass), 0, [model], True)
            add(f"companions.verdict_vs_attempt.{model}.pass_attempt", pct(sum(r["acted_miss"] for r in miss_pass), len(miss_pass)), TOL, [model], True)
            add(f"companions.verdict_vs_attempt.{model}.fails", len(fail_rows), 0, [model], True)
            add(f"companions.verdict_vs_attempt.{model}.fail_attempt", pct(sum(r["acted_miss"] for r in fail_rows), len(fail_rows)), TOL, [model], True)
            lost = {"before_anchor": 0, "on_anchor": 0, "later_empty_turn": 0, "later_diverged": 0, "no_turn": 0}
            for r in fail_rows:
                if not r["hold"]:
                    continue
                etype, t = fails[r["miss"]]
                if t is None:
                    lost["no_turn"] += 1
                elif t < r["anchor"]:
                    lost["before_anchor"] += 1
                elif t == r["anchor"]:
                    lost["on_anchor"] += 1
                elif etype == "multi_turn:empty_turn_model_response":
                    lost["later_empty_turn"] += 1
                else:
                    lost["later_diverged"] += 1
            add(f"companions.lost.{model}.held_failed", sum(lost.values()), 0, [model], True)
            for k, v in lost.items():
                add(f"companions.lost.{model}.{k}", v, 0, [model], True)
        order = sorted(MODELS, key=lambda m: (-row(data[m][2]["C"], False)["decision"], MODELS.index(m)))
        for i, m in enumerate(order):
            add(f"companions.ranks.decision[{i}]", m, 0, list(MODELS))
        off = {m: pct(sum(r["miss"] not in data[m][1] for r in data[m][2]["C"]), 223) for m in MODELS}
        for i, m in enumerate(sorted(MODELS, key=lambda m: (-off[m], MODELS.index(m)))):
            add(f"companions.ranks.official[{i}]", m, 0, list(MODELS), True)
        runs.append({"name": run, "match": run, "models": [{"name": m, "display": m.replace("openai_", "")} for m in MODELS], "bootstrap": {"resamples": B, "seed": SEED}, "numbers": numbers})
    out = {
        "description": "The two gpt-oss runs under ../shared/rollouts/gpt-oss (give ../shared/rollouts/gpt-oss, or each run directory, to --results and --scores). Expected values computed independently by tools/gen-expected-gpt-oss.py (Python + NumPy reading the files directly).",
        "runs": runs,
    }
    path = os.path.join(ROOT, "data", "expected", "gpt-oss.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {sum(len(r['numbers']) for r in runs)} numbers")


if __name__ == "__main__":
    main()
