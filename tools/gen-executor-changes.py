#!/usr/bin/env python3
"""Which BFCL executor behaviours changed after each supported release, read from Gorilla's git history.

For each BFCL release twinscore emulates (v4: bfcl-eval 2026.3.23 at Gorilla 6ea57973, released
as "BFCL V4 Release" 58f57e91; v3: v3 final at cd9429cc, released as "BFCL v3" 70b6a4a2), every
commit between the release and the supported revision that touched the eight multi-turn API
classes (func_source_code/, the classes BFCL's executor runs) is read hunk by hunk:

* the method a hunk falls in (from the class source at that commit, by line);
* the error messages it removed and added (`"error": "..."` / `f"..."` literals, f-string fields
  kept as `{name}`), paired in order: before -> after; an added message with none removed is a
  new refusal, and the code lines it replaced are kept (`beforeCode`), e.g. `echo` that used to
  create a missing file;
* a hunk that changes code but no message is kept as a behaviour change without messages.

It also says whether the eight class files at the release are byte-identical to those of another
supported revision (v4's release equals v3 final's: the TypeScript v3 classes then stand for a
run scored by BFCL's v4 code as released).

Writes src/simulator/executor-changes.ts (generated; do not edit). Standard library only; reads
the bare repository with `git --git-dir`.

Usage: tools/gen-executor-changes.py --git-dir /work/.mirror/ShishirPatil+gorilla/repo [--out FILE]
"""
import argparse
import ast
import json
import os
import re
import subprocess
import sys

CLASS_FILES = ["gorilla_file_system", "math_api", "message_api", "posting_api", "ticket_api", "trading_bot", "travel_booking", "vehicle_control"]
# the class sources moved from bfcl/ to bfcl_eval/ when BFCL became a package
SOURCE_DIRS = [
    "berkeley-function-call-leaderboard/bfcl_eval/eval_checker/multi_turn_eval/func_source_code",
    "berkeley-function-call-leaderboard/bfcl/eval_checker/multi_turn_eval/func_source_code",
]
RELEASES = [
    # version, release commit, supported revision
    ("v4", "58f57e91", "6ea57973"),
    ("v3", "70b6a4a2", "cd9429cc"),
]
ERROR_LITERAL = re.compile(r'"error":\s*f?"((?:[^"\\]|\\.)*)"')


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout


def class_paths(git_dir, commit):
    """The class files present at a commit (whichever source folder it used)."""
    names = set(git(git_dir, "ls-tree", "-r", "--name-only", commit, "--", *SOURCE_DIRS).split("\n"))
    return [f"{d}/{c}.py" for c in CLASS_FILES for d in SOURCE_DIRS if f"{d}/{c}.py" in names]


def file_at(git_dir, commit, path):
    try:
        return git(git_dir, "show", f"{commit}:{path}")
    except subprocess.CalledProcessError:
        return None


def methods_by_line(source):
    """(start, end, Class, method, first line of code) of every method of the module's classes:
    the lines before the first line of code are the signature and the docstring."""
    out = []
    if source is None:
        return out
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    body = item.body
                    doc = body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str)
                    first = (body[1].lineno if doc and len(body) > 1 else body[0].lineno if not doc else item.end_lineno + 1)
                    out.append((item.lineno, item.end_lineno, node.name, item.name, first))
    return out


def locate(methods, line, count):
    """The method a hunk of `count` lines from `line` changes code in (not only its signature or docstring)."""
    for start, end, cls, name, first in methods:
        if start <= line <= end:
            return (cls, name) if line + max(count, 1) - 1 >= first else ("", name)
    return None, None


def hunks(diff):
    """(path, old_start, new_start, removed lines, added lines) per hunk of a -U0 diff."""
    path = None
    cur = None
    for line in diff.split("\n"):
        if line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else None
            continue
        if line.startswith("--- "):
            if line.startswith("--- a/"):
                path = line[6:]
            continue
        m = re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@", line)
        if m:
            if cur:
                yield cur
            cur = (path, int(m.group(1)), int(m.group(2)), [], [])
            continue
        if cur is None:
            continue
        if line.startswith("-"):
            cur[3].append(line[1:])
        elif line.startswith("+"):
            cur[4].append(line[1:])
    if cur:
        yield cur


