#!/usr/bin/env python3
"""Generate twinscore's model registry table from a BFCL checkout.

    npm run build
    python3 tools/gen-model-registry.py /work/gorilla-6ea57973/berkeley-function-call-leaderboard \
        > src/bfcl/decode/registry-table.ts
    python3 tools/gen-model-registry.py /work/gorilla-cd9429cc/berkeley-function-call-leaderboard \
        --revision v3 > src/bfcl/decode/registry-table-v3.ts

Reads BFCL's own `bfcl_eval/constants/model_config.py` at run time (its handler classes are
imported from the checkout; third-party modules that are not installed get stand-ins, see
tools/bfcl_handlers.py). For every registry key it records what decides how BFCL decodes
that model's steps:

* the result folder BFCL writes (`registry_name.replace("/", "_")`),
* the handler class, and the class in its MRO that defines `decode_execute`,
* `is_fc_model` as the handler ends up with it: as BFCL's own `build_handler` leaves it
  (v4 passes the config's value to `__init__`, whose MRO may assign a constant; v3 sets the
  config's value after `__init__`), else, for a key `build_handler` cannot build here, the
  config's value unless an `__init__` in the handler's MRO assigns a constant,
* the twinscore decoder: the decoder that declares the decode_execute owner (and, for
  owners whose method reads `self.is_fc_model`, the mode) in its `owners` for the
  checkout's BFCL revision (`--revision`, v4 by default: where an owner's code changed
  between revisions, each revision's code has its own decoder) — src/bfcl/decode/decoders/*.ts,
  read from the built package by tools/decoder-owners.mjs: run `npm run build` first.

The mode an owner's decode_execute decodes in is `is_fc_model` where the method reads it;
v3's methods read `"FC" in self.model_name` instead (or as well), and v3 builds a handler
with the registry key as its model name, so the key decides there.

A handler whose decode_execute owner no decoder declares for the revision stops the tool:
a new behaviour must be read and given a decoder before the table can be regenerated.
"""
import inspect
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bfcl_handlers  # noqa: E402


