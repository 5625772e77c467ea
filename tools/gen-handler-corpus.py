#!/usr/bin/env python3
"""Generate the handler conformance corpus: what every BFCL handler class writes, made by BFCL's own code.

    python3 tools/gen-handler-corpus.py /work/gorilla-6ea57973/berkeley-function-call-leaderboard ../shared/bfcl-v4 \
        > src/bfcl/decode/testdata/handler-corpus-v4.json
    python3 tools/gen-handler-corpus.py /work/gorilla-cd9429cc/berkeley-function-call-leaderboard ../shared/bfcl-v3 \
        > src/bfcl/decode/testdata/handler-corpus-v3.json

For every handler class BFCL's model registry (MODEL_CONFIG_MAPPING) maps, once per
`is_fc_model` value its registry entries give it, the handler is built as `bfcl generate`
builds it (`build_handler`: the registry config's model name, registry name and mode) and
fed synthetic provider responses of each kind in KINDS. Each response goes

* through the handler's own response parsing (`_parse_query_response_FC` or
  `_parse_query_response_prompting`): the parsed `model_responses` and what the handler's
  `decode_execute` makes of them are recorded;
* through BFCL's own generation path on one real multi-turn entry of the data folder:
  `multi_threaded_inference` → `handler.inference` → base_handler's multi-turn loop, with
  the executor run as BFCL runs it, and only `_query_FC` / `_query_prompting` replaced to
  return the stand-in response (the kind's response on the first step of every turn, a
  plain text reply on later steps, so every turn ends). The line is written with the
  handler's own `write` (BFCL's serialisation) into a temporary folder and recorded as
  those bytes.

The provider SDKs are not installed (tools/bfcl_handlers.py gives the handler modules
stand-in modules). The responses are plain objects carrying the attributes each handler
family reads, chosen by the class that defines the parse method in the mode:

* chat completions (OpenAICompletionsHandler and the handlers built on it, MistralHandler,
  FireworksHandler, NanbeigeAPIHandler, MiningHandler, DatabricksHandler, …):
  `choices[0].message.content`, `.tool_calls[i].id`, `.tool_calls[i].function.name`,
  `.tool_calls[i].function.arguments`, `.tool_calls[i].model_dump()`, `.reasoning_content`
  (only on the reasoning kind, as `hasattr` is how BFCL looks for it; NanbeigeAPIHandler
  reads it unconditionally, so its messages always carry it, None without reasoning),
  `.role`; `usage.prompt_tokens`, `usage.completion_tokens`.
* streamed chat completions (QwenAPIHandler): an iterable of chunks, each with
  `choices[0].delta.content`, `.reasoning_content`, `.tool_calls[i].index`, `.id`,
  `.function.name`, `.function.arguments`; `usage` on the last chunk.
* OpenAI responses (OpenAIResponsesHandler): `output[i].type` ("function_call",
  "message", "reasoning"), `.name`, `.arguments`, `.call_id`, `.summary[j].text`;
  `output_text`; `usage.input_tokens`, `usage.output_tokens`.
* Anthropic messages (ClaudeHandler): `content[i]`, instances of the stand-in
  `anthropic.types.TextBlock` (`.text`, `.type`) and `ToolUseBlock` (`.id`, `.name`,
  `.input`, `.type`) classes the handler's module imported, or a plain `ThinkingBlock`
  (`.type`, `.thinking`, `.signature`); `usage.input_tokens`, `usage.output_tokens`.
* Cohere (CohereHandler): the dict its `_query_FC` builds from the SDK response —
  `model_responses` (a list of `cohere.types.TextAssistantMessageV2ContentItem` /
  `ThinkingAssistantMessageV2ContentItem` stand-ins with `.text` / `.thinking`, or None),
  `tool_calls` (`{"tool_name", "parameters"}`), `chat_history`, `input_token`, `output_token`.
  Its `_query_FC` also appends the assistant turn (`.role`, `.tool_calls[i].id`) to
  `inference_data["chat_turns"]`, which `_add_execution_results_FC` reads back: the
  stand-in query does the same.
* Gemini (GeminiHandler): `candidates[0].content.parts[i]` with `.function_call.name`,
  `.function_call.args` (a dict), `.thought`, `.text`; `usage_metadata.prompt_token_count`,
  `usage_metadata.candidates_token_count`.
* Bedrock converse (NovaHandler): the dict `output.message.content[i]` with `text`,
  `toolUse` (`name`, `input`, `toolUseId`) or `reasoningContent.reasoningText.text`;
  `usage.inputTokens`, `usage.outputTokens`.
* chat completions as dicts (QwenAgentThinkHandler): `choices[0].message.content`,
  `.tool_calls[i].function.name/.arguments`, `usage`; GorillaHandler reads only the content.
* Hugging Face endpoint (NexusHandler): `[ {"generated_text": …} ]`.
* completions (OSSHandler and every local handler): `choices[0].text`,
  `usage.prompt_tokens`, `usage.completion_tokens`; the reasoning kind puts
  `<think>…</think>` before the text. (v3's local handlers are run through their own
  `_multi_threaded_inference`, what v3's `batch_inference` calls per entry.)

Handlers that read calls from text (every prompting mode, the local handlers, and FC
handlers whose decoding does not read the tool-call channel) get the calls written in the
first syntax of CALL_SYNTAXES that their own parsing and `decode_execute` read as the one
intended call; the syntax is recorded (null when none does: python-list text is used, and
what BFCL makes of it is recorded). The parser-failed kind writes the call as text in a
syntax other than the handler's own.

A class is listed under `notDriven`, with the reason, when none of its registry keys can
be built by BFCL's own `build_handler` (printed on stderr too); `onlyErrorLines` names the
driven classes whose every line is an inference error (BFCL's own loop fails before any
step). The output is text: a header line (the entry, its tools, the counts, the handlers
and those lists), then per vector a line with the parsed responses and their
decode_execute outcome, followed by the result line exactly as the handler's `write` wrote
it. Regenerate with `| gzip -9n > src/bfcl/decode/testdata/handler-corpus-vN.jsonl.gz`.
"""
import contextlib
import inspect
import io
import json
import os
import random
import sys
import tempfile
import types
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bfcl_handlers  # noqa: E402