def messages(lines):
    return [m.group(1).encode().decode("unicode_escape") for line in lines for m in ERROR_LITERAL.finditer(line)]


def code(lines):
    return [line.strip() for line in lines if line.strip() and not ERROR_LITERAL.search(line) and not line.strip().startswith("#")]


def changes_of(git_dir, version, commit, paths):
    head = git(git_dir, "show", "-s", "--format=%h%x00%ad%x00%s", "--date=short", "--abbrev=8", commit).strip().split("\x00")
    short, date, subject = head
    diff = git(git_dir, "show", "-U0", "--format=", commit, "--", *paths)
    sources = {}
    out = []
    for path, old_start, new_start, removed, added in hunks(diff):
        if not path:
            continue
        if (path, "new") not in sources:
            sources[(path, "new")] = methods_by_line(file_at(git_dir, commit, path))
            sources[(path, "old")] = methods_by_line(file_at(git_dir, commit + "^", path))
        cls, method = locate(sources[(path, "new")], new_start, len(added)) if added else (None, None)
        if cls is None:
            cls, method = locate(sources[(path, "old")], old_start, len(removed))
        if not cls:
            continue  # imports, module constants, a method's signature or docstring only
        before, after = messages(removed), messages(added)
        removed_code, added_code = code(removed), code(added)
        base = {"version": version, "commit": short, "date": date, "subject": subject, "className": cls, "method": method}
        pairs = max(len(before), len(after))
        if pairs == 0:
            if removed_code == added_code:
                continue
            out.append({**base, "before": None, "after": None, "beforeCode": " / ".join(removed_code) or None})
            continue
        for i in range(pairs):
            b = before[i] if i < len(before) else None
            a = after[i] if i < len(after) else None
            if b == a:
                continue
            extra = " / ".join(removed_code) if b is None and removed_code else None
            out.append({**base, "before": b, "after": a, "beforeCode": extra})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "simulator", "executor-changes.ts"))
    a = ap.parse_args()
    changes = []
    releases = {}
    for version, release, revision in RELEASES:
        paths = class_paths(a.git_dir, revision)
        log = git(a.git_dir, "log", "--reverse", "--format=%H", f"{release}..{revision}", "--", *SOURCE_DIRS).split()
        for commit in log:
            changes.extend(changes_of(a.git_dir, version, commit, paths))
        releases[version] = {"release": git(a.git_dir, "rev-parse", "--short=8", release).strip(), "date": git(a.git_dir, "show", "-s", "--format=%ad", "--date=short", release).strip()}
    # whether a release's classes are another supported revision's, file for file
    for version, release, _ in RELEASES:
        same = None
        for other, _, other_rev in RELEASES:
            if other == version:
                continue
            mine = {p.rsplit("/", 1)[1]: file_at(a.git_dir, release, p) for p in class_paths(a.git_dir, release)}
            theirs = {p.rsplit("/", 1)[1]: file_at(a.git_dir, other_rev, p) for p in class_paths(a.git_dir, other_rev)}
            if mine and mine == theirs:
                same = other
        releases[version]["classesSameAs"] = same
    lines = [
        "// Generated by tools/gen-executor-changes.py from Gorilla's git history; do not edit.",
        "// Every change to the eight multi-turn API classes between a BFCL release and the revision",
        "// twinscore emulates: before/after error messages ({name} = an f-string field; null before =",
        "// the branch returned no error, beforeCode = what it did), and whether a release's classes are",
        "// another supported revision's.",
        'import type { ExecutorChange, ReleaseClasses } from "./executor-change-types.js";',
        "",
        "export const executorChanges: readonly ExecutorChange[] = " + json.dumps(changes, indent=2, ensure_ascii=False) + ";",
        "",
        "export const releaseClasses: Readonly<Record<\"v3\" | \"v4\", ReleaseClasses>> = " + json.dumps(releases, indent=2) + ";",
        "",
    ]
    with open(a.out, "w") as f:
        f.write("\n".join(lines))
    print(f"{len(changes)} changes", file=sys.stderr)


if __name__ == "__main__":
    main()
