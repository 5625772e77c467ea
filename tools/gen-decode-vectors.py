#!/usr/bin/env python3
"""Generate decoder vectors with BFCL's own model handler classes.

    python3 tools/gen-decode-vectors.py /work/gorilla-6ea57973/berkeley-function-call-leaderboard \
        > src/bfcl/decode/testdata/handler-vectors.json
    python3 tools/gen-decode-vectors.py /work/gorilla-cd9429cc/berkeley-function-call-leaderboard \
        --revision v3 > src/bfcl/decode/testdata/handler-vectors-v3.json

Every handler whose `decode_execute` BFCL defines differently (one class per owner of the
method, in each mode for the owners that read `self.is_fc_model`) is imported from the
checkout (tools/bfcl_handlers.py) and its real `decode_execute(step, has_tool_call_tag=False)`
(v3's takes the step alone) — the call BFCL's inference loop and checker make — is run on every step of the corpus
below: BFCL's call strings, or `Type: str(e)` of what it raises. The steps are our own,
written to reach each handler's branches (records, Python call text, JSON text, tags,
prose, truncated and malformed input); each is stored as the JSON text a result file
holds, so both sides read the same value. The decoder each vector set must match is the
one tools/gen-model-registry.py assigns for the checkout's revision (`--revision`, v4 by
default; the decoders' declared owners, from the built package: run `npm run build` first).
"""
import inspect
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bfcl_handlers  # noqa: E402

reg = __import__("gen-model-registry")

J = json.dumps

