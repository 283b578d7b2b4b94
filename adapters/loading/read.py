"""Reading tools: find tool objects in a file, and turn each shape into a ``CanonicalTool``."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .. import pointer as jp
from ..canonical import ANTHROPIC_ONLY, CANONICAL_KEYS, EMPTY_PARAMETERS, EXTENSION_KEY, UNKNOWN_KEY, CanonicalTool
from ..errors import ConversionError
from ..jsonvalue import copy_json
from ..targets import SHAPES
from .gemini_schema import from_gemini_schema
from .shapes import FIELDS, detect_shape, is_name_only

MAX_TOOLS = 100_000


@dataclass(frozen=True)
class ToolObject:
    """A tool object found in a document: where it is, what shape it has, where its fields are."""

    index: int
    pointer: str
    value: Any
    shape: str | None

    @cached_property
    def field_pointers(self) -> dict[str, str]:
        """Where the tool's fields are in the document (built on first use: the checks of an
        unchanged tool never ask)."""
        fields = FIELDS.get(self.shape or "canonical", FIELDS["canonical"])
        return {k: self.pointer + v for k, v in fields.items()}


@dataclass(frozen=True)
class LoadedTool:
    tool: CanonicalTool
    index: int
    shape: str
    pointer: str
    field_pointers: dict[str, str] = field(default_factory=dict)

    def doc_pointer(self, canonical_pointer: str) -> str:
        """The document pointer a pointer into the canonical tool's dict form came from."""
        if self.shape == "legacy":
            params = self.field_pointers["parameters"]
            if jp.is_prefix("/parameters/properties", canonical_pointer):
                rest = canonical_pointer[len("/parameters/properties"):]
                return params + rest
            if jp.is_prefix("/parameters", canonical_pointer):
                return params
        best = ""
        for name in self.field_pointers:
            prefix = "/" + name
            if jp.is_prefix(prefix, canonical_pointer) and len(prefix) > len(best):
                best = prefix
        if best:
            return self.field_pointers[best[1:]] + canonical_pointer[len(best):]
        return self.pointer


#: Where a Gemini tool lists its declarations: the REST API's JSON name and the Python SDK's (also accepted in
#: request bodies).
DECLARATION_KEYS = ("functionDeclarations", "function_declarations")


def _declarations_key(item: Any) -> str | None:
    if isinstance(item, dict):
        return next((k for k in DECLARATION_KEYS if isinstance(item.get(k), list)), None)
    return None


def _containers(value: Any) -> list[tuple[str, Any, str | None]]:
    """(pointer, candidate, shape hint) for every place a tool object can stand in a file; inside
    ``functionDeclarations`` (or ``function_declarations``) a bare ``{"name": ...}`` is a Gemini declaration."""
    out: list[tuple[str, Any, str | None]] = []

    def items(base: str, seq: list[Any]) -> None:
        for i, item in enumerate(seq[:MAX_TOOLS]):
            ptr = f"{base}/{i}"
            key = _declarations_key(item)
            if key is not None:
                out.extend((f"{ptr}/{key}/{j}", d, "gemini") for j, d in enumerate(item[key][:MAX_TOOLS]))
            else:
                out.append((ptr, item, None))

    if isinstance(value, list):
        items("", value)
    elif isinstance(value, dict):
        key = _declarations_key(value)
        if isinstance(value.get("tools"), list):
            items("/tools", value["tools"])
        elif key is not None:
            out.extend((f"/{key}/{j}", d, "gemini") for j, d in enumerate(value[key][:MAX_TOOLS]))
        elif isinstance(value.get("toolConfig"), dict) and isinstance(value["toolConfig"].get("tools"), list):
            items("/toolConfig/tools", value["toolConfig"]["tools"])
        else:
            out.append(("", value, None))
    return out


