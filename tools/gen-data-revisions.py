#!/usr/bin/env python3
"""Which BFCL data commits since a release changed which multi-turn item.

BFCL edits its data in place after a release: a run generated in October is scored with
March's files unless someone notices. This tool reads Gorilla's git history (a bare clone
or any clone) and writes, per BFCL version, the commits between the version's release and
the revision twinscore supports that touched the base, miss_func or miss_param data, and
for every item they changed: the fields that changed and the question turns BFCL would
have sent before the change (as short digests, the form of the pair manifest's `turns`),
so a run generated on the older data can be recognised from its `inference_log`.

    python3 tools/gen-data-revisions.py [--git-dir DIR] [--check]

DIR defaults to $GORILLA_GIT_DIR, else /work/.mirror/ShishirPatil+gorilla/repo. Writes
data/revisions-v3.json and data/revisions-v4.json; --check compares with them instead and
exits 1 when they differ. Standard library only.

How items are compared: each commit's version of a file is compared with the version the
previous listed commit (or the release) left, following first parents. An item is its
question entry (every field but `id`, values compared as JSON with sorted keys) and its
possible-answer entry (`ground_truth`): the fields src/pairs/digest.ts compares (question,
initial_config, involved_classes, missed_function, ground truth). Metadata no BFCL code
reads (`path`, `excluded_function`) and the function docs, shared by every item of a class
(multi_turn_func_doc/; early v3 items carried them inline), are not compared.

How turns are digested: the text BFCL sends from the data at turn t is the contents of
the turn's user messages joined by a blank line; a turn listed in `missed_function` is
replaced by BFCL's own holdout prompt, and an empty turn sends no user text: both are
null. The digest is the first 16 hex digits of the text's sha256 (src/pairs/digest.ts).

A file whose blob the clone lacks (the mirror here lacks the three v3 question files of
12629f27) is named in that commit's `unreadable`, and the next commit is compared with the
last version that could be read: its changes then include the unreadable commit's.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_GIT_DIR = "/work/.mirror/ShishirPatil+gorilla/repo"
CATEGORIES = ["base", "miss_func", "miss_param"]
# release: the commit that published the version's data; supported: the revision twinscore's
# manifests are built from (src/bfcl/versions.ts)
VERSIONS = {
    "v3": {"release": "70b6a4a2", "supported": "cd9429cc"},
    "v4": {"release": "58f57e91", "supported": "6ea57973"},
}
LEADERBOARD = "berkeley-function-call-leaderboard"
# what an item tells BFCL (contentFields in src/pairs/digest.ts); `path`, `excluded_function`
# and the function docs an old item carried inline (`function`, moved to multi_turn_func_doc/)
# are not compared
ITEM_FIELDS = ["question", "initial_config", "involved_classes", "missed_function"]


def git(git_dir, *args):
    out = subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True)
    return out.stdout.decode("utf-8")


def short(git_dir, rev):
    return git(git_dir, "rev-parse", "--short=8", rev).strip()


def data_paths(git_dir, commit, version):
    """The question and possible-answer files of the three categories at `commit`, by (kind, category)."""
    names = git(git_dir, "ls-tree", "-r", "--name-only", commit, LEADERBOARD).splitlines()
    found = {}
    for category in CATEGORIES:
        base = f"BFCL_{version}_multi_turn_{category}.json"
        for path in names:
            if path.endswith("/" + base):
                kind = "answer" if path.endswith("/possible_answer/" + base) else "question"
                found[(kind, category)] = path
    return found


class Unreadable(Exception):
    """A file's blob is not in the clone (a partial mirror can lack a few)."""


def entries_at(git_dir, commit, path):
    """The JSON-lines entries of a file at a commit, by id; Unreadable when its blob is missing."""
    try:
        text = git(git_dir, "show", f"{commit}:{path}")
    except subprocess.CalledProcessError as e:
        raise Unreadable(path) from e
    out = {}
    for line in text.splitlines():
        if line.strip():
            entry = json.loads(line)
            out[entry["id"]] = entry
    return out


def canonical(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def sent_turn_digests(entry):
    """The digest of the user text BFCL sends from the data at each turn (null: holdout or empty turn)."""
    holdout = set((entry.get("missed_function") or {}).keys())
    out = []
    for t, turn in enumerate(entry.get("question") or []):
        users = [m["content"] for m in turn if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str)]
        out.append(None if str(t) in holdout or not users else digest("\n\n".join(users)))
    return out


def item_states(git_dir, commit, version, previous_files=None):
    """
    Every file's entries at `commit`, by (kind, category). A file whose blob is missing keeps
    its entries from `previous_files` and is named in the second value: the next commit's
    comparison then covers both commits' changes to it.
    """
    paths = data_paths(git_dir, commit, version)
    files, unreadable = {}, []
    for key, path in paths.items():
        try:
            files[key] = entries_at(git_dir, commit, path)
        except Unreadable:
            if previous_files is None or key not in previous_files:
                raise
            files[key] = previous_files[key]
            unreadable.append(os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path) if key[0] == "answer" else os.path.basename(path))
    return files, sorted(unreadable)


