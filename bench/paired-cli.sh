#!/usr/bin/env bash
# Paired CPU and wall time of two builds of the CLI on the real gpt-oss rollouts: the
# builds alternate, so load on a shared machine hits both alike. CPU (user + system,
# children included) is the figure to compare there; wall mostly measures the queue.
# Usage: bench/paired-cli.sh BEFORE_CHECKOUT AFTER_CHECKOUT [rounds=8]
#   (each checkout built: `npx tsc -p tsconfig.build.json`, so dist/cli/main.js exists)
set -euo pipefail
before=$1/dist/cli/main.js
after=$2/dist/cli/main.js
rounds=${3:-8}
here=$(cd "$(dirname "$0")" && pwd)
shared=${TWINSCORE_SHARED:-$here/../../shared}
runs=$shared/rollouts/gpt-oss
log=$(mktemp)
trap 'rm -f "$log"' EXIT
measure() { # label build args...
  local label=$1 build=$2; shift 2
  /usr/bin/time -f "$label %e %U %S %M" -a -o "$log" node "$build" "$@" >/dev/null 2>&1 || true
}
for _ in $(seq "$rounds"); do
  for side in before after; do
    build=$([ "$side" = before ] && echo "$before" || echo "$after")
    measure "score-run/$side" "$build" score --results "$runs/2025-11-12-main" --bootstrap 0
    measure "score-model/$side" "$build" score --results "$runs/2025-11-12-main/result/openai_gpt-oss-120b" --bootstrap 0
    measure "check-tree/$side" "$build" check --results "$runs" --bfcl-data "$shared/bfcl-v4"
  done
done
python3 - "$log" <<'PY'
import statistics as s, sys
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 5: rows.setdefault(p[0], []).append((float(p[1]), float(p[2]) + float(p[3]), int(p[4])))
for k in sorted(rows):
    v = rows[k]
    print(f"{k:20} wall {s.median(x[0] for x in v):.2f} s  cpu {s.median(x[1] for x in v):.2f} s  rss {s.median(x[2] for x in v) / 1024:.0f} MB  (median of {len(v)})")
PY
