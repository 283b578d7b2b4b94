"""Every output is judged before it is written (``convert.accept``): what a provider rejects is refused, with
the rule and the place, or lowered with a reported loss where that keeps the meaning. Each case here was
written out with exit 0 before the acceptor existed; the provider SDK types and the corpus harness's rules
(``tests/corpus/harness.py``, written independently from providers.md) are the oracle for "accepted"."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.convert import Conversion, convert, convert_all
from toolcast.adapters.convert.accept import RULES, first_violation, root_problem
from toolcast.adapters.errors import ConversionError
from toolcast.adapters.loading import load_tools
from toolcast.adapters.losses import Action, Effect
from toolcast.adapters.targets import TARGETS, TargetOptions

from ..corpus.harness import judge, problems

warnings.filterwarnings("ignore", message=".* is not a valid Type", category=UserWarning)

ROOT_REFUSERS = ("openai", "openai-responses", "anthropic", "bedrock", "gemini", "gemini-json", "mistral", "mcp")


def tool(parameters: Any, name: str = "t") -> CanonicalTool:
    return CanonicalTool(name, "d", parameters=parameters)


def refusal_rule(conv: Conversion) -> str | None:
    refused = conv.refusal
    return refused.keyword if refused is not None else None


def accepted_by_the_oracle(target: str, conv: Conversion) -> bool:
    """The harness (SDK types and providers.md rules, not toolcast's acceptor) finds nothing to reject."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return judge(target, conv).kind in ("valid", "repaired")


# ------------------------------------------------------------------------------------ roots no target takes

NON_OBJECT_ROOTS = {
    # Bedrock: "The value at toolConfig.tools.X.toolSpec.inputSchema.json.type must be one of the following:
    # object." (earendil-works/pi#8279, the same message in #8804 for a non-object root)
    "string": {"type": "string", "description": "A city name"},
    "array": {"type": "array", "items": {"type": "string"}},
    "bare const": {"const": "celsius"},
    "root oneOf of non-objects": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "dangling root $ref": {"$ref": "#/$defs/Missing"},
}


@pytest.mark.parametrize("case", NON_OBJECT_ROOTS)
@pytest.mark.parametrize("target", ROOT_REFUSERS)
def test_a_root_that_is_not_an_object_is_refused_with_the_rule_and_place(case: str, target: str) -> None:
    conv = convert(tool(NON_OBJECT_ROOTS[case]), target)
    assert not conv.ok, (case, target, conv.output)
    refused = conv.refusal
    assert refused is not None and refused.action == Action.REJECTED and refused.effect == Effect.UNSATISFIABLE
    if refused.keyword in ("anyOf", "oneOf"):  # the walker's own refusal of root composition comes first
        assert case == "root oneOf of non-objects" and refused.pointer == f"/parameters/{refused.keyword}", refused
    else:
        assert refused.keyword == "root-not-object" and refused.pointer == "/parameters", refused
        assert "root-not-object" in refused.message and "/parameters" in refused.message
    with pytest.raises(ConversionError, match=refused.keyword):
        conv.sendable()


def test_dangling_root_ref_is_no_longer_sent_as_any_of_every_type_or_an_empty_schema() -> None:
    """Before: OpenAI strict got a root `anyOf` of every type, Anthropic `input_schema: {}` (exit 0)."""
    for target in ("openai", "anthropic"):
        conv = convert(tool({"$ref": "#/$defs/Missing"}), target)
        assert refusal_rule(conv) == "root-not-object"
        # the loss that says why is still reported beside the refusal
        assert any(x.keyword == "$ref" and "does not resolve" in x.message for x in conv.losses)


def test_a_nullable_object_root_is_refused_where_the_root_must_be_a_non_nullable_object() -> None:
    schema = {"type": ["object", "null"], "properties": {"a": {"type": "string"}}}
    for target in ("openai", "openai-responses", "anthropic", "bedrock", "mistral", "mcp"):
        conv = convert(tool(schema), target)
        assert refusal_rule(conv) == "root-not-object", target
        assert "non-nullable" in conv.losses[0].message or any("non-nullable" in x.message for x in conv.losses)
    # Gemini says "nullable" on the object, and its JSON Schema field describes an object: both take it.
    for target in ("gemini", "gemini-json"):
        conv = convert(tool(schema), target)
        assert conv.ok and accepted_by_the_oracle(target, conv), target


def test_a_root_whose_every_branch_is_an_object_gets_type_object_where_the_target_takes_it() -> None:
    """A root `oneOf` without `type` (pydantic's discriminated unions): `type: object` beside it keeps the meaning;
    targets that reject root composition refuse it by that rule, the others are sent."""
    schema = {"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                        {"type": "object", "properties": {"b": {"type": "string"}}}]}
    for target in ("mistral", "mcp"):
        conv = convert(tool(schema), target)
        assert conv.ok and accepted_by_the_oracle(target, conv), target
        params = conv.output.get("inputSchema") or conv.output["function"]["parameters"]
        assert params["type"] == "object" and params["oneOf"] == schema["oneOf"]
        assert any(x.pointer == "/parameters/type" and x.effect == Effect.NEUTRAL for x in conv.losses)
    for target in ("openai", "anthropic", "bedrock"):
        conv = convert(tool(schema), target)
        assert not conv.ok, target
    refused = convert(tool(schema), "bedrock").refusal  # the walker's root rule (the profile says it too)
    assert refused is not None and refused.keyword == "oneOf" and "at the root" in refused.message


def test_circular_refs_through_a_root_all_of_convert_alike_for_every_target() -> None:
    """$defs A→B→A, root `allOf: [{$ref: A}]`: before, OpenAI got exit 0 with a root `$ref` beside nothing
    while Anthropic refused. The root is now A itself for every target; each output passes the oracle."""
    schema = {"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                        "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}},
              "allOf": [{"$ref": "#/$defs/A"}]}
    for target in TARGETS:
        conv = convert(tool(schema), target)
        assert conv.ok, (target, [x.message for x in conv.losses if x.action == Action.REJECTED])
        assert accepted_by_the_oracle(target, conv), (target, problems(target, conv.output))
        assert any(x.keyword == "allOf" and "root `allOf` of one `$ref`" in x.message for x in conv.losses)
    out = convert(tool(schema), "openai").output["function"]["parameters"]
    assert "$ref" not in out and out["type"] == "object" and set(out["properties"]) == {"b"}