def iter_tool_objects(value: Any, detect: Callable[[Any], str | None] = detect_shape) -> list[ToolObject]:
    """Every tool object in a parsed file, recognised or not. Never raises. ``detect`` may be a
    memoised ``detect_shape`` (the checks keep one across edits of the same document)."""
    found = []
    for index, (ptr, obj, hint) in enumerate(_containers(value)):
        shape = detect(obj)
        if hint == "gemini" and shape in (None, "canonical") and isinstance(obj, dict) and "name" in obj:
            shape = "gemini"
        found.append(ToolObject(index, ptr, obj, shape))
    return found


def load_tools(value: Any, shape: str | None = None) -> list[LoadedTool]:
    """Canonical tools from a parsed file. ``shape`` forces the input shape (``--from``)."""
    if shape is not None and shape not in SHAPES:
        raise ConversionError(shape, "to_canonical", f"unknown shape; expected one of: {', '.join(SHAPES)}")
    objects = iter_tool_objects(value)
    if not objects:
        raise ConversionError(shape or "auto", "to_canonical",
                              'no tool found: expected a tool object, a list of tools or {"tools": [...]}')
    loaded = []
    for obj in objects:
        found = _gemini_field(obj.value, shape) if shape in _GEMINI else shape or obj.shape
        if found is None and is_name_only(obj.value):
            found = "canonical"
        if found is None:
            raise ConversionError("auto", "to_canonical", _unrecognised(obj.value), obj.pointer)
        if shape is not None:
            _check_forced(obj, found)
        tool = _read(obj.value, found, obj.pointer)
        fields = FIELDS[found]
        loaded.append(LoadedTool(tool, obj.index, found, obj.pointer, {k: obj.pointer + v for k, v in fields.items()}))
    return loaded


_GEMINI = ("gemini", "gemini-json")
_JSON_SCHEMA_FIELDS = ("parametersJsonSchema", "parameters_json_schema", "responseJsonSchema", "response_json_schema")


def _gemini_field(value: Any, shape: str) -> str:
    """``--from gemini`` names a FunctionDeclaration, which holds its schema in `parameters` (OpenAPI
    subset) or in `parametersJsonSchema` / `parameters_json_schema` (JSON Schema): read the field the
    declaration uses, whichever of the two was named."""
    if not isinstance(value, dict):
        return shape
    if "parameters" in value or "response" in value:
        return "gemini"
    return "gemini-json" if any(k in value for k in _JSON_SCHEMA_FIELDS) else shape


def _check_forced(obj: ToolObject, shape: str) -> None:
    """``--from SHAPE`` on a tool that has no parameters where SHAPE keeps them but has them where
    another shape does: read as SHAPE it would lose them silently, so say which shape it looks like."""
    value = obj.value
    if not isinstance(value, dict) or _get(value, FIELDS[shape]["parameters"]) is not None:
        return
    if shape == "gemini-json" and "parameters_json_schema" in value:
        return
    for other, fields in FIELDS.items():
        if other != shape and _get(value, fields["parameters"]) is not None:
            looks = obj.shape or other
            raise ConversionError(shape, "to_canonical",
                                  f"--from {shape}: the tool has no `{FIELDS[shape]['parameters'][1:]}` but has "
                                  f"`{fields['parameters'][1:]}`; it looks like a {looks} tool "
                                  f"(try --from {looks} or leave --from out)", obj.pointer)


def to_canonical(obj: Any, shape: str, roundtrip: dict[str, Any] | None = None) -> CanonicalTool:
    """Reverse conversion of one tool object. ``roundtrip`` (from a ``Conversion``) undoes lowering
    that the target's format cannot record itself: sanitised names, OpenAI-strict nullability."""
    if shape not in SHAPES:
        raise ConversionError(shape, "to_canonical", f"unknown shape; expected one of: {', '.join(SHAPES)}")
    tool = _read(obj, shape, "")
    if roundtrip:
        tool = apply_roundtrip(tool, roundtrip)
    return tool