def declared_decoders():
    """decode_execute owner → decoder name, or [decoder in FC mode, decoder in prompting mode]
    for owners whose decode_execute branches on self.is_fc_model: what the decoder files in
    src/bfcl/decode/decoders/ declare (their `owners`), as tools/decoder-owners.mjs prints it
    from the built package."""
    out = subprocess.run(["node", os.path.join(HERE, "decoder-owners.mjs"), REVISION], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise SystemExit(out.stderr.strip() or "tools/decoder-owners.mjs failed")
    return {owner: tuple(entry) if isinstance(entry, list) else entry for owner, entry in json.loads(out.stdout).items()}


_DECODERS = None
REVISION = "v4"  # the BFCL revision of the checkout (--revision)


def decoders():
    """The declared owner → decoder map, read once."""
    global _DECODERS
    if _DECODERS is None:
        _DECODERS = declared_decoders()
    return _DECODERS


def decoder_for(owner_name, depends_on_mode, is_fc_model):
    """The decoder of a decode_execute owner in a mode; SystemExit for an owner nobody has read."""
    entry = decoders().get(owner_name)
    if entry is None:
        raise SystemExit("decode_execute of %s has no twinscore decoder for BFCL %s: read it and declare one in src/bfcl/decode/decoders/ (see its README)" % (owner_name, REVISION))
    if isinstance(entry, tuple):
        if not depends_on_mode:
            raise SystemExit("%s is declared with two modes but its decode_execute does not read is_fc_model" % owner_name)
        return entry[0] if is_fc_model else entry[1]
    if depends_on_mode:
        raise SystemExit("%s's decode_execute reads is_fc_model: declare its FC and prompting decoders (owners with a mode)" % owner_name)
    return entry


FC_IN_MODEL_NAME = re.compile(r"""["']FC["']\s+(not\s+)?in\s+self\.model_name""")


def reads_fc_in_model_name(func):
    """Whether a method's source tests `"FC" in self.model_name` (v3's way of branching on the mode)."""
    fn = func.__func__ if isinstance(func, (staticmethod, classmethod)) else func
    return FC_IN_MODEL_NAME.search(inspect.getsource(fn)) is not None


def handler_facts(cls):
    """What decides decoding for one handler class."""
    owner = bfcl_handlers.defining_class(cls, "decode_execute")
    if owner is None:
        raise SystemExit("%s has no decode_execute" % cls.__name__)
    method = owner.__dict__["decode_execute"]
    return {
        "owner": owner.__name__,
        "dependsOnMode": bfcl_handlers.reads_is_fc_model(method) or reads_fc_in_model_name(method),
        "forcedIsFcModel": bfcl_handlers.forced_is_fc_model(cls),
        "readsIsFcModel": bfcl_handlers.reads_is_fc_model(method),
        "readsModelName": reads_fc_in_model_name(method),
    }


def built_handler(gen_module, key):
    """The handler BFCL's own build_handler makes for a key, or None when it cannot be built here."""
    try:
        return gen_module.build_handler(key, 0.001)
    except Exception:
        return None


def decoding_mode(facts, handler, key, is_fc):
    """Whether the owner's decode_execute takes its FC branch for this key: by is_fc_model, by
    `"FC" in self.model_name` (the built handler's model name; v3 builds with the key), or either."""
    by_name = "FC" in (handler.model_name if handler is not None else key)
    if facts["readsIsFcModel"] and facts["readsModelName"]:
        return is_fc or by_name
    return by_name if facts["readsModelName"] else is_fc


def build(bfcl_root):
    bfcl_handlers.load(bfcl_root)
    os.environ.setdefault("GOOGLE_API_KEY", "stand-in")  # GeminiHandler's __init__ requires the variable; no request is ever made
    mapping = bfcl_handlers.model_registry()
    import bfcl_eval._llm_response_generation as gen_module  # noqa: E402

    handlers = {}
    models = []
    folders = {}
    for key, config in mapping.items():
        cls = config.model_handler
        facts = handlers.get(cls.__name__)
        if facts is None:
            facts = handler_facts(cls)
            handlers[cls.__name__] = facts
        handler = built_handler(gen_module, key)
        static = config.is_fc_model if facts["forcedIsFcModel"] is None else facts["forcedIsFcModel"]
        is_fc = static if handler is None else bool(handler.is_fc_model)
        if facts["forcedIsFcModel"] is not None and is_fc != facts["forcedIsFcModel"]:
            facts["forcedIsFcModel"] = None  # this revision's build_handler sets the mode after __init__
        decoder = decoder_for(facts["owner"], facts["dependsOnMode"], decoding_mode(facts, handler, key, is_fc))
        folder = key.replace("/", "_")
        if folder in folders and folders[folder] != decoder:
            raise SystemExit("two registry keys share the folder %s with different decoders" % folder)
        folders[folder] = decoder
        models.append({"key": key, "folder": folder, "handler": cls.__name__, "isFcModel": is_fc, "decoder": decoder})
    shown = ("owner", "dependsOnMode", "forcedIsFcModel")
    return {"handlers": {name: {k: facts[k] for k in shown} for name, facts in sorted(handlers.items())}, "models": models}


def render_ts(table):
    """The table as a TypeScript module (typed by src/bfcl/decode/registry.ts, so a bad decoder name fails to compile)."""
    j = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    lines = [
        "// Generated by tools/gen-model-registry.py from BFCL's bfcl_eval/constants/model_config.py; do not edit.",
        "// folder = registry key with '/' replaced by '_' (where `bfcl generate` writes the model's results);",
        "// isFcModel = the handler's is_fc_model after its __init__; decoder = the twinscore decoder of the",
        "// handler's decode_execute in that mode; owner = the class in the handler's MRO that defines decode_execute.",
        'import type { RegistryTable } from "./registry.js";',
        "",
        "export const registryTable: RegistryTable = {",
        "  handlers: {",
    ]
    for name, facts in table["handlers"].items():
        lines.append("    %s: { owner: %s, dependsOnMode: %s, forcedIsFcModel: %s }," % (
            j(name), j(facts["owner"]), j(facts["dependsOnMode"]), j(facts["forcedIsFcModel"])))
    lines.append("  },")
    lines.append("  models: [")
    for m in table["models"]:
        lines.append("    { key: %s, folder: %s, handler: %s, isFcModel: %s, decoder: %s }," % (
            j(m["key"]), j(m["folder"]), j(m["handler"]), j(m["isFcModel"]), j(m["decoder"])))
    lines.append("  ],")
    lines.append("};")
    return "\n".join(lines) + "\n"


def main():
    global REVISION
    args = sys.argv[1:]
    if len(args) == 3 and args[1] == "--revision" and args[2] in ("v4", "v3"):
        REVISION = args[2]
        args = args[:1]
    if len(args) != 1:
        raise SystemExit("usage: gen-model-registry.py BFCL_ROOT [--revision v4|v3] (BFCL_ROOT: the berkeley-function-call-leaderboard folder)")
    sys.stdout.write(render_ts(build(args[0])))


if __name__ == "__main__":
    main()