# ------------------------------------------------------------------------------------- invalid input schemas

INVALID = {
    "items is a string": {"type": "object", "properties": {"tags": {"type": "array", "items": ""}}},
    "a property is a string": {"type": "object", "properties": {"location": "bar"}},
    # prism-php/prism#746: OpenAI "Invalid schema for function '…': [] is not of type 'object'."
    "properties is an empty list": {"type": "object", "properties": {"dimension_filter": {
        "type": "object", "title": "Dimension Filter", "properties": [], "required": [],
        "additionalProperties": False}}},
}


@pytest.mark.parametrize("case", INVALID)
@pytest.mark.parametrize("target", TARGETS)
def test_an_invalid_input_schema_is_refused_never_passed_through(case: str, target: str) -> None:
    conv = convert(tool(INVALID[case]), target)
    bad_place = {"items is a string": "/parameters/properties/tags", "a property is a string":
                 "/parameters/properties/location", "properties is an empty list":
                 "/parameters/properties/dimension_filter"}[case]
    if conv.ok:
        # Repaired with a loss that changes meaning, at the invalid place (Gemini asks for a free-form object
        # as JSON text), never passed through unchanged.
        assert target == "gemini" and accepted_by_the_oracle(target, conv), (case, target, conv.output)
        assert any(x.pointer.startswith(bad_place) and x.effect != Effect.NEUTRAL for x in conv.losses)
        return
    refused = conv.refusal
    assert refused is not None and refused.pointer.startswith(bad_place), (case, target, refused)


