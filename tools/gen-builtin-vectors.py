#!/usr/bin/env python3
"""Test vectors for calls that name something other than a class method: Python builtins
(`exec`, `print`, `len`, `open`, exception classes, ...), the module globals of BFCL's
executor (`json`, `re`, `CLASS_FILE_PATH_MAPPING`, ...) and the local variables of its
`execute_multi_turn_func_call` (`func_call`, `method`, `class_instance`, ...), which BFCL's
`eval` of a call string can all reach.

Runs BFCL's own executor, imported from a checkout (read-only, nothing copied):
`execute_multi_turn_func_call` of `eval_checker/multi_turn_eval/multi_turn_utils.py`, with the
real API classes, on the real scenario of one data entry. Every call is run twice on the
same entry: as the first call (the call that creates the instances, so the locals `module` and
`class_` exist) and again (instances exist). Calls are keyword-only with literal values, the
only shape BFCL's decoders produce, plus the no-argument form.

Results that depend on the machine BFCL runs on rather than on the call — a memory address
(`<object object at 0x7f...>`), a path of the installation, the working directory's files,
what stdin holds — are marked `"machine": true`, with every `0x…` address replaced by `0x…`.

The process runs in a fresh temporary directory with stdin from /dev/null and stdout
discarded, so `open(..., mode='w')` writes there and `input()` meets end of file.

Usage: python3 tools/gen-builtin-vectors.py --bfcl-root <checkout>/berkeley-function-call-leaderboard \\
           --version v3|v4 --shared ../shared > src/simulator/testdata/builtin-vectors.<version>.json
"""
import argparse
import builtins
import io
import json
import os
import re
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--bfcl-root", required=True, help="berkeley-function-call-leaderboard folder of a Gorilla checkout")
ap.add_argument("--version", required=True, choices=["v3", "v4"], help="the BFCL release of that checkout (its data files are read)")
ap.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
ap.add_argument("--entry", action="append", help="data entries to run on (default: multi_turn_base_2 for every case, multi_turn_base_15 for the cases that depend on the classes)")
args = ap.parse_args()

sys.path.insert(0, os.path.abspath(args.bfcl_root))
ENTRY_IDS = args.entry or ["multi_turn_base_2", "multi_turn_base_15"]
data_file = os.path.join(os.path.abspath(args.shared), f"bfcl-{args.version}", f"BFCL_{args.version}_multi_turn_base.json")
with open(data_file, encoding="utf-8") as f:
    ENTRIES = {e["id"]: e for e in map(json.loads, f) if e["id"] in ENTRY_IDS}

from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils  # noqa: E402

MODEL = "vector_model"
BLOCKED = {"kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run"}

