#!/usr/bin/env bash
# Time BFCL's official `bfcl evaluate` end to end on the real gpt-oss multi-turn outputs
# (base, miss_func, miss_param; 2 models x 200 entries x 3 categories = 1,200 entries per
# run folder), for the speed comparison in bench/RESULTS.md. Also times the fixed start-up
# (import of the CLI and every model handler, `--help`) so per-entry cost can be given with
# and without it. Prints wall, CPU (user+sys), peak RSS and the 1-minute load average.
#
# It copies each run's result tree to a temp project root (BFCL_PROJECT_ROOT) and never
# writes under ../shared. After each evaluate it compares the first line (accuracy,
# correct_count, total_count) of every produced score file with the stored one.
#
# Venv setup (once; this machine has no PyPI access, only its local wheel index):
#   python3 -m venv /tmp/bfcl-venv
#   cp -r GORILLA/berkeley-function-call-leaderboard /tmp/bfcl-pkg   (GORILLA: a Gorilla checkout)
#   /tmp/bfcl-venv/bin/pip install --no-deps -e /tmp/bfcl-pkg
#   /tmp/bfcl-venv/bin/pip install numpy==1.26.4 mpmath==1.3.0 python-dotenv typer tabulate \
#       pandas tqdm filelock anthropic openai google-genai boto3 tenacity overrides requests \
#       'pydantic>=2.8.2' beautifulsoup4 rank-bm25==0.2.2 huggingface-hub
# Not installable offline here (mistralai, cohere, writer-sdk, datamodel-code-generator,
# tree_sitter*, qwen-agent, html2text, google-search-results) and not wanted (torch via
# sentence-transformers, faiss): BFCL imports them only because model_config.py imports
# every vendor handler, and the Java/JS AST checker. Multi-turn evaluation never calls them,
# so an import-only placeholder module is installed for them: copy the file
# _bfcl_stub_finder.py (written by this script to $WORK on first run, see below) into the
# venv's site-packages with a .pth line `import _bfcl_stub_finder`. This script does that
# itself if the .pth is missing. Start-up is therefore a LOWER bound: the real SDKs
# would add their import time.
#
# The checkout's registry has no gpt-oss entry, so a small launcher registers
# openai/gpt-oss-120b and openai/gpt-oss-20b as copies of gpt-4.1-2025-04-14-FC (OpenAI
# chat-completions handler, FC mode: decodes {name: "<json args>"} like the stored runs).
#
# Usage: bash bench/check-official-evaluate.sh   (env BFCL_VENV, REPS=3, TWINSCORE_SHARED,
#        MODELS=openai/gpt-oss-120b for one model, RUNS="2025-11-12-main" for one run folder)
set -euo pipefail
VENV=${BFCL_VENV:-/tmp/bfcl-venv}
REPS=${REPS:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=${TWINSCORE_SHARED:-$HERE/../../shared}
RUNS_DIR=$SHARED/rollouts/gpt-oss
WORK=$(mktemp -d /tmp/bfcl-e2e.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PY=$VENV/bin/python
[ -x "$PY" ] || { echo "no venv at $VENV (see header)" >&2; exit 2; }

SITE=$("$PY" -c "import sysconfig;print(sysconfig.get_paths()['purelib'])")
if [ ! -f "$SITE/zz_bfcl_stubs.pth" ]; then
cat > "$SITE/_bfcl_stub_finder.py" <<'PYEOF'
# Import-only placeholders for SDKs that bfcl_eval imports at load time but that
# multi-turn evaluation never calls. Any attribute is a subclassable class.
import importlib.abc, importlib.machinery, sys, types
STUBBED = {"mistralai", "cohere", "writerai", "datamodel_code_generator", "tree_sitter",
           "tree_sitter_java", "tree_sitter_javascript", "qwen_agent", "html2text",
           "serpapi", "sentence_transformers", "faiss", "wandb"}
class _Meta(type):
    def __getattr__(cls, name):
        if name.startswith("__"): raise AttributeError(name)
        sub = _Meta(name, (cls,), {}); setattr(cls, name, sub); return sub
class _Placeholder(Exception, metaclass=_Meta):
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k): return _Placeholder()
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return _Placeholder()
    def __class_getitem__(cls, item): return cls
class _Module(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        cls = _Meta(name, (_Placeholder,), {}); setattr(self, name, cls); return cls
class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
    def create_module(self, spec):
        m = _Module(spec.name); m.__path__ = []; return m
    def exec_module(self, module): pass
sys.meta_path.append(_Finder())  # appended: a really installed package wins
PYEOF
echo "import _bfcl_stub_finder" > "$SITE/zz_bfcl_stubs.pth"
fi

cat > "$WORK/launch.py" <<'PYEOF'
import dataclasses, sys
from bfcl_eval.constants.model_config import MODEL_CONFIG_MAPPING
base = MODEL_CONFIG_MAPPING["gpt-4.1-2025-04-14-FC"]
for name in ("openai/gpt-oss-120b", "openai/gpt-oss-20b"):
    MODEL_CONFIG_MAPPING[name] = dataclasses.replace(base, model_name=name, display_name=f"{name} (FC) (vLLM)")
from bfcl_eval.__main__ import cli
sys.argv[0] = "bfcl"
cli()
PYEOF

CATS=multi_turn_base,multi_turn_miss_func,multi_turn_miss_param
# MODELS=openai/gpt-oss-120b times one model (600 entries per run folder): the difference to
# both models is the cost of 600 more entries with every fixed cost removed
MODELS=${MODELS:-openai/gpt-oss-120b,openai/gpt-oss-20b}
ENTRIES=$(( 600 * $(echo "$MODELS" | tr ',' '\n' | wc -l) ))
RUNS=${RUNS:-2025-11-12-main 2025-11-12-harmony-fixes}
# time_one LABEL ROOT ARGS... -> prints "LABEL wall_s cpu_s rss_kb load1"
time_one() {
  local label=$1 root=$2; shift 2
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  ( cd "$root" && OPENAI_API_KEY=unused BFCL_PROJECT_ROOT="$root" \
      /usr/bin/time -f '%e %U %S %M' -o "$WORK/t" nice -n 10 "$PY" "$WORK/launch.py" "$@" \
      > "$root/stdout.log" 2> "$root/stderr.log" ) || { echo "$label failed, see $root/stderr.log" >&2; cat "$root/stderr.log" | tail -5 >&2; exit 1; }
  read -r wall user sys rss < "$WORK/t"
  echo "$label $wall $(echo "$user + $sys" | bc) $rss $load"
}

echo "# label wall_s cpu_s peak_rss_kb load1"
: > "$WORK/rows"
for rep in $(seq "$REPS"); do
  mkdir -p "$WORK/startup"
  time_one startup "$WORK/startup" --help | tee -a "$WORK/rows"
  for run in $RUNS; do
    root=$WORK/$run; rm -rf "$root"; mkdir -p "$root"; cp -r "$RUNS_DIR/$run/result" "$root/"
    time_one "$run" "$root" evaluate --model $MODELS --test-category $CATS | tee -a "$WORK/rows"
    if [ "$rep" = 1 ]; then
      for f in "$root"/score/*/multi_turn/*_score.json; do
        [ -f "$f" ] || continue
        rel=${f#"$root/"}; got=$(head -1 "$f"); want=$(head -1 "$RUNS_DIR/$run/$rel")
        [ "$got" = "$want" ] && echo "  same  $run $rel $got" || echo "  DIFF  $run $rel got $got stored $want"
      done
    fi
  done
done

echo "# best and median over $REPS reps; per entry = $ENTRIES entries per run folder"
"$PY" - "$WORK/rows" "$ENTRIES" <<'PYEOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
n = int(sys.argv[2]); by = {}
for label, wall, cpu, rss, load in rows:
    by.setdefault(label, []).append((float(wall), float(cpu), int(rss), load))
stat = lambda xs: (min(xs), statistics.median(xs))
s_wall, s_cpu = stat([r[0] for r in by["startup"]]), stat([r[1] for r in by["startup"]])
print(f"startup: wall best {s_wall[0]:.2f}s median {s_wall[1]:.2f}s; cpu best {s_cpu[0]:.2f}s median {s_cpu[1]:.2f}s")
for label, rs in by.items():
    if label == "startup": continue
    w, c = stat([r[0] for r in rs]), stat([r[1] for r in rs])
    print(f"{label}: wall best {w[0]:.2f}s median {w[1]:.2f}s; cpu best {c[0]:.2f}s median {c[1]:.2f}s; "
          f"rss max {max(r[2] for r in rs)/1024:.0f} MiB; load1 {','.join(r[3] for r in rs)}")
    print(f"  per entry incl. startup: wall {w[0]/n*1000:.2f} ms (median {w[1]/n*1000:.2f}), cpu {c[0]/n*1000:.2f} ms (median {c[1]/n*1000:.2f})")
    print(f"  per entry excl. startup: wall {(w[0]-s_wall[0])/n*1000:.2f} ms (median {(w[1]-s_wall[1])/n*1000:.2f}), "
          f"cpu {(c[0]-s_cpu[0])/n*1000:.2f} ms (median {(c[1]-s_cpu[1])/n*1000:.2f})")
PYEOF
