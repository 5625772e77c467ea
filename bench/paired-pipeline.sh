#!/usr/bin/env bash
# Paired wall and CPU time of two builds of the bin on the commands that read a run for
# everything at once: score with BFCL's verdicts, every sensitivity reading and the
# checker's companions; report and compare with the BFCL data. The builds alternate, so
# load on a shared machine hits both alike.
# Usage: bench/paired-pipeline.sh BEFORE_CHECKOUT AFTER_CHECKOUT [rounds=8]
#   (each checkout built with `npm run build`, so dist/bin/twinscore.js exists)
set -euo pipefail
before=$1/dist/bin/twinscore.js
after=$2/dist/bin/twinscore.js
rounds=${3:-8}
here=$(cd "$(dirname "$0")" && pwd)
shared=${TWINSCORE_SHARED:-$here/../../shared}
runs=$shared/rollouts/gpt-oss
main=$runs/2025-11-12-main
fixes=$runs/2025-11-12-harmony-fixes
data=$shared/bfcl-v4
log=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$log" "$out"' EXIT
measure() { # label build args...
  local label=$1 build=$2; shift 2
  /usr/bin/time -f "$label %e %U %S %M" -a -o "$log" node "$build" "$@" >/dev/null 2>&1 || true
}
for _ in $(seq "$rounds"); do
  for side in before after; do
    build=$([ "$side" = before ] && echo "$before" || echo "$after")
    measure "score-all/$side" "$build" score --results "$main" --scores "$main" --sensitivity --bfcl-data "$data" --bootstrap 0
    measure "report-data/$side" "$build" report --results "$main" --results "$fixes" --scores "$main" --scores "$fixes" --bfcl-data "$data" --bootstrap 0 --out "$out/r.html"
    measure "compare-data/$side" "$build" compare --a "$main" --b "$fixes" --bfcl-data "$data" --bootstrap 0
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
