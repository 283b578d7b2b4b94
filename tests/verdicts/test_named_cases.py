"""One verdict per tool and target, case by case: each case here is an input on which check and convert
disagreed, convert refused what it can express, or convert wrote what the provider rejects or changed it
without a word. Every assertion states what toolcast now does; each failed before it did."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.convert import Conversion, convert, convert_all
from toolcast.adapters.convert.accept import first_violation
from toolcast.adapters.losses import Action, Effect
from toolcast.adapters.rules.findings import Severity
from toolcast.adapters.targets import TARGETS, TargetOptions

from .agreement import disagreements

TOOLCAST = Path(sys.executable).parent / "toolcast"
MODES = (None, True, False)  # each target's default, strict, non-strict


def tool(parameters: Any, name: str = "t") -> CanonicalTool:
    return CanonicalTool(name, "d", parameters=parameters)


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def conv(parameters: Any, target: str, strict: bool | None = None) -> Conversion:
    return convert(tool(parameters), target, TargetOptions(strict=strict))


def findings(document: Any, targets: tuple[str, ...] = TARGETS, **options: Any) -> list[Any]:
    config = CheckConfig(targets=targets, targets_named=True, **options)
    return list(check_document(json.dumps(document), config=config).findings)


def effects(c: Conversion) -> list[tuple[str, str]]:
    return sorted({(x.action.value, x.effect.value) for x in c.losses if x.effect != Effect.NEUTRAL})


# -- refusals of convertible inputs ------------------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strict", MODES)
def test_boolean_subschemas_convert_as_the_schemas_they_mean(target: str, strict: bool | None) -> None:
    """`true` is `{}` and `false` is `{"not": {}}`: converted as those are, never refused where they are not
    (`"model": true` was refused for OpenAI strict, `"anything": false` for Gemini and every strict mode)."""
    for boolean, spelled in ((True, {}), (False, {"not": {}})):
        as_boolean, as_object = conv(obj(model=boolean), target, strict), conv(obj(model=spelled), target, strict)
        assert as_boolean.ok and as_object.ok, (boolean, as_boolean.refusal)
        # the same losses, or none where the target takes the boolean as it is
        assert effects(as_boolean) in (effects(as_object), []), boolean


def test_a_dotnet_boolean_property_converts_for_gemini() -> None:
    """A .NET SDK tool's `properties: {value: true}` was refused for Gemini ("type null is not one Gemini type")."""
    out = conv(obj(value=True), "gemini")
    assert out.ok and "anyOf" in out.output["parameters"]["properties"]["value"]


@pytest.mark.parametrize("target", TARGETS)
def test_a_one_branch_composition_is_its_branch(target: str) -> None:
    """`{"anyOf": [{"type": "null"}]}` was refused for Gemini ("`anyOf` must be a non-empty list")."""
    for key in ("anyOf", "oneOf", "allOf"):
        out = conv(obj(x={key: [{"type": "null"}]}), target)
        assert out.ok, (key, out.refusal)
    assert conv(obj(x={"anyOf": [{"type": "null"}]}), "gemini").output["parameters"]["properties"] == {
        "x": {"type": "NULL"}}


