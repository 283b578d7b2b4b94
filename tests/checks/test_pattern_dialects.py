"""Patterns compiled with the engine each target, host or API uses (``schema/dialects.py``, the profiles'
``pattern_dialect`` rules, TC511): the engines on the patterns and messages of public reports, the rules as
data, and check and convert telling one story. The CLI cases are in tests/cli/test_pattern_dialects_cli.py."""

from __future__ import annotations

import json
from importlib.util import find_spec
from typing import Any

import pytest
from toolcast.adapters.checks import CheckConfig, Severity, check_document
from toolcast.adapters.consumers import (
    PATTERN_ENGINES,
    ConsumerProfileError,
    consumer,
    parse_rule,
    provider_pattern_rules,
)
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools
from toolcast.adapters.rules.codes import PATTERN_DIALECT
from toolcast.adapters.schema.dialects import Refused, Unavailable, compiled, first_refusal
from toolcast.adapters.targets import TargetOptions

#: Claude Code's `Artifact` tool: OpenAI answers `'…' is not a 'regex'` (BerriAI/litellm#40485,
#: Alishahryar1/free-claude-code#1730).
ARTIFACT = r'^(?!__.*__$)[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}"\\./[\]]{1,200}$'
#: Figma's MCP server: OpenAI strict answers `regex lookaround is not supported` (anomalyco/opencode#32073).
FIGMA = r"^(?!undefined$|null$)"
#: pi-oracle's `files`: llama.cpp answers `Pattern must start with '^' and end with '$'` (fitchmultz/pi-oracle#5).
ORACLE = r".*\S.*"
#: Dokploy's passwords: DeepSeek answers `"…" is not a "regex"` (Dokploy/mcp#43).
DOKPLOY = r"^[a-zA-Z0-9@#%^&*()_+\-=[\]{}|;:,.<>?~`]*$"
ORDINARY = [r"^[a-zA-Z0-9_-]+$", r"^\d{4}-\d{2}-\d{2}$", r"^https?://", r"^[a-z0-9-]+$"]

needs_regress = pytest.mark.skipif(find_spec("regress") is None, reason="toolcast[dialects] not installed")
needs_paula = pytest.mark.skipif(find_spec("paula") is None, reason="toolcast[dialects] not installed")
needs_re2 = pytest.mark.skipif(find_spec("re2") is None, reason="google-re2 not installed")


def _refused(pattern: str, engine: str) -> str:
    verdict = compiled(pattern, engine)
    assert isinstance(verdict, Refused), (pattern, engine, verdict)
    return verdict.error


def test_the_profiles_name_exactly_the_engines_toolcast_compiles_with() -> None:
    import toolcast.adapters.schema.dialects as dialects

    assert tuple(dialects._ENGINES) == PATTERN_ENGINES


def test_python_re_refuses_the_artifact_pattern_as_openai_does() -> None:
    assert _refused(ARTIFACT, "python-re") == "bad escape \\p at position 14"
    assert _refused(r"(?<year>\d{4})", "python-re").startswith("unknown extension ?<y")
    assert all(compiled(p, "python-re") is None for p in [*ORDINARY, FIGMA, DOKPLOY])


def test_openai_strict_refuses_lookaround_at_any_depth_and_nothing_else_re_takes() -> None:
    for pattern in (FIGMA, r"a(?<=b)", r"(x|(y(?!z)))+", r"^(?:a(?=b)){2}$"):
        assert _refused(pattern, "python-re-no-lookaround") == "regex lookaround is not supported", pattern
    for pattern in (*ORDINARY, DOKPLOY, r"[(?=x)]", r"\(\?=x\)", r"(?:a|b)+", r"(?P<n>a)(?P=n)"):
        assert compiled(pattern, "python-re-no-lookaround") is None, pattern


def test_llama_cpp_takes_only_patterns_anchored_at_both_ends() -> None:
    assert _refused(ORACLE, "anchored") == "Pattern must start with '^' and end with '$'"
    assert _refused(r"^dag", "anchored")  # LeXwDeX/OpenCode-GraphAgent#412: start-anchored only
    assert compiled(r"^.*\S.*$", "anchored") is None  # fitchmultz/pi-oracle#5's fix


@needs_paula
def test_rust_regex_refuses_both_deepseek_reports_and_takes_the_common_patterns() -> None:
    assert _refused(DOKPLOY, "rust-regex") == "unclosed character class"
    assert "look-around" in _refused(ARTIFACT, "rust-regex")
    assert all(compiled(p, "rust-regex") is None for p in ORDINARY)


