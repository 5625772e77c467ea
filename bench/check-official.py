"""Time BFCL's official multi-turn checker on the same files as bench/check.mjs, in the
same conditions, for the speed comparison in bench/RESULTS.md.

Imports `multi_turn_checker` from a BFCL checkout: the folder holding `bfcl_eval`
(`berkeley-function-call-leaderboard` in a Gorilla checkout), given as the first argument
or in BFCL_SRC; needs only mpmath. Decoding of FC
steps is done here the way BFCL's `convert_to_function_call` does it, and the runner's
pre-checks are repeated, so the timed work is what `bfcl evaluate` does per entry minus
writing score files: reading and parsing the result lines, decoding, checking (the same
work bench/check.mjs times as "verdicts"). Prints CPU ms per entry (time.process_time).
Usage: python3 bench/check-official.py GORILLA/berkeley-function-call-leaderboard
"""
import json, os, sys, time

src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BFCL_SRC")
if not src or not os.path.isdir(os.path.join(src, "bfcl_eval")):
    sys.exit("usage: python3 bench/check-official.py GORILLA/berkeley-function-call-leaderboard (or set BFCL_SRC): the folder holding bfcl_eval")
sys.path.insert(0, src)
from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker  # noqa: E402

shared = os.environ.get("TWINSCORE_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
data = os.path.join(shared, "bfcl-v4")
runs = os.path.join(shared, "rollouts", "gpt-oss")


def decode(step):
    if type(step) == dict:
        step = [step]
    out = []
    for call in step:
        for name, args in call.items():
            if type(args) == str:
                args = json.loads(args)
            out.append(f"{name}(" + ",".join(f"{k}={repr(v)}" for k, v in args.items()) + ")")
    return out


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


total = 0
cpu = 0.0
read_cpu = 0.0
passing = 0
for cat in ["base", "miss_func", "miss_param"]:
    prompts = {e["id"]: e for e in load(os.path.join(data, f"BFCL_v4_multi_turn_{cat}.json"))}
    gts = {e["id"]: e["ground_truth"] for e in load(os.path.join(data, "possible_answer", f"BFCL_v4_multi_turn_{cat}.json"))}
    for run in sorted(os.listdir(runs)):
        for model in sorted(os.listdir(os.path.join(runs, run, "result"))):
            name = f"{model}_{run}"  # distinct instance names per run, as separate evaluations would have
            # reading and parsing the result lines is timed too (bench/check.mjs times its own), apart
            t_read = time.process_time()
            results = load(os.path.join(runs, run, "result", model, "multi_turn", f"BFCL_v4_multi_turn_{cat}_result.json"))
            t0 = time.process_time()
            read_cpu += t0 - t_read
            for r in results:
                total += 1
                res, gt = r["result"], gts[r["id"]]
                if type(res) != list or len(res) != len(gt):
                    continue
                decoded = []
                for turn in res:
                    steps = []
                    for step in turn:
                        try:
                            d = decode(step)
                        except Exception:
                            continue
                        if len(d) == 0 or (len(d) == 1 and len(d[0]) == 0):
                            continue
                        steps.append(d)
                    decoded.append(steps)
                v = multi_turn_checker(decoded, gt, prompts[r["id"]], f"multi_turn_{cat}", name)
                passing += v["valid"]
            cpu += time.process_time() - t0
print(f"official checker: {total} entries, {passing} passing, {cpu*1000:.0f} ms CPU, {cpu*1000/total:.3f} ms/entry "
      f"(decoding and checking); with reading and parsing the result lines {(cpu+read_cpu)*1000/total:.3f} ms/entry")
