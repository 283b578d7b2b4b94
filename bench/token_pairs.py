"""Published (request with tools, billed input tokens) pairs: every one toolcast's token estimates are measured
on (``bench/bench_tokens.py``, ``tests/checks/test_token_pairs.py``). Each pair is the request as its source
sent it and the count its source reports from the provider's API (or count-tokens endpoint), with the link.

Sources (the counts are theirs; the requests are transcribed as data):
- OPENAI_COOKBOOK: openai/openai-cookbook, examples/How_to_count_tokens_with_tiktoken.ipynb, §7 output cell
  ("105 prompt tokens counted by the OpenAI API" for gpt-3.5-turbo and gpt-4, 101 for gpt-4o and gpt-4o-mini).
- HMARR: hmarr/openai-chat-tokens tests/token-counts.test.ts (the cases with functions; the test checks each
  against the API's ``usage.prompt_tokens``). Counted in 2023 with the ``functions`` parameter against
  ``gpt-3.5-turbo``, which then named the ``gpt-3.5-turbo-0613`` snapshot: the model recorded here.
- PAMELAFOX: pamelafox/openai-messages-token-helper tests/functions.py (``FUNCTION_COUNTS``: a system message
  and ``tools``, the count from the API, tests/verify_functions.py; gpt-35-turbo).
- ANTHROPIC: the token-counting documentation's tools example (claude-opus-4-20250514, ``{"input_tokens": 403}``).
- GEMINI_*: Google's count-tokens samples: the same prompt counted without and with tools, so the tools' share
  is the difference (gemini-1.5-flash)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

COOKBOOK = ("https://github.com/openai/openai-cookbook/blob/c81359cd/examples/"
            "How_to_count_tokens_with_tiktoken.ipynb")
HMARR = ("https://github.com/hmarr/openai-chat-tokens/blob/b8e3b11d4f50174991f0adc17cabe9518173dbc9/"
         "tests/token-counts.test.ts")
PAMELAFOX = ("https://github.com/pamelafox/openai-messages-token-helper/blob/"
             "b60075e3b4ec659b58fa06b2c27e7b0afc1587a2/tests/functions.py")
ANTHROPIC = "https://platform.claude.com/docs/en/build-with-claude/token-counting"
GEMINI_GO = ("https://github.com/google/generative-ai-go/blob/5125e3b3e5855a8b4a0bcb9f5daa8c572b9e79b2/"
             "genai/example_test.go")
GEMINI_JS = ("https://github.com/google-gemini/generative-ai-js/blob/4ee32e533216ac0fcb6143309baaa0ec9d277a05/"
             "samples/count_tokens.js")
GEMINI_PY = ("https://github.com/google-gemini/generative-ai-python/blob/8a96b862ec36f9a96a5d9f879915f006aeffecb6/"
             "samples/count_tokens.py")


@dataclass(frozen=True)
class Pair:
    """One published request and its billed input tokens. ``tools`` are the provider's own tool objects as
    sent (OpenAI: ``{"type": "function", "function": ...}`` also for the legacy ``functions`` parameter, which
    ``api`` names); ``tool_choice`` as sent (``function_call`` for the legacy API). For Gemini, ``billed`` is the
    tools' share: the sample's count with tools less its count of the same contents without."""

    name: str
    provider: str  # openai | anthropic | gemini
    model: str
    source: str
    billed: int
    tools: list[dict[str, Any]]
    messages: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: Any = None
    api: str = "tools"  # openai: "tools" or the legacy "functions"


def _fn(name: str, parameters: dict[str, Any] | None = None, description: str | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name}
    if description is not None:
        function["description"] = description
    if parameters is not None:
        function["parameters"] = parameters
    return {"type": "function", "function": function}


def _obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props, **extra}
    if required is not None:
        out["required"] = required
    return out


_WEATHER = _fn("get_current_weather", _obj({
    "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
    "unit": {"type": "string", "description": "The unit of temperature to return", "enum": ["celsius", "fahrenheit"]},
}, ["location"]), "Get the current weather in a given location")
_WEATHER_MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant that can answer to questions about the weather."},
    {"role": "user", "content": "What's the weather like in San Francisco?"},
]

_COOKBOOK_PAIRS = [Pair(f"cookbook weather ({m})", "openai", m, COOKBOOK, n, [_WEATHER], _WEATHER_MESSAGES)
                   for m, n in (("gpt-3.5-turbo", 105), ("gpt-4", 105), ("gpt-4o", 101), ("gpt-4o-mini", 101))]

_HELLO = [{"role": "user", "content": "hello"}]
_HI = [{"role": "system", "content": "Hello"}, {"role": "user", "content": "Hi there"}]
_HI2 = [{"role": "system", "content": "Hello:"}, {"role": "user", "content": "Hi there"}]
_HI3 = [{"role": "system", "content": "Hello:"}, {"role": "system", "content": "Hello"},
        {"role": "user", "content": "Hi there"}]
_EMPTY = _obj({})
_BING = "Do a bing bong"
_SUZIE_MESSAGES = [
    {"role": "system", "content": "You are an AI assistant trained to foo or bar"},
    {"role": "user", "content": "My name is suzie"},
    {"role": "function", "name": "foo", "content": '{"res":{"kind":"user","name":"suzie"}}'},
    {"role": "user", "content": 'I want to post a message with the text "hello world"'},
    {"role": "function", "name": "foo", "content": '{"res":{"kind":"post","text":"hello world"}}'},
]
_SUZIE_TOOL = _fn("foo", _obj({"res": {"anyOf": [
    _obj({"kind": {"type": "string", "const": "post"}, "text": {"type": "string"}}, ["kind", "text"],
         additionalProperties=False),
    _obj({"kind": {"type": "string", "const": "user"},
          "name": {"type": "string", "enum": ["jane", "suzie", "adam"]}}, ["kind", "name"], additionalProperties=False),
], "description": "The foo or the bar"}}, ["res"], additionalProperties=False), "Return the foo or the bar")


def _h(name: str, billed: int, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
       call: Any = None) -> Pair:
    return Pair(f"hmarr {name}", "openai", "gpt-3.5-turbo-0613", HMARR, billed, tools, messages, call, "functions")


_HMARR_PAIRS = [
    _h("foo", 31, _HELLO, [_fn("foo", _EMPTY)]),
    _h("foo, function_call none", 32, _HELLO, [_fn("foo", _EMPTY)], "none"),
    _h("foo, function_call auto", 31, _HELLO, [_fn("foo", _EMPTY)], "auto"),
    _h("foo, function_call foo", 36, _HELLO, [_fn("foo", _EMPTY)], {"name": "foo"}),
    _h("foo with description", 36, _HELLO, [_fn("foo", _EMPTY, "Do a foo")]),
    _h("bing_bong one property", 49, _HELLO, [_fn("bing_bong", _obj({"foo": {"type": "string"}}), _BING)]),
    _h("bing_bong two properties", 57, _HELLO, [_fn("bing_bong", _obj({
        "foo": {"type": "string"}, "bar": {"type": "number", "description": "A number"}}), _BING)]),
    _h("bing_bong nested object", 68, _HELLO, [_fn("bing_bong", _obj({"foo": _obj({
        "bar": {"type": "string", "enum": ["a", "b", "c"]}, "baz": {"type": "boolean"}})}), _BING)]),
    _h("suzie anyOf of objects", 158, _SUZIE_MESSAGES, [_SUZIE_TOOL], {"name": "foo"}),
    _h("anyOf one object", 52, _HI, [_fn("do_stuff", _obj({"foo": {"anyOf": [
        _obj({"kind": {"type": "string", "const": "a"}, "baz": {"type": "boolean"}})]}}))]),
    _h("anyOf three objects", 80, _HI, [_fn("do_stuff", _obj({"foo": {"anyOf": [
        _obj({"kind": {"type": "string", "const": "a"}, "baz": {"type": "boolean"}}),
        _obj({"kind": {"type": "string", "const": "b"}, "qux": {"type": "number"}}),
        _obj({"kind": {"type": "string", "const": "c"}, "idk": {"type": "string"}})]}}))]),
    _h("anyOf string or number", 44, _HI, [_fn("do_stuff", _obj({"foo": {"anyOf": [
        {"type": "string", "const": "a"}, {"type": "number"}]}}))]),
    _h("system Hello, empty", 35, _HI, [_fn("do_stuff", _EMPTY)]),
    _h("system Hello:, empty", 35, _HI2, [_fn("do_stuff", _EMPTY)]),
    _h("two system messages", 40, _HI3, [_fn("do_stuff", _EMPTY)]),
    _h("two functions", 49, _HI3, [_fn("do_stuff", _EMPTY), _fn("do_other_stuff", _EMPTY)]),
    _h("two functions, function_call", 55, _HI3, [_fn("do_stuff", _EMPTY), _fn("do_other_stuff", _EMPTY)],
       {"name": "do_stuff"}),
    _h("get_recipe arrays", 106, _HELLO, [_fn("get_recipe", _obj({
        "ingredients": {"type": "array", "items": _obj({
            "name": {"type": "string"},
            "unit": {"enum": ["grams", "ml", "cups", "pieces", "teaspoons"], "type": "string"},
            "amount": {"type": "number"}}, ["name", "unit", "amount"])},
        "instructions": {"type": "array", "items": {"type": "string"},
                         "description": "Steps to prepare the recipe (no numbering)"},
        "time_to_cook": {"type": "number", "description": "Total time to prepare the recipe in minutes"},
    }, ["ingredients", "instructions", "time_to_cook"]))]),
    _h("nested array description", 46, _HELLO, [_fn("function", _obj({"quality": _obj({"pros": {
        "type": "array", "items": {"type": "string"},
        "description": "Write 3 points why this text is well written"}})}), "description")]),
    _h("nested descriptions", 96, _HELLO, [_fn("function", _obj({
        "mainField": {"type": "string", "description": "description3"},
        "field number one": _obj({
            "yesNoField": {"type": "string", "description": "description5", "enum": ["Yes", "No"]},
            "howIsInteresting": {"type": "string", "description": "description6"},
            "scoreInteresting": {"type": "number", "description": "description7"},
            "isInteresting": {"type": "string", "description": "description8", "enum": ["Yes", "No"]},
        }, description="description4"),
    }, description="desctiption2"), "desctiption1")]),
]

_BOT = [{"role": "system", "content": "You are a bot."}]
_SEARCH = "Retrieve sources from the Azure AI Search index"
_SEARCH_TOOL = _fn("search_sources", _obj({"search_query": {
    "type": "string", "description": "Query string to retrieve documents from azure search eg: 'Health care plan'"}},
    ["search_query"]), _SEARCH)
_DEMO = "This is the main function description"
_INT_ENUM = _fn("data_demonstration", _obj({"integer_enum": {"type": "integer", "enum": [-1, 1]}}), _DEMO)
_OBJ1 = "The object data type as a property"
_LOST = {"type": "string", "description": "Description in a second object is lost"}
_HAPPY = {"type": "string", "enum": ["Happy", "Sad"]}


def _p(name: str, billed: int, tool: dict[str, Any], choice: Any) -> Pair:
    return Pair(f"pamelafox {name}", "openai", "gpt-35-turbo", PAMELAFOX, billed, [tool], _BOT, choice)


_PAMELAFOX_PAIRS = [
    _p("inner_object", 65, _fn("data_demonstration", _obj({"object_1": _obj(
        {"string1": {"type": "string"}}, description=_OBJ1)}, ["object_1"]), _DEMO), "none"),
    _p("inner_object_and_string", 103, _fn("data_demonstration", _obj({
        "object_1": _obj({"string_2a": _HAPPY, "string_2b": _LOST}, description=_OBJ1),
        "string_1": {"type": "string", "description": "Not required gets a question mark"}}, ["object_1"]), _DEMO),
       "none"),
    _p("inner_object_with_enum_only", 73, _fn("data_demonstration", _obj({"object_1": _obj(
        {"string_2a": _HAPPY}, description=_OBJ1)}, ["object_1"]), _DEMO), "none"),
    _p("inner_object_with_enum", 89, _fn("data_demonstration", _obj({"object_1": _obj(
        {"string_2a": _HAPPY, "string_2b": _LOST}, description=_OBJ1)}, ["object_1"]), _DEMO), "none"),
    _p("search_sources_toolchoice_auto", 66, _SEARCH_TOOL, "auto"),
    _p("search_sources_toolchoice_none", 67, _SEARCH_TOOL, "none"),
    _p("search_sources_toolchoice_name", 75, _SEARCH_TOOL,
       {"type": "function", "function": {"name": "search_sources"}}),
    _p("integer_enum", 54, _INT_ENUM, "none"),
    _p("integer_enum_tool_choice_name", 64, _INT_ENUM,
       {"type": "function", "function": {"name": "data_demonstration"}}),
    _p("no_parameters", 42, _fn("search_sources", None, _SEARCH), "auto"),
    _p("no_parameters_tool_choice_name", 51, _fn("search_sources", None, _SEARCH),
       {"type": "function", "function": {"name": "search_sources"}}),
    _p("no_parameter_description_or_required", 49,
       _fn("search_sources", _obj({"search_query": {"type": "string"}}), _SEARCH), "auto"),
    _p("no_parameter_description", 49,
       _fn("search_sources", _obj({"search_query": {"type": "string"}}, ["search_query"]), _SEARCH), "auto"),
    _p("string_enum", 86, _fn("summarize_order", _obj({
        "product_name": {"type": "string", "description": "Product name ordered by customer"},
        "quantity": {"type": "integer", "description": "Quantity ordered by customer"},
        "unit": {"type": "string", "enum": ["meals", "days"],
                 "description": "unit of measurement of the customer order"},
    }, ["product_name", "quantity", "unit"]), "Summarize the customer order request"), "none"),
    _p("boolean", 89, _fn("human_escalation", _obj({"requires_escalation": {
        "type": "boolean", "description": "If user is showing signs of frustration or anger in the query. Also if "
        "the user says they want to talk to a real person and not a chat bot."}}, ["requires_escalation"]),
        "Check if user wants to escalate to a human"), "none"),
    _p("array", 59, _fn("get_coordinates", _obj({"addresses": {
        "type": "array", "description": "The mailing addresses to be located", "items": {"type": "string"}}},
        ["addresses"]), "Get the latitude and longitude of multiple mailing addresses"), "none"),
    _p("no_type", 59, _fn("get_no_type", _obj(
        {"no_type_value": {"description": "The no type value to be returned"}}, ["no_type_value"]),
        "Get the no type value"), "none"),
    _p("null", 55, _fn("get_null", _obj(
        {"null_value": {"type": "null", "description": "The null value to be returned"}}, ["null_value"]),
        "Get the null value"), "none"),
]

ANTHROPIC_PAIRS = [
    Pair("token-counting docs, get_weather", "anthropic", "claude-opus-4-20250514", ANTHROPIC, 403, [{
        "name": "get_weather", "description": "Get the current weather in a given location",
        "input_schema": _obj({"location": {"type": "string",
                                           "description": "The city and state, e.g. San Francisco, CA"}},
                             ["location"])}],
        [{"role": "user", "content": "What's the weather like in San Francisco?"}], "auto"),
]

_NAMES_ONLY = [{"name": n} for n in ("add", "subtract", "multiply", "divide")]


def _arith(name: str, op: str) -> dict[str, Any]:
    """The declaration the Python SDK makes of ``def name(a: float, b: float)`` with docstring "returns a op b."."""
    return {"name": name, "description": f"returns a {op} b.", "parameters": {
        "type": "OBJECT", "properties": {"a": {"type": "NUMBER"}, "b": {"type": "NUMBER"}}, "required": ["a", "b"]}}


GEMINI_PAIRS = [
    Pair("Go sample, 4 name-only declarations (99 - 23)", "gemini", "gemini-1.5-flash-001", GEMINI_GO, 99 - 23,
         [{"function_declarations": _NAMES_ONLY}]),
    Pair("JS sample, 4 name-only declarations (87 - 10)", "gemini", "gemini-1.5-flash", GEMINI_JS, 87 - 10,
         [{"function_declarations": _NAMES_ONLY}]),
    Pair("Python sample, 4 declarations with parameters (206 - 22)", "gemini", "gemini-1.5-flash-001", GEMINI_PY,
         206 - 22, [{"function_declarations": [_arith("add", "+"), _arith("subtract", "-"), _arith("multiply", "*"),
                                               _arith("divide", "/")]}]),
]

OPENAI_PAIRS = _COOKBOOK_PAIRS + _HMARR_PAIRS + _PAMELAFOX_PAIRS
PAIRS = OPENAI_PAIRS + ANTHROPIC_PAIRS + GEMINI_PAIRS
