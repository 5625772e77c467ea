#!/usr/bin/env python3
# Writes src/bfcl/decode/testdata/prompting-vectors.json: runs the prompting decoder functions of a
# BFCL checkout (BFCL_SRC, read at run time, nothing copied) on hand-made model texts.
# Usage: python3 tools/gen-prompting-vectors.py > src/bfcl/decode/testdata/prompting-vectors.json
# Generates test vectors by running BFCL's own prompting decoder (read at run time from the checkout; not copied).
import ast, json, re, sys, types
import os
src = open(os.path.join(os.environ.get("BFCL_SRC", "/work/gorilla-src/berkeley-function-call-leaderboard"), "bfcl_eval/model_handler/utils.py")).read()
tree = ast.parse(src)
wanted = {"ast_parse", "resolve_ast_call", "resolve_ast_by_type", "default_decode_execute_prompting", "parse_nested_value", "decoded_output_to_execution_list"}
mod = types.ModuleType("m")
mod.__dict__.update({"ast": ast, "re": re, "json": json})
class RF:  # stand-in for the ReturnFormat enum
    PYTHON = "python"
mod.ReturnFormat = RF
for node in tree.body:
    if isinstance(node, ast.FunctionDef) and node.name in wanted:
        node.returns = None
        for a in node.args.args: a.annotation = None
        code = compile(ast.Module(body=[node], type_ignores=[]), "utils.py", "exec")
        exec(code, mod.__dict__)
inputs = [
    "[cd(folder='document'), mkdir(dir_name='temp')]",
    "cd(folder='x')",
    "```\n[ls(a=True)]\n```",
    "[cd('positional')]",
    "[f(a=1, b=2.0, c=-3, d=+4, e=1+2, g='a'*3, h=[1, (2, 3)], i={'k': None, 2: True}, j=name, k=...)]",
    "[f(x=g(y=1))]",
    "[f(x=g(1, 2))]",
    "[f(x={'a': {'b': 1}})]",
    "[f(x={})]",
    "[f(x=lst[0])]",
    "[f(x=a.b)]",
    "'[f(x=1)]'",
    "",
    "I think you should cd",
    "[1, 2]",
    "[a.b.c(x=1)]",
    "[f(x=not True)]",
    "[f(x=[{'a': {'b': 2}}])]",
    "[f(x=1e16, y=0.1, z=10**3)]",
    "[f(**{'a': 1})]",
    "[f(a=1, a=2)]",
    "[f(x={1: {}, 2: {'q': 3}})]",
    "[f(x=(1,))]",
    "[f(x=b'xy')]",
    "[f(x=1j)]",
    "[f(x=\"it's\")]",
]
out = []
for s in inputs:
    try:
        r = {"ok": True, "calls": mod.default_decode_execute_prompting(s)}
    except Exception as e:
        r = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    out.append({"text": s, **r})
print(json.dumps({"generator": "tools: BFCL 6ea57973 model_handler/utils.py prompting decoder run by a local script", "vectors": out}, indent=1, ensure_ascii=False))