STEPS = [
    # --- native function-calling records ---
    [],
    [{"ls": J({"a": False})}],
    [{"cd": J({"folder": "document"})}, {"mkdir": J({"dir_name": "temp"})}],
    {"ls": J({"a": True})},
    [{"ls": {"a": True}}],
    [{"mv": {"source": "a.txt", "destination": "b", "n": 1, "f": 1.5}}],
    [{"a": "{}", "b": J({"x": [1, 2], "y": None})}],
    [{"ls": "{bad"}],
    [{"ls": "[1]"}],
    [{"ls": 5}],
    [{"ls": ""}],
    ["some text"],
    [[1, 2]],
    [{"ls": J({"a": False})}, "tail"],
    [{"tool_name": "ls", "parameters": {"a": True}}],
    [{"tool_name": "cd", "parameters": {"folder": "x"}}, {"tool_name": "ls", "parameters": {}}],
    [{"tool_name": "cd"}],
    [{"name": "cd", "arguments": {"folder": "x"}}],
    [{"name": "cd", "arguments": {"folder": "x"}}, 7, {"name": "ls"}],
    [{"name": "cd", "arguments": J({"folder": "x"})}],
    {"name": "cd", "arguments": {"folder": "x"}},
    None,
    5,
    1.5,
    True,
    "",
    # --- Python call text (prompting) ---
    "[cd(folder='document'), mkdir(dir_name='temp')]",
    "cd(folder='document')",
    "```\n[ls(a=True)]\n```",
    "```python\n[ls(a=True)]\n```",
    "```json\n[ls(a=True)]",
    "```python\n[ls(a=True)]",
    "```tool_code\nls(a=True)\n```",
    "```tool_code\n[cd(folder='x'), ls(a=True)]\n```",
    "  [mv(source='a', destination='b')]  ",
    "[cd('temp')]",
    "[echo(content='hi', file_name='a.txt')]",
    "[f(a=-1, b=1+2, c=[1, 2.5], d={'k': (1,)}, e=None, g=True)]",
    "[f(a={})]",
    "[f(a={'x': {}})]",
    "[f(a=g(b=1))]",
    "[f(a=g(1))]",
    "[f(a=x.y)]",
    "[math.sqrt(x=4)]",
    "I need the file name before I can do that.",
    "ls(a=True",
    "[ls(a=True), 'text']",
    "[]",
    "Sure. [ls(a=True)]",
    "cp(source='log.txt, destination='archive')",
    "<TOOLCALL>[ls(a=True)]</TOOLCALL>",
    "Let me look. <TOOLCALL>[cd(folder='a'), ls()]</TOOLCALL> done",
    "<TOOLCALL>ls(a=True</TOOLCALL>",
    "<TOOLCALL>[ls(a=True)]",
    # --- JSON text (xLAM, BitAgent, Llama 3.1, Hammer) ---
    J([{"name": "cd", "arguments": {"folder": "document"}}]),
    J({"name": "cd", "arguments": {"folder": "x"}}),
    J({"name": "cd", "arguments": {"folder": "x"}}) + "; " + J({"name": "ls", "arguments": {}}),
    J([{"name": "cd", "arguments": {"folder": "x"}}]) + ";",
    J([{"name": "cd", "arguments": J({"folder": "x"})}]),
    J([{"name": "cd", "arguments": [1]}]),
    J([{"name": "cd"}]),
    J([{"arguments": {}}]),
    J([1, 2]),
    J("just a string"),
    J({"tool_calls": [{"name": "cd", "arguments": {"folder": "x"}}]}),
    "{}",
    "null",
    "42",
    '[{"name": "mv", "arguments": {"n": 1.0, "m": 10000000000000000, "e": 1e16, "s": "a\'b", "u": "\\u00e9"}}]',
    J({"name": "cd", "parameters": {"folder": "x"}}),
    J({"name": "cd", "parameters": {"folder": "x"}}) + "; " + J({"name": "ls", "parameters": {"a": True}}),
    "<|python_tag|>" + J({"name": "cd", "parameters": {"folder": "x"}}),
    "[{'name': 'cd', 'parameters': {'folder': 'x'}}, {'name': 'ls', 'parameters': {}}]",
    "{'name': 'cd', 'parameters': {'folder': 'x', 'n': -1, 't': (1, 2)}}",
    J([{"name": "cd", "parameters": {"folder": "x", "a": True}}]),
    J([{"name": "cd", "parameters": {"folder": "x"}}]),
    "  " + J({"name": "cd", "parameters": {"folder": "x"}}),
    "[{'name': 'cd', 'parameters': {'folder': x}}]",
    "```\n" + J([{"name": "cd", "arguments": {"folder": "x"}}]) + "\n```",
    # --- <tool_call> blocks (Qwen FC, Granite 4, Falcon) ---
    "<tool_call>\n" + J({"name": "cd", "arguments": {"folder": "x"}}) + "\n</tool_call>",
    "<tool_call>\n" + J({"name": "cd", "arguments": {"folder": "x"}}) + "\n</tool_call>\n<tool_call>\n" + J({"name": "ls", "arguments": {}}) + "\n</tool_call>",
    "I will move it.\n<tool_call>\n" + J({"name": "mv", "arguments": {"source": "a", "destination": "b"}}) + "\n</tool_call>",
    "<tool_call>\n{bad json\n</tool_call>\n<tool_call>\n" + J({"name": "ls", "arguments": {"a": True}}) + "\n</tool_call>",
    "<tool_call>" + J({"name": "cd", "arguments": {"folder": "x"}}) + "</tool_call>",
    "<tool_call>\n" + J([{"name": "cd", "arguments": {"folder": "x"}}]) + "\n</tool_call>",
    "<tool_call>\n" + J({"name": "cd", "arguments": J({"folder": "x"})}) + "\n</tool_call>",
    "<tool_call>\n" + J({"name": "cd"}) + "\n</tool_call>",
    "<tool_call>\n" + J({"name": "cd", "arguments": [1]}) + "\n</tool_call>",
    '<tool_call>\n{"name": "cp", "arguments": {"source": "lo\n</tool_call>',
    '<tool_call>\n{"name": "cp", "arguments": {"source": "lo',
    "<tool_call>\n```json\n" + J({"name": "cd", "arguments": {"folder": "x"}}) + "\n```\n</tool_call>",
    "<tool_call>\n" + J([{"name": "cd", "arguments": {"folder": "x"}}, {"name": "ls", "arguments": {}}]) + "\n</tool_call>",
    "<tool_call>not json</tool_call>",
    '<tool_call>"s"</tool_call>',
    "<tool_call>\n" + J({"name": "cd", "parameters": {"folder": "x"}}) + "\n</tool_call>",
    "no tags here",
    # --- Granite <function_call> ---
    "<function_call> " + J({"name": "cd", "arguments": {"folder": "x"}}),
    "<function_call> " + J({"name": "no_function", "arguments": {}}),
    "<function_call> " + J({"name": "cd", "arguments": {"folder": "x"}}) + " <function_call> " + J({"name": "ls", "arguments": {}}),
    "<function_call> [1]",
    "<function_call> " + J({"name": 5}),
    "<function_call> " + J({"name": "cd"}),
    # --- GLM (name line, arguments line) ---
    "cd\n" + J({"folder": "x"}),
    "cd",
    "cd\n[1]",
    "cd\nnot json",
    "a\nb\nc",
    # --- MiniCPM FC ---
    "<|thought_start|>\nI should list.\n<|thought_end|>\n<|tool_call_start|>\n```python\ncd(folder=\"x\")\nls(a=True)\n```\n<|tool_call_end|>\nDone.",
    "<|tool_call_start|>\ncd(folder='x')\n<|tool_call_end|>",
    "<|tool_call_start|>\n```python\ncd(folder='x'); ls()\n```\n<|tool_call_end|>",
    "<|tool_call_start|>\n```python\ncd('x', n=-1, m=g(a=1))\n```\n<|tool_call_end|>",
    "<|tool_call_start|>\n```python\nx = 1\n```\n<|tool_call_end|>",
    "<|tool_call_start|>\n```python\ncd(folder='x'\n```\n<|tool_call_end|>",
    "<|tool_call_start|>\n```python\ncd(folder='x')\n  ls()\n```\n<|tool_call_end|>",
    "<|tool_call_start|>\n```python\ncd(folder='x')  # go\nls(a=True)\n```\n<|tool_call_end|>",
    "<|tool_call_end|> text <|tool_call_start|>",
    "<|thought_end|> a <|thought_start|> b",
    "plain answer",
    # --- FunctionGemma ---
    "<start_function_call>call:cd{folder:<escape>document<escape>}<end_function_call>",
    "<start_function_call>call:mv{source:<escape>a.txt<escape>,destination:<escape>b<escape>}<end_function_call><start_function_call>call:ls<end_function_call>",
    "<start_function_call>call:f{n:5,x:1.5,b:true,z:null,l:[1,2,<escape>s<escape>],d:{k:v}}<end_function_call>",
    "<start_function_call>call:f{a:1_000,b:1e3,c:inf,d: spaced text ,e:<escape>unterminated}<end_function_call>",
    "<start_function_call>noprefix{a:1}<end_function_call>",
    "<start_function_call>call:f{5:x,true:y}<end_function_call>",
    "text only",
    # --- ThinkAgent ---
    "<think>hmm</think>[{'name': 'cd', 'arguments': {'folder': 'x'}}]",
    "<think>x</think>[]",
    "<think>x</think>not json",
    '<think>x</think>{"name": "cd"}',
    "<think>x</think>[1]",
    "<think>x</think>5",
    # --- Falcon ---
    "<tool_call>\n" + J([{"name": "cd", "arguments": {"folder": "x"}}]) + "\n</tool_call>",
    "<tool_call>```json\n" + J({"name": "cd", "arguments": {"folder": "x"}}) + "\n```</tool_call>",
    "<tool_call>" + J([{"name": "cd", "arguments": {"folder": "x"}}, "s"]) + "</tool_call>",
    "<tool_call>",
]