def test_prism_746_names_the_place_and_the_meta_schema_message() -> None:
    conv = convert(tool(INVALID["properties is an empty list"]), "openai", TargetOptions(strict=False))
    refused = conv.refusal
    assert refused is not None and refused.keyword == "schema-invalid"
    assert refused.pointer == "/parameters/properties/dimension_filter/properties"
    assert "[] is not of type 'object'" in refused.message


# --------------------------------------------------------------------------- objects without properties

def test_openai_non_strict_gets_properties_on_an_object_without_them() -> None:
    """spring-projects/spring-ai#4776: "Invalid schema for function 'xxx': In context=(), object schema missing
    properties." for a tool without parameters, `{"type": "object"}`, sent non-strict."""
    for target in ("openai", "openai-responses"):
        conv = convert(tool({"type": "object"}), target, TargetOptions(strict=False))
        params = conv.output["function"]["parameters"] if target == "openai" else conv.output["parameters"]
        assert params == {"type": "object", "properties": {}}
        assert [(x.pointer, x.keyword, x.action, x.effect) for x in conv.losses] == [
            ("/parameters/properties", "properties", Action.LOWERED, Effect.NEUTRAL)]
        assert accepted_by_the_oracle(target, conv)


# ----------------------------------------------------------------------------------- OpenAI strict limits

def _nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"a": node}, "required": ["a"]}
    return node


DEEP = _nested(11)  # §1.4: at most 10 levels of nesting (TC602 counts the root as the first)
MANY_ENUM = {"type": "object", "properties": {"code": {"type": "string", "enum": [f"c{i}" for i in range(1001)]}}}


@pytest.mark.parametrize("params", [DEEP, MANY_ENUM])
def test_openai_strict_limits_refuse_what_the_checks_flag(params: dict[str, Any]) -> None:
    """The checks' TC601–TC604 and the output's `strict-limits` count with one function (`strict_sizes`)."""
    for target in ("openai", "openai-responses"):
        conv = convert(tool(params), target)
        assert refusal_rule(conv) == "strict-limits", target
        assert convert(tool(params), target, TargetOptions(strict=False)).ok  # the limits are strict mode's
    assert convert(tool(_nested(10)), "openai").ok
    codes = {f.code for f in check_document(json.dumps({"name": "t", "description": "d", "parameters": params}),
                                            config=CheckConfig(targets=("openai",))).findings}
    assert {"TC506"} <= codes and codes & {"TC602", "TC603"}, codes


# ------------------------------------------------------------------------------------------ the acceptor

