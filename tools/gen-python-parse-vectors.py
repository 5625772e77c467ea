#!/usr/bin/env python3
"""Generate CPython test vectors for twinscore's Python expression parser.

Run with python3 (3.11 on the project machine) from the project root:

    python3 tools/gen-python-parse-vectors.py ../shared/bfcl-v4

Writes two files beside the parser tests:

* src/python/testdata/parse-vectors.json: our own tricky expressions with the expected
  tree (a canonical dump, see below) or the fact that CPython rejects them.
* src/python/testdata/gt-parse-hashes.json: for every ground-truth entry of the four
  multi-turn categories, a short SHA-256 of the canonical dump of all its call strings.
  Only hashes are stored (no BFCL data is copied); the test re-reads the strings from the
  shared data, parses them with the TypeScript parser and compares the hashes.

Canonical dump: JSON with fixed key order, compact separators and ASCII escaping
(`json.dumps(x, ensure_ascii=True, separators=(",", ":"))`). Ints are decimal strings,
floats and imaginary parts are the big-endian hex of their IEEE-754 bits, bytes are lists
of ints. Nodes the TypeScript parser deliberately does not support are dumped as
{"k": "unsupported:<Name>"}.
"""
import ast
import glob
import hashlib
import json
import os
import struct
import sys
import warnings

warnings.simplefilter("ignore")
sys.setrecursionlimit(20000)

BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "**", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&",
          ast.BitOr: "|", ast.BitXor: "^"}
UNOPS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
          ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


def fbits(x):
    return struct.pack(">d", x).hex()


def dump(n):
    if n is None:
        return None
    if isinstance(n, ast.Constant):
        v = n.value
        if v is None:
            return {"k": "none"}
        if v is Ellipsis:
            return {"k": "ellipsis"}
        if isinstance(v, bool):
            return {"k": "bool", "v": v}
        if isinstance(v, int):
            return {"k": "int", "v": str(v)}
        if isinstance(v, float):
            return {"k": "float", "v": fbits(v)}
        if isinstance(v, complex):
            return {"k": "imag", "v": fbits(v.imag)}
        if isinstance(v, str):
            return {"k": "str", "v": v}
        if isinstance(v, bytes):
            return {"k": "bytes", "v": list(v)}
        raise TypeError(type(v))
    if isinstance(n, ast.Name):
        return {"k": "name", "id": n.id}
    if isinstance(n, ast.Attribute):
        return {"k": "attribute", "value": dump(n.value), "attr": n.attr}
    if isinstance(n, ast.Subscript):
        return {"k": "subscript", "value": dump(n.value), "index": dump(n.slice)}
    if isinstance(n, ast.Slice):
        return {"k": "slice", "lower": dump(n.lower), "upper": dump(n.upper), "step": dump(n.step)}
    if isinstance(n, ast.List):
        return {"k": "list", "elts": [dump(e) for e in n.elts]}
    if isinstance(n, ast.Tuple):
        return {"k": "tuple", "elts": [dump(e) for e in n.elts]}
    if isinstance(n, ast.Set):
        return {"k": "set", "elts": [dump(e) for e in n.elts]}
    if isinstance(n, ast.Dict):
        return {"k": "dict", "keys": [dump(k) for k in n.keys], "values": [dump(v) for v in n.values]}
    if isinstance(n, ast.Starred):
        return {"k": "starred", "value": dump(n.value)}
    if isinstance(n, ast.UnaryOp):
        return {"k": "unary", "op": UNOPS[type(n.op)], "operand": dump(n.operand)}
    if isinstance(n, ast.BinOp):
        return {"k": "binary", "op": BINOPS[type(n.op)], "left": dump(n.left), "right": dump(n.right)}
    if isinstance(n, ast.BoolOp):
        return {"k": "boolop", "op": "and" if isinstance(n.op, ast.And) else "or", "values": [dump(v) for v in n.values]}
    if isinstance(n, ast.Compare):
        return {"k": "compare", "left": dump(n.left), "ops": [CMPOPS[type(o)] for o in n.ops],
                "comparators": [dump(c) for c in n.comparators]}
    if isinstance(n, ast.IfExp):
        return {"k": "ifexp", "test": dump(n.test), "body": dump(n.body), "orelse": dump(n.orelse)}
    if isinstance(n, ast.Lambda):
        return {"k": "lambda"}
    if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return {"k": "comprehension"}
    if isinstance(n, ast.JoinedStr):
        return {"k": "fstring"}
    if isinstance(n, ast.Call):
        return {"k": "call", "func": dump(n.func), "args": [dump(a) for a in n.args],
                "keywords": [[kw.arg, dump(kw.value)] for kw in n.keywords]}
    return {"k": "unsupported:" + type(n).__name__}


