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
          replayed step by step on a fresh instance per entry; only the sequences
          that add coverage are stored (see below);
  errors  hand-written sequences that walk the error branches and wrong-typed arguments.

Only calls to a public method of one of the four classes are executed, directly on the
instance with ast.literal_eval'd arguments (no eval of model text); other calls are
skipped because they cannot touch these classes' state.

long_context cases run on a SYNTHETIC filler, never on BFCL's: the constants of
src/simulator/classes/testdata/synthetic-long-context.py (our own made-up values, same
names and shapes as BFCL's long_context.py; the shape is checked against the BFCL module
at start) are swapped into BFCL's class modules in place of the names each module
imported from long_context, so BFCL's own code runs its long_context branches on them
and the TS tests can replay the same filler with no BFCL checkout. Each long_context
case starts from a pristine copy of these constants (BFCL shares them process-wide;
see the TS classes' notes).

Model sequences are kept only when they add coverage: every call is traced
(sys.settrace over the four class modules) and described by the line arcs it ran, the
exception text it raised (quoted parts and numbers blanked), and the type shape of its
arguments and result (int vs float, exponent floats, non-ASCII text, ...), plus the type
shape of every public attribute after each turn, and how its stored FC steps decode
(step and argument types, JSON escapes, number forms, nesting) and parse (syntax nodes,
string quoting and escapes, number forms of the rendered call): every step goes through
the TS decoder and parser, whatever class it calls. A model sequence is recorded when it
shows a feature that the gt and errors sequences and the model sequences kept before it
did not; the others add no coverage and are dropped (counts printed and stored in the
file as modelSequences).

Determinism: re-executes itself with TZ=UTC and PYTHONHASHSEED=0 (set iteration order
shows up in two error messages) and pins datetime.today() for
verify_traveler_information to TODAY below.

Usage: tools/gen-class-vectors.py --bfcl-root DIR [--version v4|v3] [--shared DIR] [--out DIR] [--filler FILE] [--all-model]
  (--bfcl-root: the berkeley-function-call-leaderboard folder of a Gorilla checkout, read-only;
   --version: its BFCL release. v4 (Gorilla 6ea57973) reads bfcl-v4/ and the gpt-oss FC runs and
   writes src/simulator/classes/testdata/; v3 final (Gorilla cd9429cc) reads bfcl-v3/ and the xLAM
   run, whose steps are the calls BFCL logged for them (inference_log), and writes testdata/v3/.
   Hand-written cases are the class's entry in tools/class-vector-errors.json plus, for v3, its
   "<class>@v3" entry; calls to methods the release's class lacks are left out.)
"""
import argparse
import ast
import copy
import datetime as dt
import glob
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inference_log import logged_step_texts  # noqa: E402

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


def parse_args():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser()
    p.add_argument("--bfcl-root", required=True)
    p.add_argument("--version", choices=["v3", "v4"], default="v4")
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "shared"))
    p.add_argument("--out")
    p.add_argument("--all-model", action="store_true", help="keep every model sequence (to check that the selection loses no coverage of the TS ports)")
    p.add_argument("--filler", default=os.path.join(here, "..", "src", "simulator", "classes", "testdata", "synthetic-long-context.py"))
    return p.parse_args()


ARGS = parse_args()
ARGS.out = ARGS.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "simulator", "classes", "testdata", *([] if ARGS.version == "v4" else [ARGS.version]))
sys.path.insert(0, os.path.abspath(ARGS.bfcl_root))
PKG = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code"
import importlib  # noqa: E402

long_context_module = importlib.import_module(PKG + ".long_context")
modules = {c: importlib.import_module(PKG + "." + m) for c, m in MODULES.items()}
CLASS_FILES = {os.path.realpath(m.__file__) for m in modules.values()}


def read_filler(path):
    """NAME -> value of every top-level `NAME = <literal>` in the synthetic filler module."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            sys.exit("%s:%d: expected NAME = <literal>" % (path, node.lineno))
        out[node.targets[0].id] = ast.literal_eval(node.value)
    return out


def shape(value, depth=0):
    """Type shape of a filler constant: containers by element shapes; record dicts (below the top) by their field names."""
    if isinstance(value, list):
        return ("list", frozenset(shape(v, depth + 1) for v in value))
    if isinstance(value, dict):
        keys = frozenset(value) if depth > 0 else frozenset(type(k).__name__ for k in value)
        return ("dict", keys, frozenset(shape(v, depth + 1) for v in value.values()))
    return type(value).__name__


SYNTHETIC = read_filler(ARGS.filler)
BFCL_NAMES = [n for n in dir(long_context_module) if n.isupper()]
if sorted(SYNTHETIC) != sorted(BFCL_NAMES):
    sys.exit("%s: names differ from BFCL's long_context.py: %s" % (ARGS.filler, sorted(set(SYNTHETIC) ^ set(BFCL_NAMES))))
for _name in BFCL_NAMES:
    if shape(SYNTHETIC[_name]) != shape(getattr(long_context_module, _name)):
        sys.exit("%s: %s does not have the shape of BFCL's constant" % (ARGS.filler, _name))
# One shared object per name, bound in long_context and in every class module that imported it.
for _name, _value in SYNTHETIC.items():
    _shared = copy.deepcopy(_value)
    for _mod in [long_context_module, *modules.values()]:
        if hasattr(_mod, _name):
            setattr(_mod, _name, _shared)
PRISTINE_FILLER = SYNTHETIC


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


# Coverage features of the calls run while this is a set (see the module docstring).
FEATURES = None


def value_shape(v, depth=0):
    """Type shape of an argument or result; value classes that format differently count apart."""
    if isinstance(v, bool) or v is None:
        return type(v).__name__
    if isinstance(v, int):
        return "int" if abs(v) < 2**53 else "int:big"
    if isinstance(v, float):
        r = repr(v)
        return "float:" + ("special" if r in ("inf", "-inf", "nan") else "e" if "e" in r else "integral" if v.is_integer() else "plain")
    if isinstance(v, str):
        return "str:non-ascii" if any(ord(c) > 127 for c in v) else "str:empty" if v == "" else "str"
    if depth >= 3:
        return type(v).__name__
    if isinstance(v, (list, tuple, set)):
        return (type(v).__name__, frozenset(value_shape(x, depth + 1) for x in v))
    if isinstance(v, dict):
        keys = frozenset(k for k in v if isinstance(k, str)) if depth == 0 else frozenset(value_shape(k, depth + 1) for k in v)
        return ("dict", keys, frozenset(value_shape(x, depth + 1) for x in v.values()))
    return type(v).__name__


def traced(fn, arcs):
    """fn() with the line arcs it runs in the four class modules added to `arcs`."""

    def global_trace(frame, event, arg):
        code = frame.f_code
        if code.co_filename not in CLASS_FILES:
            return None
        last = [-code.co_firstlineno]

        def local(frame, event, arg):
            if event == "line":
                arcs.add((code.co_filename, last[0], frame.f_lineno))
                last[0] = frame.f_lineno
            elif event == "return":
                arcs.add((code.co_filename, last[0], -code.co_firstlineno))
            return local

        return local

    sys.settrace(global_trace)
    try:
        return fn()
    finally:
        sys.settrace(None)


def run_call(inst, text):
    parsed = parse_call(text)
    name, args, kwargs = parsed
    arcs = set()
    try:
        result = traced(lambda: getattr(inst, name)(*args, **kwargs), arcs)
        rendered = render(result)
        outcome = ("result", name, value_shape(result))
    except Exception as e:  # noqa: BLE001 - BFCL catches everything
        rendered = "Error during execution: %s" % (e,)
        outcome = ("raised", name, type(e).__name__, re.sub(r"'[^']*'|\d+(\.\d+)?", "_", str(e)))
    if FEATURES is not None:
        FEATURES.update(("arc",) + a for a in arcs)
        FEATURES.add(outcome)
        FEATURES.add(("args", name, tuple(value_shape(a) for a in args), tuple(sorted((k, str(value_shape(v))) for k, v in kwargs.items()))))
    return rendered


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
        results = [run_call(inst, text) for text in calls]
        state = public_state(inst)
        if FEATURES is not None:
            FEATURES.update(("state", k, value_shape(v)) for k, v in vars(inst).items() if not k.startswith("_"))
        # only the attributes whose repr changed since the previous turn (or since loading)
        delta = {k: v for k, v in state if previous.get(k) != v}
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
    """A file of the release's data (names given with the v4 prefix, `BFCL_v4_…`)."""
    *folders, name = parts
    return os.path.join(ARGS.shared, f"bfcl-{ARGS.version}", *folders, name.replace("BFCL_v4_", f"BFCL_{ARGS.version}_"))


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


def json_text_features(text):
    """Lexical features of a JSON argument string that select different paths of a JSON reader."""
    feats = set()
    i, n, depth, max_depth = 0, len(text), 0, 0
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    e = text[j + 1] if j + 1 < n else ""
                    if e == "u":
                        code = int(text[j + 2:j + 6], 16) if re.fullmatch(r"[0-9a-fA-F]{4}", text[j + 2:j + 6]) else -1
                        feats.add(("json-escape", "u-ascii" if 0 <= code < 128 else "u-surrogate" if 0xD800 <= code < 0xE000 else "u-bmp" if code >= 0 else "u-bad"))
                        j += 6
                        continue
                    feats.add(("json-escape", e))
                    j += 2
                    continue
                ch = text[j]
                if ord(ch) < 32:
                    feats.add(("json-raw-control",))
                elif ord(ch) > 127:
                    feats.add(("json-raw-non-ascii", "astral" if ord(ch) > 0xFFFF else "bmp"))
                j += 1
            feats.add(("json-string", "empty" if j == i + 1 else "text"))
            i = j + 1
            continue
        if c in "[{":
            depth += 1
            max_depth = max(max_depth, depth)
            if text[i + 1:].lstrip()[:1] in ("]", "}"):
                feats.add(("json-empty", c))
        elif c in "]}":
            depth -= 1
        elif c in " \t\r\n":
            feats.add(("json-space", repr(c)))
        else:
            m = re.compile(r"-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|NaN|-?Infinity").match(text, i)
            if m:
                tok = m.group(0)
                if tok[0] in "-0123456789":
                    feats.add(("json-number", tok.startswith("-"), m.group(1) is not None, m.group(2) is not None, len(tok.lstrip("-")) > 15))
                else:
                    feats.add(("json-literal", tok))
                i = m.end()
                continue
            feats.add(("json-other", c))
        i += 1
    feats.add(("json-depth", min(max_depth, 4)))
    return feats


def call_text_features(text):
    """Syntax features of a rendered call string (the TS side parses every one with its own Python parser)."""
    import io
    import tokenize

    feats = set()
    try:
        feats |= {("ast", type(node).__name__) for node in ast.walk(ast.parse(text.strip(), mode="eval"))}
    except (SyntaxError, ValueError) as e:
        feats.add(("py-call-unparsable", re.sub(r"'[^']*'|U\+[0-9A-F]+|\d+", "_", str(getattr(e, "msg", e)))))
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text.strip()).readline):
            if tok.type == tokenize.ERRORTOKEN:
                feats.add(("py-errortoken", tok.string if tok.string.isascii() else "non-ascii"))
            if tok.type == tokenize.STRING:
                body = tok.string
                feats.add(("py-string", body[:3] in ('"""', "'''"), body[0]))
                feats |= {("py-escape", e[1] if e[1] not in "01234567" else "octal") for e in re.findall(r"\\.", body)}
                feats |= {("py-raw-non-ascii", "astral" if ord(c) > 0xFFFF else "bmp") for c in body if ord(c) > 127}
            elif tok.type == tokenize.NUMBER:
                t = tok.string.lower()
                feats.add(("py-number", "." in t, "e" in t, t.endswith("j"), len(t) > 15))
            elif tok.type == tokenize.OP:
                feats.add(("py-op", tok.string))
    except (SyntaxError, tokenize.TokenError, ValueError) as e:
        feats.add(("py-tokenize-error", type(e).__name__))
    return feats


