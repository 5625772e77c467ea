"""A tree of N model folders for the memory bench whose call texts all differ: each is a copy
of one of the four real gpt-oss models (../shared/rollouts/gpt-oss) in which every FC argument
text (`{"folder": "document"}`) carries the copy's number (`{"folder": "document", "_m": 17}`),
everything else unchanged. bench/score-yardstick.mjs repeats the same four models, so caches
keyed by call text (src/bfcl/decode/fc.ts) are filled once there; here every model adds its own
entries. The numbers this tree gives are not the real models' (the extra argument is a real
argument to the checker); only time and memory are read off it.

Usage: python3 bench/distinct-models.py N OUT_DIR [SHARED=../shared]
  then: /usr/bin/time -f "%M KB %e s" node dist/bin/twinscore.js score --results OUT_DIR --bootstrap 0 >/dev/null
"""
import glob
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
count, out_dir = int(sys.argv[1]), sys.argv[2]
shared = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, "..", "..", "shared")
sources = sorted(glob.glob(os.path.join(shared, "rollouts", "gpt-oss", "*", "result", "*")))
if not sources:
    sys.exit(f"no gpt-oss models under {shared}/rollouts/gpt-oss")


def numbered(result, n):
    """The result with each FC record's argument text given the extra argument `_m: n`."""
    for turn in result:
        for step in turn:
            if not isinstance(step, list):
                continue
            for record in step:
                if not isinstance(record, dict):
                    continue
                for name, args in list(record.items()):
                    if isinstance(args, str) and args.startswith("{") and args.endswith("}"):
                        record[name] = args[:-1] + (", " if len(args) > 2 else "") + f'"_m": {n}' + "}"
    return result


for n in range(count):
    source = sources[n % len(sources)]
    target = os.path.join(out_dir, f"model-{n:03d}", "multi_turn")
    os.makedirs(target, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(source, "multi_turn", "*_result.json"))):
        lines = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    entry = json.loads(line)
                    if isinstance(entry.get("result"), list):
                        numbered(entry["result"], n)
                    line = json.dumps(entry, ensure_ascii=False) + "\n"
                lines.append(line)
        with open(os.path.join(target, os.path.basename(path)), "w", encoding="utf-8") as f:
            f.writelines(lines)
print(f"{count} models under {out_dir}")