ENTRY_ID = "multi_turn_base_100"
TEMPERATURE = 0.001  # bfcl generate's default --temperature
LATENCY = 0.5
KINDS = ["text", "one_call", "parallel_calls", "call_with_text", "empty", "reasoning", "parser_failed"]

PROSE = "I need your username and password before I can fund the account."
LEAD = "Sure, I will do that now."
REASONING = "The user asks for the price of Nvidia, whose symbol is NVDA."
ONE_CALL = [("get_stock_info", {"symbol": "NVDA"})]
TWO_CALLS = [("get_stock_info", {"symbol": "NVDA"}), ("fund_account", {"amount": 2203.4})]


def py_call(name, args):
    return "%s(%s)" % (name, ", ".join("%s=%r" % kv for kv in args.items()))


def json_call(name, args, key="arguments"):
    return json.dumps({"name": name, key: args})


# Ways a model writes calls as text, in the order they are tried for a text-reading handler.
CALL_SYNTAXES = [
    ("python-list", lambda calls: "[%s]" % ", ".join(py_call(n, a) for n, a in calls)),
    ("tool-call-tag", lambda calls: "\n".join("<tool_call>\n%s\n</tool_call>" % json_call(n, a) for n, a in calls)),
    ("json-list", lambda calls: "[%s]" % ", ".join(json_call(n, a) for n, a in calls)),
    ("toolcall-tag-python", lambda calls: "<TOOLCALL>[%s]</TOOLCALL>" % ", ".join(py_call(n, a) for n, a in calls)),
    ("function-call-tag", lambda calls: "\n".join("<function_call> %s" % json_call(n, a) for n, a in calls)),
    ("tool-calls-tag", lambda calls: "<tool_calls>\n[%s]\n</tool_calls>" % ", ".join(json_call(n, a) for n, a in calls)),
    ("json-parameters", lambda calls: "; ".join(json_call(n, a, "parameters") for n, a in calls)),
    ("functiongemma", lambda calls: "".join("<start_function_call>call:%s{%s}<end_function_call>" % (n, ",".join("%s:<escape>%s<escape>" % kv for kv in a.items())) for n, a in calls)),
    ("minicpm", lambda calls: "<|tool_call_start|>\n```python\n%s\n```\n<|tool_call_end|>" % "\n".join(py_call(n, a) for n, a in calls)),
    ("python-fence", lambda calls: "```python\n[%s]\n```" % ", ".join(py_call(n, a) for n, a in calls)),
    ("tool-code", lambda calls: "```tool_code\n%s\n```" % "\n".join(py_call(n, a) for n, a in calls)),
    ("glm", lambda calls: "\n".join("%s\n%s" % (n, json.dumps(a)) for n, a in calls)),
    ("call-prefix", lambda calls: "Call: %s" % "; ".join(py_call(n, a) for n, a in calls)),
    ("python-bare", lambda calls: "\n".join(py_call(n, a) for n, a in calls)),
]


