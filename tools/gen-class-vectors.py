#!/usr/bin/env python3
"""Test vectors for twinscore's TypeScript ports of four BFCL multi-turn API classes.

Runs BFCL's own Python classes (TicketAPI, TradingBot, TravelAPI, VehicleControlAPI;
read-only, imported from a BFCL source checkout) on real scenarios and records, per
call, the result string exactly as BFCL's executor renders it (str unchanged, dict ->
json.dumps falling back to str, else str; exceptions -> "Error during execution: ..."),
and, after every turn, the public attribute names in vars() order plus repr() of each
attribute whose repr changed during that turn; the state right after loading is stored
as a sha256 digest of its "name=repr\n" lines.

Calls of gt and model cases are not stored: the TS test rebuilds them from the shared
BFCL data and rollouts (same filter, same FC rendering) and checks the per-turn counts.

Sequences:
  gt      every ground-truth call of base, miss_func, miss_param and long_context,
          executed turn by turn from each entry's initial_config (all entries that
          involve one of the four classes);
  model   the model's own calls from the stored gpt-oss rollouts (both stored runs,
          both models, base/miss_func/miss_param) (FC records
          {name: "<json args>"} rendered as name(k=repr(v),...) like BFCL does),
          replayed step by step on a fresh instance per entry;
  errors  hand-written sequences that walk the error branches and wrong-typed arguments.

Only calls to a public method of one of the four classes are executed, directly on the
instance with ast.literal_eval'd arguments (no eval of model text); other calls are
skipped because they cannot touch these classes' state.

long_context cases: result and state strings longer than 300 characters are stored as
"sha256:<hex>:<length>" so that BFCL's filler text is never committed. Each long_context
entry starts from a pristine copy of long_context.py's constants (BFCL shares them
process-wide; see the TS classes' notes).

Determinism: re-executes itself with TZ=UTC and PYTHONHASHSEED=0 (set iteration order
shows up in two error messages) and pins datetime.today() for
verify_traveler_information to TODAY below.

Usage: tools/gen-class-vectors.py [--bfcl-root DIR] [--shared DIR] [--out DIR]
"""
import argparse
import ast
import copy
import datetime as dt
import glob
import hashlib
import json
import os
import sys

if os.environ.get("TZ") != "UTC" or os.environ.get("PYTHONHASHSEED") != "0":
    env = dict(os.environ, TZ="UTC", PYTHONHASHSEED="0")
    os.execve(sys.executable, [sys.executable] + sys.argv, env)

import time  # noqa: E402

time.tzset()

TODAY = (2025, 11, 12)
CLASSES = ["TicketAPI", "TradingBot", "TravelAPI", "VehicleControlAPI"]
MODULES = {
    "TicketAPI": "ticket_api",
    "TradingBot": "trading_bot",
    "TravelAPI": "travel_booking",
    "VehicleControlAPI": "vehicle_control",
}
FILE_NAMES = {
    "TicketAPI": "ticket-api",
    "TradingBot": "trading-bot",
    "TravelAPI": "travel-api",
    "VehicleControlAPI": "vehicle-control",
}
CATEGORIES = ["base", "miss_func", "miss_param", "long_context"]
HASH_OVER = 300


def parse_args():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser()
    p.add_argument("--bfcl-root", default="/work/gorilla-src/berkeley-function-call-leaderboard")
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "shared"))
    p.add_argument("--out", default=os.path.join(here, "..", "src", "simulator", "classes", "testdata"))
    return p.parse_args()


ARGS = parse_args()
sys.path.insert(0, ARGS.bfcl_root)
PKG = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code"
import importlib  # noqa: E402

long_context_module = importlib.import_module(PKG + ".long_context")
modules = {c: importlib.import_module(PKG + "." + m) for c, m in MODULES.items()}
PRISTINE_FILLER = {n: copy.deepcopy(getattr(long_context_module, n)) for n in dir(long_context_module) if n.isupper()}


class FixedToday(dt.datetime):
    @classmethod
    def today(cls):
        return cls(*TODAY)


modules["TravelAPI"].datetime = FixedToday


def reset_filler():
    """Restore long_context.py's constants in place in every module that imported them."""
    for name, value in PRISTINE_FILLER.items():
        fresh = copy.deepcopy(value)
        for mod in [long_context_module, *modules.values()]:
            if hasattr(mod, name):
                current = getattr(mod, name)
                if isinstance(current, dict):
                    current.clear()
                    current.update(fresh)
                elif isinstance(current, list):
                    current[:] = fresh
                else:
                    setattr(mod, name, fresh)


def render(result):
    """BFCL's executor's result -> string rule."""
    if type(result) == str:
        return result
    if type(result) == dict:
        try:
            return json.dumps(result)
        except Exception:
            return str(result)
    return str(result)


def public_state(inst):
    """(name, repr(value)) of every public attribute, in vars() order."""
    return [(k, repr(v)) for k, v in vars(inst).items() if not k.startswith("_")]


def state_digest(state):
    """sha256 of the loaded state: "name=repr" lines, each ending in a newline."""
    text = "".join("%s=%s\n" % (k, v) for k, v in state)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def squash(s, long_context):
    if long_context and len(s) > HASH_OVER:
        return "sha256:%s:%d" % (hashlib.sha256(s.encode("utf-8")).hexdigest(), len(s))
    return s


