#!/usr/bin/env bash
# Decompose where BFCL's official `bfcl evaluate` spends its time on the real gpt-oss
# multi-turn outputs (one run folder: 2 models x base/miss_func/miss_param = 1,200 entries),
# so "the official checker's cost per entry" can be split into fixed and per-entry parts.
# Results and reading: bench/official-breakdown.md.
#
# Uses the venv and import-only SDK placeholders that bench/check-official-evaluate.sh sets
# up (run that script once first; see its header). Never writes under ../shared: each
# evaluate runs on a fresh temp copy of the result tree (BFCL_PROJECT_ROOT).
#
# Three parts (PARTS="timers cprofile slope" by default):
#   timers   - one evaluate (default 1,200 entries; TIMERS_MODELS, TIMERS_CATS to narrow) with wall/CPU timers wrapped around BFCL's own
#              functions (a few thousand calls, negligible overhead); no profiler bias.
#   cprofile - the same evaluate under cProfile; prints cumulative times of the same phases
#              plus the checker's inner parts and json.dumps. cProfile slows Python-level code
#              more than C-level code (json), so read its shares next to the timers.
#   slope    - best of REPS plain runs (/usr/bin/time) of: interpreter only, `--help`,
#              one model one category (200), one model (600), both models one category
#              (400), both models (1,200); slopes between them (fixed costs cancel).
# Usage: bash bench/check-official-profile.sh   (env BFCL_VENV, REPS=3, PARTS, TWINSCORE_SHARED,
#        RUN=2025-11-12-main)
set -euo pipefail
VENV=${BFCL_VENV:-/tmp/bfcl-venv}
REPS=${REPS:-3}
PARTS=${PARTS:-timers cprofile slope}
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=${TWINSCORE_SHARED:-$HERE/../../shared}
RUN=${RUN:-2025-11-12-main}
SRC=$SHARED/rollouts/gpt-oss/$RUN/result
PY=$VENV/bin/python
[ -x "$PY" ] || { echo "no venv at $VENV (see bench/check-official-evaluate.sh)" >&2; exit 2; }
SITE=$("$PY" -c "import sysconfig;print(sysconfig.get_paths()['purelib'])")
[ -f "$SITE/zz_bfcl_stubs.pth" ] || { echo "run bench/check-official-evaluate.sh once first (SDK placeholders)" >&2; exit 2; }
[ -d "$SRC" ] || { echo "no result tree at $SRC" >&2; exit 2; }
WORK=$(mktemp -d /tmp/bfcl-prof.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Launcher: registers the two gpt-oss names (as in check-official-evaluate.sh) and, with
# BFCL_TIMERS=<file>, wraps named BFCL functions with inclusive wall/CPU accumulators.
cat > "$WORK/launch.py" <<'PYEOF'
import os, sys, time, json
T0_WALL, T0_CPU = time.perf_counter(), time.process_time()
def since_process_start():
    # wall seconds since the kernel started this process (10 ms resolution)
    tck = os.sysconf("SC_CLK_TCK")
    start = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]) / tck
    return float(open("/proc/uptime").read().split()[0]) - start
PRE_WALL, PRE_CPU = since_process_start(), T0_CPU
TIMERS_OUT = os.environ.get("BFCL_TIMERS")
acc = {}
def wrap(module, name, label=None, split=None):
    original = getattr(module, name)
    def timed(*a, **k):
        key = label or name
        if split: key = split(key, a, k)
        w, c = time.perf_counter(), time.process_time()
        try:
            return original(*a, **k)
        finally:
            slot = acc.setdefault(key, [0, 0.0, 0.0])
            slot[0] += 1; slot[1] += time.perf_counter() - w; slot[2] += time.process_time() - c
    setattr(module, name, timed)

import dataclasses
from bfcl_eval.constants.model_config import MODEL_CONFIG_MAPPING
base = MODEL_CONFIG_MAPPING["gpt-4.1-2025-04-14-FC"]
for model in ("openai/gpt-oss-120b", "openai/gpt-oss-20b"):
    MODEL_CONFIG_MAPPING[model] = dataclasses.replace(base, model_name=model, display_name=f"{model} (FC) (vLLM)")
from bfcl_eval.__main__ import cli
IMPORTED_WALL, IMPORTED_CPU = time.perf_counter(), time.process_time()