def outcome(handler, step):
    takes_flag = "has_tool_call_tag" in inspect.signature(handler.decode_execute).parameters
    try:
        return {"calls": handler.decode_execute(step, has_tool_call_tag=False) if takes_flag else handler.decode_execute(step)}
    except Exception as e:  # noqa: BLE001 - every exception is the handler's decode failure
        return {"error": "%s: %s" % (type(e).__name__, e)}


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[1] == "--revision" and args[2] in ("v4", "v3"):
        reg.REVISION = args[2]
        args = args[:1]
    if len(args) != 1:
        raise SystemExit("usage: gen-decode-vectors.py BFCL_ROOT [--revision v4|v3]")
    bfcl_handlers.load(args[0])
    mapping = bfcl_handlers.model_registry()
    from bfcl_eval.model_handler.api_inference.nexus import NexusHandler  # not in the registry, still a handler

    classes = {}
    for config in mapping.values():
        cls = config.model_handler
        owner = bfcl_handlers.defining_class(cls, "decode_execute")
        classes.setdefault(owner.__name__, cls)
    classes.setdefault("NexusHandler", NexusHandler)

    texts = [J(s) for s in STEPS]
    sets = []
    for owner, cls in sorted(classes.items()):
        facts = reg.handler_facts(cls)
        modes = [True, False] if facts["dependsOnMode"] else [True if facts["forcedIsFcModel"] is None else facts["forcedIsFcModel"]]
        for is_fc in modes:
            handler = bfcl_handlers.bare_handler(cls, is_fc)
            sets.append(
                {
                    "handler": cls.__name__,
                    "owner": owner,
                    "isFcModel": is_fc,
                    "decoder": reg.decoder_for(owner, facts["dependsOnMode"], is_fc),
                    "outcomes": [outcome(handler, json.loads(t)) for t in texts],
                }
            )
    doc = {
        "$comment": "Generated by tools/gen-decode-vectors.py: BFCL's own decode_execute of each handler on each step (the step's JSON text); do not edit.",
        "steps": texts,
        "sets": sets,
    }
    sys.stdout.write(json.dumps(doc, indent=None, ensure_ascii=False, separators=(",", ":")).replace('{"handler"', '\n{"handler"') + "\n")


if __name__ == "__main__":
    main()