# keyword sets per name: the real parameter names of builtins that take keywords, with plausible values
KEYWORDS = {
    "print": ["message='hi'", "sep='-'", "end=''", "flush=True", "file='out.txt'", "sep='-', end='!'", "value='hi'", "file=None", "sep=1",
              "a=1, b=2, c=3, d=4, e=5"],
    "dict": ["a=1, b='x'", "items=[['a', 1]]"],
    "int": ["base=10", "x='5'", "x='5', base=10", "base=10, x=1", "a=1, b=2, c=3"],
    "float": ["x='1.5'"],
    "str": ["object=5", "object='x', encoding='utf-8'", "encoding='utf-8'", "errors='strict'", "object=[1, 'a']", "object={'a': None}", "object=2.50",
            "a=1, b=2, c=3, d=4"],
    "bool": ["x=1"],
    "bytes": ["source=[1, 2]", "source='ab', encoding='utf-8'", "encoding='utf-8'", "errors='strict'"],
    "bytearray": ["source=[1, 2]", "source='ab', encoding='utf-8'", "encoding='utf-8'"],
    "complex": ["real=1, imag=2", "real='1+2j'", "imag=2.5", "real=1.5", "real='j'", "real='-2.5e3-1j'", "real=' (1+2j) '", "real='abc'", "real='1+2'",
                "real='inf'", "real='nanj'", "real='1', imag=1", "real=True", "real=None", "real=[1]", "imag='1'", "real='-j'", "real='1e-3J'", "real='.5+.5j'"],
    "enumerate": ["iterable=[1, 2]", "iterable=[1], start=3", "start=1"],
    "compile": ["source='1+1', filename='f', mode='eval'", "source='1+1', filename='f'", "mode='eval'"],
    "exec": ["source='x=1'", "globals={}", "code='print(1)'"],
    "eval": ["source='1+1'", "expression='1+1'"],
    "max": ["iterable=[1, 2]", "key=None", "default=0", "a=1, b=2"],
    "min": ["iterable=[1, 2]", "key=None", "default=0"],
    "sorted": ["iterable=[3, 1, 2]", "key=None", "reverse=True"],
    "sum": ["iterable=[1, 2]", "start=1", "numbers=[1, 2]"],
    "round": ["number=2.675, ndigits=2", "number=2.5", "number='x'", "ndigits=1", "number=7, ndigits=-1", "number=1.5, ndigits=None", "a=1, b=2, c=3"],
    "pow": ["base=2, exp=10", "base=2, exp=10, mod=7", "base=2", "exp=3", "base=2.0, exp=-1", "base=0, exp=-1"],
    "open": ["file='missing_file.txt'", "file='notes.txt', mode='w'", "file='missing_file.txt', mode='r'", "mode='r'", "path='x.txt'"],
    "__import__": ["name='os'", "name='json'", "name='no_such_module_xyz'", "module='os'"],
    "memoryview": ["object=[1]", "object='ab'"],
    "zip": ["strict=True", "iterables=[[1]]"],
    "map": ["function=None"],
    "filter": ["function=None"],
    "range": ["stop=3", "start=0, stop=3"],
    "slice": ["stop=3"],
    "type": ["object=1", "name='X', bases=[], dict={}"],
    "super": ["type=1"],
    "object": ["x=1"],
    "property": ["fget=None", "doc='d'", "fget=None, fset=None, fdel=None, doc='x'"],
    "classmethod": ["function=None"],
    "staticmethod": ["function=None"],
    "help": ["request='len'", "request='nosuchtopicxyz'", "topic='len'"],
    "input": ["prompt='name?'"],
    "len": ["obj=[1, 2]", "s='abc'"],
    "abs": ["x=-1"],
    "format": ["value=1.5, format_spec='.1f'", "value=1"],
    "getattr": ["object=1, name='real'"],
    "isinstance": ["obj=1, class_or_tuple=1"],
    "iter": ["object=[1]"],
    "next": ["iterator=[1]"],
    "vars": ["object=1"],
    "dir": ["object=1"],
    "repr": ["obj=1"],
    "hash": ["obj=1"],
    "id": ["obj=1"],
    "list": ["iterable=[1]"],
    "tuple": ["iterable=[1]"],
    "set": ["iterable=[1]"],
    "frozenset": ["iterable=[1]"],
    "AttributeError": ["name='n'", "obj=1", "name='n', obj=1", "msg='m'", "name='n', x=1", "x=1, name='n'", "name='n', obj=1, x=2"],
    "NameError": ["name='n'", "msg='m'", "name='n', x=1"],
    "ImportError": ["name='n'", "path='p'", "name='n', path='p'", "msg='m'", "name='n', x=1", "name='n', path='p', x=1", "a=1, b=2, c=3"],
    "ModuleNotFoundError": ["name='n'", "path='p'"],
    "UnboundLocalError": ["name='n'"],
    "OSError": ["errno=2", "strerror='s'"],
    "SyntaxError": ["msg='m'"],
    "BaseExceptionGroup": ["message='m', exceptions=[]"],
    "ExceptionGroup": ["message='m', exceptions=[]"],
    "breakpoint": ["header='h'"],
    "copyright": ["x=1"],
}
GENERIC = ["", "x=1", "source='1+1'", "a=1, b='t'"]