@pytest.mark.parametrize("target,output,rule", [
    ("openai", {"type": "function", "function": {"name": "a.b", "parameters": {"type": "object", "properties": {}}}},
     "name"),
    ("openai", {"type": "function", "function": {"name": "t", "description": "x" * 1025}}, "description-length"),
    ("bedrock", {"toolSpec": {"name": "t", "description": "", "inputSchema": {"json": {
        "type": "object", "properties": {}}}}}, "description-empty"),
    ("anthropic", {"name": "t", "input_schema": {"type": "object", "anyOf": [{"required": ["a"]}]}},
     "root-composition"),
    ("openai", {"type": "function", "function": {"name": "t", "strict": True, "parameters": {
        "$ref": "#/$defs/a", "type": "object", "$defs": {"a": {"type": "object"}}}}}, "root-ref"),
    ("mcp", {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}}},
     "ref-unresolved"),
    ("mcp", {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "https://x/s.json"}}}},
     "ref-unresolved"),
    ("openai", {"type": "function", "function": {"name": "t", "strict": False, "parameters": {
        "type": "object", "properties": {"a": {"type": "array"}}}}}, "array-items"),
    ("openai", {"type": "function", "function": {"name": "t", "strict": True, "parameters": {
        "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}}, "strict-closed"),
    ("openai", {"type": "function", "function": {"name": "t", "strict": True, "parameters": {
        "type": "object", "properties": {"a": {"type": "string"}}, "required": [],
        "additionalProperties": False}}}, "strict-required"),
    ("openai", {"type": "function", "function": {"name": "t", "strict": True, "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"],
        "additionalProperties": False}}}, "strict-keyword"),
    ("openai-responses", {"type": "function", "name": "t", "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "format": "uri"}}, "required": ["a"],
        "additionalProperties": False}}, "strict-keyword"),
    ("gemini-json", {"name": "t", "parametersJsonSchema": {"type": "object", "properties": {
        "a": {"$ref": "#/$defs/x", "title": "A"}}, "$defs": {"x": {"type": "string"}}}}, "ref-siblings"),
    ("mistral", {"type": "function", "function": {"name": "t", "parameters": {
        "type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": True}}}}}, "schema-invalid"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING",
                                                                                   "const": "x"}}}}, "gemini-schema"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "OBJECT"}}}},
     "object-properties"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "ARRAY"}}}},
     "array-items"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {
        "anyOf": [{"type": "STRING"}], "description": "d"}}}}, "gemini-schema"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "INTEGER",
                                                                                   "enum": [1, 2]}}}},
     "gemini-schema"),
    ("gemini", {"name": "t", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING",
                                                                                   "enum": ["x", ""]}}}},
     "gemini-schema"),  # Smana/runlore#40: "enum[3]: cannot be empty"
])
def test_each_rule_refuses_what_its_source_says_the_provider_rejects(target: str, output: Any, rule: str) -> None:
    found = first_violation(target, output)
    assert found is not None and found.rule == rule, found
    assert rule in RULES
    # The oracle, written apart from the product, agrees that the provider rejects it.
    assert problems(target, output), (target, output)


@pytest.mark.parametrize("target,output,rule", [
    ("anthropic", {"name": "t", "strict": True, "input_schema": {"type": "object", "properties": {
        "a": {"type": "integer", "minimum": 1}}}}, "strict-keyword"),
    ("bedrock", {"toolSpec": {"name": "t", "strict": True, "inputSchema": {"json": {
        "type": "object", "properties": {}, "additionalProperties": True}}}}, "strict-closed"),
])
def test_anthropic_strict_rules(target: str, output: Any, rule: str) -> None:
    """providers.md §2.4 (the harness has no rules for Anthropic's strict subset): "Numerical constraints" and
    `additionalProperties` other than false are not supported."""
    found = first_violation(target, output)
    assert found is not None and found.rule == rule, found
    relaxed = json.loads(json.dumps(output).replace('"strict": true', '"strict": false'))
    assert first_violation(target, relaxed) is None


@pytest.mark.parametrize("target", TARGETS)
def test_what_toolcast_sends_for_an_ordinary_tool_passes(target: str) -> None:
    params = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
              "required": ["city"]}
    conv = convert(tool(params), target)
    assert conv.ok and first_violation(target, conv.output) is None
    assert conv.sendable() is conv.output


def test_root_problem_is_the_one_test_of_the_source_root_and_of_the_output_root() -> None:
    assert root_problem({"type": "object"}) is None
    assert root_problem({"type": "OBJECT"}) is None  # Gemini's spelling of the source
    assert root_problem({"properties": {}}) == 'the parameters have no `"type": "object"`'
    assert "non-nullable" in (root_problem({"type": ["object", "null"]}) or "")
    assert root_problem({"type": ["object", "null"]}, allow_null=True) is None
    assert "not \"object\"" in (root_problem({"type": "string"}) or "")
    assert "an array" in (root_problem([]) or "")


# ------------------------------------------------------------------------- check and convert: one verdict