# ---------------------------------------------------------------- stand-in responses


def ns(**kw):
    return types.SimpleNamespace(**kw)


class ThinkingBlock:
    """An Anthropic thinking block: neither a TextBlock nor a ToolUseBlock."""

    def __init__(self, thinking):
        self.type = "thinking"
        self.thinking = thinking
        self.signature = "sig"


def tool_call_ns(i, name, args):
    call = ns(id="call_%d" % i, type="function", index=i, function=ns(name=name, arguments=json.dumps(args)))
    call.model_dump = lambda: {"id": call.id, "type": "function", "function": {"name": name, "arguments": call.function.arguments}}
    return call


def chat_response(content, calls, reasoning, always_reasoning=False):
    message = ns(role="assistant", content=content, tool_calls=[tool_call_ns(i, n, a) for i, (n, a) in enumerate(calls)] or None)
    if reasoning is not None or always_reasoning:
        message.reasoning_content = reasoning
    return ns(choices=[ns(message=message, finish_reason="stop", index=0)], usage=ns(prompt_tokens=100, completion_tokens=10))


def chat_reasoning_response(content, calls, reasoning):
    return chat_response(content, calls, reasoning, always_reasoning=True)


def chat_stream(content, calls, reasoning):
    chunks = []
    if reasoning is not None:
        chunks.append(ns(choices=[ns(delta=ns(reasoning_content=reasoning, content=None, tool_calls=None))], usage=None))
    if content:
        chunks.append(ns(choices=[ns(delta=ns(reasoning_content=None, content=content, tool_calls=None))], usage=None))
    for i, (n, a) in enumerate(calls):
        chunks.append(ns(choices=[ns(delta=ns(reasoning_content=None, content=None, tool_calls=[tool_call_ns(i, n, a)]))], usage=None))
    chunks.append(ns(choices=[], usage=ns(prompt_tokens=100, completion_tokens=10)))
    return chunks


def responses_response(content, calls, reasoning):
    output = []
    if reasoning is not None:
        output.append(ns(type="reasoning", id="rs_0", summary=[ns(type="summary_text", text=reasoning)]))
    if content is not None:
        output.append(ns(type="message", id="msg_0", role="assistant", content=[ns(type="output_text", text=content)]))
    for i, (n, a) in enumerate(calls):
        output.append(ns(type="function_call", id="fc_%d" % i, call_id="call_%d" % i, name=n, arguments=json.dumps(a)))
    return ns(output=output, output_text=content or "", usage=ns(input_tokens=100, output_tokens=10))


def anthropic_response(content, calls, reasoning):
    import anthropic.types as at  # the stand-in module the handler imported its classes from

    blocks = []
    if reasoning is not None:
        blocks.append(ThinkingBlock(reasoning))
    if content is not None:
        b = at.TextBlock.__new__(at.TextBlock)
        b.__dict__.update(type="text", text=content)
        blocks.append(b)
    for i, (n, a) in enumerate(calls):
        b = at.ToolUseBlock.__new__(at.ToolUseBlock)
        b.__dict__.update(type="tool_use", id="toolu_%d" % i, name=n, input=a)
        blocks.append(b)
    return ns(content=blocks, usage=ns(input_tokens=100, output_tokens=10), stop_reason="end_turn")


def cohere_item_class(kind):
    """The `cohere.types` content-item class CohereHandler's parsing tests for (its name differs between revisions)."""
    import re
    import cohere.types as ct

    source = inspect.getsource(sys.modules["bfcl_eval.model_handler.api_inference.cohere"])
    names = re.findall(r"cohere\.types\.(%s\w*ContentItem)" % kind, source)
    return getattr(ct, names[0]) if names else None


