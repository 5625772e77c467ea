#!/usr/bin/env python3
"""Reference vectors for the aligned scores, computed by BFCL's own Python functions on the
two gpt-oss runs.

    PYTHONPATH=<gorilla>/berkeley-function-call-leaderboard python3 tools/gen-aligned-vectors.py \
        [--shared ../shared] [--manifest data/manifest.json] [--out src/simulator/testdata]

<gorilla> is a Gorilla checkout at the bfcl-eval 2026.3.23 code (e.g. /work/gorilla-6ea57973).
BFCL's checker module (`multi_turn_checker`, `multi_turn_irrelevance_checker`) and the API
classes are imported from it; `convert_to_function_call`, the step decoder of BFCL's FC
handlers, is loaded by name from `model_handler/utils.py` (that module cannot be imported
without BFCL's optional dependencies). Nothing of BFCL is copied into this repository, and
the vectors hold no data, only verdicts and short digests.

Decoding follows BFCL's `_evaluate_single_multi_turn_entry`: a `result` that is not a list is
an inference error, a turn count other than the reference's is force-termination, and every
step is decoded with `convert_to_function_call`, steps that raise or decode to nothing dropped.

1. irrelevance-vectors.json. For every entry of every result file of both runs (base,
   miss_func, miss_param; 2 runs x 2 models): BFCL's `multi_turn_checker` (the official
   verdict; the tool stops if it differs from the stored score file) and BFCL's
   `multi_turn_irrelevance_checker` on the same decoded steps (every turn whose reference is
   empty must decode to no call). Entries that fail at the runner level (inference error,
   force-terminated) are not given to the irrelevance checker, as BFCL did when it called it.
   Per file: total, official correct count, strict counterfactual correct count (both checks
   pass), and per entry failing the irrelevance check one line "id turn official digest": the
   failing turn, the official verdict (1 pass / 0 fail) and a sha256 prefix of the irrelevance
   error object as written in a score file (`json.dumps(error, ensure_ascii=False)`). Where both checks fail the irrelevance error is
   the one written, as BFCL's runner did while it ran the irrelevance check.

2. prefix-check-vectors.json. For every pair of the manifest (the 365 content-verified pairs
   and the 7 restored ones) and each run and model: BFCL's `multi_turn_checker` on the base
   twin's turns 0..T (reference cut after the anchor turn T) and on the should-ask twin's turns
   0..T+1 (through the turn that supplies what was withheld). Each prefix is checked in a fresh
   evaluator (instances cleared and the API class modules reloaded, so no module state carries
   over from another check). A rollout whose `result` is not a list cannot be completed (`I`);
   one with fewer turns than the prefix neither (`F`); otherwise the checker's verdict on the
   prefix: `1` pass, or the error type's letter and failing turn (`E3` empty turn 3, `S2` state
   mismatch after turn 2, `R1` response mismatch on turn 1).
"""
import argparse
import ast
import hashlib
import importlib
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = ["2025-11-12-main", "2025-11-12-harmony-fixes"]
MODELS = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"]
CATEGORIES = ["base", "miss_func", "miss_param"]
CLASS_MODULES = [
    "gorilla_file_system", "math_api", "message_api", "posting_api",
    "ticket_api", "trading_bot", "travel_booking", "vehicle_control",
]
PKG = "bfcl_eval.eval_checker.multi_turn_eval"
CODES = {
    "multi_turn:empty_turn_model_response": "E",
    "multi_turn:instance_state_mismatch": "S",
    "multi_turn:execution_response_mismatch": "R",
}

try:
    from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_checker as checker_module
    from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils
except ImportError as e:
    sys.exit("cannot import BFCL's checker (%s): set PYTHONPATH=<gorilla>/berkeley-function-call-leaderboard" % e)