def apply_roundtrip(tool: CanonicalTool, roundtrip: dict[str, Any]) -> CanonicalTool:
    """Undo what a conversion recorded. Applying a record means the tool is toolcast's own export, so
    keywords folded into descriptions are read back too."""
    doc = tool.to_dict()
    _unfold_all(doc.get("parameters"), 0)
    for ptr in sorted(roundtrip.get("nullable") or [], key=len, reverse=True):
        _un_nullable(doc, ptr)
    for ptr in sorted(roundtrip.get("optional") or [], key=len, reverse=True):
        _un_require(doc, ptr)
    for ptr in sorted(roundtrip.get("added") or [], key=len, reverse=True):
        parts = jp.parts(ptr)
        parent = jp.resolve(doc, jp.from_parts(parts[:-1]), None) if parts else None
        if isinstance(parent, dict):
            parent.pop(parts[-1], None)
    changes: dict[str, Any] = {"parameters": doc["parameters"]}
    if isinstance(roundtrip.get("name"), str):
        changes["name"] = roundtrip["name"]
    return tool.replace(**changes)


_FOLD_MARK = "(constraints: "


def _unfold_all(node: Any, depth: int) -> None:
    """Every schema in a toolcast export whose description ends with the walker's folded keywords
    (``(constraints: {...})``, a documented machine-readable suffix) gets them back."""
    if depth > 128:  # the walker's own depth bound
        return
    if isinstance(node, dict):
        _unfold(node)
        for value in node.values():
            _unfold_all(value, depth + 1)
    elif isinstance(node, list):
        for value in node:
            _unfold_all(value, depth + 1)


def _unfold(schema: Any) -> None:
    """Put keywords folded into this schema's description back."""
    description = schema.get("description") if isinstance(schema, dict) else None
    if not isinstance(schema, dict) or not isinstance(description, str) or not description.endswith(")"):
        return
    at = description.rfind(_FOLD_MARK)
    try:
        keywords = json.loads(description[at + len(_FOLD_MARK):-1]) if at >= 0 else None
    except json.JSONDecodeError:
        return
    if not isinstance(keywords, dict):
        return
    for key, value in keywords.items():
        schema.setdefault(key, value)
    base = description[:at].rstrip()
    if base:
        schema["description"] = base
    else:
        del schema["description"]


def _un_require(doc: dict[str, Any], ptr: str) -> None:
    """Make the property at ``ptr`` optional again (inverse of strict lowering)."""
    parts = jp.parts(ptr)
    if len(parts) < 2 or parts[-2] != "properties":
        return
    parent = jp.resolve(doc, jp.from_parts(parts[:-2]), None)
    if not isinstance(parent, dict):
        return
    req = parent.get("required")
    if isinstance(req, list) and parts[-1] in req:
        req.remove(parts[-1])
        if not req:
            del parent["required"]


def _un_nullable(doc: dict[str, Any], ptr: str) -> None:
    """Take out the null that strict lowering added to the property at ``ptr``."""
    schema = jp.resolve(doc, ptr, None)
    if not isinstance(schema, dict):
        return
    t = schema.get("type")
    if isinstance(t, list) and "null" in t:
        rest = [x for x in t if x != "null"]
        schema["type"] = rest[0] if len(rest) == 1 else rest
    elif isinstance(schema.get("anyOf"), list):
        branches = [b for b in schema["anyOf"] if b != {"type": "null"}]
        if len(branches) == 1 and set(schema) == {"anyOf"}:
            schema.clear()
            schema.update(branches[0])
        else:
            schema["anyOf"] = branches


def _unrecognised(obj: Any) -> str:
    if not isinstance(obj, dict):
        return f"expected a tool object, found {type(obj).__name__}"
    keys = ", ".join(sorted(map(str, obj))[:8]) or "none"
    return ("not a recognised tool shape (keys: " + keys + "); expected `name` with `parameters` "
            "(canonical), `function` (OpenAI Chat), `input_schema` (Anthropic), `inputSchema` (MCP), "
            "`parametersJsonSchema` (Gemini) or `toolSpec` (Bedrock)")