def cases():
    """(entry id, calls of one batch) pairs."""
    module_names = sorted(n for n in vars(multi_turn_utils) if not n.endswith("_instance"))
    local_names = list(multi_turn_utils.execute_multi_turn_func_call.__code__.co_varnames)
    names = []
    for n in sorted(dir(builtins)) + module_names + local_names:
        if n not in names:
            names.append(n)
    single = []
    for n in names:
        for kw in GENERIC + KEYWORDS.get(n, []):
            single.append(f"{n}({kw})")
    # realistic shapes: dotted names (module attributes), nested builtins in an argument
    single += ["json.dumps(obj=[1, 'a'])", "json.loads(s='[1]')", "re.escape(pattern='a.b')", "copy.deepcopy(x=[1])", "os.getcwd()",
               "json.nosuch(x=1)", "inspect.isclass(object=1)", "importlib.import_module(name='json')", "builtins.len(obj=[1])",
               "len(obj=ls())", "is_empty_execute_response(input_list=[])", "is_empty_execute_response(input_list=[[]])",
               "is_empty_execute_response(input_list=[1, 2])", "is_empty_execute_response(input_list=5)", "is_empty_execute_response(input_list=[5])",
               "print.x", "len.__name__", "print", "exec", "method.x"]
    out = []
    seen = set()
    first, *others = ENTRY_IDS
    for c in single:
        if c not in seen:
            seen.add(c)
            out.append((first, [c]))
    # the locals that depend on the classes, on the other entries
    for e in others:
        for c in ["dir()", "method()", "method(x=1)", "class_()", "class_(x=1)", "class_instance()", "class_initial_config()", "module()"]:
            out.append((e, [c]))
    # batches: locals bound by earlier calls of the same batch
    for e in ENTRY_IDS:
        for batch in [["pwd()", "func_call_result()"], ["nosuch()", "func_call_result()"], ["pwd()", "dir()"], ["ls()", "execution_results()"],
                      ["dir()", "dir()"], ["e()", "dir()"], ["exec()", "print()", "len(obj=[1])"]]:
            out.append((e, batch))
    return out


ADDRESS = re.compile(r"0x[0-9a-f]{6,}")
# calls whose outcome the machine decides: its stdin, its working directory, the modules installed beside BFCL
MACHINE_CALLS = re.compile(r"^(input|breakpoint|license|help)\(\)$|^breakpoint\(header=|^open\(file=|^__import__\(name=|^importlib\.")


def machine_dependent(call, text):
    """Results that come from the machine rather than from the call."""
    return bool(ADDRESS.search(text) or MACHINE_CALLS.search(call)) or os.path.abspath(args.bfcl_root) in text or "/python3" in text or "site-packages" in text


def redact(text):
    """A machine-dependent text without this machine's paths, at most 200 characters."""
    for path in sorted({os.path.dirname(json.__file__).rsplit(os.sep, 1)[0], os.path.abspath(args.bfcl_root)}, key=len, reverse=True):
        text = text.replace(path, "…")
    return text if len(text) <= 200 else text[:200] + "…"


def main():
    work = tempfile.mkdtemp(prefix="twinscore-builtin-vectors-")
    os.chdir(work)
    real_stdout = sys.stdout
    results = []
    try:
        for k, (entry_id, calls) in enumerate(cases()):
            entry = ENTRIES[entry_id]
            probe_id = f"{entry_id}_probe{k}"
            sys.stdout = io.StringIO()
            try:
                first, _ = multi_turn_utils.execute_multi_turn_func_call(
                    calls, entry["initial_config"], entry["involved_classes"], MODEL, probe_id, long_context=False, is_evaL_run=True)
                again, _ = multi_turn_utils.execute_multi_turn_func_call(
                    calls, entry["initial_config"], entry["involved_classes"], MODEL, probe_id, long_context=False, is_evaL_run=True)
            finally:
                sys.stdout = real_stdout
            row = {"entry": entry_id, "calls": calls, "first": [ADDRESS.sub("0x…", r) for r in first], "again": [ADDRESS.sub("0x…", r) for r in again]}
            if any(machine_dependent(c, r) for c, r in zip(calls + calls, first + again)):
                # only the shape matters to the tests (the machine decides the text): long texts are cut
                row["machine"] = True
                row["first"] = [redact(r) for r in row["first"]]
                row["again"] = [redact(r) for r in row["again"]]
            results.append(row)
    finally:
        sys.stdout = real_stdout
    doc = {
        "generator": "tools/gen-builtin-vectors.py",
        "version": args.version,
        "python": sys.version.split()[0],
        "model": MODEL,
        "cases": results,
    }
    json.dump(doc, sys.stdout, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write("\n")


main()
