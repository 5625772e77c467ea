#!/usr/bin/env python3
"""Test vectors for twinscore's TypeScript GorillaFileSystem, MathAPI, MessageAPI and
TwitterAPI (src/simulator/classes/), produced by running BFCL's own Python classes.

    python3 tools/class-vectors.py --bfcl-root <gorilla>/berkeley-function-call-leaderboard \
        [--version v4|v3] [--shared ../shared] [--out src/simulator/classes/vectors[/v3]]

`--version` names the BFCL release of the checkout (v4: bfcl-eval 2026.3.23, Gorilla 6ea57973;
v3: v3 final, Gorilla cd9429cc): its data (`bfcl-<version>/`) is read, and the model calls
are the gpt-oss FC runs for v4 and the xLAM run for v3 (each step's calls as BFCL logged
them in `inference_log`). The v3 vectors go to `vectors/v3/`.

Needs only the standard library and mpmath (the version BFCL pins, 1.3.0). It reads the
BFCL v4 data and the stored gpt-oss results from the shared folder, executes call
sequences on fresh instances, and writes what happened — never the data itself:

* ground truth: for every entry of the four categories whose `involved_classes` include
  one of the four classes, every reference call of those classes, turn by turn, from
  `initial_config` (long_context entries load with long_context=True);
* model calls: the FC calls of the stored results (`{name: "<json args>"}`, decoded as BFCL
  does) of the same entries, executed in order on one instance set;
* error paths: hand-written calls with wrong types, missing files, quirks.

Per call the vector holds the outcome (result string as BFCL's executor renders a return
value — str as is, dict via json.dumps else str(), anything else str() — or the exception
type and str(e)); after every turn a digest of each class's public state. Long strings are
stored as sha256 digests. Calls are located in the data by (turn, step, index) so the
TypeScript test re-reads the arguments from the same files.

long_context entries (ground truth, one error path, a quarter of the GorillaFileSystem fuzz
sequences) run on a SYNTHETIC filler, never on BFCL's: the constants of
src/simulator/classes/testdata/synthetic-long-context.py (our own made-up values with the
names and shapes of BFCL's long_context.py; names and shapes are checked against BFCL's
module first) are bound in BFCL's long_context module and in every class module that
imported names from it, so BFCL's own code runs its long_context branches on them and the
TS tests replay the same committed filler with no BFCL checkout. (The same file and the
same swap serve tools/gen-class-vectors.py for the other four classes.)

Python 3.11 sums floats naively; the official runs used Python >= 3.12 (Neumaier), so
MathAPI's module-level `sum` is replaced by `sum312` below (CPython 3.12's algorithm).
TwitterAPI.post_tweet's shared mutable defaults (its `tags=[]` and `mentions=[]`, the only
mutable defaults of the eight classes in both releases) are reset at the start of every
sequence, so each sequence is one "process" (the TypeScript side gives each sequence a fresh
one); two error-path sequences carry them across two entries' instances and from a seed.
"""
import argparse
import ast
import copy
import hashlib
import inspect
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inference_log import logged_step_texts  # noqa: E402

import mpmath


def _bfcl_root():
    """The checkout given with --bfcl-root, put on sys.path before BFCL's modules are imported."""
    for i, a in enumerate(sys.argv):
        if a == "--bfcl-root" and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if a.startswith("--bfcl-root="):
            return a.split("=", 1)[1]
    return None


if _bfcl_root():
    sys.path.insert(0, os.path.abspath(_bfcl_root()))

from bfcl_eval.eval_checker.multi_turn_eval.func_source_code import (  # noqa: E402
    gorilla_file_system,
    math_api,
    message_api,
    posting_api,
)
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code import long_context as long_context_module
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.gorilla_file_system import (
    Directory,
    File,
    GorillaFileSystem,
)
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.math_api import MathAPI
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.message_api import MessageAPI
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.posting_api import TwitterAPI

CLASSES = {
    "GorillaFileSystem": GorillaFileSystem,
    "MathAPI": MathAPI,
    "MessageAPI": MessageAPI,
    "TwitterAPI": TwitterAPI,
}
CATEGORIES = ["base", "miss_func", "miss_param", "long_context"]
RUNS = ["2025-11-12-main", "2025-11-12-harmony-fixes"]
MODELS = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"]
SHORT = 160


def sum312(items, start=0):
    """CPython 3.12 builtin sum: exact ints, then Neumaier-compensated floats (ints added plainly)."""
    it = iter(items)
    result = start
    if type(result) is int:
        for x in it:
            if type(x) is int or type(x) is bool:
                result += x
                continue
            result = result + x
            break
        else:
            return result
    if type(result) is float:
        hi, comp = result, 0.0
        for x in it:
            if type(x) is float:
                t = hi + x
                if abs(hi) >= abs(x):
                    comp += (hi - t) + x
                else:
                    comp += (x - t) + hi
                hi = t
            elif type(x) in (int, bool) and -(2**63) <= x < 2**63:
                hi += float(x)
            else:
                result = hi
                if comp and math.isfinite(comp):
                    result = hi + comp
                result = result + x
                for y in it:
                    result = result + y
                return result
        if comp and math.isfinite(comp):
            hi += comp
        return hi
    for x in it:
        result = result + x
    return result


math_api.sum = sum312


def read_filler(path):
    """NAME -> value of every top-level `NAME = <literal>` of the synthetic filler module."""
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