def test_the_model_rule_is_judged_on_the_converted_schema(tmp_path: Path) -> None:
    """`convert --to gemini --model vertex/gemini-2.5-pro` refused a nullable enum union that plain `convert
    --to gemini` writes typed (`{"type": "STRING", "nullable": true, "enum": [...]}`)."""
    path = tmp_path / "t.tool.json"
    path.write_text(json.dumps({"name": "t", "description": "d", "parameters": obj(
        unit={"anyOf": [{"type": "string", "enum": ["c", "f"]}, {"type": "null"}]})}), encoding="utf-8")
    done = subprocess.run([str(TOOLCAST), "convert", "--to", "gemini", "--model", "vertex/gemini-2.5-pro",
                           str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    sent = json.loads(done.stdout)
    sent = sent[0] if isinstance(sent, list) else sent
    assert sent["parameters"]["properties"]["unit"] == {"type": "STRING", "enum": ["c", "f"], "nullable": True}
    untyped = path.with_name("u.tool.json")
    untyped.write_text(json.dumps({"name": "t", "description": "d", "parameters": obj(unit={"description": "x"})}),
                       encoding="utf-8")
    done = subprocess.run([str(TOOLCAST), "convert", "--to", "gemini", "--model", "vertex/gemini-2.5-pro",
                           str(untyped)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "TC906" in done.stderr  # what is sent is still judged: an untyped anyOf


# -- check says error, convert writes ------------------------------------------------------------------

MAP_ROOT = {"name": "t", "description": "d",
            "parameters": {"type": "object", "additionalProperties": {"type": "string"}}}


def test_a_map_root_is_no_error_where_convert_writes_it() -> None:
    """TC108 was an error for every target, also for MCP's own map root, which Anthropic and MCP take as is."""
    found = findings(MAP_ROOT)
    assert [f.severity for f in found if f.code == "TC108"] == [Severity.WARNING]
    assert all(f.severity != Severity.ERROR for f in found)
    assert all(conv(MAP_ROOT["parameters"], t).ok for t in TARGETS)
    assert disagreements(MAP_ROOT) == []


def test_seed_registration_rules_keep_their_severity_where_selected() -> None:
    found = findings(MAP_ROOT, select=("TC108",))
    assert [f.severity for f in found] == [Severity.ERROR]


@pytest.mark.parametrize("parameters,severity", [
    ({"properties": {"a": {"type": "string"}}}, Severity.WARNING),  # convert adds `type: object`
    ({"type": "dict", "properties": {"a": {"type": "string"}}}, Severity.WARNING),  # read as `object`
    ({"type": "string"}, Severity.ERROR),  # refused by convert
])
def test_a_root_type_is_an_error_only_where_convert_refuses(parameters: dict[str, Any], severity: Severity) -> None:
    document = {"name": "t", "description": "d", "parameters": parameters}
    assert [f.severity for f in findings(document) if f.code == "TC107"] == [severity]
    assert disagreements(document) == []


def test_a_dangling_ref_is_a_warning_as_convert_drops_it() -> None:
    document = {"name": "t", "description": "d", "parameters": obj(a={"$ref": "#/$defs/missing"})}
    assert [f.severity for f in findings(document) if f.code == "TC303"] == [Severity.WARNING]
    assert all(conv(document["parameters"], t).ok for t in TARGETS)
    assert disagreements(document) == []


DRAFT_07 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
    "p": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}}


def test_a_draft_07_schema_is_judged_by_draft_07() -> None:
    """Tuple `items` is valid in draft-07: TC301 judged it as 2020-12."""
    document = {"name": "t", "description": "d", "parameters": DRAFT_07}
    assert [f for f in findings(document) if f.code == "TC301"] == []
    undeclared = {**document, "parameters": {k: v for k, v in DRAFT_07.items() if k != "$schema"}}
    # 2020-12 without `$schema`, said once (one mistake, one finding)
    assert [f.code for f in findings(undeclared) if f.code == "TC301"] == ["TC301"]
    assert disagreements(document) == []


# -- convert writes what the provider rejects --------------------------------------------------------------

ROOT_ANY = {"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]},
                                        {"properties": {"b": {"type": "string"}}, "required": ["b"]}]}


@pytest.mark.parametrize("target", ["openai", "openai-responses"])
@pytest.mark.parametrize("strict", MODES)
def test_openai_refuses_a_root_composition_in_both_modes(target: str, strict: bool | None) -> None:
    """"schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"."""
    assert not conv(ROOT_ANY, target, strict).ok
    for key in ("enum", "not"):
        out = {"type": "function", "function": {"name": "t", "parameters": {
            "type": "object", "properties": {}, key: [{}] if key == "enum" else {}}, "strict": False}}
        if target == "openai":
            violation = first_violation("openai", out)
            assert violation is not None and violation.rule == "root-composition"
    one = {"type": "object", "anyOf": [ROOT_ANY["anyOf"][0]]}  # one branch: the same as the branch alone
    assert conv(one, target, strict).ok
    merged = {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}, {"required": ["a"]}]}
    assert conv(merged, target, strict).ok  # an `allOf` merged where the root may not compose
    document = {"name": "t", "description": "d", "parameters": ROOT_ANY}
    assert disagreements(document, targets=(target,), strict=strict) == []