def _get(obj: dict[str, Any], rel: str | None) -> Any:
    return None if rel is None else jp.resolve(obj, rel, None)


def _read(obj: Any, shape: str, where: str) -> CanonicalTool:
    _check_envelope(obj, shape, where)
    fields = FIELDS[shape]
    name = _get(obj, fields["name"])
    if not isinstance(name, str) or not name:
        raise ConversionError(shape, "to_canonical", "the tool has no `name` string", where + fields["name"])
    description = _get(obj, fields["description"])
    if description is not None and not isinstance(description, str):
        raise ConversionError(shape, "to_canonical", "`description` must be a string", where + fields["description"])
    params, returns = _schemas(obj, shape, where)
    values: dict[str, Any] = {"name": name, "description": description, "parameters": params,
                              "returns": returns, "source_format": shape}
    title = _get(obj, fields.get("title"))
    if isinstance(title, str):
        values["title"] = title
    overrides: dict[str, dict[str, Any]] = {}
    strict = _get(obj, fields.get("strict"))
    if isinstance(strict, bool):
        overrides[shape] = {"strict": strict}
    meta: dict[str, Any] = {}
    _shape_fields(obj, shape, where, values, overrides, meta)
    unknown = _unknown_fields(obj, shape)
    if unknown:
        meta[UNKNOWN_KEY] = unknown
    values["overrides"] = overrides
    values["source_meta"] = meta
    return CanonicalTool(**values)


def _check_envelope(obj: Any, shape: str, where: str) -> None:
    """Refuse a tool that is not an object, or lacks the wrapper its shape puts the function in."""
    if not isinstance(obj, dict):
        raise ConversionError(shape, "to_canonical", f"expected a tool object, found {type(obj).__name__}", where)
    if shape in ("openai", "mistral") and not isinstance(obj.get("function"), dict):
        raise ConversionError(shape, "to_canonical", "expected {\"type\": \"function\", \"function\": {...}}", where)
    if shape == "bedrock" and not isinstance(obj.get("toolSpec"), dict):
        raise ConversionError(shape, "to_canonical", 'expected {"toolSpec": {...}}', where)


def _schemas(obj: dict[str, Any], shape: str, where: str) -> tuple[dict[str, Any], Any]:
    """The tool's parameters (empty when it has none) and return schema, in canonical JSON Schema."""
    fields = FIELDS[shape]
    params = _get(obj, fields["parameters"])
    if params is None and shape == "gemini-json":
        params = obj.get("parameters_json_schema")  # the google-genai Python SDK's and pydantic-ai's spelling
    if params is None:
        params = copy_json(EMPTY_PARAMETERS)
    if not isinstance(params, dict):
        raise ConversionError(shape, "to_canonical", "parameters must be a JSON object",
                              where + fields["parameters"])
    returns = _get(obj, fields.get("returns"))
    if returns is None and shape == "gemini-json":
        returns = obj.get("response_json_schema")
    if shape == "legacy":
        params = _from_legacy(params)
    elif shape == "gemini":
        params = from_gemini_schema(params)
        if returns is not None:
            returns = from_gemini_schema(returns)
    return params, returns