def install_filler(path):
    """Bind the synthetic constants in BFCL's long_context module and in every class module
    that imported them (GorillaFileSystem imports three; the other three classes none), after
    checking that the names and shapes equal BFCL's. The classes only read the constants."""
    synthetic = read_filler(path)
    bfcl_names = sorted(n for n in dir(long_context_module) if n.isupper())
    if sorted(synthetic) != bfcl_names:
        sys.exit("%s: names differ from BFCL's long_context.py: %s" % (path, sorted(set(synthetic) ^ set(bfcl_names))))
    for name in bfcl_names:
        if shape(synthetic[name]) != shape(getattr(long_context_module, name)):
            sys.exit("%s: %s does not have the shape of BFCL's constant" % (path, name))
    patched = []
    for name, value in synthetic.items():
        for mod in [long_context_module, gorilla_file_system, math_api, message_api, posting_api]:
            if hasattr(mod, name):
                setattr(mod, name, value)
                if mod is not long_context_module:
                    patched.append("%s.%s" % (mod.__name__.rsplit(".", 1)[-1], name))
    print("synthetic long_context filler %s bound in: %s" % (os.path.relpath(path), ", ".join(sorted(patched))))


def method_names(cls):
    return {n for n, _ in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_")}


METHODS = {c: method_names(k) for c, k in CLASSES.items()}
OWNER = {m: c for c, ms in METHODS.items() for m in ms}


def digest(s):
    return hashlib.sha256(s.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def short(s):
    """A result string, or its digest and length when long."""
    if len(s) <= SHORT:
        return {"r": s}
    return {"h": digest(s), "n": len(s)}


def enc(v):
    """Tagged encoding (same tags as tools/python-vectors.py) for arguments."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, list):
        return [enc(x) for x in v]
    if isinstance(v, tuple):
        return {"t": [enc(x) for x in v]}
    if isinstance(v, dict):
        return {"d": [[enc(k), enc(x)] for k, x in v.items()]}
    raise TypeError(type(v))


def canon(v, active=None):
    """Canonical tagged form of a state value; sets sorted, File/Directory spelled out, a
    directory whose contents dict is already being encoded (a cycle) written as "<cycle>"."""
    active = set() if active is None else active
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, list):
        return [canon(x, active) for x in v]
    if isinstance(v, tuple):
        return {"t": [canon(x, active) for x in v]}
    if isinstance(v, dict):
        return {"d": [[canon(k, active), canon(x, active)] for k, x in v.items()]}
    if isinstance(v, set):
        return {"s": sorted((canon(x, active) for x in v), key=dumps)}
    if isinstance(v, File):
        return {"F": [canon(v.name, active), canon(v.content, active)]}
    if isinstance(v, Directory):
        if id(v.contents) in active:
            return "<cycle>"
        active.add(id(v.contents))
        out = {"D": [canon(v.name, active), canon(v.contents, active)]}
        active.discard(id(v.contents))
        return out
    raise TypeError(type(v))


def dumps(x):
    return json.dumps(x, separators=(",", ":"), ensure_ascii=True)


def state_digest(inst):
    pub = [[k, canon(v)] for k, v in vars(inst).items() if not k.startswith("_")]
    return digest(dumps(pub))


def render(r):
    """BFCL's executor: str as is; dict → json.dumps, falling back to str(); else str()."""
    if isinstance(r, str):
        return r
    if isinstance(r, dict):
        try:
            return json.dumps(r)
        except Exception:
            return str(r)
    return str(r)


def outcome(inst, name, args, kwargs):
    fn = getattr(inst, name)
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as e:
        return {"bind": str(e)}
    try:
        r = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception is the vector
        return {"e": type(e).__name__, "m": str(e)[:SHORT] if len(str(e)) <= SHORT else digest(str(e))}
    try:
        return short(render(r))
    except Exception as e:  # noqa: BLE001 - rendering itself can raise (huge ints)
        return {"re": type(e).__name__, "m": str(e)}


def reset_process(seed=None):
    """A fresh process: post_tweet's default lists as `def` made them, or holding `seed`'s
    names, as a process that evaluated other entries first leaves them."""
    seed = seed or {}
    posting_api.TwitterAPI.post_tweet.__defaults__ = (list(seed.get("tags", [])), list(seed.get("mentions", [])))
    mpmath.mp.dps = 15


def new_instances(config, classes, long_context):
    out = {}
    for c in classes:
        inst = CLASSES[c]()
        if c != "MathAPI":
            inst._load_scenario(copy.deepcopy(config.get(c, {})), long_context=long_context)
        out[c] = inst
    return out


def states(insts):
    return {c: state_digest(i) for c, i in insts.items() if c != "MathAPI"}


def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def parse_call(s):
    node = ast.parse(s, mode="eval").body
    assert isinstance(node, ast.Call)
    return node.func.id, [ast.literal_eval(a) for a in node.args], {k.arg: ast.literal_eval(k.value) for k in node.keywords}


VERSION = "v4"


def data_file(shared, *parts):
    """A file of the release's data: `bfcl-<version>/[…/]BFCL_<version>_<name>`."""
    *folders, name = parts
    return os.path.join(shared, f"bfcl-{VERSION}", *folders, f"BFCL_{VERSION}_{name}")


def ground_truth_sequences(shared):
    seqs = []
    for cat in CATEGORIES:
        entries = load_jsonl(data_file(shared, f"multi_turn_{cat}.json"))
        answers = {a["id"]: a["ground_truth"] for a in load_jsonl(data_file(shared, "possible_answer", f"multi_turn_{cat}.json"))}
        for e in entries:
            mine = [c for c in e["involved_classes"] if c in CLASSES]
            if not mine:
                continue
            reset_process()
            insts = new_instances(e["initial_config"], mine, "long_context" in cat)
            turns = []
            for ti, turn in enumerate(answers[e["id"]]):
                calls = []
                for ci, call in enumerate(turn):
                    name, args, kwargs = parse_call(call)
                    if OWNER.get(name) not in insts:
                        continue
                    calls.append({"at": [ti, ci], **outcome(insts[OWNER[name]], name, args, kwargs)})
                turns.append({"calls": calls, "state": states(insts)})
            seqs.append({"id": e["id"], "classes": mine, "init": states(new_instances(e["initial_config"], mine, "long_context" in cat)), "turns": turns})
    return seqs


def decode_step(step):
    """BFCL's convert_to_function_call for an FC step: [(name, kwargs)], or None when decoding fails."""
    if not isinstance(step, list):
        return None
    out = []
    for item in step:
        if not isinstance(item, dict):
            return None
        for name, args in item.items():
            if isinstance(args, str):
                try:
                    args = json.loads(args)
                except Exception:  # noqa: BLE001
                    return None
            if not isinstance(args, dict):
                return None
            out.append((name, args))
    return out


def logged_calls(line):
    """Per turn and step, the calls BFCL logged for a raw-text step (`inference_log`), as (name, kwargs) or None when they do not parse."""
    return [[[parsed_logged_call(text) for text in step] for step in turn] for turn in logged_step_texts(line)]


def parsed_logged_call(text):
    """One logged call text as (name, kwargs); None when it does not parse or has positional arguments."""
    try:
        name, args, kwargs = parse_call(text)
        return (name, kwargs) if not args else None
    except (SyntaxError, ValueError, AssertionError, AttributeError):
        return None


def stored_runs(shared):
    """(run, model, category, result file, how its steps decode) of the stored model runs of this release."""
    if VERSION == "v3":
        model = "Salesforce_Llama-xLAM-2-8b-fc-r"
        for cat in ["base", "miss_func", "miss_param"]:
            yield "", model, cat, os.path.join(shared, "rollouts", "xlam-v3", "result", model, f"BFCL_v3_multi_turn_{cat}_result.json"), "logged"
        return
    for run in RUNS:
        for model in MODELS:
            for cat in ["base", "miss_func", "miss_param"]:
                yield run, model, cat, os.path.join(shared, "rollouts", "gpt-oss", run, "result", model, "multi_turn", f"BFCL_v4_multi_turn_{cat}_result.json"), "fc"


def model_sequences(shared, every):
    seqs = []
    for run, model, cat, path, decoding in stored_runs(shared):
        entries = {e["id"]: e for e in load_jsonl(data_file(shared, f"multi_turn_{cat}.json"))}
        for n, line in enumerate(load_jsonl(path)):
            e = entries[line["id"]]
            mine = [c for c in e["involved_classes"] if c in CLASSES]
            if not mine or not isinstance(line["result"], list) or n % every:
                continue
            reset_process()
            insts = new_instances(e["initial_config"], mine, False)
            decoded_turns = logged_calls(line) if decoding == "logged" else [[decode_step(step) for step in turn] for turn in line["result"]]
            turns = []
            for ti, decoded_steps in enumerate(decoded_turns):
                calls = []
                for si, decoded in enumerate(decoded_steps):
                    for ci, call in enumerate(decoded or []):
                        if call is None:
                            continue
                        name, kwargs = call
                        if OWNER.get(name) not in insts:
                            continue
                        calls.append({"at": [ti, si, ci], **outcome(insts[OWNER[name]], name, [], kwargs)})
                turns.append({"calls": calls, "state": states(insts)})
            if any(t["calls"] for t in turns):
                seq = {"run": run, "model": model, "category": cat, "id": e["id"], "classes": mine, "turns": turns}
                if not run:
                    del seq["run"]
                seqs.append(seq)
    return seqs


# Hand-written error paths: (entry id whose initial_config is loaded, long_context, [(name, args, kwargs)]).
ERROR_PATHS = [
    ("multi_turn_base_0", False, [
        ("pwd", [], {}), ("cd", [5], {}), ("cd", ["document/temp"], {}), ("cd", ["//"], {}), ("pwd", [], {}),
        ("cd", [".."], {}), ("cd", ["nope"], {}), ("cd", ["workspace/"], {}), ("ls", [], {"a": "x"}),
        ("cd", ["document"], {}), ("pwd", [], {}), ("mkdir", ["a/b"], {}), ("mkdir", [5], {}), ("mkdir", [["x"]], {}),
        ("mkdir", [{}], {}), ("mkdir", ["final_report.pdf"], {}), ("touch", ["a:b"], {}), ("touch", [None], {}),
        ("touch", ["final_report.pdf"], {}), ("echo", ["hi"], {}), ("echo", ["hi", ""], {}), ("echo", ["hi", "missing.txt"], {}),
        ("echo", ["x"], {"file_name": "a|b"}), ("touch", ["n.txt"], {}), ("echo", [123, "n.txt"], {}), ("cat", ["n.txt"], {}),
        ("wc", ["n.txt"], {}), ("du", [], {}), ("echo", [["l", 1]], {"file_name": "n.txt"}), ("cat", ["n.txt"], {}),
        ("echo", ["b\nc\na\r\nx\x0by\u2028z", "n.txt"], {}), ("sort", ["n.txt"], {}), ("wc", ["n.txt", "w"], {}), ("wc", ["n.txt", "c"], {}),
        ("wc", ["n.txt", "q"], {}), ("wc", ["n.txt", 1], {}), ("wc", ["nope.txt"], {}), ("tail", ["n.txt"], {}),
        ("tail", ["n.txt", 2], {}), ("tail", ["n.txt", 0], {}), ("tail", ["n.txt", -2], {}), ("tail", ["n.txt", "2"], {}),
        ("tail", ["n.txt", 2.5], {}), ("tail", ["n.txt", True], {}), ("tail", ["n.txt", None], {}), ("tail", ["n.txt", 100], {}),
        ("grep", ["n.txt", "a"], {}), ("grep", ["n.txt", 1], {}), ("grep", ["nope", "a"], {}),
        ("diff", ["n.txt", "final_report.pdf"], {}), ("diff", ["n.txt", "nope"], {}), ("cat", ["nope"], {}), ("cat", ["a*b"], {}),
        ("cat", [5], {}), ("find", [], {}), ("find", ["."], {"name": "report"}), ("find", ["/"], {}), ("find", ["nope"], {}),
        ("find", [None], {}), ("find", [".", 5], {}), ("find", ["../document/"], {}), ("du", [True], {}), ("du", [], {"human_readable": 1}),
        ("mkdir", ["sub"], {}), ("cp", ["n.txt", "sub"], {}), ("cp", ["n.txt", "sub"], {}), ("cp", ["n.txt", "copy.txt"], {}),
        ("cp", ["nope", "x"], {}), ("cp", ["n.txt", "a/b"], {}), ("cp", ["n.txt", "final_report.pdf"], {}), ("cp", ["sub", "sub2"], {}),
        ("cp", ["sub", "sub2"], {}), ("cd", ["sub2"], {}), ("echo", ["changed", "n.txt"], {}), ("cd", [".."], {}), ("cd", ["sub"], {}),
        ("cat", ["n.txt"], {}), ("cd", [".."], {}), ("mv", ["copy.txt", ".."], {}), ("ls", [True], {}), ("mv", ["nope", "x"], {}),
        ("mv", ["n.txt", "x/y"], {}), ("mv", ["n.txt", "final_report.pdf"], {}), ("mv", ["n.txt", "sub"], {}), ("mv", ["final_report.pdf", "sub"], {}),
        ("mv", ["sub", "moved"], {}), ("cd", ["moved"], {}), ("pwd", [], {}), ("cd", ["sub2"], {}), ("pwd", [], {}), ("cd", [".."], {}), ("pwd", [], {}),
        ("cd", [".."], {}), ("cd", [".."], {}), ("pwd", [], {}), ("mv", ["moved", "moved"], {}), ("ls", [], {}), ("mv", ["sub2", 5], {}),
        ("mv", ["sub2", ["x"]], {}), ("mv", ["archive", 5], {}), ("mv", ["archive", ["x"]], {}), ("cp", ["archive", 5], {}),
        ("cp", ["archive", {"archive": 1}], {}), ("ls", [], {}), ("rm", ["nope"], {}), ("rm", [5], {}), ("rmdir", ["n.txt"], {}), ("rmdir", ["nope"], {}),
        ("mkdir", ["empty"], {}), ("rmdir", ["empty"], {}), ("rmdir", ["sub2"], {}), ("rm", ["sub2"], {}), ("ls", [], {"a": True}),
        ("touch", [".hidden"], {}), ("ls", [], {}), ("ls", [], {"a": 1}), ("du", [], {"human_readable": True}),
        ("echo", ["x" * 5000, ".hidden"], {}), ("du", [True], {}), ("echo", ["é\U0001F600", ".hidden"], {}), ("du", [], {}), ("wc", [".hidden", "c"], {}),
        ("cat", [".hidden"], {}), ("find", ["/", "e"], {}), ("cd", ["/"], {}), ("pwd", [], {}), ("cd", ["."], {}), ("cd", [""], {}), ("pwd", [], {}),
        ("@repr", [], {}), ("mkdir", ["A"], {}), ("cd", ["A"], {}), ("mkdir", ["B"], {}), ("touch", ["f.txt"], {}), ("cd", [".."], {}),
        ("mv", ["A", "C"], {}), ("cd", ["C"], {}), ("pwd", [], {}), ("cd", ["B"], {}), ("pwd", [], {}), ("cd", [".."], {}), ("pwd", [], {}),
        ("ls", [], {}), ("cd", [".."], {}), ("pwd", [], {}), ("ls", [], {}), ("cd", [".."], {}), ("pwd", [], {}), ("cd", ["/"], {}),
        ("cp", ["archive", "archive"], {}), ("ls", [], {}), ("find", [], {}), ("du", [], {}), ("cd", ["archive"], {}), ("cd", ["archive"], {}),
        ("pwd", [], {}), ("cd", [".."], {}), ("cd", [".."], {}), ("@repr", [], {}), ("rm", ["archive"], {}), ("mkdir", ["x"], {}),
        ("mv", ["x", "x"], {}), ("ls", [], {}), ("find", [".", ""], {}), ("@repr", [], {}),
    ]),
    ("multi_turn_base_0", True, [
        ("ls", [], {}), ("cd", ["workspace"], {}), ("cd", ["archive"], {}), ("ls", [], {}), ("cd", [".."], {}), ("cd", ["document"], {}),
        ("cat", ["final_report.pdf"], {}), ("wc", ["final_report.pdf", "w"], {}), ("du", [True], {}), ("find", [], {"name": "image_1"}), ("find", [], {"name": "scan_"}),
    ]),
    ("multi_turn_base_10", False, [
        ("logarithm", [20, 10, 2], {}), ("logarithm", [0, 10, 4], {}), ("logarithm", [-8, 2, 5], {}), ("logarithm", [8, 1, 5], {}),
        ("logarithm", [8, 2, "x"], {}), ("logarithm", [8, 2, 4.7], {}), ("logarithm", ["8", 2, 6], {}), ("logarithm", [None, 2, 6], {}),
        ("logarithm", [1e300, 1e-300, 30], {}), ("logarithm", [2.5, 7, 1], {}), ("logarithm", [10, 10, 0], {}), ("logarithm", [1000, 10, 3], {}),
        ("mean", [[1, 2, 3, 4]], {}), ("mean", [[]], {}), ("mean", [[1, "a"]], {}), ("mean", [5], {}), ("mean", ["abc"], {}), ("mean", [0], {}),
        ("mean", [[0.1, 0.2, 0.3]], {}), ("mean", [[True, 2.5]], {}), ("mean", [{"a": 1}], {}), ("mean", [[1e308, 1e308]], {}),
        ("standard_deviation", [[100, 95, 85, 90, 88, 92]], {}), ("standard_deviation", [[1]], {}), ("standard_deviation", [[]], {}),
        ("standard_deviation", [[1, "x"]], {}), ("standard_deviation", [[0.1, 0.7, 1e10]], {}), ("standard_deviation", [[1e200, -1e200]], {}),
        ("si_unit_conversion", [5, "km", "m"], {}), ("si_unit_conversion", [5.5, "nm", "um"], {}), ("si_unit_conversion", [3, "m", "m"], {}),
        ("si_unit_conversion", ["5", "km", "m"], {}), ("si_unit_conversion", [5, "mi", "m"], {}), ("si_unit_conversion", [True, "cm", "mm"], {}),
        ("si_unit_conversion", [5, ["km"], "m"], {}), ("si_unit_conversion", [10**400, "km", "m"], {}), ("si_unit_conversion", [2, "um", "km"], {}),
        ("imperial_si_conversion", [100, "celsius", "fahrenheit"], {}), ("imperial_si_conversion", [212, "fahrenheit", "celsius"], {}),
        ("imperial_si_conversion", [3, "ft", "m"], {}), ("imperial_si_conversion", [3, "ft", "ft"], {}), ("imperial_si_conversion", ["3", "ft", "m"], {}),
        ("imperial_si_conversion", [3, "ft", "km"], {}), ("imperial_si_conversion", [3, 1, 2.5], {}), ("imperial_si_conversion", [3, None, None], {}),
        ("imperial_si_conversion", [10**400, "kg", "lb"], {}), ("imperial_si_conversion", [2.2, "lb", "kg"], {}),
        ("add", [1, 2], {}), ("add", [1, 2.5], {}), ("add", ["a", "b"], {}), ("add", [1, "b"], {}), ("add", [[1], [2]], {}), ("add", [None, 1], {}),
        ("add", [0.1, 0.2], {}), ("add", [True, True], {}), ("subtract", [5, 7.5], {}), ("subtract", ["a", 1], {}), ("subtract", [10**20, 1], {}),
        ("multiply", [3, 4], {}), ("multiply", [3, "4"], {}), ("multiply", [2.5, 4], {}), ("multiply", [True, 7], {}), ("multiply", [1e308, 10], {}),
        ("divide", [1, 3], {}), ("divide", [1, 0], {}), ("divide", [1, 0.0], {}), ("divide", [1, False], {}), ("divide", ["a", 2], {}), ("divide", [10, 4], {}),
        ("divide", [7, []], {}), ("power", [2, 10], {}), ("power", [2, -1], {}), ("power", [2.5, 2], {}), ("power", [-8, 0.5], {}), ("power", ["2", 2], {}),
        ("power", [10, 0.5], {}), ("power", [0, -1], {}), ("power", [1e200, 2], {}),
        ("square_root", [2, 5], {}), ("square_root", [16, 3], {}), ("square_root", [-1, 3], {}), ("square_root", ["4", 3], {}), ("square_root", [2, 2.5], {}),
        ("square_root", [2, 0], {}), ("square_root", [2.25, 10], {}), ("square_root", [0.25, 4], {}), ("square_root", [0, 4], {}), ("square_root", [-0.0, 4], {}),
        ("square_root", [10000, 1], {}), ("square_root", [1e-10, 5], {}), ("square_root", [1e22, 5], {}), ("square_root", [True, 3], {}), ("square_root", [2, None], {}),
        ("square_root", [144, 50], {}), ("square_root", [0.1, 30], {}), ("square_root", [float("inf"), 5], {}), ("square_root", [1e-300, 5], {}),
        ("absolute_value", [-5], {}), ("absolute_value", [-5.5], {}), ("absolute_value", ["x"], {}), ("absolute_value", [True], {}), ("absolute_value", [None], {}),
        ("round_number", [2.5], {}), ("round_number", [2.675, 2], {}), ("round_number", [3, 0], {}), ("round_number", [2.5, 0], {}), ("round_number", [1234.5, -2], {}),
        ("round_number", ["2.5", 1], {}), ("round_number", [2.5, 1.5], {}), ("round_number", [2.5, None], {}), ("round_number", [12345, -2], {}),
        ("percentage", [1, 3], {}), ("percentage", [1, 0], {}), ("percentage", ["1", 3], {}), ("percentage", [50, 200.0], {}),
        ("min_value", [[3, 1.5, 2]], {}), ("min_value", [[]], {}), ("min_value", [[1, "a"]], {}), ("min_value", ["bca"], {}), ("min_value", [7], {}),
        ("max_value", [[3, 1.5, 2]], {}), ("max_value", [[]], {}), ("max_value", [["a", "b"]], {}), ("max_value", [[2, 2.0]], {}),
        ("sum_values", [[1, 2, 3]], {}), ("sum_values", [[0.1, 0.2, 0.3]], {}), ("sum_values", [[]], {}), ("sum_values", [["a"]], {}), ("sum_values", [[1, 2.5, True]], {}),
        ("sum_values", [[1e100, 1.0, -1e100]], {}), ("sum_values", [{"x": 1}], {}), ("sum_values", [5], {}),
    ]),
    ("multi_turn_base_50", False, [
        ("list_users", [], {}), ("get_user_id", ["Alice"], {}), ("get_user_id", ["Nobody"], {}), ("get_user_id", [["x"]], {}),
        ("message_get_login_status", [], {}), ("send_message", ["USR002", "hi"], {}), ("view_messages_sent", [], {}), ("search_messages", ["x"], {}),
        ("get_message_stats", [], {}), ("delete_message", ["USR002"], {}), ("message_login", ["USR999"], {}), ("message_login", [5], {}),
        ("message_login", ["USR001"], {}), ("message_get_login_status", [], {}), ("send_message", ["USR999", "hi"], {}),
        ("send_message", ["USR002", "hello"], {}), ("send_message", ["USR003", 42], {}), ("send_message", ["USR002", "again"], {}),
        ("view_messages_sent", [], {}), ("search_messages", ["HELLO"], {}), ("search_messages", [5], {}), ("get_message_stats", [], {}),
        ("delete_message", ["USR002"], {}), ("delete_message", ["USR999"], {}), ("add_contact", ["Alice"], {}), ("add_contact", ["Zed"], {}),
        ("add_contact", [["x"]], {}), ("list_users", [], {}), ("search_messages", ["upload"], {}),
    ]),
    ("multi_turn_base_4", False, [
        ("posting_get_login_status", [], {}), ("post_tweet", ["hi"], {}), ("retweet", [0], {}), ("comment", [0, "c"], {}),
        ("follow_user", ["x"], {}), ("list_all_following", [], {}), ("unfollow_user", ["x"], {}),
        ("authenticate_twitter", ["john", "wrong"], {}), ("authenticate_twitter", [], {"username": "john", "password": "john123"}),
        ("post_tweet", ["first"], {}), ("post_tweet", ["second"], {"tags": ["#a"]}), ("mention", [0, ["@bob"]], {}),
        ("post_tweet", ["third"], {}), ("get_tweet", [2], {}), ("mention", [99, ["@x"]], {}), ("mention", [1, "ab"], {}),
        ("get_tweet", ["1"], {}), ("get_tweet", [1.0], {}), ("retweet", [1], {}), ("retweet", [1], {}), ("retweet", ["1"], {}), ("retweet", [77], {}),
        ("comment", [1, "nice"], {}), ("comment", [1.0, "again"], {}), ("comment", [True, "bool"], {}), ("comment", [42, "x"], {}),
        ("get_tweet_comments", [1], {}), ("get_tweet_comments", [5], {}), ("get_tweet_comments", [2], {}),
        ("follow_user", ["alice"], {}), ("follow_user", ["carol"], {}), ("list_all_following", [], {}), ("unfollow_user", ["bob"], {}),
        ("unfollow_user", ["nobody"], {}), ("get_user_tweets", ["john"], {}), ("get_user_tweets", ["nobody"], {}),
        ("search_tweets", ["FIRST"], {}), ("search_tweets", ["#A"], {}), ("search_tweets", [5], {}), ("get_user_stats", ["john"], {}),
        ("get_user_stats", ["alice"], {}), ("post_tweet", [["list", "content"]], {"mentions": ["m"]}), ("search_tweets", ["list"], {}),
        ("post_tweet", [None], {}), ("search_tweets", ["x"], {}),
        ("mention", [2, ["@shared"]], {}), ("post_tweet", ["fourth"], {}), ("get_tweet", [8], {}), ("mention", [3, "ab"], {}),
        ("get_tweet", [5], {}), ("mention", [2, 5], {}), ("get_tweet", ["0"], {}), ("comment", [0, "int key"], {}),
        ("get_tweet_comments", [0], {}), ("get_user_stats", [["x"]], {}), ("get_user_stats", ["tech_guru"], {}),
        ("B:authenticate_twitter", ["tech_guru", "securePass123"], {}), ("B:post_tweet", ["other instance"], {}), ("B:get_tweet", [2], {}),
        ("B:mention", [2, ["@fromB"]], {}), ("get_tweet", [2], {}), ("post_tweet", ["after B"], {}), ("@repr", [], {}),
    ]),
    # post_tweet's shared default lists across two entries of one process (instance B loads another
    # entry's scenario, as BFCL's evaluator does for the next entry), and in a process whose lists
    # already hold names (a seed): what a later error object and a later entry see
    ("multi_turn_base_53", False, [
        ("post_tweet", ["Tire pressures are optimal!"], {"tags": ["#CarMaintenance"]}), ("get_tweet", [5], {}),
        ("mention", [5, ["VehicleGuru"]], {}), ("get_tweet", [5], {}), ("B:post_tweet", ["next entry"], {}), ("B:get_tweet", [1], {}),
        ("B:mention", [1, ["@technewsworld"]], {}), ("get_tweet", [5], {}), ("post_tweet", ["explicit"], {"mentions": []}),
        ("mention", [6, ["@own"]], {}), ("get_tweet", [6], {}), ("B:post_tweet", ["tags too"], {"mentions": ["@x"]}), ("B:get_tweet", [2], {}),
        ("search_tweets", ["#CarMaintenance"], {}), ("get_user_tweets", ["CarEnthusiast"], {}), ("get_user_stats", ["CarEnthusiast"], {}),
        ("B:search_tweets", ["next"], {}), ("@repr", [], {}),
    ], {"idB": "multi_turn_base_147"}),
    ("multi_turn_base_147", False, [
        ("post_tweet", ["seeded"], {}), ("get_tweet", [1], {}), ("mention", [1, ["@more"]], {}), ("B:post_tweet", ["other"], {"tags": ["#t"]}),
        ("B:get_tweet", [2], {}), ("post_tweet", ["explicit"], {"tags": [], "mentions": ["@technewsworld"]}), ("get_tweet", [3], {}),
        ("@repr", [], {}),
    ], {"seed": {"mentions": ["@technewsworld"], "tags": ["#earlier"]}}),
    ("multi_turn_base_50", False, [
        ("message_login", ["USR001"], {}), ("send_message", ["USR002", "x"], {}), ("send_message", ["USR002", "x"], {}),
        ("send_message", ["USR003", "y"], {}), ("delete_message", ["USR002"], {}), ("view_messages_sent", [], {}),
        ("add_contact", [5], {}), ("list_users", [], {}), ("get_user_id", [5], {}), ("message_login", ["USR006"], {}),
        ("B:message_login", ["USR002"], {}), ("B:send_message", ["USR001", "b"], {}), ("@repr", [], {}),
    ]),
    ("multi_turn_base_50", False, [("message_login", ["USR003"], {})] + [("send_message", ["USR001", f"m{i}"], {}) for i in range(120)] + [("@repr", [], {})]),
    ("multi_turn_base_10", False, [
        ("logarithm", [10, 2.5, 50], {}), ("logarithm", [True, 2, 5], {}), ("logarithm", [[1], 2, 5], {}), ("logarithm", [10, "2", 5], {}),
        ("logarithm", [10, 2, -3], {}), ("logarithm", [10, 2, True], {}), ("logarithm", [10, 2, None], {}), ("logarithm", [0.5, 0.25, 8], {}),
        ("mean", [[[1], [2]]], {}), ("mean", [[1, 2, 3]], {}), ("standard_deviation", [[True, False]], {}), ("standard_deviation", [[2, 4, 4, 4, 5, 5, 7, 9]], {}),
        ("standard_deviation", [[1.5, 2.5, 3.5, 1e-3]], {}), ("si_unit_conversion", [1e308, "km", "nm"], {}), ("si_unit_conversion", [7, "cm", "km"], {}),
        ("imperial_si_conversion", [-40, "celsius", "fahrenheit"], {}), ("imperial_si_conversion", [98.6, "fahrenheit", "celsius"], {}),
        ("imperial_si_conversion", [1, "celsius", "kelvin"], {}), ("imperial_si_conversion", [5, "miles", "km"], {}), ("imperial_si_conversion", [True, "kg", "lb"], {}),
        ("round_number", [2.345, 400], {}), ("round_number", [1e20, -5], {}), ("round_number", [-0.5], {}), ("percentage", [[1], 2], {}),
        ("percentage", [3, 0.0], {}), ("power", [2, 0.5], {}), ("power", [4, True], {}), ("power", [-2, 3], {}), ("power", [2.0, -2], {}),
        ("divide", [2**60, 3], {}), ("divide", [0.0, -1], {}), ("subtract", [[1], [1]], {}), ("multiply", [[1], 2], {}), ("add", [{"a": 1}, {}], {}),
        ("square_root", [8, 8], {}), ("square_root", [1e100, 3], {}), ("square_root", [123456789, 4], {}), ("square_root", [0.0001, 2], {}),
        ("square_root", [float("nan"), 3], {}), ("square_root", [2, True], {}), ("square_root", [99.99, 3], {}), ("square_root", [2, 10**19], {}),
        ("min_value", [[2, True]], {}), ("max_value", [{"b": 1, "a": 2}], {}), ("sum_values", [[0.1] * 10], {}), ("sum_values", [[1, 1e16, -1e16]], {}),
        ("absolute_value", [-0.0], {}), ("absolute_value", [[1]], {}),
    ]),
]


def error_path_sequences(shared):
    """Calls named "B:m" go to a second instance of the class in the same process (shared
    module state), loaded from entry `idB`'s scenario when the sequence names one; `seed`
    is what post_tweet's default lists hold when the sequence starts; "@repr" records repr()
    of every public attribute of the first instance."""
    entries = {e["id"]: e for e in load_jsonl(data_file(shared, "multi_turn_base.json"))}
    seqs = []
    for eid, lc, calls, *extra in ERROR_PATHS:
        opts = extra[0] if extra else {}
        e = entries[eid]
        reset_process(opts.get("seed"))
        classes = sorted({OWNER[n.split(":")[-1]] for n, _, _ in calls if n != "@repr"})
        insts = new_instances(e["initial_config"], classes, lc)
        second = new_instances(entries[opts.get("idB", eid)]["initial_config"], classes, lc)
        out = []
        for name, args, kwargs in calls:
            if name == "@repr":
                inst = insts[classes[0]]
                text = "; ".join(f"{k}={v!r}" for k, v in vars(inst).items() if not k.startswith("_"))
                out.append({"name": name, "args": [], "kwargs": {"d": []}, **short(text)})
                continue
            side, method = (second, name[2:]) if name.startswith("B:") else (insts, name)
            out.append({"name": name, "args": enc(args), "kwargs": enc(kwargs), **outcome(side[OWNER[method]], method, args, kwargs)})
        seqs.append({"id": eid, "longContext": lc, "classes": classes, "calls": out, "state": states(insts), "stateB": states(second), **opts})
    return seqs


# ---------------------------------------------------------------------------------------
# Fuzz: seeded random calls with awkward argument values on real scenarios.

FUZZ_VALUES = [
    None, True, False, 0, 1, -1, 2, 3, 5, 10, 10**20, 0.0, -0.0, 0.5, -2.5, 2.0, 1e300, float("inf"),
    "", ".", "..", "/", "//", "a/b", "x|y", "new.txt", "notes", "é", "A\nB", "  ", "USR001", "USR002", "USR005", "Alice", "Zed",
    "john", "john123", "#tag", "@bob", "report", "l", "w", "c", "km", "m", "ft", "celsius", "fahrenheit",
    [], ["a"], [1, 2.5], ["x", "y"], [3, 1, 2], [True], {}, {"a": 1},
]


def fuzz_value(rng, names):
    if names and rng.random() < 0.35:
        return rng.choice(names)
    v = rng.choice(FUZZ_VALUES)
    return copy.deepcopy(v)


def fuzz_names(inst):
    """Names worth passing: current directory entries, tweet ids, user ids, existing usernames."""
    out = []
    if isinstance(inst, GorillaFileSystem):
        out += list(inst._current_dir.contents.keys()) + [".."]
    if isinstance(inst, TwitterAPI):
        out += list(inst.tweets.keys()) + [inst.username, inst.password]
    if isinstance(inst, MessageAPI):
        out += list(inst.user_map.keys()) + list(inst.user_map.values())
    return out


def fuzz_sequences(shared, per_class, seed):
    rng = __import__("random").Random(seed)
    entries = load_jsonl(data_file(shared, "multi_turn_base.json"))
    seqs = []
    for cls in CLASSES:
        pool = [e for e in entries if cls in e["involved_classes"]]
        methods = sorted(METHODS[cls])
        made = 0
        while made < per_class:
            e = rng.choice(pool)
            reset_process()
            lc = cls == "GorillaFileSystem" and rng.random() < 0.25
            insts = new_instances(e["initial_config"], [cls], lc)
            inst = insts[cls]
            calls = []
            for _ in range(25):
                name = rng.choice(methods)
                params = list(inspect.signature(getattr(inst, name)).parameters.values())
                required = [p for p in params if p.default is inspect.Parameter.empty]
                n = rng.randint(len(required), len(params))
                names = fuzz_names(inst)
                args = [fuzz_value(rng, names) for _ in range(n)]
                kwargs = {}
                if n and rng.random() < 0.4:
                    k = rng.randint(0, n)
                    kwargs = {params[i].name: args[i] for i in range(k, n)}
                    args = args[:k]
                if name in ("power", "logarithm") and any(isinstance(v, int) and abs(v) > 1000 for v in args + list(kwargs.values())):
                    continue  # Python would spend minutes on a huge int or a huge mpmath precision
                enc_args, enc_kwargs = enc(args), enc(kwargs)
                calls.append({"name": name, "args": enc_args, "kwargs": enc_kwargs, **outcome(inst, name, args, kwargs)})
            made += len(calls)
            seqs.append({"id": e["id"], "longContext": lc, "classes": [cls], "calls": calls, "state": states(insts), "stateB": states(new_instances(e["initial_config"], [cls], lc))})
    return seqs


def signatures():
    """Every public method's parameters: name and repr of the default (absent = required)."""
    out = {}
    for cls, klass in CLASSES.items():
        out[cls] = {}
        for name in sorted(METHODS[cls]):
            params = list(inspect.signature(getattr(klass, name)).parameters.values())[1:]
            out[cls][name] = [{"name": p.name, **({} if p.default is inspect.Parameter.empty else {"default": repr(p.default)})} for p in params]
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bfcl-root", required=True, help="berkeley-function-call-leaderboard folder of a Gorilla checkout (read-only)")
    ap.add_argument("--version", choices=["v3", "v4"], default="v4", help="the BFCL release of that checkout")
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "shared"))
    ap.add_argument("--out", help="output folder (default src/simulator/classes/vectors, or its v3/ for v3)")
    ap.add_argument("--every", type=int, default=2, help="keep every N-th model entry")
    ap.add_argument("--fuzz", type=int, default=1000, help="fuzz calls per class")
    ap.add_argument("--seed", type=int, default=20261130, help="fuzz seed")
    ap.add_argument("--filler", default=os.path.join(here, "..", "src", "simulator", "classes", "testdata", "synthetic-long-context.py"),
                    help="synthetic long_context module whose constants replace BFCL's")
    a = ap.parse_args()
    global VERSION
    VERSION = a.version
    a.out = a.out or os.path.join(here, "..", "src", "simulator", "classes", "vectors", *([] if a.version == "v4" else [a.version]))
    install_filler(a.filler)
    os.makedirs(a.out, exist_ok=True)
    write_signatures(a.out)
    for name, data in [
        ("ground-truth", ground_truth_sequences(a.shared)),
        ("model-calls", model_sequences(a.shared, a.every)),
        ("error-paths", error_path_sequences(a.shared)),
        ("fuzz", fuzz_sequences(a.shared, a.fuzz, a.seed)),
    ]:
        path = os.path.join(a.out, f"{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=True, separators=(",", ":"))
            f.write("\n")
        print(f"{path}: {len(data)} sequences, {sum(len(s.get('calls', [])) + sum(len(t['calls']) for t in s.get('turns', [])) for s in data)} calls")


def write_signatures(out):
    path = os.path.join(out, "signatures.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(signatures(), f, ensure_ascii=True, indent=1)
        f.write("\n")
    print(f"{path}: {sum(len(m) for m in signatures().values())} methods")


if __name__ == "__main__":
    sys.exit(main())