def parse_dump(src):
    try:
        tree = ast.parse(src, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as e:
        return {"error": "%s: %s" % (type(e).__name__, getattr(e, "msg", str(e)))}
    return dump(tree.body)


def canonical(x):
    return json.dumps(x, ensure_ascii=True, separators=(",", ":"))


TRICKY = [
    # numbers
    "0", "00", "0_0", "7", "1_000_000", "0x1F", "0XdEaD_bEEf", "0o17", "0O7_7", "0b1011", "0B_1", "09", "012",
    "1_", "1__0", "0x", "0b2", "0o8", "1.", ".5", "1.5", "1e5", "1E-5", "1.e5", "1_0.0_1e1_0", "09.5", "09j", "3j",
    "1.5J", ".5j", "1e400", "1e-400", "123456789012345678901234567890", "0x" + "f" * 40, "1if 1 else 2",
    "1e", "1e+", "1else", "0.1", "2.5e-3", "1_000.000_1", "0xffffffffffffffffffff", "5e-324", "1.7976931348623157e308",
    # strings
    "'a'", '"a"', "'''a\nb'''", '"""x"y"""', "'a' 'b'", "'a' \"b\" '''c'''", "r'\\n'", "R'\\d+'", "b'ab'", "B'a' b'c'",
    "rb'\\x'", "Br'\\n'", "u'x'", "U'x'", "'\\n\\t\\r\\\\\\'\\\"'", "'\\a\\b\\f\\v'", "'\\x41\\x4a'", "'\\101'", "'\\0'",
    "'\\777'", "b'\\777'", "'\\u00e9\\U0001F600'", "'\\ud800'", "'\\q'", "'\\x4'", "'\\u12'", "'\\U00110000'",
    "b'\\u1234'", "b'\\x41'", "'a\\\nb'", "'a\nb'", "'abc", "'''abc", "r'\\'", "r'\\''", "'é'", "'日本'",
    "b'é'", "'a' b'b'", "f'a{b}'", "f'a' 'b'", "'a' f'{b}'", "rf'{x}\\n'", "F'x'", "'\\N{BULLET}'", "''", "\"\"",
    "'\\\r\nx'",
    # constants and names
    "True", "False", "None", "...", "x", "_x1", "é", "ﬁ", "日本", "a.ﬁ", "x1y2", "match", "case", "_",
    # attribute, subscripts, slices
    "a.b.c", "a.b(1).c[2]", "a[1]", "a[1:2]", "a[:]", "a[::]", "a[::2]", "a[1:2:3]", "a[1:2, 3]", "a[1,]", "a[*b]",
    "a[b, *c]", "a[:, None]", "a[...]", "a[]", "a[1:2:3:4]", "x[0][1][2]", "a.1", "a.if",
    # calls
    "f()", "f(1)", "f(1, 2,)", "f(a=1)", "f(a=1,)", "f(1, a=2)", "f(*a)", "f(**k)", "f(*a, *b, c=1, **d, e=2)",
    "f(a=1, *b)", "f(a=1, 2)", "f(**a, b)", "f(**a, *b)", "f(x for x in y)", "f(x for x in y, 1)", "f(1, x for x in y)",
    "f(a.b=1)", "f(True=1)", "f(a, b)(c)", "f(a=1, a=2)", "f(,)", "f(1,,2)", "a.b.c(d=1)", "f(\n  a=1,\n  b=2\n)",
    "f(a = 1 , b = [1 , 2])", "f(*a=1)", "f(a=)",
    # displays
    "[]", "[1]", "[1,]", "[1, 2, 3]", "[*a, b]", "[,]", "()", "(1)", "(1,)", "(1, 2)", "((1))", "(*a)", "(*a,)",
    "(*a, b)", "{}", "{1}", "{1,}", "{1: 2}", "{1: 2,}", "{**a}", "{**a, 1: 2, **b}", "{*a, 1}", "{1: 2, 3}",
    "{1, 2: 3}", "[x for x in y]", "[x for x, y in z if x if y for w in x]", "{x for x in y}", "{k: v for k, v in d}",
    "(x for x in y)", "[x async for x in y]", "[x for 1 in y]", "[1, 2,][0]", "{'a': [1, {'b': (2,)}]}",
    # operators
    "1 + 2 * 3", "(1 + 2) * 3", "2 ** 3 ** 2", "-2 ** 2", "2 ** -1", "-x", "+x", "~x", "- - x", "not x", "not not x",
    "a and b or c", "a or b and c", "a or b or c", "a or (b or c)", "a and not b", "1 < 2 < 3", "a is not b",
    "a not in b", "a in b", "a == b != c", "a <= b >= c", "a < b > c", "a | b ^ c & d << e >> f", "a // b % c @ d / e",
    "a if b else c", "a if b else c if d else e", "(a if b else c) if d else e", "lambda: 1", "lambda x, y=1: x",
    "lambda *a, **k: a", "lambda x=lambda: 1: x", "a if b else lambda: c", "x is not not y", "a <> b", "a not b",
    "1 +", "* a", "a ** b ** -c ** d", "-1", "--1", "-+~1", "not -x < y", "a if b", "a if b else", "lambda",
    # top level
    "1, 2", "1, 2,", "1,", "*a, b", "", "   ", "  1", "\n  1", "1\n", "1\n\n# c\n", "1 # comment", "1\n 2",
    "1\n2", "x = 1", "x == 1", "(x := 1)", "await x", "(yield)", "print 1", "print(1)", "1 +\\\n 2",
    "1 + \\ 2", "\t[f()]", "[f()]\t", "[f()]\n", "(1\n+\n2)", "[1,\n 2]", ")", "(", "]", "(]", "[1, 2)", "{)",
    "a $ b", "a ? b", "a ! b", "a … b", "`a`", "a;b", "if", "for x in y", "import os", "def f(): pass",
    # indentation of the first and last lines
    "1\n  ", "1\n  \n", "1\n\t", "1\n  # c", "\x0c1", " \x0c1", "\x0c 1", "1\n\x0c", "\t\x0c1", "(1\n  )\n  ",
    # lambda parameter rules, comprehension targets
    "lambda *, k: 1", "lambda *, **k: 1", "lambda a, /, b: 1", "lambda /: 1", "lambda a=1, b: 1", "lambda *a, b: 1",
    "lambda *a, b=1, c: 1", "lambda **k,: 1", "lambda a,: 1", "lambda a, *, b=1, **c: a", "lambda *a, *b: 1",
    "lambda a, /, /: 1", "lambda *, /: 1", "lambda **: 1", "lambda *: 1", "lambda **k, a: 1", "[x for x, in y]",
    "[x for *x, in y]", "[x for in y]", "[x for , y in z]", "[x for x y in z]",
    # f-string contents (validated, then opaque)
    "f'{a!r:>{w}}'", "f'{x=}'", "f'{x = !r}'", "f'{{}}'", "f'{}'", "f'}'", "f'{'", "f'{a#}'", "f'{a!x}'", "f'{a!}'",
    "f'{a:{b:{c}}}'", "f'{a:{b}}'", "f'{\"a\"}'", "f'{a['b']}'", "rf'{a}\\d'", "f'\\x4'", "f'{a}' f'{'",
    "f'{x for x in y}'", "f'{a!=b}'", "f'{a<b}'", "f'{a>=b}'", "f'{a==b}'", "f'{*a}'", "f'{a, b}'", "f'{(a)}'",
    "f'{a)}'", "f'{a\\n}'", "f'{a:%Y-%m}'", "f'''{a\n+b}'''", "f'{lambda: 1}'", "f'{a:{{}}}'", "f'{ }'",
    # BFCL-style call lists
    "[cd(folder='document'), mkdir(dir_name='temp')]",
    "[mv(source='a.txt', destination='b')]",
    "[ls(a=True), cd(folder='..')]",
    "[f(a=-1.5, b=[1, 2], c={'x': None})]",
    "[math.sqrt(x=4), a.b.c(d=1)]",
    "[post_tweet(content='Hi! \\'quoted\\'', tags=['#a', '#b'], mentions=[])]",
    "[f(a=1)][0]",
    "[f(a=g(b=1)), h(c=g(2))]",
    "[f(a=x.y)]",
    "[f(a=1+2, b='a'*3, c=-(3))]",
    "[f(a=+3), g(b=not True)]",
    "[f(a=(1, 2)), g(b={1, 2})]",
    "[f(a=lambda: 1)]",
    "[f(a=b[1:2])]",
    "[f(a=f'{x}')]",
    "[f(1, 'two', c=3)]",
    "[f(*args, **kw)]",
    "[\n  f(a=1),\n  g(b=2)\n]",
    "[f(a=1), 'text']",
    "[f(a=1)] extra",
    "I will call ls now.",
    "[I will call ls now.]",
    "[Sure, here you go: ls(a=True)]",
    "[ls<|channel|>commentary(a=True)]",
    "[get_zipcode_based_on_city(city='Rivermist')]",
    "[send_message(receiver_id='USR002', message='Hi \u00e9\u4e2d')]",
]


# ---- seeded fuzz: random expressions from our own grammar walker, half of them mutated ----

import random

FUZZ_ATOMS = ["a", "b", "f", "g", "x1", "_", "\u00e9", "True", "False", "None", "...", "0", "1", "10", "0x1f", "0o7",
              "0b1", "1.5", "1.", ".5", "1e3", "2E-2", "3j", "1_0", "00", "'a'", '"b"', "r'\\n'", "b'x'", "'\\x41'",
              "'''t'''", "u'x'", "f'{a}'", "'a' 'b'", "'\\u00e9'", "'\\n'", "rb'\\d'"]
FUZZ_BIN = ["+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^"]
FUZZ_CMP = ["==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"]
FUZZ_MUT = list("()[]{},:=.'\"*+-!@#\\ \n0a_j<>") + ["if", "else", "for", "lambda", "not", "**", "..."]


def sp(rng):
    return rng.choice(["", "", "", " ", "  "])


def gen(rng, depth):
    if depth <= 0 or rng.random() < 0.25:
        return rng.choice(FUZZ_ATOMS)
    k = rng.randrange(17)
    d = depth - 1
    if k == 0:
        return rng.choice(["-", "+", "~", "not "]) + gen(rng, d)
    if k == 1:
        return gen(rng, d) + sp(rng) + rng.choice(FUZZ_BIN) + sp(rng) + gen(rng, d)
    if k == 2:
        return gen(rng, d) + " " + rng.choice(FUZZ_CMP) + " " + gen(rng, d)
    if k == 3:
        return gen(rng, d) + rng.choice([" and ", " or "]) + gen(rng, d)
    if k == 4:
        return gen(rng, d) + " if " + gen(rng, d) + " else " + gen(rng, d)
    if k in (5, 6):
        parts = []
        for _ in range(rng.randrange(4)):
            r = rng.random()
            if r < 0.5:
                parts.append(gen(rng, d))
            elif r < 0.85:
                parts.append(rng.choice(["a", "b", "file_name", "c"]) + "=" + gen(rng, d))
            elif r < 0.93:
                parts.append("*" + gen(rng, d))
            else:
                parts.append("**" + gen(rng, d))
        tail = rng.choice(["", "", ","]) if parts else ""
        return rng.choice(["f", "g", "a.b", "math.sqrt", "x[0]"]) + "(" + ("," + sp(rng)).join(parts) + tail + ")"
    if k == 7:
        return gen(rng, d) + "." + rng.choice(["b", "real", "if", "x_1"])
    if k == 8:
        items = [rng.choice(["", gen(rng, d)]) + ":" + rng.choice(["", gen(rng, d)]) if rng.random() < 0.3 else gen(rng, d)
                 for _ in range(rng.randrange(1, 3))]
        return gen(rng, d) + "[" + ", ".join(items) + rng.choice(["", ","]) + "]"
    if k == 9:
        els = [gen(rng, d) if rng.random() < 0.85 else "*" + gen(rng, d) for _ in range(rng.randrange(4))]
        return "[" + ", ".join(els) + rng.choice(["", ","]) + "]"
    if k == 10:
        els = [gen(rng, d) for _ in range(rng.randrange(4))]
        return "(" + ", ".join(els) + rng.choice(["", ","]) + ")"
    if k == 11:
        els = [gen(rng, d) + ": " + gen(rng, d) if rng.random() < 0.85 else "**" + gen(rng, d) for _ in range(rng.randrange(4))]
        return "{" + ", ".join(els) + rng.choice(["", ","]) + "}"
    if k == 12:
        els = [gen(rng, d) for _ in range(rng.randrange(1, 4))]
        return "{" + ", ".join(els) + "}"
    if k == 13:
        return "lambda " + rng.choice(["", "x", "x, y=1", "*a", "**k"]) + ": " + gen(rng, d)
    if k == 14:
        open_, close = rng.choice([("[", "]"), ("(", ")"), ("{", "}")])
        return open_ + gen(rng, d) + " for " + rng.choice(["x", "x, y", "(x, y)"]) + " in " + gen(rng, d) + \
            rng.choice(["", " if " + gen(rng, d)]) + close
    if k == 15:
        return "(" + gen(rng, d) + ")"
    return "[" + ", ".join(rng.choice(["cd", "mv", "echo", "ls"]) + "(" + rng.choice(["a", "file_name"]) + "=" + gen(rng, d) + ")"
                           for _ in range(rng.randrange(1, 3))) + "]"


def mutate(rng, s):
    s = list(s)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(4)
        i = rng.randrange(len(s) + 1)
        if op == 0 and s and i < len(s):
            del s[i]
        elif op == 1:
            s.insert(i, rng.choice(FUZZ_MUT))
        elif op == 2 and s and i < len(s):
            s.insert(i, s[i])
        elif op == 3 and len(s) > 1 and i < len(s) - 1:
            s[i], s[i + 1] = s[i + 1], s[i]
    return "".join(s)


def fuzz_cases(n, seed=20261130):
    """[source, hash] pairs: 12 hex digits of the canonical dump's SHA-256, "E" rejected, "U" unsupported node."""
    rng = random.Random(seed)
    out = []
    seen = set()
    while len(out) < n:
        src = gen(rng, rng.randrange(1, 5))
        if rng.random() < 0.5:
            src = mutate(rng, src)
        if src in seen or "\\N{" in src:
            continue
        seen.add(src)
        d = parse_dump(src)
        if "error" in d:
            h = "E"
        elif "unsupported:" in canonical(d):
            h = "U"
        else:
            h = hashlib.sha256(canonical(d).encode("ascii")).hexdigest()[:12]
        out.append([src, h])
    return out


def main():
    data_dir = sys.argv[1] if len(sys.argv) > 1 else "../shared/bfcl-v4"
    out_dir = os.path.join("src", "python", "testdata")
    os.makedirs(out_dir, exist_ok=True)
    cases = []
    seen = set()
    for src in TRICKY:
        if src in seen:
            continue
        seen.add(src)
        cases.append({"source": src, "expect": parse_dump(src)})
    # deep nesting: only whether CPython accepts it
    deep = {
        "parens-200": "(" * 200 + "1" + ")" * 200,
        "parens-201": "(" * 201 + "1" + ")" * 201,
        "lists-199": "[" * 199 + "]" * 199,
        "unary-1000": "-" * 1000 + "1",
        "not-1000": "not " * 1000 + "x",
        "ifexp-300": "a if b else " * 300 + "c",
        "lambda-300": "lambda: " * 300 + "1",
        "pow-1000": "**".join(["2"] * 1000),
    }
    deep_cases = []
    for name, src in deep.items():
        d = parse_dump(src)
        deep_cases.append({"name": name, "accepted": "error" not in d})
    with open(os.path.join(out_dir, "parse-vectors.json"), "w") as f:
        json.dump({"generator": "tools/gen-python-parse-vectors.py", "python": sys.version.split()[0],
                   "cases": cases, "deep": deep_cases}, f, ensure_ascii=True, indent=0)
        f.write("\n")
    fuzz = fuzz_cases(2000)
    with open(os.path.join(out_dir, "parse-fuzz.json"), "w") as f:
        json.dump({"generator": "tools/gen-python-parse-vectors.py", "python": sys.version.split()[0], "seed": 20261130,
                   "cases": fuzz}, f, ensure_ascii=True, indent=0)
        f.write("\n")
    hashes = {}
    total = 0
    for path in sorted(glob.glob(os.path.join(data_dir, "possible_answer", "BFCL_v4_multi_turn_*.json"))):
        category = os.path.basename(path)[len("BFCL_v4_multi_turn_"):-len(".json")]
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                entry = json.loads(line)
                dumps = [[parse_dump(s) for s in turn] for turn in entry["ground_truth"]]
                total += sum(len(t) for t in entry["ground_truth"])
                hashes[category + "/" + entry["id"]] = hashlib.sha256(canonical(dumps).encode("ascii")).hexdigest()[:16]
    with open(os.path.join(out_dir, "gt-parse-hashes.json"), "w") as f:
        json.dump({"generator": "tools/gen-python-parse-vectors.py", "python": sys.version.split()[0],
                   "callStrings": total, "hashes": hashes}, f, indent=0, sort_keys=True)
        f.write("\n")
    print("fuzz", len(fuzz), "rejected", sum(1 for c in fuzz if c[1] == "E"), "cases", len(cases), "deep", len(deep_cases), "ground-truth entries", len(hashes), "call strings", total)


if __name__ == "__main__":
    main()