def cohere_query_result(content, calls, reasoning):
    items = []
    thinking_cls, text_cls = cohere_item_class("Thinking"), cohere_item_class("Text")
    if reasoning is not None and thinking_cls is not None:
        t = thinking_cls.__new__(thinking_cls)
        t.__dict__.update(type="thinking", thinking=reasoning)
        items.append(t)
    if content is not None:
        t = text_cls.__new__(text_cls)
        t.__dict__.update(type="text", text=content)
        items.append(t)
    return {
        "model_responses": items or None,
        "tool_calls": [{"tool_name": n, "parameters": a} for n, a in calls],
        "chat_history": [],
        "input_token": 100,
        "output_token": 10,
    }


def gemini_response(content, calls, reasoning):
    no_call = ns(name=None, args=None)
    parts = []
    if reasoning is not None:
        parts.append(ns(text=reasoning, thought=True, function_call=no_call))
    if content is not None:
        parts.append(ns(text=content, thought=None, function_call=no_call))
    for n, a in calls:
        parts.append(ns(text=None, thought=None, function_call=ns(name=n, args=dict(a))))
    return ns(candidates=[ns(content=ns(role="model", parts=parts))], usage_metadata=ns(prompt_token_count=100, candidates_token_count=10))


def nova_response(content, calls, reasoning):
    blocks = []
    if reasoning is not None:
        blocks.append({"reasoningContent": {"reasoningText": {"text": reasoning}}})
    if content is not None:
        blocks.append({"text": content})
    for i, (n, a) in enumerate(calls):
        blocks.append({"toolUse": {"toolUseId": "tooluse_%d" % i, "name": n, "input": a}})
    return {"output": {"message": {"role": "assistant", "content": blocks}}, "usage": {"inputTokens": 100, "outputTokens": 10}, "stopReason": "end_turn"}


def chat_dict(content, calls, reasoning):
    message = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [{"id": "call_%d" % i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}} for i, (n, a) in enumerate(calls)]
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    return {"choices": [{"message": message}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}}


def hf_endpoint(content, calls, reasoning):
    return [{"generated_text": content or ""}]


def completion_response(content, calls, reasoning):
    text = content or ""
    if reasoning is not None:
        text = "<think>\n%s\n</think>\n\n%s" % (reasoning, text)
    return ns(choices=[ns(text=text, index=0, finish_reason="stop")], usage=ns(prompt_tokens=100, completion_tokens=10))


# The class defining the parse method → the response family; `native` families have a tool-call channel.
FAMILIES = {
    "chat": (chat_response, True),
    "chat-reasoning": (chat_reasoning_response, True),
    "chat-stream": (chat_stream, True),
    "responses": (responses_response, True),
    "anthropic": (anthropic_response, True),
    "cohere": (cohere_query_result, True),
    "gemini": (gemini_response, True),
    "nova": (nova_response, True),
    "chat-dict": (chat_dict, True),
    "chat-dict-content": (chat_dict, False),
    "hf-endpoint": (hf_endpoint, False),
    "completion": (completion_response, False),
}
PARSER_FAMILY = {
    "QwenAPIHandler": "chat-stream",
    "OpenAIResponsesHandler": "responses",
    "ClaudeHandler": "anthropic",
    "CohereHandler": "cohere",
    "GeminiHandler": "gemini",
    "NovaHandler": "nova",
    "GorillaHandler": "chat-dict-content",
    "QwenAgentThinkHandler": "chat-dict",
    "NexusHandler": "hf-endpoint",
    "NanbeigeAPIHandler": "chat-reasoning",
}


def family_of(cls, fc_path):
    """The response family of a handler in a mode, from the class that defines its parse method."""
    meth = "_parse_query_response_FC" if fc_path else "_parse_query_response_prompting"
    owner = bfcl_handlers.defining_class(cls, meth).__name__
    if owner in PARSER_FAMILY:
        return PARSER_FAMILY[owner]
    oss = sys.modules["bfcl_eval.model_handler.local_inference.base_oss_handler"].OSSHandler
    if issubclass(cls, oss):
        return "completion"
    return "chat"


