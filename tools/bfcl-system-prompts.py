#!/usr/bin/env python3
# Digests of BFCL's default prompting-mode system prompt, built by BFCL's own
# formulate_system_prompt (read at run time from a Gorilla checkout, nothing copied): reads
# {entry id: [function docs as sent]} as JSON on stdin, prints {entry id: sha256 of the prompt}.
# src/app/run-tools.test.ts (with GORILLA_DIR) compares them with what `run --mode prompting`
# builds from the same checkout's default_prompts.py.
# Usage: python3 tools/bfcl-system-prompts.py BFCL_ROOT < functions.json
import hashlib, json, re, sys
from pathlib import Path

from bfcl_source import extract_functions

root = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/gorilla-6ea57973/berkeley-function-call-leaderboard")
ns = {"json": json, "re": re}
exec((root / "bfcl_eval/constants/default_prompts.py").read_text(), ns)


def extract(path, names):
    extract_functions(path, names, ns)


extract(root / "bfcl_eval/model_handler/utils.py", ["formulate_system_prompt", "format_function_doc", "parse_prompt_variation_params", "_generate_function_doc_xml", "_generate_function_doc_python"])
extract(root / "bfcl_eval/utils.py", ["extract_prompt_format_from_id"])
out = {}
for entry_id, functions in json.load(sys.stdin).items():
    prompt = ns["formulate_system_prompt"](ns["extract_prompt_format_from_id"](entry_id), functions)
    out[entry_id] = hashlib.sha256(prompt.encode("utf8")).hexdigest()
print(json.dumps(out, sort_keys=True))