#: (parameters, whether some target refuses them): every case of this file, and two every target takes.
CASES = [*((p, True) for p in NON_OBJECT_ROOTS.values()),
         ({"type": ["object", "null"], "properties": {"a": {"type": "string"}}}, True),
         *((p, True) for p in INVALID.values()), ({"type": "object"}, False),
         ({"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                     "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}},
           "allOf": [{"$ref": "#/$defs/A"}]}, False), (DEEP, True), (MANY_ENUM, True), (_nested(10), False)]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_check_reports_a_refusal_exactly_for_the_targets_convert_refuses(index: int) -> None:
    """Before, `check` said TC107 (an error) while `convert` wrote the root with exit 0 for every target; the
    refusals are now `convert`'s losses, which the checks report from the same conversion: TC506 for the
    output's judge, TC505 for the walker's own refusals."""
    params, some_refuse = CASES[index]
    doc = {"name": "t", "description": "d", "parameters": params}
    text = json.dumps(doc)
    report = check_document(text, config=CheckConfig(targets=TARGETS, targets_named=True))
    flagged: set[str] = set()
    for f in report.findings:
        if f.code in ("TC505", "TC506"):
            assert (f.code == "TC506") == (f.data["loss"]["keyword"] in RULES), f
            flagged.update(f.data.get("targets", []))
    lt = load_tools(doc)[0]
    refused = {t for t in TARGETS if not convert(lt.tool, t).ok}
    assert flagged == refused, (params, flagged, refused)
    assert bool(refused) == some_refuse, (params, refused)


# ----------------------------------------------------------------------------------------------- the CLI

def _convert(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(path), *args],
                          capture_output=True, text=True, timeout=60)


def test_convert_exits_2_naming_the_rule_and_the_place_and_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "t.json"
    src.write_text(json.dumps({"name": "t", "description": "d", "parameters": {"type": "string"}}), encoding="utf-8")
    out = tmp_path / "out.json"
    for target in ("openai", "anthropic", "bedrock"):
        run = _convert(src, "--to", target, "--out", str(out))
        assert run.returncode == 2, (target, run.stderr)
        last = run.stderr.strip().splitlines()[-1]
        assert last.startswith(f"toolcast: {target} cannot express tool 't' (`root-not-object` at /parameters)"), last
        assert not out.exists() and not run.stdout
        run = _convert(src, "--to", target, "--format", "json")
        assert run.returncode == 2 and json.loads(run.stdout)["output"] is None
        assert "root-not-object" in run.stderr.strip().splitlines()[-1]


def test_a_free_form_return_value_is_sent_to_gemini() -> None:
    """Gemini's `response` may be an OBJECT without properties (the walker keeps the root as it is); only the
    parameters' root is left out when it declares nothing."""
    conv = convert(CanonicalTool("t", "d", parameters={"type": "object", "properties": {"a": {"type": "string"}}},
                                 returns={"type": "object"}), "gemini")
    assert conv.ok and conv.output["response"] == {"type": "OBJECT"}


_SERVER = r'''
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "roots", "version": "1"}}
    elif msg["method"] == "tools/list":
        result = {"tools": [{"name": "city", "description": "d", "inputSchema": {
            "type": "object", "properties": {"tags": {"type": "array", "items": ""}}}}]}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
'''