@needs_regress
def test_ecmascript_takes_what_json_schema_means_and_u_mode_is_stricter() -> None:
    for pattern in (ARTIFACT, FIGMA, DOKPLOY, *ORDINARY):
        assert compiled(pattern, "ecmascript") is None and compiled(pattern, "ecmascript-u") is None, pattern
    assert compiled(r"\-", "ecmascript") is None and _refused(r"\-", "ecmascript-u") == "Invalid character escape"
    assert _refused(r"(?i)ab", "ecmascript") == "Invalid group modifier"


@needs_re2
def test_re2_refuses_lookaround_and_backreferences() -> None:
    assert _refused(FIGMA, "re2").startswith("invalid perl operator")
    assert _refused(r"^(a)\1$", "re2").startswith("invalid escape sequence")
    assert all(compiled(p, "re2") is None for p in ORDINARY)


def test_a_missing_engine_or_a_huge_pattern_is_not_tried_never_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolcast.adapters.schema.dialects as dialects

    monkeypatch.setattr(dialects, "_installed", lambda module: False)
    verdict = compiled(DOKPLOY, "rust-regex")
    assert isinstance(verdict, Unavailable) and "toolcast[dialects]" in verdict.why
    assert first_refusal(DOKPLOY, (("r", "rust-regex"),)) is None
    assert isinstance(compiled("a" * 20_000, "python-re"), Unavailable)


@pytest.mark.parametrize("engine", PATTERN_ENGINES)
def test_hostile_patterns_get_an_answer_from_every_engine_at_once(engine: str) -> None:
    """Deep nesting, huge repetitions and long classes: refused, compiled or not tried, never a crash or a wait;
    ``re`` running out of stack is no verdict (where it happens depends on the caller's depth)."""
    import time

    for pattern in ("(" * 4000 + "a" + ")" * 4000, "a{99999999}", "(a{1000}){1000}", "[" + "a-z" * 3000 + "]"):
        start = time.process_time()
        verdict = compiled(pattern, engine)
        assert verdict is None or isinstance(verdict, (Refused, Unavailable))
        assert time.process_time() - start < 5  # a limit that turns a hang into a failure, not a speed target
    deep = compiled("(" * 4000 + "a" + ")" * 4000, engine)
    if engine.startswith("python-re"):
        assert isinstance(deep, Unavailable) and "nested too deeply" in deep.why


def test_every_pattern_rule_needs_a_known_engine_a_source_and_a_confidence() -> None:
    good = {"id": "p", "rule": "pattern_dialect", "engine": "python-re", "effect": "rejected", "message": "m",
            "source": ["BerriAI/litellm#40485"], "confidence": "observed"}
    assert parse_rule(good, "here").settings["engine"] == "python-re"
    for bad in ({"engine": "perl"}, {"source": []}, {"confidence": "likely"}, {"modes": ["lenient"]}):
        with pytest.raises(ConsumerProfileError):
            parse_rule({**good, **bad}, "here")
    for missing in ("engine", "source", "confidence"):
        with pytest.raises(ConsumerProfileError):
            parse_rule({k: v for k, v in good.items() if k != missing}, "here")


def test_the_shipped_rules_carry_their_sources_and_confidence() -> None:
    rules = [*provider_pattern_rules("openai"), *provider_pattern_rules("openai-responses"),
             *(r for name in ("deepseek", "llama-cpp") for r in consumer(name).rules if r.kind == "pattern_dialect")]
    assert {r.settings["engine"] for r in rules} == {"python-re", "python-re-no-lookaround", "rust-regex",
                                                     "anchored"}
    assert all(r.sources and r.confidence in ("documented", "observed", "unclear") for r in rules)
    assert consumer("deepseek").rules[-1].confidence == "unclear"  # an engine inferred from two reports


def _tool(pattern: str, strict: bool | None = None) -> dict[str, Any]:
    tool: dict[str, Any] = {"type": "function", "function": {"name": "Artifact", "description": "d", "parameters": {
        "type": "object", "properties": {"field": {"type": "string", "description": "A field.", "pattern": pattern}},
        "required": ["field"], "additionalProperties": False}}}
    if strict is not None:
        tool["function"]["strict"] = strict
    return tool


@pytest.mark.parametrize("pattern,strict,engine", [(ARTIFACT, False, "python-re"), (ARTIFACT, True, "python-re"),
                                                   (FIGMA, True, "python-re-no-lookaround")])
