"""Yardstick for `twinscore score`: a Python process that only reads the same result files
(each model's base, miss_func and miss_param) and json.loads every line.
Usage: python3 bench/yardstick.py MODEL_DIR [MODEL_DIR ...]  (a model folder holds multi_turn/)"""
import json, os, sys

n = 0
for model in sys.argv[1:]:
    for category in ("base", "miss_func", "miss_param"):
        folder = os.path.join(model, "multi_turn")
        name = next(f for f in os.listdir(folder) if f.endswith(f"_multi_turn_{category}_result.json"))
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    json.loads(line)
                    n += 1
print(n)