def parse_call(text):
    """name, positional args, keyword args of a literal call string; None if not one."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return None
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                return None
            kwargs[k.arg] = ast.literal_eval(k.value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return node.func.id, args, kwargs


def run_call(inst, text):
    parsed = parse_call(text)
    name, args, kwargs = parsed
    try:
        return render(getattr(inst, name)(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - BFCL catches everything
        return "Error during execution: %s" % (e,)


def method_names(cls_name):
    cls = getattr(modules[cls_name], cls_name)
    return {n for n in dir(cls) if not n.startswith("_") and callable(getattr(cls, n))}


METHODS = {c: method_names(c) for c in CLASSES}


def new_instance(cls_name, config, long_context):
    inst = getattr(modules[cls_name], cls_name)()
    inst._load_scenario(copy.deepcopy(config), long_context=long_context)
    return inst


def replay(cls_name, config, turns, long_context, keep_calls):
    """turns: list of lists of call strings -> recorded turns."""
    inst = new_instance(cls_name, config, long_context)
    out = []
    initial = public_state(inst)
    previous = dict(initial)
    for calls in turns:
        results = [squash(run_call(inst, text), long_context) for text in calls]
        state = public_state(inst)
        # only the attributes whose repr changed since the previous turn (or since loading)
        delta = {k: squash(v, long_context) for k, v in state if previous.get(k) != v}
        previous = dict(state)
        turn = {"results": results, "state": delta}
        if keep_calls:
            turn = {"calls": calls, **turn}
        out.append(turn)
    return state_digest(initial), out


def recorded(pair):
    initial, turns = pair
    return {"initialState": initial, "turns": turns}


def belongs(cls_name, text):
    parsed = parse_call(text)
    return parsed is not None and parsed[0] in METHODS[cls_name]


def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def data_path(*parts):
    return os.path.join(ARGS.shared, "bfcl-v4", *parts)


def gt_cases(cls_name):
    cases = []
    for cat in CATEGORIES:
        entries = load_jsonl(data_path("BFCL_v4_multi_turn_%s.json" % cat))
        answers = {a["id"]: a["ground_truth"] for a in load_jsonl(data_path("possible_answer", "BFCL_v4_multi_turn_%s.json" % cat))}
        lc = cat == "long_context"
        for e in entries:
            if cls_name not in e["involved_classes"]:
                continue
            if lc:
                reset_filler()
            turns = [[c for c in turn if belongs(cls_name, c)] for turn in answers[e["id"]]]
            config = e["initial_config"].get(cls_name, {})
            cases.append({"name": "gt " + e["id"], "source": {"kind": "gt", "category": cat, "entry": e["id"]},
                          "longContext": lc, **recorded(replay(cls_name, config, turns, lc, False))})
    return cases


def fc_step_calls(step):
    """BFCL's convert_to_function_call for one FC step; [] when it would not decode."""
    if not isinstance(step, list):
        return []
    out = []
    for item in step:
        if not isinstance(item, dict):
            return []
        for name, args in item.items():
            try:
                params = json.loads(args) if isinstance(args, str) else args
            except json.JSONDecodeError:
                return []
            if not isinstance(params, dict):
                return []
            out.append("%s(%s)" % (name, ",".join("%s=%r" % (k, v) for k, v in params.items())))
    return out


def model_cases(cls_name):
    cases = []
    root = os.path.join(ARGS.shared, "rollouts", "gpt-oss")
    for path in sorted(glob.glob(os.path.join(root, "*", "result", "*", "multi_turn", "BFCL_v4_multi_turn_*_result.json"))):
        run = path.split(os.sep)[-5]
        model = path.split(os.sep)[-3]
        cat = os.path.basename(path)[len("BFCL_v4_multi_turn_"):-len("_result.json")]
        entries = {e["id"]: e for e in load_jsonl(data_path("BFCL_v4_multi_turn_%s.json" % cat))}
        for line in load_jsonl(path):
            e = entries[line["id"]]
            if cls_name not in e["involved_classes"] or not isinstance(line["result"], list):
                continue
            turns = []
            for turn in line["result"]:
                calls = []
                for step in turn:
                    calls.extend(c for c in fc_step_calls(step) if belongs(cls_name, c))
                turns.append(calls)
            if not any(turns):
                continue
            config = e["initial_config"].get(cls_name, {})
            cases.append({"name": "model %s %s %s" % (run, model, e["id"]),
                          "source": {"kind": "model", "run": run, "model": model, "category": cat, "entry": e["id"]},
                          "longContext": False, **recorded(replay(cls_name, config, turns, False, False))})
    return cases


def error_cases(cls_name):
    """Hand-written sequences: configs inline, one turn per list."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "class-vector-errors.json")
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)[cls_name]
    cases = []
    for case in spec:
        lc = case.get("longContext", False)
        if lc:
            reset_filler()
        cases.append({"name": "errors " + case["name"], "source": {"kind": "inline", "configJson": json.dumps(case.get("config", {}))},
                      "longContext": lc, **recorded(replay(cls_name, case.get("config", {}), case["turns"], lc, True))})
    return cases


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    for cls_name in CLASSES:
        cases = gt_cases(cls_name) + error_cases(cls_name) + model_cases(cls_name)
        probe = new_instance(cls_name, {}, False)
        doc = {"class": cls_name, "today": list(TODAY), "hashOver": HASH_OVER,
               "attributes": [k for k, _ in public_state(probe)],
               "generator": "tools/gen-class-vectors.py", "cases": cases}
        out = os.path.join(ARGS.out, FILE_NAMES[cls_name] + ".vectors.json")
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        os.replace(out + ".tmp", out)
        calls = sum(len(t["results"]) for c in cases for t in c["turns"])
        print("%s: %d cases, %d calls -> %s" % (cls_name, len(cases), calls, out))


main()