def step_features(step):
    """How one stored FC step decodes (every step of a turn goes through the TS decoder)."""
    feats = {("step", type(step).__name__)}
    if isinstance(step, list):
        for item in step:
            feats.add(("step-item", type(item).__name__))
            if isinstance(item, dict):
                feats.add(("step-item-calls", min(len(item), 2)))
                for args in item.values():
                    feats.add(("step-args", type(args).__name__))
                    if isinstance(args, str):
                        feats |= json_text_features(args)
                        try:
                            feats.add(("step-args-json", type(json.loads(args)).__name__))
                        except json.JSONDecodeError as e:
                            feats.add(("step-args-json", "error", re.sub(r"\d+", "_", e.msg)))
    for call in fc_step_calls(step):
        feats |= call_text_features(call)
    return feats


def stored_runs():
    """(run, model, category, result file) of the stored model runs of this release: gpt-oss FC for v4, xLAM for v3."""
    if ARGS.version == "v3":
        model = "Salesforce_Llama-xLAM-2-8b-fc-r"
        for cat in ["base", "miss_func", "miss_param"]:
            yield "", model, cat, os.path.join(ARGS.shared, "rollouts", "xlam-v3", "result", model, "BFCL_v3_multi_turn_%s_result.json" % cat)
        return
    root = os.path.join(ARGS.shared, "rollouts", "gpt-oss")
    for path in sorted(glob.glob(os.path.join(root, "*", "result", "*", "multi_turn", "BFCL_v4_multi_turn_*_result.json"))):
        yield path.split(os.sep)[-5], path.split(os.sep)[-3], os.path.basename(path)[len("BFCL_v4_multi_turn_"):-len("_result.json")], path