DUPLICATES = [{"name": "t", "description": "a", "parameters": obj(a={"type": "string"})},
              {"name": "t", "description": "b", "parameters": obj(b={"type": "string"})}]


@pytest.mark.parametrize("target", ["gemini", "gemini-json", "anthropic"])
def test_duplicate_names_are_refused_where_the_provider_rejects_them(target: str) -> None:
    """Gemini: "Duplicate function declaration found"; check reported TC201 while convert wrote both."""
    listed = convert_all([CanonicalTool(**{k: v for k, v in d.items()}) for d in DUPLICATES], target)
    assert not listed.ok and listed.refusal is not None and listed.refusal.keyword == "duplicate-names"
    assert disagreements(DUPLICATES, targets=(target,)) == []


def test_duplicate_names_are_an_error_exactly_where_convert_refuses_them() -> None:
    """TC201 (and TC205, once sanitised) were errors for every target while convert wrote the list for all."""
    assert disagreements(DUPLICATES) == []
    collide = [{**DUPLICATES[0], "name": "a.b"}, {**DUPLICATES[1], "name": "a/b"}]
    assert disagreements(collide) == []
    found = findings(DUPLICATES, targets=("openai", "mcp"))
    assert [(f.code, f.severity) for f in found if f.code == "TC201"] == [("TC201", Severity.WARNING)]


@pytest.mark.parametrize("target", ["openai", "openai-responses"])
def test_openai_strict_drops_keywords_outside_its_subset_with_a_loss(target: str) -> None:
    params = {"type": "object", "propertyOrdering": ["a"], "properties": {"a": {"type": "string", "example": "x"}},
              "required": ["a"]}
    out = conv(params, target, strict=True)
    assert out.ok
    sent = json.dumps(out.output)
    assert "propertyOrdering" not in sent and '"example"' not in sent
    assert {(x.keyword, x.action) for x in out.losses} >= {("propertyOrdering", Action.DROPPED),
                                                          ("example", Action.DROPPED)}
    kept = {"type": "function", "function": {"name": "t", "parameters": {**params, "additionalProperties": False},
                                             "strict": True}}
    violation = first_violation("openai", kept)
    assert violation is not None and violation.rule == "strict-keyword"


# -- silent changes --------------------------------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS)
def test_prefix_items_beside_a_tuple_items_is_a_reported_loss(target: str) -> None:
    out = conv(obj(p={"type": "array", "prefixItems": [{"type": "string"}], "items": [{"type": "integer"}]}), target)
    lost = [x for x in out.losses if x.keyword == "prefixItems" and x.pointer.endswith("/p/prefixItems")]
    assert lost and lost[0].effect == Effect.WIDENING


def test_gemini_keeps_null_out_of_an_enum_that_excludes_it() -> None:
    out = conv(obj(u={"anyOf": [{"type": "string"}, {"type": "null"}], "enum": ["a", "b"]}), "gemini")
    assert out.output["parameters"]["properties"]["u"] == {"type": "STRING", "enum": ["a", "b"]}
    with_null = conv(obj(u={"anyOf": [{"type": "string"}, {"type": "null"}]}), "gemini")
    assert with_null.output["parameters"]["properties"]["u"].get("nullable") is True


# -- the same invalid input for every target -------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strict", MODES)
def test_invalid_input_is_refused_for_every_target(target: str, strict: bool | None) -> None:
    """`"type": []` was written for OpenAI as `{"type": ["null"]}`; `"properties": null` for Gemini."""
    assert not conv(obj(a={"type": []}), target, strict).ok
    assert not conv({"type": "object", "properties": None}, target, strict).ok


# -- one mistake, one diagnostic -------------------------------------------------------------------------

def test_a_required_name_repaired_by_convert_is_one_finding() -> None:
    """README's screenshot: `required` naming an undefined `ghost` gave TC302 and two TC503s from the repair."""
    document = {"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "ghost"]}}
    codes = [f.code for f in findings(document) if "ghost" in f.pointer or f.pointer.endswith("/properties")
             or f.code != "TC510"]
    assert codes == ["TC302"]
    assert disagreements(document) == []
