#!/usr/bin/env python3
"""Measure where CPython gives up on deeply nested input, stage by stage, for twinscore's tests.

A model's output can nest brackets (or operators) arbitrarily deep. Each stage BFCL runs
on it has its own limit in CPython, and past it a stage raises rather than crashes:

* `json.loads` (FC decoding of the argument string, and every result line),
  `repr`, `json.dumps`, `==`/`<` on containers, `hash` of tuples: C recursion;
* `copy.deepcopy`: Python recursion (two frames per level);
* `ast.parse` / `eval` of source text: the tokenizer's bracket limit (200), then the
  parser's stack, AST construction and compilation;
* BFCL's three decode/execute paths: `convert_to_function_call` (FC), the prompting
  decoder (`default_decode_execute_prompting`) and the executor's `eval` of a call string.

For every (stage, form) the first failing depth is found by bisection from a shallow
call stack (the script's own), and the outcome is recorded at depths around every limit
that matters (200, 498, 1000, 1500, 3000, the found limit) and at 10,000. Ok outcomes carry
a short SHA-256 of the result text where the stage makes one (repr, dumps, decoded calls),
so the TypeScript side must produce the same text.
BFCL's own call stack is deeper than this script's by a few levels, so inside BFCL each
C-recursion limit sits a few levels lower; the outcome at any depth away from a limit
(and at 10,000) is the same.

Run from the project root with the interpreter the official runs used (CPython 3.12) and
BFCL's checkout (its decoder functions are read at run time, nothing is copied):

    /root/.pyenv/versions/3.12.1/bin/python3 tools/gen-nesting-vectors.py \
        /work/gorilla-6ea57973/berkeley-function-call-leaderboard > src/python/vectors/nesting.json
"""
import ast
import copy
import enum
import hashlib
import json
import os
import re
import sys
import warnings

warnings.simplefilter("ignore")

NEEDED = [
    "convert_to_function_call", "ast_parse", "resolve_ast_call", "resolve_ast_by_type",
    "default_decode_execute_prompting", "parse_nested_value", "decoded_output_to_execution_list",
]


class ReturnFormat(enum.Enum):
    PYTHON = "python"