def response_for(family, kind, call_text, other_text):
    """The stand-in response of one kind. `call_text` is the handler's own call syntax (text families)."""
    build, native = FAMILIES[family]
    if kind == "text":
        return build(PROSE, [], None)
    if kind == "empty":
        return build(None if native else "", [], None)
    if kind == "parser_failed":
        # no tool_calls: the calls are in the content, as a model writes them when the server's parser misses them
        return build(other_text, [], None)
    if native and family != "hf-endpoint" and call_text is None:
        calls = TWO_CALLS if kind == "parallel_calls" else ONE_CALL
        content = LEAD if kind == "call_with_text" else None
        return build(content, calls, REASONING if kind == "reasoning" else None)
    text = call_text[1] if kind == "parallel_calls" else call_text[0]
    if kind == "call_with_text":
        text = LEAD + "\n" + text
    return build(text, [], REASONING if kind == "reasoning" else None)


# ---------------------------------------------------------------- BFCL's own code


def load_entry(data_dir, gen_module, utils):
    """The entry as `bfcl generate` hands it to the handler (function docs populated, miss_func docs held out)."""
    version = "v4" if os.path.exists(os.path.join(data_dir, "BFCL_v4_multi_turn_base.json")) else "v3"
    with open(os.path.join(data_dir, "BFCL_%s_multi_turn_base.json" % version), encoding="utf-8") as f:
        entries = [json.loads(line) for line in f if line.strip()]
    entry = next(e for e in entries if e["id"] == ENTRY_ID)
    doc_dir = Path(data_dir) / "multi_turn_func_doc"
    if hasattr(utils, "_get_file_lock"):
        utils._get_file_lock = lambda path: contextlib.nullcontext()  # filelock is not installed; one process reads
    if hasattr(utils, "populate_test_cases_with_predefined_functions"):
        utils.MULTI_TURN_FUNC_DOC_PATH = doc_dir
        [entry] = utils.populate_test_cases_with_predefined_functions([entry])
        [entry] = utils.add_language_specific_hint_to_function_doc([entry])
    else:
        gen_module.MULTI_TURN_FUNC_DOC_PATH = doc_dir
        [entry] = gen_module.process_multi_turn_test_case([entry])
    return entry


def reset_executor():
    """Drop the executor instances BFCL keeps in its module globals, as a fresh `bfcl generate` process would have none."""
    mt = sys.modules["bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils"]
    for k in [k for k in vars(mt) if k.endswith("_instance")]:
        del vars(mt)[k]


def serialisable(value):
    utils = sys.modules["bfcl_eval.utils"]
    return utils.make_json_serializable(value)


def decode(handler, responses):
    """decode_execute called as the revision's loop calls it (v4 passes has_tool_call_tag=False, v3 only the responses)."""
    takes_tag = "has_tool_call_tag" in inspect.signature(handler.decode_execute).parameters
    try:
        out = handler.decode_execute(responses, has_tool_call_tag=False) if takes_tag else handler.decode_execute(responses)
        return {"calls": serialisable(out)}
    except Exception as e:  # what BFCL's loop logs as the handler_log error
        return {"error": "%s: %s" % (type(e).__name__, e)}


def parse_and_decode(handler, fc_path, response):
    """The handler's own parsing of a response, and its decode_execute on what the parsing gave."""
    parse = handler._parse_query_response_FC if fc_path else handler._parse_query_response_prompting
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            parsed = parse(response)
        except Exception as e:  # BFCL's loop would end the entry with this error
            return {"error": "%s: %s" % (type(e).__name__, e)}, None
        return serialisable({"model_responses": parsed["model_responses"], "reasoning_content": parsed.get("reasoning_content")}), decode(handler, parsed["model_responses"])


def choose_syntax(handler, family, fc_path):
    """The first call syntax that the handler's parsing and decode_execute read as the one intended call;
    (None, python-list texts) when none does."""
    want = [py_call(n, a) for n, a in ONE_CALL]
    build = FAMILIES[family][0]
    for name, render in CALL_SYNTAXES:
        _, decoded = parse_and_decode(handler, fc_path, build(render(ONE_CALL), [], None))
        if decoded is not None and decoded.get("calls") == want:
            return name, (render(ONE_CALL), render(TWO_CALLS))
    render = CALL_SYNTAXES[0][1]
    return None, (render(ONE_CALL), render(TWO_CALLS))