if TIMERS_OUT:
    import bfcl_eval.utils as U
    import bfcl_eval.eval_checker.eval_runner as R
    import bfcl_eval.eval_checker.eval_runner_helper as H
    import bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker as MC
    for name in ("runner", "get_handler", "record_cost_latency", "load_dataset_entry",
                 "load_ground_truth_entry", "_subset_entries_by_model_ids",
                 "_evaluate_single_multi_turn_entry", "multi_turn_checker", "save_eval_results",
                 "update_leaderboard_table_with_local_score_file", "generate_leaderboard_csv"):
        wrap(R, name)
    wrap(R, "load_file", "load_file(result files)")
    wrap(U, "populate_test_cases_with_predefined_functions")  # function docs, per prompt entry
    wrap(H, "write_list_of_dicts_to_file", "write_list_of_dicts_to_file (score files)")
    wrap(H, "load_dataset_entry", "load_dataset_entry (leaderboard: N/A category sizes)")
    wrap(H, "load_file", "load_file (leaderboard: whole score files for their header)")
    wrap(MC, "execute_multi_turn_func_call",
         split=lambda key, a, k: key + (" (ground truth)" if k.get("model_name", "").endswith("_ground_truth") else " (model)"))
    wrap(MC, "state_checker"); wrap(MC, "response_checker")

sys.argv[0] = "bfcl"
try:
    cli()
except SystemExit as e:
    code = e.code
else:
    code = 0
finally:
    if TIMERS_OUT:
        end_wall, end_cpu = time.perf_counter(), time.process_time()
        out = {"pre_launcher": [1, PRE_WALL, PRE_CPU],
               "imports (launcher + bfcl_eval.__main__)": [1, IMPORTED_WALL - T0_WALL, IMPORTED_CPU - T0_CPU],
               "cli() total": [1, end_wall - IMPORTED_WALL, end_cpu - IMPORTED_CPU],
               "process until cli() end": [1, since_process_start(), end_cpu]}
        out.update(acc)
        json.dump(out, open(TIMERS_OUT, "w"), indent=1)
sys.exit(code)
PYEOF

BOTH=openai/gpt-oss-120b,openai/gpt-oss-20b
ALLCATS=multi_turn_base,multi_turn_miss_func,multi_turn_miss_param
fresh_root() { local r=$WORK/root.$1; rm -rf "$r"; mkdir -p "$r"; cp -r "$SRC" "$r/result"; echo "$r"; }
load1() { cut -d' ' -f1 /proc/loadavg; }
# timed LABEL ROOT CMD... -> "LABEL wall cpu rss load1"
timed() {
  local label=$1 root=$2; shift 2; local l; l=$(load1)
  ( cd "$root" && OPENAI_API_KEY=unused BFCL_PROJECT_ROOT="$root" /usr/bin/time -f '%e %U %S %M' -o "$WORK/t" "$@" \
      > "$root/stdout.log" 2> "$root/stderr.log" ) || { echo "$label failed:" >&2; tail -5 "$root/stderr.log" >&2; exit 1; }
  read -r wall user sys rss < "$WORK/t"
  echo "$label $wall $(echo "$user + $sys" | bc) $rss $l"
}

for part in $PARTS; do case $part in
timers)
  TM=${TIMERS_MODELS:-$BOTH}; TC=${TIMERS_CATS:-$ALLCATS}
  entries=$(( 200 * $(echo "$TM" | tr ',' '\n' | wc -l) * $(echo "$TC" | tr ',' '\n' | wc -l) ))
  echo "## timers: evaluate --model $TM --test-category $TC ($entries entries)"
  root=$(fresh_root timers)
  timed timers "$root" env BFCL_TIMERS="$WORK/timers.json" "$PY" "$WORK/launch.py" \
      evaluate --model "$TM" --test-category "$TC" | tee "$WORK/timers.row"
  "$PY" - "$WORK/timers.json" "$WORK/timers.row" "$entries" <<'PYEOF'
import json, sys
N = int(sys.argv[3])
t = json.load(open(sys.argv[1])); _, wall, cpu, rss, load = open(sys.argv[2]).read().split()
wall, cpu = float(wall), float(cpu)
print(f"process: wall {wall:.2f}s cpu {cpu:.2f}s rss {int(rss)/1024:.0f}MiB load1 {load}")
print(f"{'phase (inclusive)':60s} {'calls':>6s} {'wall s':>7s} {'cpu s':>7s} {'wall%':>6s} {'ms/entry':>8s}")
for k, (n, w, c) in t.items():
    print(f"{k:60s} {n:6d} {w:7.3f} {c:7.3f} {100*w/wall:5.1f}% {w/N*1000:8.3f}")