def load_bfcl(bfcl_root):
    path = os.path.join(bfcl_root, "bfcl_eval", "model_handler", "utils.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in NEEDED]
    missing = set(NEEDED) - {d.name for d in defs}
    if missing:
        raise SystemExit("functions not found in %s: %s" % (path, sorted(missing)))
    ns = {"ast": ast, "json": json, "re": re, "ReturnFormat": ReturnFormat}
    exec(compile(ast.Module(body=defs, type_ignores=[]), path, "exec"), ns)
    return ns


# ---- nested values and texts (the TypeScript tests build the same from (form, depth)) ----

def nested_list(n):
    x = []
    for _ in range(n - 1):
        x = [x]
    return x


def nested_dict(n):
    x = {}
    for _ in range(n - 1):
        x = {"a": x}
    return x


def nested_tuple(n):
    x = ()
    for _ in range(n - 1):
        x = (x,)
    return x


VALUES = {"list": nested_list, "dict": nested_dict, "tuple": nested_tuple}

JSON_TEXTS = {
    "list": lambda n: "[" * n + "]" * n,
    "dict": lambda n: '{"a": ' * n + "1" + "}" * n,
    # an argument object whose one value nests n lists (what a model's FC arguments look like)
    "args-list": lambda n: '{"a": "x", "deep": ' + "[" * n + "]" * n + "}",
}

SOURCE_TEXTS = {
    "list": lambda n: "[" * n + "]" * n,
    "paren": lambda n: "(" * n + "1" + ")" * n,
    "call": lambda n: "f(" * n + ")" * n,
    "unary": lambda n: "-" * n + "1",
    "not": lambda n: "not " * n + "1",
    "pow": lambda n: "2**" * n + "1",
    "add": lambda n: "1+" * n + "1",
    "attr": lambda n: "a" + ".b" * n,
    "callchain": lambda n: "a" + "()" * n,
    "subscript": lambda n: "a" + "[0]" * n,
    "ifelse": lambda n: "1 if 1 else " * n + "1",
    "lambda": lambda n: "lambda: " * n + "1",
}

# argument expressions for the decoders and the executor (BFCL sees `f(a=<expr>)`)
ARG_TEXTS = {
    "list": lambda n: "[" * n + "]" * n,
    "dict": lambda n: "{'a': " * n + "1" + "}" * n,
    "call": lambda n: "g(" * n + ")" * n,
    "kwcall": lambda n: "g(x=" * n + "1" + ")" * n,
    "unary": lambda n: "-" * n + "1",
    "add": lambda n: "1+" * n + "1",
    "pow": lambda n: "1**" * n + "1",
    "subscript": lambda n: "[0]" + "[0]" * n,
}


def digest(text):
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def outcome(f):
    try:
        r = f()
    except (Exception, RecursionError, MemoryError) as e:  # noqa: B014 — named for the reader
        return {"error": type(e).__name__, "message": str(e)}
    return {"ok": digest(r) if isinstance(r, str) else True}


def first_failure(run, hi=20000):
    """Smallest depth in [1, hi] whose outcome is an error, assuming failure is monotone; None if none fails."""
    if "ok" in outcome(lambda: run(hi)):
        return None
    lo = 1
    while lo < hi:
        mid = (lo + hi) // 2
        if "ok" in outcome(lambda: run(mid)):
            lo = mid + 1
        else:
            hi = mid
    return lo


def outcomes_at(run, depths):
    """The outcomes at `depths`, probed from the same stack depth as `first_failure` probes
    (Python-level recursion, as in deepcopy or ast.unparse, moves by one level per frame)."""
    return [{"depth": n, **outcome(lambda: run(n))} for n in depths]


POINTS = [1, 2, 199, 200, 201, 202, 497, 498, 499, 999, 1000, 1001, 1497, 1498, 1499, 2999, 3000, 10000]


def measure(stage, form, f, build_input):
    """Outcomes of `f(build_input(n))` around every limit; the input is built outside the timed call."""
    run = lambda n: f(build_input(n))  # noqa: E731
    limit = first_failure(run)
    depths = set(POINTS)
    if limit is not None:
        depths |= {limit - 1, limit, limit + 1}
    cases = outcomes_at(run, sorted(d for d in depths if 1 <= d <= 10000))
    return {"stage": stage, "form": form, "firstFailure": limit, "cases": cases}


def main():
    bfcl = load_bfcl(sys.argv[1])
    convert = bfcl["convert_to_function_call"]
    decode_prompting = bfcl["default_decode_execute_prompting"]
    out = []
    for form, text in JSON_TEXTS.items():
        out.append(measure("json.loads", form, json.loads, text))
    for form, build in VALUES.items():
        out.append(measure("repr", form, repr, build))
        out.append(measure("copy.deepcopy", form, copy.deepcopy, build))
        # two equal values built apart (identical items would be skipped without recursing)
        pair = lambda n, build=build: (build(n), build(n))  # noqa: E731
        out.append(measure("==", form, lambda ab: ab[0] == ab[1], pair))
        if form != "dict":
            out.append(measure("<", form, lambda ab: ab[0] < ab[1], lambda n, build=build: (build(n), build(n + 1))))
        if form != "tuple":
            out.append(measure("json.dumps", form, json.dumps, build))
    out.append(measure("hash", "tuple", hash, nested_tuple))
    for form, text in SOURCE_TEXTS.items():
        out.append(measure("ast.parse", form, lambda s: type(ast.parse(s, mode="eval").body).__name__, text))
        out.append(measure("compile", form, lambda s: repr(compile(s, "<string>", "eval").co_name), text))
    # BFCL's FC decoder on one call whose argument string nests n lists
    out.append(measure("bfcl.fc", "args-list", lambda raw: "\n".join(convert([{"f": raw}])), JSON_TEXTS["args-list"]))
    namespace = {"f": lambda **kw: None, "g": lambda *a, **kw: 1}
    for form, text in ARG_TEXTS.items():
        out.append(measure("bfcl.prompting", form, lambda s: "\n".join(decode_prompting(s)), lambda n: "[f(a=" + text(n) + ")]"))
        # the executor: `eval` of the call string (BFCL writes `Error during execution: {message}`)
        out.append(measure("bfcl.execute", form, lambda s: str(eval(s, dict(namespace))), lambda n: "f(a=" + text(n) + ")"))
    doc = {
        "generator": "tools/gen-nesting-vectors.py",
        "python": sys.version.split()[0],
        "recursionlimit": sys.getrecursionlimit(),
        "measurements": out,
    }
    print(dump_compact(doc))


def dump_compact(doc):
    """The document with one measurement per line (a diff shows which stage moved)."""
    head = {k: v for k, v in doc.items() if k != "measurements"}
    lines = [json.dumps(m, separators=(",", ":")) for m in doc["measurements"]]
    return json.dumps(head)[:-1] + ', "measurements": [\n' + ",\n".join(lines) + "\n]}"



if __name__ == "__main__":
    main()
