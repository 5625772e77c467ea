#!/usr/bin/env python3
"""Generate twinscore's model registry table from a BFCL checkout.

    python3 tools/gen-model-registry.py /work/gorilla-6ea57973/berkeley-function-call-leaderboard \
        > src/bfcl/decode/registry-table.ts

Reads BFCL's own `bfcl_eval/constants/model_config.py` at run time (its handler classes are
imported from the checkout; third-party modules that are not installed get stand-ins, see
tools/bfcl_handlers.py). For every registry key it records what decides how BFCL decodes
that model's steps:

* the result folder BFCL writes (`registry_name.replace("/", "_")`),
* the handler class, and the class in its MRO that defines `decode_execute`,
* `is_fc_model` as the handler ends up with it (the config's value, unless an `__init__`
  in the handler's MRO assigns a constant),
* the twinscore decoder: the decode_execute owner (and, for owners whose method reads
  `self.is_fc_model`, the mode) mapped by DECODERS below.

A handler whose decode_execute owner is not in DECODERS stops the tool: a new behaviour
must be read and given a decoder before the table can be regenerated.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bfcl_handlers  # noqa: E402

# decode_execute owner → decoder name, or (decoder in FC mode, decoder in prompting mode)
# for owners whose decode_execute branches on self.is_fc_model.
DECODERS = {
    "OpenAICompletionsHandler": ("fc", "prompting"),
    "OpenAIResponsesHandler": ("fc", "prompting"),
    "ClaudeHandler": ("fc", "prompting"),
    "MistralHandler": ("fc", "prompting"),
    "GeminiHandler": ("gemini-fc", "gemini-prompting"),
    "OSSHandler": "prompting",
    "NvidiaHandler": "prompting",
    "NovaHandler": "fc-list",
    "MistralFCHandler": "fc-list",
    "ArchHandler": "fc-dict-list",
    "Granite3FCHandler": "fc-dict-list",
    "PhiFCHandler": "fc-dict-list",
    "CohereHandler": "cohere",
    "MiningHandler": "mining",
    "PhiHandler": "phi",
    "NemotronHandler": "nemotron",
    "SalesforceLlamaHandler": "xlam",
    "SalesforceQwenHandler": "xlam",
    "LlamaHandler_3_1": "llama-3.1",
    "BitAgentHandler": "bitagent",
    "QwenFCHandler": "tool-call",
    "Granite4FCHandler": "tool-call",
    "NanbeigeFCHandler": "tool-call",
    "PelicanVLFCHandler": "tool-call",
    "GraniteFunctionCallingHandler": "granite",
    "GLMHandler": "glm",
    "Falcon3FCHandler": "falcon",
    "MiniCPMFCHandler": "minicpm-fc",
    "FunctionGemmaHandler": "functiongemma",
    "ThinkAgentHandler": "think-agent",
    "GorillaHandler": "gorilla",
    "NexusHandler": "nexus",
    "HammerHandler": "hammer",
}


def decoder_for(owner_name, depends_on_mode, is_fc_model):
    """The decoder of a decode_execute owner in a mode; SystemExit for an owner nobody has read."""
    entry = DECODERS.get(owner_name)
    if entry is None:
        raise SystemExit("decode_execute of %s has no twinscore decoder: read it and add it to DECODERS" % owner_name)
    if isinstance(entry, tuple):
        if not depends_on_mode:
            raise SystemExit("%s is listed with two modes but its decode_execute does not read is_fc_model" % owner_name)
        return entry[0] if is_fc_model else entry[1]
    if depends_on_mode:
        raise SystemExit("%s's decode_execute reads is_fc_model: list its FC and prompting decoders" % owner_name)
    return entry


def handler_facts(cls):
    """What decides decoding for one handler class."""
    owner = bfcl_handlers.defining_class(cls, "decode_execute")
    if owner is None:
        raise SystemExit("%s has no decode_execute" % cls.__name__)
    return {
        "owner": owner.__name__,
        "dependsOnMode": bfcl_handlers.reads_is_fc_model(owner.__dict__["decode_execute"]),
        "forcedIsFcModel": bfcl_handlers.forced_is_fc_model(cls),
    }


def build(bfcl_root):
    bfcl_handlers.load(bfcl_root)
    mapping = bfcl_handlers.model_registry()
    handlers = {}
    models = []
    folders = {}
    for key, config in mapping.items():
        cls = config.model_handler
        facts = handlers.get(cls.__name__)
        if facts is None:
            facts = handler_facts(cls)
            handlers[cls.__name__] = facts
        is_fc = config.is_fc_model if facts["forcedIsFcModel"] is None else facts["forcedIsFcModel"]
        decoder = decoder_for(facts["owner"], facts["dependsOnMode"], is_fc)
        folder = key.replace("/", "_")
        if folder in folders and folders[folder] != decoder:
            raise SystemExit("two registry keys share the folder %s with different decoders" % folder)
        folders[folder] = decoder
        models.append({"key": key, "folder": folder, "handler": cls.__name__, "isFcModel": is_fc, "decoder": decoder})
    return {"handlers": dict(sorted(handlers.items())), "models": models}


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
    if len(sys.argv) != 2:
        raise SystemExit("usage: gen-model-registry.py BFCL_ROOT (the berkeley-function-call-leaderboard folder)")
    sys.stdout.write(render_ts(build(sys.argv[1])))


if __name__ == "__main__":
    main()