end = t["process until cli() end"]
print(f"{'after cli() end (teardown, exit)':60s} {'':6s} {wall-end[1]:7.3f} {cpu-end[2]:7.3f} {100*(wall-end[1])/wall:5.1f}%")
PYEOF
  ;;
cprofile)
  echo "## cprofile: evaluate, 2 models x 3 categories (1,200 entries)"
  root=$(fresh_root cprofile)
  timed cprofile "$root" "$PY" -m cProfile -o "$WORK/evaluate.prof" "$WORK/launch.py" \
      evaluate --model $BOTH --test-category $ALLCATS
  "$PY" - "$WORK/evaluate.prof" <<'PYEOF'
import pstats, sys
st = pstats.Stats(sys.argv[1]); total = st.total_tt
def cum(pred):
    rows = [(k, v) for k, v in st.stats.items() if pred(*k)]
    # cumulative of the outermost matches only: drop a match called (directly) by another match
    keys = {k for k, _ in rows}
    outer = [(k, v) for k, v in rows if not any(c in keys for c in v[4])] or rows
    return sum(v[3] for _, v in outer), sum(v[1] for _, v in rows)
phases = [
 ("imports (importlib _find_and_load, all)", lambda f, l, n: n == "_find_and_load"),
 ("runner (whole evaluation)", lambda f, l, n: n == "runner" and f.endswith("eval_runner.py")),
 ("load_file (all: results, prompts, func docs, ground truth, score headers)", lambda f, l, n: n == "load_file"),
 ("load_dataset_entry (prompts + function docs)", lambda f, l, n: n == "load_dataset_entry"),
 ("  populate_test_cases_with_predefined_functions (func docs)", lambda f, l, n: n == "populate_test_cases_with_predefined_functions"),
 ("load_ground_truth_entry", lambda f, l, n: n == "load_ground_truth_entry"),
 ("_evaluate_single_multi_turn_entry", lambda f, l, n: n == "_evaluate_single_multi_turn_entry"),
 ("  multi_turn_checker", lambda f, l, n: n == "multi_turn_checker"),
 ("    execute_multi_turn_func_call", lambda f, l, n: n == "execute_multi_turn_func_call"),
 ("      copy.deepcopy", lambda f, l, n: n == "deepcopy" and f.endswith("copy.py")),
 ("      builtins.eval", lambda f, l, n: n == "<built-in method builtins.eval>"),
 ("      inspect.getmembers", lambda f, l, n: n == "getmembers"),
 ("      _load_scenario (executor init)", lambda f, l, n: n == "_load_scenario"),
 ("    state_checker", lambda f, l, n: n == "state_checker"),
 ("    response_checker", lambda f, l, n: n == "response_checker"),
 ("save_eval_results (score files)", lambda f, l, n: n == "save_eval_results"),
 ("  make_json_serializable", lambda f, l, n: n == "make_json_serializable"),
 ("json.dumps (all: score files and executor results)", lambda f, l, n: n == "dumps" and "json" in f),
 ("update_leaderboard_table_with_local_score_file", lambda f, l, n: n == "update_leaderboard_table_with_local_score_file"),
 ("generate_leaderboard_csv", lambda f, l, n: n == "generate_leaderboard_csv"),
 ("json.loads (all)", lambda f, l, n: n == "loads" and "json" in f),
 ("filelock acquire+release (all)", lambda f, l, n: n in ("acquire", "release") and "filelock" in f),
]
def via(callee, caller):
    # cumulative time of `callee` spent in calls made directly by `caller`
    c = n = 0
    for k, v in st.stats.items():
        if callee(*k):
            for ck, cv in v[4].items():
                if caller(*ck): n += cv[1]; c += cv[3]
    return c, n
