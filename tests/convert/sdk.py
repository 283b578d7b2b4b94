"""The providers' own SDK types, used as validators of what toolcast emits (no API is called)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from pydantic import TypeAdapter
from toolcast.adapters.convert import load_profile


@cache
def _adapter(name: str) -> TypeAdapter[Any]:
    """The SDK type's adapter, built once (building one costs tens of milliseconds)."""
    if name == "openai":
        from openai.types.chat import ChatCompletionFunctionToolParam

        return TypeAdapter(ChatCompletionFunctionToolParam)
    if name == "openai-responses":
        from openai.types.responses import FunctionToolParam

        return TypeAdapter(FunctionToolParam)
    from anthropic.types import ToolParam

    return TypeAdapter(ToolParam)


def _openai_chat(out: dict[str, Any]) -> None:
    _adapter("openai").validate_python(out, strict=True)


def _openai_responses(out: dict[str, Any]) -> None:
    _adapter("openai-responses").validate_python(out, strict=True)
    assert isinstance(out["strict"], bool), "Responses tools always carry `strict` explicitly"


def _anthropic(out: dict[str, Any]) -> None:
    _adapter("anthropic").validate_python(out, strict=True)
    assert out["input_schema"]["type"] == "object"


def _gemini(out: dict[str, Any]) -> None:
    from google.genai import types

    types.FunctionDeclaration.model_validate(out)  # extra="forbid": unknown keywords fail here


def _mistral(out: dict[str, Any]) -> None:
    from mistralai.client.models import Tool

    Tool.model_validate(out)


def _mcp(out: dict[str, Any]) -> None:
    from mcp.types import Tool

    Tool.model_validate(out)
    assert out["inputSchema"]["type"] == "object"


def _bedrock(out: dict[str, Any]) -> None:
    # No Bedrock SDK among the test dependencies: check the documented ToolSpecification shape.
    assert set(out) == {"toolSpec"}
    spec = out["toolSpec"]
    assert set(spec) <= {"name", "description", "inputSchema", "strict"}
    assert set(spec["inputSchema"]) == {"json"} and spec["inputSchema"]["json"]["type"] == "object"
    assert "description" not in spec or len(spec["description"]) >= 1


VALIDATORS: dict[str, Callable[[dict[str, Any]], None]] = {
    "openai": _openai_chat, "openai-responses": _openai_responses, "anthropic": _anthropic,
    "gemini": _gemini, "gemini-json": _gemini, "mistral": _mistral, "mcp": _mcp, "bedrock": _bedrock,
}


def name_of(target: str, out: dict[str, Any]) -> str:
    if target in ("openai", "mistral"):
        return str(out["function"]["name"])
    if target == "bedrock":
        return str(out["toolSpec"]["name"])
    return str(out["name"])


def schema_of(target: str, out: dict[str, Any]) -> Any:
    return {
        "openai": lambda: out["function"]["parameters"], "mistral": lambda: out["function"]["parameters"],
        "openai-responses": lambda: out["parameters"], "anthropic": lambda: out["input_schema"],
        "gemini": lambda: out.get("parameters"), "gemini-json": lambda: out["parametersJsonSchema"],
        "mcp": lambda: out["inputSchema"], "bedrock": lambda: out["toolSpec"]["inputSchema"]["json"],
    }[target]()


def subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    """Every schema object inside ``schema`` (properties, items, combinators, definitions)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield node
        for key in ("properties", "$defs", "definitions", "patternProperties"):
            if isinstance(node.get(key), dict):
                stack.extend(node[key].values())
        for key in ("items", "additionalProperties", "not", "contains"):
            if isinstance(node.get(key), dict):
                stack.append(node[key])
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(node.get(key), list):
                stack.extend(node[key])


def check_documented_rules(target: str, strict: bool, out: dict[str, Any]) -> None:
    """Each target's documented rules, asserted directly (the SDK types are lenient on schemas)."""
    name_rule = load_profile(target)["name"]
    assert re.fullmatch(name_rule["pattern"], name_of(target, out))
    schema = schema_of(target, out)
    if schema is None:
        return
    nodes = list(subschemas(schema))
    for node in nodes:  # 2020-12 everywhere (Anthropic rejects draft-04 booleans, providers.md §2)
        assert not isinstance(node.get("exclusiveMinimum"), bool) and not isinstance(node.get("exclusiveMaximum"), bool)
        assert not isinstance(node.get("items"), list), node
        assert all(t in _JSON_TYPES for t in _types(node)), node
    if target in ("openai", "openai-responses"):  # providers.md §1.2: longer descriptions are refused
        desc = out["function"].get("description") if target == "openai" else out.get("description")
        assert desc is None or len(desc) <= 1024
        assert schema.get("type") == "object" and "$ref" not in schema
        for node in nodes:  # providers.md §1.3: "array schema missing items"; every $ref resolves
            if "array" in _types(node):
                assert "items" in node or "prefixItems" in node, node
            if isinstance(node.get("$ref"), str):
                assert _resolves(schema, node["$ref"]), node["$ref"]
    if target == "gemini":
        for node in nodes:
            # providers.md §3.3: "When using any_of, it must be the only field set"; "properties should be
            # non-empty for OBJECT type"; a type on every node; every required name among the properties.
            if "anyOf" in node:
                assert set(node) == {"anyOf"}, node
            else:
                assert "type" in node, node
            assert node.get("properties") != {}, node
            assert set(node.get("required", [])) <= set(node.get("properties", {})), node
            assert not any(k.startswith("$") for k in node), node
            for key in ("additionalProperties", "const", "oneOf", "allOf", "exclusiveMinimum", "multipleOf"):
                assert key not in node, (key, node)
            assert not isinstance(node.get("type"), list)
            if "enum" in node:
                assert all(isinstance(v, str) for v in node["enum"])
    if target in ("openai", "openai-responses") and strict:
        for node in nodes:
            # providers.md §1.3: strict needs a type on every schema (`anyOf` branches included)
            assert any(k in node for k in ("type", "anyOf", "$ref")), node
            if node.get("type") == "object" or "properties" in node:
                assert node.get("additionalProperties") is False, node
                assert sorted(node.get("required", [])) == sorted(node["properties"]), node
            for key in ("oneOf", "allOf", "default", "minLength", "maxLength", "uniqueItems"):
                assert key not in node, (key, node)


_JSON_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null",
               "STRING", "NUMBER", "INTEGER", "BOOLEAN", "OBJECT", "ARRAY", "NULL"}


def _types(node: dict[str, Any]) -> list[str]:
    t = node.get("type")
    return [t] if isinstance(t, str) else list(t) if isinstance(t, list) else []


def _resolves(root: Any, ref: str) -> bool:
    if not ref.startswith("#"):
        return False
    node = root
    for part in [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/")[1:]]:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True
