#!/usr/bin/env python3
# Writes src/rollout/testdata/tool-vectors.json: the tool lists BFCL's OpenAICompletionsHandler
# sends in FC mode for every base, miss_func and miss_param entry of the BFCL data, as digests.
# BFCL's own functions are read at run time from a Gorilla checkout (nothing copied):
# populate_test_cases_with_predefined_functions (docs of the involved classes, held-back docs
# taken out), add_language_specific_hint_to_function_doc (the Python-3 hint) and
# convert_to_tool with GORILLA_TO_OPENAPI (OPENAI_COMPLETIONS style). The FC loop's handback
# (held-back docs appended to the function list at their turn, tools recompiled) is the
# three-line step of BaseHandler.inference_multi_turn_FC, restated here.
# Per entry: [[turn, sha256 of the tool list], …] for turn 0 and each turn where the list
# changes; the digest is over json.dumps(tools, ensure_ascii=False, separators=(",", ":")),
# which is what JSON.stringify gives for the same value (the docs hold no float literals).
# Usage: python3 tools/gen-tool-vectors.py [--bfcl-root DIR] [--data DIR] > src/rollout/testdata/tool-vectors.json
import argparse, copy, hashlib, json, os, re, types
from pathlib import Path

from bfcl_source import extract_functions

ap = argparse.ArgumentParser()
ap.add_argument("--bfcl-root", default="/work/gorilla-6ea57973/berkeley-function-call-leaderboard")
ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "bfcl-v4"))
args = ap.parse_args()
root = Path(args.bfcl_root)
data = Path(args.data)


def extract(path, names, namespace):
    extract_functions(path, names, namespace)


class _Style(type):
    def __getattr__(cls, name):
        return name


class ModelStyle(metaclass=_Style):
    pass


mappings = {}
exec((root / "bfcl_eval/constants/type_mappings.py").read_text(), mappings)
backend = {}
exec((root / "bfcl_eval/constants/executable_backend_config.py").read_text(), backend)


def load_file(path):
    return [json.loads(l) for l in Path(path).read_text().splitlines() if l.strip()]


ns = {
    "copy": copy,
    "re": re,
    "GORILLA_TO_OPENAPI": mappings["GORILLA_TO_OPENAPI"],
    "ModelStyle": ModelStyle,
    "load_file": load_file,
    "MULTI_TURN_FUNC_DOC_PATH": data / "multi_turn_func_doc",
    "MULTI_TURN_FUNC_DOC_FILE_MAPPING": backend["MULTI_TURN_FUNC_DOC_FILE_MAPPING"],
    "is_multi_turn": lambda test_id: "multi_turn" in test_id,
    "is_agentic": lambda test_id: False,
    "is_java": lambda category: False,
    "is_js": lambda category: False,
    "extract_test_category_from_id": lambda test_id: test_id.rsplit("_", 1)[0],
}
extract(root / "bfcl_eval/model_handler/utils.py", ["_cast_to_openai_type", "convert_to_tool"], ns)
extract(root / "bfcl_eval/utils.py", ["populate_test_cases_with_predefined_functions", "_get_language_specific_hint", "_func_doc_language_specific_pre_processing", "add_language_specific_hint_to_function_doc"], ns)


def digest(tools):
    return hashlib.sha256(json.dumps(tools, ensure_ascii=False, separators=(",", ":")).encode("utf8")).hexdigest()


out = {}
for category in ["base", "miss_func", "miss_param"]:
    cases = load_file(data / f"BFCL_v4_multi_turn_{category}.json")
    cases = ns["populate_test_cases_with_predefined_functions"](cases)
    cases = ns["add_language_specific_hint_to_function_doc"](cases)
    for entry in cases:
        functions = entry["function"]
        tools = ns["convert_to_tool"](functions, mappings["GORILLA_TO_OPENAPI"], ModelStyle.OPENAI_COMPLETIONS)
        seq = [[0, digest(tools)]]
        for t in range(len(entry["question"])):
            if str(t) in entry.get("missed_function", {}):
                functions.extend(entry["missed_function"][str(t)])
                tools = ns["convert_to_tool"](functions, mappings["GORILLA_TO_OPENAPI"], ModelStyle.OPENAI_COMPLETIONS)
                d = digest(tools)
                if d != seq[-1][1]:
                    seq.append([t, d])
        out[entry["id"]] = seq

generator = "tools/gen-tool-vectors.py: BFCL 6ea57973 populate_test_cases_with_predefined_functions, add_language_specific_hint_to_function_doc, convert_to_tool (OPENAI_COMPLETIONS) on the v4 data"
lines = [f"  {json.dumps(k)}: {json.dumps(out[k])}" for k in sorted(out)]
print("{\n" + f'"generator": {json.dumps(generator)},\n"entries": {{\n' + ",\n".join(lines) + "\n}\n}")