@pytest.mark.parametrize("target", ["openai", "openai-responses"])
def test_openai_convert_states_a_refused_pattern_in_the_description_and_check_says_so_at_the_pattern(
        pattern: str, strict: bool, engine: str, target: str) -> None:
    tool = load_tools(_tool(pattern, strict))[0].tool
    conv = convert(tool, target, TargetOptions(strict=strict))
    assert conv.ok
    field = json.dumps(conv.output)
    assert '"pattern"' not in field and "constraints" in field
    [loss] = [x for x in conv.losses if x.keyword == "pattern"]
    assert loss.pointer == "/parameters/properties/field/pattern" and loss.rule is not None
    assert loss.effect.value == "widening"
    text = json.dumps(_tool(pattern, strict), indent=2)
    report = check_document(text, config=CheckConfig(targets=(target,), target_options={
        target: TargetOptions(strict=strict)}))
    [found] = [f for f in report.findings if f.code == PATTERN_DIALECT]
    assert found.pointer == "/function/parameters/properties/field/pattern"
    assert found.severity.value == "warning"
    rule = next(r for r in provider_pattern_rules(target) if r.settings["engine"] == engine)
    assert loss.rule == rule.id and f"[{rule.cite()}]" in found.message


def test_openai_non_strict_keeps_a_lookahead_re_compiles_and_other_targets_keep_every_pattern() -> None:
    tool = load_tools(_tool(FIGMA, False))[0].tool
    assert '"pattern"' in json.dumps(convert(tool, "openai", TargetOptions(strict=False)).output)
    for target in ("anthropic", "mistral", "mcp", "bedrock"):
        conv = convert(load_tools(_tool(ARTIFACT))[0].tool, target)
        assert not [x for x in conv.losses if x.keyword == "pattern"], target


def test_a_consumer_rule_is_judged_at_each_pattern_and_an_unclear_one_is_never_an_error() -> None:
    text = json.dumps({"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {
        "files": {"type": "string", "pattern": ORACLE}, "password": {"type": "string", "pattern": DOKPLOY},
        "ok": {"type": "string", "pattern": "^[a-z]+$"}}}}, indent=2)
    report = check_document(text, config=CheckConfig(targets=("mcp",), consumers=("llama-cpp", "deepseek")))
    found = {(f.pointer, f.severity.value) for f in report.findings if f.code == PATTERN_DIALECT}
    expected = {("/inputSchema/properties/files/pattern", "error")}
    if find_spec("paula") is not None:
        expected.add(("/inputSchema/properties/password/pattern", "warning"))
    assert found == expected


def test_a_rule_whose_engine_is_not_installed_says_it_did_not_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolcast.adapters.schema.dialects as dialects

    monkeypatch.setattr(dialects, "_installed", lambda module: False)
    text = json.dumps({"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {
        "password": {"type": "string", "pattern": DOKPLOY}}}})
    report = check_document(text, config=CheckConfig(targets=("mcp",), consumers=("deepseek",)))
    [found] = [f for f in report.findings if f.code == PATTERN_DIALECT]
    assert found.severity == Severity.INFO
    assert "not checked" in found.message and "toolcast[dialects]" in found.message



#: PayPal's MCP server: `@cfworker/json-schema` answers `Invalid regular expression: /^https\:\/\//u: Invalid escape`
#: (langchain-ai/langchainjs#11351); a Python named group makes the MCP TypeScript SDK's listTools throw
#: (anomalyco/opencode#35624).
PAYPAL = r"^https\:\/\/"
NAMED_GROUP = r"^(?P<workflow_id>[A-Za-z0-9_-]+)$"


@needs_regress
@pytest.mark.parametrize("pattern", [PAYPAL, NAMED_GROUP])
def test_mcp_states_a_pattern_javascript_hosts_refuse_in_the_description(pattern: str) -> None:
    """The MCP target's hosts compile patterns as ECMAScript with the u flag: convert states such a pattern in the
    description (a widening loss citing the rule), check says so at the pattern, and other patterns are kept."""
    tool = {"name": "create_invoice", "description": "d", "inputSchema": {"type": "object", "properties": {
        "url": {"type": "string", "pattern": pattern}, "day": {"type": "string", "pattern": ORDINARY[1]}}}}
    conv = convert(load_tools(tool)[0].tool, "mcp")
    [loss] = [x for x in conv.losses if x.keyword == "pattern"]
    assert loss.pointer == "/parameters/properties/url/pattern" and loss.effect.value == "widening"
    assert "pattern" not in conv.output["inputSchema"]["properties"]["url"]
    assert conv.output["inputSchema"]["properties"]["day"]["pattern"] == ORDINARY[1]
    report = check_document(json.dumps(tool), config=CheckConfig(targets=("mcp",)))
    [found] = [f for f in report.findings if f.code == PATTERN_DIALECT]
    assert found.pointer == "/inputSchema/properties/url/pattern" and found.severity == Severity.WARNING
    [rule] = provider_pattern_rules("mcp")
    assert rule.settings["engine"] == "ecmascript-u" and f"[{rule.cite()}]" in found.message
    assert compiled(pattern, "ecmascript-u") is not None  # the engine's own verdict, not the rule's
