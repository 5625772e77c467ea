#!/usr/bin/env python3
"""Generate vectors of BFCL's own decoders for twinscore's call extraction tests.

Run from the project root with python3 (3.11):

    python3 tools/gen-bfcl-decode-vectors.py ../gorilla-src/berkeley-function-call-leaderboard ../shared/bfcl-v4

BFCL's package cannot be imported here (it needs tree_sitter), so the few pure functions
of `bfcl_eval/model_handler/utils.py` that decode model output are loaded from that file
by name at run time (nothing is copied into this repository) and run on:

* our own Python-call texts (prompting decoder: `default_decode_ast_prompting` and
  `default_decode_execute_prompting`),
* our own native function-calling records (`convert_to_function_call`),
* every ground-truth turn of the four multi-turn categories turned into one text
  `[call, call, …]` (only a short hash of the decoded names and keyword values is stored
  per entry), and
* `ast.unparse` of the parser's tricky expressions.

Also a seeded fuzz of 1,500 of our own random call-list texts (BFCL's outcome only).

Writes src/extract/testdata/bfcl-decode-vectors.json, src/extract/testdata/decode-fuzz.json
and src/extract/testdata/gt-decode-hashes.json.
"""
import ast
import enum
import glob
import hashlib
import importlib.util
import json
import os
import re
import struct
import sys
import warnings

warnings.simplefilter("ignore")

NEEDED = [
    "convert_to_function_call", "ast_parse", "resolve_ast_call", "resolve_ast_by_type",
    "default_decode_ast_prompting", "default_decode_execute_prompting", "parse_nested_value",
    "decoded_output_to_execution_list",
]


class ReturnFormat(enum.Enum):
    PYTHON = "python"
    JAVA = "java"
    JAVASCRIPT = "javascript"
    VERBOSE_XML = "verbose_xml"
    CONCISE_XML = "concise_xml"
    JSON = "json"