def model_cases(cls_name, seen):
    """Model sequences that add a coverage feature not in `seen` (updated); also returns how many were considered."""
    global FEATURES
    cases = []
    considered = 0
    for run, model, cat, path in stored_runs():
        entries = {e["id"]: e for e in load_jsonl(data_path("BFCL_v4_multi_turn_%s.json" % cat))}
        for line in load_jsonl(path):
            e = entries[line["id"]]
            if cls_name not in e["involved_classes"] or not isinstance(line["result"], list):
                continue
            step_calls = logged_step_texts(line) if ARGS.version == "v3" else [[fc_step_calls(step) for step in turn] for turn in line["result"]]
            turns = [[c for calls in steps for c in calls if belongs(cls_name, c)] for steps in step_calls]
            if not any(turns):
                continue
            config = e["initial_config"].get(cls_name, {})
            considered += 1
            FEATURES = set()
            if ARGS.version == "v3":
                for steps in step_calls:
                    for calls in steps:
                        for call in calls:
                            FEATURES |= call_text_features(call)
            else:
                for turn in line["result"]:
                    for step in turn:
                        FEATURES |= step_features(step)
            try:
                record = recorded(replay(cls_name, config, turns, False, False))
                new = FEATURES - seen
            finally:
                FEATURES = None
            if not new and not ARGS.all_model:
                continue
            seen |= new
            source = {"kind": "model", "run": run, "model": model, "category": cat, "entry": e["id"]}
            if not run:
                del source["run"]
            cases.append({"name": " ".join(x for x in ["model", run, model, e["id"]] if x), "source": source, "longContext": False, **record})
    return cases, considered