def _shape_fields(obj: dict[str, Any], shape: str, where: str, values: dict[str, Any],
                  overrides: dict[str, dict[str, Any]], meta: dict[str, Any]) -> None:
    """Add what only ``shape`` carries: the canonical fields and extension, MCP annotations, Anthropic
    examples, Gemini's behavior; kept as values, per-target overrides or source metadata."""
    if shape in ("canonical", "legacy"):
        _canonical_fields(obj, values, where)
        ext = obj.get(EXTENSION_KEY)
        if isinstance(ext, dict):
            if isinstance(ext.get("targets"), dict):
                overrides.update({k: v for k, v in ext["targets"].items() if isinstance(v, dict)})
            src = ext.get("source")
            if isinstance(src, dict):
                if isinstance(src.get("format"), str):
                    values["source_format"] = src["format"]
                if isinstance(src.get("meta"), dict):
                    meta.update(src["meta"])
    elif shape == "mcp":
        if isinstance(obj.get("annotations"), dict):
            values["annotations"] = obj["annotations"]
        meta.update({k: obj[k] for k in ("_meta", "icons", "execution") if k in obj})
    elif shape == "anthropic":
        if isinstance(obj.get("input_examples"), list):
            values["examples"] = tuple(e for e in obj["input_examples"] if isinstance(e, dict))
        meta.update({k: obj[k] for k in ANTHROPIC_ONLY if k in obj})
    elif shape in ("gemini", "gemini-json") and "behavior" in obj:
        meta["behavior"] = obj["behavior"]


def _unknown_fields(obj: dict[str, Any], shape: str) -> dict[str, Any]:
    """Fields ``shape`` does not define (``x-`` extensions aside), at the top and in its function wrapper."""
    unknown = {k: obj[k] for k in obj if k not in _KNOWN_FIELDS[shape] and not k.startswith("x-")}
    if shape in ("openai", "mistral"):
        fn = obj["function"]
        unknown.update({k: fn[k] for k in fn if k not in ("name", "description", "parameters", "strict")})
    elif shape == "bedrock":
        spec = obj["toolSpec"]
        unknown.update({k: spec[k] for k in spec if k not in ("name", "description", "inputSchema", "strict")})
    return unknown


#: Top-level fields each shape defines; any other is kept under ``source_meta["unknown"]`` and reported.
_KNOWN_FIELDS: dict[str, frozenset[str]] = {
    "canonical": frozenset(CANONICAL_KEYS), "legacy": frozenset(CANONICAL_KEYS),
    "openai": frozenset({"type", "function"}), "mistral": frozenset({"type", "function"}),
    "openai-responses": frozenset({"type", "name", "description", "parameters", "strict", "output_schema"}),
    "anthropic": frozenset({"name", "description", "input_schema", "strict", "input_examples", *ANTHROPIC_ONLY}),
    "gemini": frozenset({"name", "description", "parameters", "response", "behavior"}),
    "gemini-json": frozenset({"name", "description", "parametersJsonSchema", "responseJsonSchema", "behavior",
                              "parameters_json_schema", "response_json_schema"}),
    "mcp": frozenset({"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta",
                      "icons", "execution"}),
    "bedrock": frozenset({"toolSpec"}),
}


def _canonical_fields(obj: dict[str, Any], values: dict[str, Any], where: str) -> None:
    for key in ("namespace", "version", "category"):
        if isinstance(obj.get(key), str):
            values[key] = obj[key]
    for key in ("tags", "required_scopes"):
        if isinstance(obj.get(key), list):
            values[key] = tuple(str(x) for x in obj[key] if isinstance(x, str))
    timeout = obj.get("timeout")
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
        values["timeout"] = float(timeout)
    if isinstance(obj.get("annotations"), dict):
        values["annotations"] = obj["annotations"]
    if isinstance(obj.get("examples"), list):
        values["examples"] = tuple(e for e in obj["examples"] if isinstance(e, dict))


def _from_legacy(params: dict[str, Any]) -> dict[str, Any]:
    """Seeds 001/002's per-parameter map → a JSON Schema object with a ``required`` array."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for key, spec in params.items():
        if not isinstance(spec, dict):
            properties[key] = {}
            continue
        prop = {k: copy_json(v) for k, v in spec.items() if k != "required"}
        if spec.get("required") is True:
            required.append(key)
        properties[key] = prop
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    return out