def load_bfcl(bfcl_root):
    path = os.path.join(bfcl_root, "bfcl_eval", "model_handler", "utils.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in NEEDED]
    missing = set(NEEDED) - {d.name for d in defs}
    if missing:
        raise SystemExit("functions not found in %s: %s" % (path, sorted(missing)))
    module = ast.Module(body=defs, type_ignores=[])
    ns = {"ast": ast, "json": json, "re": re, "ReturnFormat": ReturnFormat}
    exec(compile(module, path, "exec"), ns)
    return ns


def fbits(x):
    return struct.pack(">d", float(x)).hex()


def lit(v):
    """The JSON-like form twinscore keeps (python/literal.ts toLiteral), numbers as float bits."""
    if v is None or isinstance(v, bool) or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        return {"num": fbits(v)}
    if isinstance(v, (list, tuple, set)):
        return [lit(x) for x in v]
    if isinstance(v, dict):
        return {"dict": [[k if isinstance(k, str) else str(k), lit(x)] for k, x in v.items()]}
    return repr(v)


def decoded_form(decoded):
    out = []
    for call in decoded:
        for name, args in call.items():
            out.append([name, [[k if isinstance(k, str) else str(k), lit(v)] for k, v in args.items()]])
    return out


def canonical(x):
    return json.dumps(x, ensure_ascii=True, separators=(",", ":"))


def run_prompting(ns, text):
    try:
        decoded = ns["default_decode_ast_prompting"](text)
        form = decoded_form(decoded)
    except Exception as e:  # noqa: BLE001 - any exception is BFCL's decode failure
        return {"error": "%s: %s" % (type(e).__name__, e)}
    try:
        execs = ns["default_decode_execute_prompting"](text)
    except Exception as e:  # noqa: BLE001
        return {"decoded": form, "executeError": "%s: %s" % (type(e).__name__, e)}
    return {"decoded": form, "execute": execs}


def run_fc(ns, step):
    try:
        return {"execute": ns["convert_to_function_call"](step)}
    except Exception as e:  # noqa: BLE001
        return {"error": str(e), "type": type(e).__name__}


PROMPTING = [
    "[cd(folder='document'), mkdir(dir_name='temp')]",
    "cd(folder='document')",
    "```\n[ls(a=True)]\n```",
    "``` [ls(a=True)] ```",
    "```python\n[ls(a=True)]\n```",
    "  [mv(source='a', destination='b')]  ",
    "\n\n[mv(source='a', destination='b')]\n",
    "\t[ls()]",
    "[ls()]\t",
    "'[ls()]'",
    "[cd('temp')]",
    "[cd('temp', folder='x')]",
    "[echo(content='hi', file_name='a.txt')]",
    "[echo('hi', 'a.txt')]",
    "[echo(content='hi')]",
    "[math.sqrt(x=4)]",
    "[a.b.c(d=1)]",
    "[x[0].foo(a=1)]",
    "[f()(a=1)]",
    "[f(a=-1), g(b=+2), h(c=not True), k(d=~3)]",
    "[f(a=-1.5)]",
    "[f(a=-'x')]",
    "[f(a=-x)]",
    "[f(a=-(-1))]",
    "[f(a=1+2, b='a'*3, c=2**10, d=7//2, e=7/2, g=7%3, h=[1]+[2])]",
    "[f(a=1/0)]",
    "[f(a=x+1)]",
    "[f(a=True+1)]",
    "[f(a=1<<3, b=6&3, c=6|1, d=6^3, e=16>>2)]",
    "[f(a=name)]",
    "[f(a=g(1, 2))]",
    "[f(a=g())]",
    "[f(a=g(b=1))]",
    "[f(a=g(b=h(c=2)))]",
    "[f(a=(1, 2)), g(b=(1,)), h(c=())]",
    "[f(a=[1, [2, 3]], b={'x': 1, 'y': [None, True]})]",
    "[f(a={1: 'one', 2.5: 'x', True: 'y', None: 'z', (1, 2): 't'})]",
    "[f(a={})]",
    "[f(a={'k': {}})]",
    "[f(a={'k': {'j': 1}})]",
    "[f(a={'k': 1, 'j': {}})]",
    "[f(a=[{}])]",
    "[f(a={[1]: 2})]",
    "[f(a={**b})]",
    "[f(a=x.y)]",
    "[f(a={1, 2})]",
    "[f(a=1 if b else 2)]",
    "[f(a=1 < 2)]",
    "[f(a=b and c)]",
    "[f(a=*b)]",
    "[f(*b)]",
    "[f(**kw)]",
    "[f(a=lambda: 1)]",
    "[f(a=[x for x in y])]",
    "[f(a=f'{x}')]",
    "[f(a=b[1])]",
    "[f(a=b[1:2])]",
    "[f(a=b[1, 2])]",
    "[f(a=b[c](d))]",
    "[f(a=...)]",
    "[f(a=b'xy')]",
    "[f(a=3j)]",
    "[f(a=1e400)]",
    "[f(a=0x1F, b=0o17, c=0b11, d=1_000)]",
    "[f(a='''multi\nline''')]",
    "[f(a='tab\\there', b=\"dq'sq\", c='\\u00e9')]",
    "[f(a=1, a=2)]",
    "[f(a=1)][0]",
    "[f(a=1)] + [g(b=2)]",
    "[f(a=1), 'text']",
    "[f(a=1), g]",
    "(f(a=1), g(b=2))",
    "{f(a=1)}",
    "[f(a=1),]",
    "[]",
    "",
    "   ",
    "``",
    "[[f(a=1)]]",
    "f(a=1), g(b=2)",
    "I need the file name first.",
    "Sure",
    "Sure.",
    "Could you confirm you are already logged in?",
    "confirm you are already logged in",
    "[Sure, I can help]",
    "Calling cd(folder='x') now.",
    "[ls<|channel|>commentary(a=True)]",
    "ls(a=True",
    "[ls(a=True)] I listed the files.",
    "print('hello')",
    "[get_zipcode_based_on_city(city='Rivermist')]",
    "[post_tweet(content='Hi', tags=['#a', '#b'], mentions=[])]",
    "[send_message(receiver_id='USR002', message='Hi \u00e9 \u4e2d')]",
]

FC_RECORDS = [
    [{"ls": "{\"a\": false}"}],
    [{"cd": "{\"folder\": \"document\"}"}, {"ls": "{}"}],
    [{"mv": {"source": "a", "destination": "b"}}],
    {"mv": {"source": "a", "destination": "b"}},
    [],
    [{"ls<|channel|>commentary": "{\"a\": false}"}],
    [{"view_messages_sent": "{\"\"}"}],
    [{"wc": "We need to count the lines."}],
    [{"f": "[1]"}],
    [{"f": "null"}],
    [{"f": "1"}],
    [{"f": ""}],
    [{"f": "{\"a\": NaN, \"b\": Infinity}"}],
    [{"f": "{\"a\": 1,}"}],
    [{"f": "{\"a\": \"line\nbreak\"}"}],
    [{"f": "{\"a\": 1} x"}],
    [{"f": 5}],
    [{"f": None}],
    [{"f": ["x"]}],
    ["text"],
    [5],
    "plain text",
    [{"f": "{\"a\": 1}", "g": "{\"b\": 2}"}],
    [{"f": "{\"a\": {\"b\": [1, 2.5, null]}}"}],
]


def decode_fuzz(ns, n, seed=20261130):
    """[text, outcome] pairs from our own random call-list texts: "E" when BFCL's prompting
    decoder (ast or execute path) raises, else 12 hex digits of the SHA-256 of the decoded form."""
    spec = importlib.util.spec_from_file_location("parsevec", os.path.join("tools", "gen-python-parse-vectors.py"))
    g = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(g)
    import random
    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < n:
        calls = []
        for _ in range(rng.randrange(1, 3)):
            args = []
            for _ in range(rng.randrange(0, 3)):
                if rng.random() < 0.2:
                    args.append(g.gen(rng, 2))
                else:
                    args.append(rng.choice(["a", "file_name", "content"]) + "=" + g.gen(rng, rng.randrange(0, 3)))
            calls.append(rng.choice(["cd", "mv", "echo", "ls", "a.b", "x[0].y"]) + "(" + ", ".join(args) + ")")
        text = rng.choice(["[", "", " [", "```\n["]) + ", ".join(calls) + rng.choice(["]", "", "]\n```", "] "])
        if rng.random() < 0.3:
            text = g.mutate(rng, text)
        if text in seen or "\\N{" in text:
            continue
        seen.add(text)
        r = run_prompting(ns, text)
        if "error" in r or "executeError" in r:
            out.append([text, "E"])
        else:
            out.append([text, hashlib.sha256(canonical(r["decoded"]).encode("ascii")).hexdigest()[:12]])
    return out


def main():
    bfcl_root = sys.argv[1] if len(sys.argv) > 1 else "../gorilla-src/berkeley-function-call-leaderboard"
    data_dir = sys.argv[2] if len(sys.argv) > 2 else "../shared/bfcl-v4"
    ns = load_bfcl(bfcl_root)
    out_dir = os.path.join("src", "extract", "testdata")
    os.makedirs(out_dir, exist_ok=True)

    prompting = [{"text": t, **run_prompting(ns, t)} for t in PROMPTING]
    fc = [{"step": s, **run_fc(ns, s)} for s in FC_RECORDS]

    spec = importlib.util.spec_from_file_location("parsevec", os.path.join("tools", "gen-python-parse-vectors.py"))
    parsevec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(parsevec)
    unparse = []
    for src in parsevec.TRICKY + [t for t in PROMPTING]:
        try:
            tree = ast.parse(src, mode="eval")
        except Exception:  # noqa: BLE001
            continue
        if any(isinstance(n, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda, ast.JoinedStr,
                               ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) for n in ast.walk(tree)):
            continue
        if "\\N{" in src:
            continue
        unparse.append({"source": src, "unparse": ast.unparse(tree.body)})

    with open(os.path.join(out_dir, "bfcl-decode-vectors.json"), "w") as f:
        json.dump({"generator": "tools/gen-bfcl-decode-vectors.py", "python": sys.version.split()[0],
                   "prompting": prompting, "fc": fc, "unparse": unparse}, f, ensure_ascii=True, indent=0)
        f.write("\n")

    fuzz = decode_fuzz(ns, 1500)
    with open(os.path.join(out_dir, "decode-fuzz.json"), "w") as f:
        json.dump({"generator": "tools/gen-bfcl-decode-vectors.py", "python": sys.version.split()[0], "seed": 20261130,
                   "cases": fuzz}, f, ensure_ascii=True, indent=0)
        f.write("\n")

    hashes = {}
    calls = 0
    for path in sorted(glob.glob(os.path.join(data_dir, "possible_answer", "BFCL_v4_multi_turn_*.json"))):
        category = os.path.basename(path)[len("BFCL_v4_multi_turn_"):-len(".json")]
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                entry = json.loads(line)
                turns = []
                for turn in entry["ground_truth"]:
                    calls += len(turn)
                    text = "[" + ", ".join(turn) + "]"
                    r = run_prompting(ns, text)
                    turns.append({"error": True} if "error" in r else {"decoded": r["decoded"]})
                hashes[category + "/" + entry["id"]] = hashlib.sha256(canonical(turns).encode("ascii")).hexdigest()[:16]
    with open(os.path.join(out_dir, "gt-decode-hashes.json"), "w") as f:
        json.dump({"generator": "tools/gen-bfcl-decode-vectors.py", "python": sys.version.split()[0],
                   "calls": calls, "hashes": hashes}, f, indent=0, sort_keys=True)
        f.write("\n")
    print("prompting", len(prompting), "fc", len(fc), "unparse", len(unparse), "gt entries", len(hashes), "calls", calls)


if __name__ == "__main__":
    main()