is_load_file = lambda f, l, n: n == "load_file"
callers = [
 ("load_file <- runner (result files)", is_load_file, lambda f, l, n: n == "runner"),
 ("load_file <- load_dataset_entry (prompt files)", is_load_file, lambda f, l, n: n == "load_dataset_entry"),
 ("load_file <- populate_test_cases_... (function docs, once per entry x class)", is_load_file, lambda f, l, n: n == "populate_test_cases_with_predefined_functions"),
 ("load_file <- load_ground_truth_entry", is_load_file, lambda f, l, n: n == "load_ground_truth_entry"),
 ("load_file <- update_leaderboard_... (whole score files)", is_load_file, lambda f, l, n: n == "update_leaderboard_table_with_local_score_file"),
 ("load_dataset_entry <- get_category_score (leaderboard N/A sizes)", lambda f, l, n: n == "load_dataset_entry", lambda f, l, n: n == "get_category_score"),
 ("load_dataset_entry <- evaluate_task (the evaluated categories)", lambda f, l, n: n == "load_dataset_entry", lambda f, l, n: n == "evaluate_task"),
 ("json.dumps <- _write_entries (score-file lines)", lambda f, l, n: n == "dumps" and "json" in f, lambda f, l, n: n == "_write_entries"),
 ("make_json_serializable <- _write_entries", lambda f, l, n: n == "make_json_serializable", lambda f, l, n: n == "_write_entries"),
 ("decode_execute <- _evaluate_single_multi_turn_entry", lambda f, l, n: n == "decode_execute", lambda f, l, n: n == "_evaluate_single_multi_turn_entry"),
]
print(f"cProfile total (profiled) {total:.2f}s")
print(f"{'callee <- direct caller':72s} {'calls':>8s} {'cum s':>7s} {'share':>6s} {'ms/entry':>8s}")
for label, callee, caller in callers:
    c, n = via(callee, caller)
    print(f"{label:72s} {n:8d} {c:7.2f} {100*c/total:5.1f}% {c/1200*1000:8.3f}")
print(f"{'phase':72s} {'calls':>8s} {'cum s':>7s} {'share':>6s} {'ms/entry':>8s}")
for label, pred in phases:
    c, n = cum(pred)
    if n: print(f"{label:72s} {n:8d} {c:7.2f} {100*c/total:5.1f}% {c/1200*1000:8.3f}")
print("\ntop 15 by own time:")
st.sort_stats("tottime").print_stats(15)
PYEOF
  ;;
slope)
  echo "## slope: best of $REPS plain runs; label wall_s cpu_s rss_kb load1"
  : > "$WORK/rows"
  for rep in $(seq "$REPS"); do
    mkdir -p "$WORK/empty"
    timed python-bare "$WORK/empty" "$PY" -c pass | tee -a "$WORK/rows"
    timed help "$WORK/empty" "$PY" "$WORK/launch.py" --help | tee -a "$WORK/rows"
    root=$(fresh_root s); timed one-model-base-200 "$root" "$PY" "$WORK/launch.py" evaluate --model openai/gpt-oss-120b --test-category multi_turn_base | tee -a "$WORK/rows"
    root=$(fresh_root s); timed one-model-600 "$root" "$PY" "$WORK/launch.py" evaluate --model openai/gpt-oss-120b --test-category $ALLCATS | tee -a "$WORK/rows"
    root=$(fresh_root s); timed two-models-base-400 "$root" "$PY" "$WORK/launch.py" evaluate --model $BOTH --test-category multi_turn_base | tee -a "$WORK/rows"
    root=$(fresh_root s); timed two-models-1200 "$root" "$PY" "$WORK/launch.py" evaluate --model $BOTH --test-category $ALLCATS | tee -a "$WORK/rows"
  done
  "$PY" - "$WORK/rows" <<'PYEOF'
import sys
by = {}
for label, wall, cpu, rss, load in (l.split() for l in open(sys.argv[1])):
    by.setdefault(label, []).append((float(wall), float(cpu), int(rss), load))
best = {k: (min(r[0] for r in v), min(r[1] for r in v)) for k, v in by.items()}
n = {"one-model-base-200": 200, "one-model-600": 600, "two-models-base-400": 400, "two-models-1200": 1200}
print(f"{'label':20s} {'best wall':>9s} {'best cpu':>9s} {'rss MiB':>7s}  load1 per rep")
for k, v in by.items():
    print(f"{k:20s} {best[k][0]:9.2f} {best[k][1]:9.2f} {max(r[2] for r in v)/1024:7.0f}  {','.join(r[3] for r in v)}")
for k, e in n.items():
    print(f"{k}: whole command {best[k][0]/e*1000:.2f} ms/entry wall, {best[k][1]/e*1000:.2f} CPU; "
          f"minus --help {(best[k][0]-best['help'][0])/e*1000:.2f} wall, {(best[k][1]-best['help'][1])/e*1000:.2f} CPU")
for a, b in (("one-model-base-200", "one-model-600"), ("two-models-base-400", "two-models-1200"),
             ("one-model-600", "two-models-1200"), ("one-model-base-200", "two-models-base-400"), ("one-model-base-200", "two-models-1200")):
    d = n[b] - n[a]
    print(f"slope {a} -> {b}: wall {(best[b][0]-best[a][0])/d*1000:.2f} ms/entry, cpu {(best[b][1]-best[a][1])/d*1000:.2f} ms/entry")
PYEOF
  ;;
*) echo "unknown part $part" >&2; exit 2 ;;
esac; done
