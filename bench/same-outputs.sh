#!/bin/bash
# Usage: bench/same-outputs.sh BUILD_A BUILD_B (project roots with dist/ built): runs the commands
# that read the real runs with both bins (score also on the four models under names BFCL's
# registry does not know, so their decoders are detected) and says, per command, whether stdout,
# stderr and the exit code are byte for byte the same (the report: its HTML).
A=$1; B=$2; S=${TWINSCORE_SHARED:-$(dirname "$0")/../../shared}/rollouts; out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
G=$S/gpt-oss; M=$G/2025-11-12-main; H=$G/2025-11-12-harmony-fixes
i=0
run() { i=$((i+1)); for x in A B; do b=${!x}; node $b/dist/bin/twinscore.js "$@" > $out/$i.$x.out 2> $out/$i.$x.err; echo $? >> $out/$i.$x.out; done
  if cmp -s $out/$i.A.out $out/$i.B.out && cmp -s $out/$i.A.err $out/$i.B.err; then echo "same $i: $* ($(wc -c < $out/$i.A.out) bytes)"; else echo "DIFF $i: $*"; fi; }
run score --results $G --format json --bootstrap 200 --verbose
run score --results $G --scores $M/score --scores $H/score --format json --sensitivity --bootstrap 200
run score --results $M --scores $M/score --format json --sensitivity --bootstrap 200
run score --results $S/xlam-v3/result --scores $S/xlam-v3/score --format json --sensitivity --bootstrap 200
run score --results $S/xlam-v3/result --format json --bootstrap 200
run compare --a $M/result --b $H/result --scores-a $M/score --scores-b $H/score --format json --injection-check
run check --results $M/result --bfcl-data $S/../bfcl-v4 --format json
# the four models under names BFCL's registry does not know: their decoders are detected
for m in $M/result/* $H/result/*; do mkdir -p $out/unknown/$(basename $(dirname $(dirname $m)))-$(basename $m); ln -s $m/multi_turn $out/unknown/$(basename $(dirname $(dirname $m)))-$(basename $m)/multi_turn; done
run score --results $out/unknown --format json --bootstrap 200 --verbose
for x in A B; do b=${!x}; node $b/dist/bin/twinscore.js report --results $G --scores $M/score --out $out/report.$x.html > /dev/null 2>&1; done
cmp -s $out/report.A.html $out/report.B.html && echo "same report ($(wc -c < $out/report.A.html) bytes)" || echo "DIFF report"