def error_cases(cls_name):
    """Hand-written sequences: configs inline, one turn per list."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "class-vector-errors.json")
    with open(path, encoding="utf-8") as f:
        specs = json.load(f)
    spec = specs[cls_name] + (specs.get("%s@%s" % (cls_name, ARGS.version), []) if ARGS.version != "v4" else [])
    cases = []
    for case in spec:
        lc = case.get("longContext", False)
        if lc:
            reset_filler()
        # calls to methods this release's class does not have are left out
        turns = [[c for c in turn if belongs(cls_name, c)] for turn in case["turns"]]
        cases.append({"name": "errors " + case["name"], "source": {"kind": "inline", "configJson": json.dumps(case.get("config", {}))},
                      "longContext": lc, **recorded(replay(cls_name, case.get("config", {}), turns, lc, True))})
    return cases


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    for cls_name in CLASSES:
        global FEATURES
        FEATURES = set()
        try:
            fixed = gt_cases(cls_name) + error_cases(cls_name)
            seen = FEATURES
        finally:
            FEATURES = None
        fixed_features = len(seen)
        fixed_arcs = sum(1 for f in seen if f[0] == "arc")
        model, considered = model_cases(cls_name, seen)
        cases = fixed + model
        probe = new_instance(cls_name, {}, False)
        doc = {"class": cls_name, **({"version": ARGS.version} if ARGS.version != "v4" else {}), "today": list(TODAY),
               "attributes": [k for k, _ in public_state(probe)],
               "generator": "tools/gen-class-vectors.py",
               "filler": "src/simulator/classes/testdata/synthetic-long-context.py",
               "modelSequences": {"considered": considered, "kept": len(model)},
               "cases": cases}
        out = os.path.join(ARGS.out, FILE_NAMES[cls_name] + ".vectors.json")
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        os.replace(out + ".tmp", out)
        calls = sum(len(t["results"]) for c in cases for t in c["turns"])
        print("%s: %d cases (model sequences: %d of %d kept), %d calls, coverage features %d (%d arcs) from gt+errors, %d (%d arcs) with model -> %s"
              % (cls_name, len(cases), len(model), considered, calls, fixed_features, fixed_arcs, len(seen), sum(1 for f in seen if f[0] == "arc"), out))


main()