def items_of(files):
    """The items of the three categories: (question entry, answer entry) by id."""
    states = {}
    for category in CATEGORIES:
        questions = files.get(("question", category), {})
        answers = files.get(("answer", category), {})
        for item_id in set(questions) | set(answers):
            states[item_id] = (questions.get(item_id), answers.get(item_id))
    return states


def changed_fields(before, after):
    """The fields of an item that differ between two states ('added', 'removed' for an item that appears or goes)."""
    (q0, a0), (q1, a1) = before, after
    if q0 is None and q1 is not None:
        return ["added"]
    if q0 is not None and q1 is None:
        return ["removed"]
    fields = [k for k in ITEM_FIELDS if canonical(q0.get(k)) != canonical(q1.get(k))]
    if canonical((a0 or {}).get("ground_truth")) != canonical((a1 or {}).get("ground_truth")):
        fields.append("ground_truth")
    return fields


def data_commits(git_dir, version, release, supported):
    """The commits after `release` up to `supported` (first parents, oldest first) that touched the data files."""
    paths = sorted(set(data_paths(git_dir, release, version).values()) | set(data_paths(git_dir, supported, version).values()))
    log = git(git_dir, "log", "--first-parent", "--reverse", "--date=short", "--format=%H%x09%ad%x09%s", f"{release}..{supported}", "--", *paths)
    commits = []
    for line in log.splitlines():
        sha, date, subject = line.split("\t", 2)
        commits.append({"commit": sha[:8], "date": date, "subject": subject})
    return commits


def id_order(item_id):
    head, _, number = item_id.rpartition("_")
    return (CATEGORIES.index(head.replace("multi_turn_", "")) if head.replace("multi_turn_", "") in CATEGORIES else 9, head, int(number) if number.isdigit() else 0)


def revisions_of(git_dir, version):
    spec = VERSIONS[version]
    release, supported = spec["release"], spec["supported"]
    release_line = git(git_dir, "log", "-1", "--date=short", "--format=%ad%x09%s", release).rstrip("\n").split("\t", 1)
    commits = data_commits(git_dir, version, release, supported)
    items = {}
    previous_files, _ = item_states(git_dir, release, version)
    previous = items_of(previous_files)
    for c in commits:
        current_files, unreadable = item_states(git_dir, c["commit"], version, previous_files)
        current = items_of(current_files)
        if unreadable:
            c["unreadable"] = unreadable
        changed = []
        for item_id in set(previous) | set(current):
            before = previous.get(item_id, (None, None))
            after = current.get(item_id, (None, None))
            fields = changed_fields(before, after)
            if not fields:
                continue
            changed.append(item_id)
            items.setdefault(item_id, []).append(
                {
                    "commit": c["commit"],
                    "fields": fields,
                    "turnsBefore": sent_turn_digests(before[0]) if before[0] is not None else None,
                    "turnsAfter": sent_turn_digests(after[0]) if after[0] is not None else None,
                }
            )
        c["items"] = len(changed)
        previous, previous_files = current, current_files
    return {
        "format": 1,
        "bfclVersion": version,
        "release": {"commit": short(git_dir, release), "date": release_line[0], "subject": release_line[1]},
        "supported": short(git_dir, supported),
        "commits": commits,
        "items": {k: items[k] for k in sorted(items, key=id_order)},
    }


def render(doc):
    """Two-space JSON, one change per line, final newline: diffs of a regeneration stay readable."""
    lines = ["{"]
    head = [(k, doc[k]) for k in ("format", "bfclVersion", "release", "supported")]
    for k, value in head:
        lines.append(f"  {json.dumps(k)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append('  "commits": [')
    lines.append(",\n".join(f"    {json.dumps(c, ensure_ascii=False)}" for c in doc["commits"]))
    lines.append("  ],")
    lines.append('  "items": {')
    blocks = []
    for item_id, changes in doc["items"].items():
        inner = ",\n".join(f"      {json.dumps(ch, ensure_ascii=False)}" for ch in changes)
        blocks.append(f"    {json.dumps(item_id)}: [\n{inner}\n    ]")
    lines.append(",\n".join(blocks))
    lines.append("  }")
    lines.append("}")
    return "\n".join(line for line in lines if line != "") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", default=os.environ.get("GORILLA_GIT_DIR", DEFAULT_GIT_DIR))
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing them")
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "data"))
    args = parser.parse_args()
    if not os.path.isdir(args.git_dir):
        print(f"gen-data-revisions: no Gorilla git history at {args.git_dir} (pass --git-dir or set GORILLA_GIT_DIR)", file=sys.stderr)
        return 2
    differing = []
    for version in sorted(VERSIONS):
        text = render(revisions_of(args.git_dir, version))
        target = os.path.join(args.out_dir, f"revisions-{version}.json")
        if args.check:
            try:
                with open(target, encoding="utf-8") as f:
                    committed = f.read()
            except OSError:
                committed = None
            if committed != text:
                differing.append(target)
        else:
            tmp = target + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
    if differing:
        print(f"gen-data-revisions: differs from the history: {', '.join(differing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