def test_convert_mcp_refuses_a_live_servers_tool_the_provider_would_reject(tmp_path: Path) -> None:
    """`convert --mcp`: the same judge on the tools a server lists (the MCP SDK's client itself refuses a server
    whose input schema or properties are not objects; an `items` that is not a schema gets through)."""
    script = tmp_path / "server.py"
    script.write_text(_SERVER, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", "--to", "bedrock", "--mcp", "--",
                          sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 2 and not run.stdout, (run.returncode, run.stderr)
    last = run.stderr.strip().splitlines()[-1]
    assert "cannot express tool 'city' (`schema-invalid` at /parameters/properties/tags/items)" in last, last


def _many(n: int) -> list[dict[str, Any]]:
    """``n`` small distinct tools, as one request's list."""
    return [{"name": f"f{i}", "description": "d", "parameters": {"type": "object", "properties": {
        "q": {"type": "string"}}}} for i in range(n)]


def test_more_declarations_than_gemini_takes_are_refused_as_the_check_flags_them(tmp_path: Path) -> None:
    """providers.md §3.1: "Maximum 512 function declarations can be provided" (the checks' TC608)."""
    for n, refused in ((512, False), (513, True)):
        src = tmp_path / f"{n}.json"
        src.write_text(json.dumps(_many(n)), encoding="utf-8")
        for target in ("gemini", "gemini-json"):
            run = _convert(src, "--to", target)
            assert run.returncode == (2 if refused else 0), (n, target, run.stderr[-300:])
            if refused:
                assert not run.stdout
                assert run.stderr.strip().splitlines()[-1].startswith(
                    f"toolcast: {target} cannot take these tools together (`declarations`)")
        codes = {f.code for f in check_document(json.dumps(_many(n)), config=CheckConfig(targets=("gemini",))).findings}
        assert ("TC608" in codes) == refused, codes
    with pytest.raises(ConversionError, match="declarations"):
        convert_all([CanonicalTool(f"f{i}", "d", parameters={"type": "object", "properties": {}})
                     for i in range(513)], "gemini").sendable()


def test_more_tools_than_openai_chat_takes_are_refused_as_the_check_flags_them(tmp_path: Path) -> None:
    """"Invalid 'tools': array too long. Expected an array with maximum length 128" (zed-industries/zed#32946,
    anomalyco/opencode#4909): check reports TC901, so convert must not write the list with exit 0."""
    for n, refused in ((128, False), (129, True)):
        src = tmp_path / f"{n}.json"
        src.write_text(json.dumps(_many(n)), encoding="utf-8")
        run = _convert(src, "--to", "openai")
        assert run.returncode == (2 if refused else 0), (n, run.stderr[-300:])
        if refused:
            assert not run.stdout
            assert run.stderr.strip().splitlines()[-1].startswith(
                "toolcast: openai cannot take these tools together (`tools-count`)")
        codes = {f.code for f in check_document(json.dumps(_many(n)), config=CheckConfig(targets=("openai",))).findings}
        assert ("TC901" in codes) == refused, codes
    # Responses: the 128 is reported only from clients that may use either API (unclear): a warning, not a refusal.
    assert convert_all([CanonicalTool(f"f{i}", "d", parameters={"type": "object", "properties": {}})
                        for i in range(150)], "openai-responses").ok


def test_more_strict_tools_than_anthropic_takes_are_refused_as_the_check_flags_them() -> None:
    """providers.md §2.4: at most 20 strict tools in one request; the checks' TC605 says so, so a list of 21
    strict tools is refused, and 20 (or 21 tools of which 20 strict) are written."""
    def tools(n: int) -> list[dict[str, Any]]:
        return [{"name": f"f{i}", "description": "d", "parameters": {"type": "object", "properties": {
            "q": {"type": "string"}}, "required": ["q"], "additionalProperties": False},
                 "x-toolcast": {"targets": {"anthropic": {"strict": True}}}} for i in range(n)]

    for n, refused in ((20, False), (21, True)):
        canonical = [load_tools(t)[0].tool for t in tools(n)]
        whole = convert_all(canonical, "anthropic")
        assert whole.ok is not refused and (whole.refusal is not None) is refused
        config = CheckConfig(targets=("anthropic",))
        codes = {f.code for f in check_document(json.dumps(tools(n)), config=config).findings}
        assert ("TC605" in codes) == refused, codes
    loose = [load_tools(t)[0].tool for t in tools(20)] + [CanonicalTool("g", "d", parameters={"type": "object",
                                                                                         "properties": {}})]
    assert convert_all(loose, "anthropic").ok