def write_line(handler, result_dict):
    """The line as the handler's own `write` puts it in the result file."""
    with tempfile.TemporaryDirectory() as tmp:
        handler.write(result_dict, result_dir=Path(tmp))
        files = [p for p in Path(tmp).rglob("*.json")]
        assert len(files) == 1, files
        return files[0].read_text(encoding="utf-8")


def takes_fc_loop(handler):
    """Whether `handler.inference` takes the FC loop: BaseHandler's test ("FC" in the registry name
    (v3: the model name) or is_fc_model); OSSHandler's override always takes the prompting loop."""
    oss = sys.modules["bfcl_eval.model_handler.local_inference.base_oss_handler"].OSSHandler
    if isinstance(handler, oss):
        return False
    return "FC" in getattr(handler, "registry_name", handler.model_name) or bool(handler.is_fc_model)


def drive(gen_module, cls, key, entry, kind, call_syntax, other_text):
    """One kind through parsing and through BFCL's generation path; the recorded vector."""
    handler = gen_module.build_handler(key, TEMPERATURE)
    fc_path = takes_fc_loop(handler)
    family = family_of(cls, fc_path)
    make = lambda k: response_for(family, k, call_syntax, other_text)  # noqa: E731
    parsed, decoded = parse_and_decode(handler, fc_path, make(kind))
    state = {"step": 0}

    def query(inference_data):
        # the kind's response opens every turn; later steps get a plain text reply, which ends the turn
        resp = make(kind if state["step"] == 0 else "text")
        state["step"] += 1
        if family == "cohere":
            # CohereHandler's own _query_FC keeps the assistant turn in its chat history, which
            # _add_execution_results_FC reads back
            calls = resp["tool_calls"]
            inference_data["chat_turns"].append(ns(role="assistant", tool_calls=[tool_call_ns(i, c["tool_name"], c["parameters"]) for i, c in enumerate(calls)] or None))
        return resp, LATENCY

    turn_messages = handler.add_first_turn_message_FC if fc_path else handler.add_first_turn_message_prompting
    next_messages = handler._add_next_turn_user_message_FC if fc_path else handler._add_next_turn_user_message_prompting

    def first(inference_data, msgs):
        state["step"] = 0
        return turn_messages(inference_data, msgs)

    def nxt(inference_data, msgs):
        state["step"] = 0
        return next_messages(inference_data, msgs)

    if fc_path:
        handler._query_FC = query
        handler.add_first_turn_message_FC = first
        handler._add_next_turn_user_message_FC = nxt
    else:
        handler._query_prompting = query
        handler.add_first_turn_message_prompting = first
        handler._add_next_turn_user_message_prompting = nxt
    reset_executor()
    random.seed(0)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        if hasattr(handler, "_multi_threaded_inference"):
            # v3's local handlers: batch_inference hands each entry to this method (the server part is skipped)
            result = handler._multi_threaded_inference(json.loads(json.dumps(entry)), False, False)
        else:
            result = gen_module.multi_threaded_inference(handler, json.loads(json.dumps(entry)), False, False)
    if "traceback" in result:
        result = dict(result, traceback="<traceback>")  # file paths of this machine; the error text stays
    line = write_line(handler, result)
    return {
        "kind": kind,
        "parsed": parsed,
        "decoded": decoded,
        "line": line,
    }


