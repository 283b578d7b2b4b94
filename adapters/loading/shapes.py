"""Where each input shape keeps a tool's fields, and how to recognise a shape.

Field locations are JSON pointers relative to the tool object. Detection looks only at the keys a
shape owns; when two shapes fit (an OpenAI Chat tool is also a Mistral tool, a Gemini declaration
with lower-case types is also a canonical tool), the first in ``detect_shape``'s order wins, and
``--from`` overrides it.
"""

from __future__ import annotations

from typing import Any

from ..schema_keywords import DRAFT7_ONE_SCHEMA, DRAFT7_SCHEMA_MAP, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP

#: shape → canonical field → pointer relative to the tool object.
FIELDS: dict[str, dict[str, str]] = {
    "canonical": {"name": "/name", "description": "/description", "parameters": "/parameters",
                  "returns": "/returns", "title": "/title"},
    "legacy": {"name": "/name", "description": "/description", "parameters": "/parameters",
               "returns": "/returns", "title": "/title"},
    "openai": {"name": "/function/name", "description": "/function/description",
               "parameters": "/function/parameters", "strict": "/function/strict"},
    "mistral": {"name": "/function/name", "description": "/function/description",
                "parameters": "/function/parameters", "strict": "/function/strict"},
    "openai-responses": {"name": "/name", "description": "/description", "parameters": "/parameters",
                         "strict": "/strict", "returns": "/output_schema"},
    "anthropic": {"name": "/name", "description": "/description", "parameters": "/input_schema",
                  "strict": "/strict"},
    "gemini": {"name": "/name", "description": "/description", "parameters": "/parameters",
               "returns": "/response"},
    "gemini-json": {"name": "/name", "description": "/description", "parameters": "/parametersJsonSchema",
                    "returns": "/responseJsonSchema"},
    "mcp": {"name": "/name", "description": "/description", "parameters": "/inputSchema",
            "returns": "/outputSchema", "title": "/title"},
    "bedrock": {"name": "/toolSpec/name", "description": "/toolSpec/description",
                "parameters": "/toolSpec/inputSchema/json", "strict": "/toolSpec/strict"},
}

_GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL", "TYPE_UNSPECIFIED"}


def is_name_only(obj: Any) -> bool:
    """A declaration of a name and nothing else: valid for Gemini (a FunctionDeclaration needs only a name) and
    for every target as a tool without arguments, so read as canonical where a tool is expected (``load_tools``,
    the token estimates). Not detected as a tool on its own: any JSON object may have just a name."""
    return isinstance(obj, dict) and len(obj) == 1 and isinstance(obj.get("name"), str) and bool(obj["name"])


def detect_shape(obj: Any) -> str | None:
    """The shape of one tool object, or None when it is not recognisably a tool."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("toolSpec"), dict):
        return "bedrock"
    if obj.get("type") == "function" and isinstance(obj.get("function"), dict):
        return "openai"
    if obj.get("type") == "function" and "name" in obj:
        return "openai-responses"
    if "input_schema" in obj:
        return "anthropic"
    if "inputSchema" in obj or "outputSchema" in obj:
        return "mcp"
    if any(k in obj for k in ("parametersJsonSchema", "responseJsonSchema", "parameters_json_schema",
                              "response_json_schema")):
        return "gemini-json"
    params = obj.get("parameters")
    if isinstance(params, dict):
        if _is_legacy_map(params):
            return "legacy"
        if _has_gemini_types(params, 0):
            return "gemini"
    if "name" in obj and ("parameters" in obj or "description" in obj or "returns" in obj):
        return "canonical"
    if isinstance(obj.get("name"), str) and "behavior" in obj:
        # A Gemini FunctionDeclaration needs only a name (`parameters` and `description` are optional);
        # `behavior` is Gemini's own field, so the name alone is enough here.
        return "gemini"
    return None


#: JSON Schema keywords whose value is a schema or a map of schemas: a key among them in `parameters` is
#: that keyword, never a parameter of a legacy map (`{"additionalProperties": {"type": "string"}}`).
_SCHEMA_VALUED = frozenset((*ONE_SCHEMA, *SCHEMA_MAP, *SCHEMA_LIST, *DRAFT7_ONE_SCHEMA, *DRAFT7_SCHEMA_MAP))


def _is_legacy_map(params: dict[str, Any]) -> bool:
    """Seeds 001/002: ``{"p": {"type": ..., "required": true}}`` instead of a JSON Schema object."""
    if not params or "type" in params or "properties" in params or any(k.startswith("$") for k in params):
        return False
    if any(k in _SCHEMA_VALUED and not isinstance(v.get("required") if isinstance(v, dict) else None, bool)
           for k, v in params.items()):
        return False  # a keyword, unless its value carries the map's own `required: true|false`
    return all(isinstance(v, dict) and ("type" in v or "required" in v) for v in params.values())


def _has_gemini_types(schema: Any, depth: int) -> bool:
    """Upper-case OpenAPI types (``"OBJECT"``) or ``nullable`` mark Gemini's ``parameters`` subset."""
    if depth > 50 or not isinstance(schema, dict):
        return False
    t = schema.get("type")
    if (isinstance(t, str) and t in _GEMINI_TYPES) or "nullable" in schema:
        return True
    props = schema.get("properties")
    if isinstance(props, dict):
        return any(_has_gemini_types(v, depth + 1) for v in list(props.values())[:200])
    return _has_gemini_types(schema.get("items"), depth + 1)