def load_sum312():
    """CPython 3.12's builtin sum, from tools/class-vectors.py (the official runs used Python >= 3.12)."""
    spec = importlib.util.spec_from_file_location("class_vectors", os.path.join(HERE, "class-vectors.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.sum312


SUM312 = load_sum312()


def load_decoder():
    """`convert_to_function_call` from BFCL's model_handler/utils.py, loaded by name."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(multi_turn_utils.__file__))))
    path = os.path.join(root, "model_handler", "utils.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "convert_to_function_call"]
    if len(defs) != 1:
        sys.exit("convert_to_function_call not found in %s" % path)
    ns = {"json": json}
    exec(compile(ast.Module(body=defs, type_ignores=[]), path, "exec"), ns)
    return ns["convert_to_function_call"]


CONVERT = load_decoder()


def fresh_process():
    """A fresh evaluator: no instances in the executor's globals, class modules re-executed."""
    g = vars(multi_turn_utils)
    for name in [n for n in g if n.endswith("_instance")]:
        del g[name]
    for m in CLASS_MODULES:
        mod = importlib.import_module(f"{PKG}.func_source_code.{m}")
        importlib.reload(mod)
    importlib.import_module(f"{PKG}.func_source_code.math_api").sum = SUM312


def read_lines(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(json.loads(line))
    return out


def index_of(entry_id):
    return int(entry_id.rsplit("_", 1)[1])


def decode(result):
    """The runner's decoding: per turn, the decoded steps, failing and empty steps dropped."""
    turns = []
    for turn in result:
        steps = []
        for step in turn:
            try:
                d = CONVERT(step)
                if multi_turn_utils.is_empty_execute_response(d):
                    continue
                steps.append(d)
            except Exception:  # noqa: BLE001 - BFCL ignores any failed decoding
                continue
        turns.append(steps)
    return turns


def digest(obj):
    text = json.dumps(obj, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_data(shared):
    data = {}
    for cat in CATEGORIES:
        qs = {q["id"]: q for q in read_lines(os.path.join(shared, "bfcl-v4", f"BFCL_v4_multi_turn_{cat}.json"))}
        gts = {a["id"]: a["ground_truth"] for a in read_lines(os.path.join(shared, "bfcl-v4", "possible_answer", f"BFCL_v4_multi_turn_{cat}.json"))}
        data[cat] = (qs, gts)
    return data


def stored_failures(path):
    lines = read_lines(path)
    return lines[0], {l["id"]: l["error"]["error_type"] for l in lines[1:]}


def irrelevance_file(result_path, score_path, model, cat, data):
    """Check one result file as `bfcl evaluate` does, plus the irrelevance checker."""
    qs, gts = data[cat]
    lines = sorted(read_lines(result_path), key=lambda l: index_of(l["id"]))
    header, stored = stored_failures(score_path)
    correct = strict = both = 0
    failures = []
    for line in lines:
        entry_id, result, gt = line["id"], line["result"], gts[line["id"]]
        if type(result) != list:
            official = {"valid": False, "error_type": "multi_turn:inference_error"}
            decoded = None
        elif len(result) != len(gt):
            official = {"valid": False, "error_type": "multi_turn:force_terminated"}
            decoded = None
        else:
            decoded = decode(result)
            official = checker_module.multi_turn_checker(decoded, gt, qs[entry_id], f"multi_turn_{cat}", model)
        stored_type = stored.get(entry_id)
        if official["valid"] != (stored_type is None) or (stored_type is not None and stored_type != official["error_type"]):
            sys.exit(f"{result_path}: {entry_id}: BFCL's checker here says {official.get('error_type', 'pass')}, the stored score file {stored_type or 'pass'}")
        if official["valid"]:
            correct += 1
        if decoded is None:
            continue
        irrelevance = checker_module.multi_turn_irrelevance_checker(decoded, gt)
        if irrelevance["valid"]:
            if official["valid"]:
                strict += 1
            continue
        if not official["valid"]:
            both += 1
        error = {k: v for k, v in irrelevance.items() if k != "valid"}
        turn = int(error["error_message"].rsplit(" ", 1)[1].rstrip("."))
        failures.append(f"{entry_id} {turn} {1 if official['valid'] else 0} {digest(error)}")
    if header["correct_count"] != correct or header["total_count"] != len(lines):
        sys.exit(f"{score_path}: header {header} differs from BFCL's checker here ({correct}/{len(lines)})")
    return {
        "total": len(lines),
        "correct": correct,
        "strictCorrect": strict,
        "irrelevanceFailures": len(failures),
        "bothFail": both,
        "failures": failures,
    }


def prefix_token(line, gt, question, cat, model, through):
    """BFCL's checker on turns 0..through of one rollout, in a fresh evaluator."""
    result = line["result"]
    if type(result) != list:
        return "I"
    if len(result) < through + 1:
        return "F"
    decoded = decode(result[: through + 1])
    fresh_process()
    verdict = checker_module.multi_turn_checker(decoded, gt[: through + 1], question, f"multi_turn_{cat}", model)
    if verdict["valid"]:
        return "1"
    kind = verdict["error_type"]
    if kind == "multi_turn:instance_state_mismatch":
        turn = len(verdict["execution_result"]) - 1
    else:
        turn = int(verdict["error_message"].rstrip(".").rsplit(" ", 1)[1])
    return f"{CODES[kind]}{turn}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared"))
    ap.add_argument("--manifest", default=os.path.join(HERE, "..", "data", "manifest.json"))
    ap.add_argument("--out", default=os.path.join(HERE, "..", "src", "simulator", "testdata"))
    a = ap.parse_args()
    data = load_data(a.shared)
    with open(a.manifest, encoding="utf-8") as f:
        manifest = json.load(f)
    pairs = manifest["pairs"] + manifest["restoredPairs"]

    irrelevance = {}
    prefixes = {}
    for run in RUNS:
        for model in MODELS:
            key = f"{run}/{model}"
            result_dir = os.path.join(a.shared, "rollouts", "gpt-oss", run, "result", model, "multi_turn")
            score_dir = os.path.join(a.shared, "rollouts", "gpt-oss", run, "score", model, "multi_turn")
            # one evaluator per model folder, files in path order, as `bfcl evaluate` runs them
            fresh_process()
            files = {}
            rollouts = {}
            for cat in CATEGORIES:
                rp = os.path.join(result_dir, f"BFCL_v4_multi_turn_{cat}_result.json")
                sp = os.path.join(score_dir, f"BFCL_v4_multi_turn_{cat}_score.json")
                files[cat] = irrelevance_file(rp, sp, model, cat, data)
                for line in read_lines(rp):
                    rollouts.setdefault(line["id"], line)
                print(f"{key} {cat}: {files[cat]['correct']} -> {files[cat]['strictCorrect']} of {files[cat]['total']}", file=sys.stderr)
            irrelevance[key] = files
            base_tokens, miss_tokens = [], []
            for p in pairs:
                t = p["anchorTurn"]
                bq, bgt = data["base"][0][p["baseId"]], data["base"][1][p["baseId"]]
                mq, mgt = data[p["category"]][0][p["missId"]], data[p["category"]][1][p["missId"]]
                base_tokens.append(prefix_token(rollouts[p["baseId"]], bgt, bq, "base", model, t))
                miss_tokens.append(prefix_token(rollouts[p["missId"]], mgt, mq, p["category"], model, t + 1))
            prefixes[key] = {"base": " ".join(base_tokens), "miss": " ".join(miss_tokens)}
            print(f"{key} prefixes: base {base_tokens.count('1')}, miss {miss_tokens.count('1')} of {len(pairs)}", file=sys.stderr)

    generator = "tools/gen-aligned-vectors.py (BFCL bfcl-eval 2026.3.23 checker, python3 %d.%d, sum as CPython 3.12)" % sys.version_info[:2]
    with open(os.path.join(a.out, "irrelevance-vectors.json"), "w", encoding="utf-8") as f:
        json.dump({"generator": generator, "files": irrelevance}, f, ensure_ascii=True, indent=1)
        f.write("\n")
    with open(os.path.join(a.out, "prefix-check-vectors.json"), "w", encoding="utf-8") as f:
        json.dump(
            {
                "generator": generator,
                "pairs": [[p["missId"], p["baseId"], p["anchorTurn"]] for p in pairs],
                "runs": prefixes,
            },
            f,
            ensure_ascii=True,
            indent=1,
        )
        f.write("\n")


if __name__ == "__main__":
    main()