def build(bfcl_root, data_dir):
    bfcl_handlers.load(bfcl_root)
    os.environ["GOOGLE_API_KEY"] = "stand-in"  # GeminiHandler's __init__ requires the variable; no request is ever made
    mapping = bfcl_handlers.model_registry()
    import bfcl_eval._llm_response_generation as gen_module  # noqa: E402
    import bfcl_eval.utils as utils  # noqa: E402
    import bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils  # noqa: E402,F401

    entry = load_entry(data_dir, gen_module, utils)
    handlers, not_driven, seen = [], [], set()
    classes = sorted({c.model_handler for c in mapping.values()}, key=lambda c: c.__name__)
    for key, config in mapping.items():
        cls = config.model_handler
        try:
            handler = gen_module.build_handler(key, TEMPERATURE)
        except Exception as e:
            not_driven.append({"handler": cls.__name__, "key": key, "reason": "BFCL's build_handler raises %s: %s" % (type(e).__name__, e)})
            continue
        is_fc = bool(handler.is_fc_model)
        if (cls.__name__, is_fc) in seen:
            continue
        seen.add((cls.__name__, is_fc))
        fc_path = takes_fc_loop(handler)
        family = family_of(cls, fc_path)
        native = FAMILIES[family][1]
        syntax, call_text = (None, None)
        if native and fc_path:
            # a tool-call channel the handler's decoding does not read as calls is left for a
            # text syntax it does read, when there is one
            _, decoded = parse_and_decode(handler, fc_path, FAMILIES[family][0](None, ONE_CALL, None))
            if decoded is None or decoded.get("calls") != [py_call(n, a) for n, a in ONE_CALL]:
                syntax, call_text = choose_syntax(handler, family, fc_path)
                if syntax is None:
                    call_text = None
        elif not native or not fc_path:
            syntax, call_text = choose_syntax(handler, family, fc_path)
        # the parser-failed kind writes the calls in the content in a syntax other than the handler's own
        other = CALL_SYNTAXES[1][1](ONE_CALL) if syntax == "python-list" else CALL_SYNTAXES[0][1](ONE_CALL)
        vectors = []
        for kind in KINDS:
            try:
                v = drive(gen_module, cls, key, entry, kind, call_text, other)
            except Exception as e:
                not_driven.append({"handler": cls.__name__, "key": key, "reason": "kind %s: %s: %s" % (kind, type(e).__name__, e)})
                vectors = None
                break
            vectors.append(v)
        if vectors is None:
            continue
        handlers.append({
            "handler": cls.__name__,
            "key": key,
            "folder": key.replace("/", "_"),
            "isFcModel": is_fc,
            "loop": "FC" if fc_path else "prompting",
            "family": family,
            "decodeOwner": bfcl_handlers.defining_class(cls, "decode_execute").__name__,
            "callSyntax": syntax,
            "vectors": vectors,
        })
    driven = sorted({h["handler"] for h in handlers})
    # a class counts as not driven only when none of its registry entries could be
    keys_not_built = [n for n in not_driven if n["handler"] in driven]
    not_driven = [n for n in not_driven if n["handler"] not in driven]
    return {
        "entry": ENTRY_ID,
        "tools": [f["name"] for f in entry["function"]] + [f["name"] for fs in entry.get("missed_function", {}).values() for f in fs],
        "registryKeys": len(mapping),
        "handlerClasses": len(classes),
        "drivenClasses": len(driven),
        "handlers": handlers,
        "notDriven": not_driven,
        "keysNotBuilt": keys_not_built,
        # driven classes whose every line is an inference error: BFCL's own loop fails before any step
        "onlyErrorLines": sorted({h["handler"] for h in handlers if all(json.loads(v["line"])["result"].__class__ is str for v in h["vectors"])}),
    }


def render(corpus):
    """The corpus as text: a header line (the handlers and what was not driven), then per
    vector a line of what parsing and decode_execute gave and the result line exactly as
    `bfcl generate` wrote it (so the result lines are read as a result file's bytes)."""
    head = {k: v for k, v in corpus.items() if k != "handlers"}
    head["handlers"] = [{k: v for k, v in h.items() if k != "vectors"} for h in corpus["handlers"]]
    out = [json.dumps(head, ensure_ascii=False) + "\n"]
    for h in corpus["handlers"]:
        for v in h["vectors"]:
            meta = {"handler": h["handler"], "key": h["key"], "kind": v["kind"], "parsed": v["parsed"], "decoded": v["decoded"]}
            out.append(json.dumps(meta, ensure_ascii=False) + "\n")
            out.append(v["line"])
    return "".join(out)


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: gen-handler-corpus.py BFCL_ROOT DATA_DIR (the berkeley-function-call-leaderboard folder; ../shared/bfcl-v4 or bfcl-v3)")
    corpus = build(sys.argv[1], sys.argv[2])
    for nd in corpus["notDriven"]:
        sys.stderr.write("not driven: %s (%s): %s\n" % (nd["handler"], nd["key"], nd["reason"]))
    sys.stderr.write("%d of %d handler classes driven\n" % (corpus["drivenClasses"], corpus["handlerClasses"]))
    sys.stdout.write(render(corpus))


if __name__ == "__main__":
    main()
