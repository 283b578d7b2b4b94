"""What a provider accepts: every output toolcast writes is judged here before it is written.

The rules are written from the providers' documentation and observed API errors (the citations are the
sections of ``docs/providers.md``, which names each source), not read from the
capability profiles: a profile that is wrong makes the walker emit something these rules refuse, and the
conversion is refused instead of sent. ``convert`` runs them on every output (``first_violation`` on the
envelope it built, or the schema rules on a lowered schema and the envelope rules on the tool fields); a
violation becomes a ``rejected`` loss naming the rule and the place, so the checks, which report
``convert``'s losses, give the same verdict.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote

from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import best_match

from .. import pointer as jp
from ..losses import Action, Effect, Loss
from ..provider_limits import StrictRequestLimits, StrictSchemaLimits
from ..schema_keywords import DRAFT7_ONE_SCHEMA, DRAFT7_SCHEMA_LIST, JSON_TYPES, ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP

#: Rule ids, each with where the rule is written down (providers.md sections and public reports).
RULES: MappingProxyType[str, str] = MappingProxyType({
    "name": "§1.2, §2.2, §3.2, §4, §5.2, §6.1 (name pattern and length)",
    "description-length": "§1.2 (OpenAI: 'string too long … maximum length 1024')",
    "description-empty": "§6.1 (Bedrock ToolSpecification.description: min length 1)",
    "tools-count": "OpenAI Chat Completions: 'array too long. Expected an array with maximum length 128' "
                   "(zed-industries/zed#32946, anomalyco/opencode#4909)",
    "strict-tools": "§2.4 (Anthropic strict tool use: at most 20 strict tools per request)",
    "root-not-object": "§1.4, §1.5, §2.3, §3.2, §5.3, §6.1 (the root must be a `type: \"object\"` schema; "
                       "earendil-works/pi#8279 'inputSchema.json.type must be one of the following: object')",
    "root-composition": "§1.4 (OpenAI, strict or not: \"schema must have type 'object' and not have "
                        "'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level\", reported against OpenRouter and "
                        "OpenAI-compatible endpoints), §2.3 (Anthropic, and Bedrock's Claude models: "
                        "'input_schema does not support oneOf, allOf, or anyOf at the top level')",
    "root-ref": "§1.4 (OpenAI strict: the root must be an object, not a reference)",
    "schema-invalid": "§1.5, §2.3, §4, §5.3 (valid against the JSON Schema meta-schema: 2020-12, Mistral draft-07; "
                      "prism-php/prism#746 \"[] is not of type 'object'\")",
    "ref-unresolved": "§5.3 (no network `$ref`; an unresolved reference is rejected), §1.4 (local definitions only)",
    "array-items": "§1.5 (OpenAI, strict or not: 'array schema missing items'), §3.3 (Gemini: 'items: missing field')",
    "object-properties": "§1.6 (OpenAI: 'object schema missing properties', spring-projects/spring-ai#4776), "
                         "§3.3 (Gemini: 'properties: should be non-empty for OBJECT type')",
    "strict-closed": "§1.4 (OpenAI strict: '`additionalProperties: false` must always be set'), §2.4 and §6.1 "
                     "(Anthropic and Bedrock strict: `additionalProperties` other than false is not supported)",
    "strict-required": "§1.6 (OpenAI strict: \"'required' is required to be supplied and to be an array including "
                       "every key in properties\")",
    "strict-keyword": "§1.4 (OpenAI strict: \"'default' is not permitted\", composition and the keywords outside "
                      "the supported subset), §2.4 (Anthropic strict: string, numeric and array constraints)",
    "strict-limits": "§1.4 (OpenAI strict: at most 5,000 object properties, 10 levels of nesting, 1,000 enum values, "
                     "120,000 characters of names and values, 15,000 for one enum of more than 250 values)",
    "ref-siblings": "§1.4 (OpenAI strict: '$ref cannot have keywords'), §3.4 (Gemini JSON Schema: only "
                    "`description` and `default` beside `$ref`)",
    "duplicate-names": "Gemini: 'Duplicate function declaration found' (public issue reports), §2.2 (Anthropic: "
                       "'tools: Tool names must be unique.')",
    "strict-optional": "§2.4 (Anthropic strict tool use: at most 24 optional parameters across a request's strict "
                       "tools)",
    "strict-unions": "§2.4 (Anthropic strict tool use: at most 16 union-typed parameters across a request's strict "
                     "tools)",
    "declarations": "§3.1 (Gemini: 'Maximum 512 function declarations can be provided')",
    "gemini-schema": "§3.3, §3.5 (Gemini `parameters`: the OpenAPI Schema fields only, one upper- or lower-case "
                     "type per node, `anyOf` alone, string enums without an empty one, no `$` keys)",
})


@dataclass(frozen=True)
class Violation:
    """The first rule an output breaks: ``field`` is the tool field (``name``, ``description``, ``parameters``,
    ``returns``) and ``pointer`` the place inside it ("" = the field itself)."""

    rule: str
    field: str
    pointer: str
    message: str

    def loss(self, target: str) -> Loss:
        """The refusal as a ``rejected`` loss at the canonical tool's field (what convert and the checks report)."""
        where = "/" + self.field + self.pointer
        return Loss(target, where, self.rule, None, Action.REJECTED, Effect.UNSATISFIABLE,
                    f"{target} would reject this output (rule `{self.rule}` at {where}): {self.message}")


#: Makes a violation at a pointer of the schema being judged: (rule, pointer, message).
Bad = Callable[[str, str, str], Violation]

# ---------------------------------------------------------------------------------------------- envelope

#: Names (providers.md §1.2 OpenAI and Mistral, §2.2 Anthropic 128, §3.2 Gemini: letter or underscore first,
#: dots, colons and dashes, 128; §5.2 MCP SEP-986; §6.1 Bedrock 1–64).
_NAMES: MappingProxyType[str, tuple[str, int]] = MappingProxyType({
    "openai": ("[a-zA-Z0-9_-]+", 64), "openai-responses": ("[a-zA-Z0-9_-]+", 64),
    "anthropic": ("[a-zA-Z0-9_-]+", 128), "gemini": ("[A-Za-z_][A-Za-z0-9_.:-]*", 128),
    "gemini-json": ("[A-Za-z_][A-Za-z0-9_.:-]*", 128), "mistral": ("[a-zA-Z0-9_-]+", 64),
    "mcp": ("[A-Za-z0-9._-]+", 128), "bedrock": ("[a-zA-Z0-9_-]+", 64),
})
#: Where each target keeps a tool's fields in its envelope (path of keys).
_FIELDS: MappingProxyType[str, dict[str, tuple[str, ...]]] = MappingProxyType({
    "openai": {"name": ("function", "name"), "description": ("function", "description"),
               "parameters": ("function", "parameters"), "strict": ("function", "strict")},
    "openai-responses": {"name": ("name",), "description": ("description",), "parameters": ("parameters",),
                         "returns": ("output_schema",), "strict": ("strict",)},
    "anthropic": {"name": ("name",), "description": ("description",), "parameters": ("input_schema",),
                  "strict": ("strict",)},
    "gemini": {"name": ("name",), "description": ("description",), "parameters": ("parameters",),
               "returns": ("response",)},
    "gemini-json": {"name": ("name",), "description": ("description",), "parameters": ("parametersJsonSchema",),
                    "returns": ("responseJsonSchema",)},
    "mistral": {"name": ("function", "name"), "description": ("function", "description"),
                "parameters": ("function", "parameters"), "strict": ("function", "strict")},
    "mcp": {"name": ("name",), "description": ("description",), "parameters": ("inputSchema",),
            "returns": ("outputSchema",)},
    "bedrock": {"name": ("toolSpec", "name"), "description": ("toolSpec", "description"),
                "parameters": ("toolSpec", "inputSchema", "json"), "strict": ("toolSpec", "strict")},
})
_ABSENT = object()
#: OpenAI (both APIs): "string too long … maximum length 1024" on a tool description (§1.2, observed).
OPENAI_DESCRIPTION_MAX = 1024


def field_of(target: str, output: Any, field: str) -> Any:
    """The value of a tool field in ``target``'s envelope, or ``_ABSENT``."""
    node = output
    for key in _FIELDS[target].get(field, ()):
        if not isinstance(node, dict) or key not in node:
            return _ABSENT
        node = node[key]
    return node if field in _FIELDS[target] else _ABSENT


def envelope_violation(target: str, name: Any, description: Any) -> Violation | None:
    """The tool fields that are not schemas: the name and the description."""
    pattern, longest = _NAMES[target]
    if not isinstance(name, str) or not re.fullmatch(pattern, name) or len(name) > longest:
        return Violation("name", "name", "", f"name {name!r} does not match {pattern} (at most {longest} characters)")
    if target in ("openai", "openai-responses") and isinstance(description, str) \
            and len(description) > OPENAI_DESCRIPTION_MAX:
        return Violation("description-length", "description", "",
                         f"the description is {len(description):,} characters (at most {OPENAI_DESCRIPTION_MAX:,})")
    if target == "bedrock" and description is not None and description is not _ABSENT and description == "":
        return Violation("description-empty", "description", "", "an empty description (at least 1 character)")
    return None


def first_violation(target: str, output: Any, unjudged: frozenset[str] = frozenset()) -> Violation | None:
    """The first rule ``target`` would reject ``output`` (a tool in its envelope) by, or None; the schema
    fields named in ``unjudged`` are left out (``convert``: schemas a fast lowering did not walk)."""
    desc = field_of(target, output, "description")
    found = envelope_violation(target, field_of(target, output, "name"), None if desc is _ABSENT else desc)
    if found is not None:
        return found
    strict = field_of(target, output, "strict")
    # Responses normalises a tool without `strict` to strict mode (§1.3).
    is_strict = strict is True or (target == "openai-responses" and strict is _ABSENT)
    params = field_of(target, output, "parameters")
    if "parameters" in unjudged:
        found = None
    elif params is _ABSENT:
        if target in ("gemini", "gemini-json") or target in ("openai", "openai-responses"):
            found = None  # optional there: a function without arguments (§1.1, §3.2)
        else:
            found = Violation("root-not-object", "parameters", "", "the tool has no parameter schema")
    else:
        found = schema_violation(target, is_strict, params)
    if found is not None:
        return found
    returns = field_of(target, output, "returns")
    return None if returns is _ABSENT or "returns" in unjudged else returns_violation(target, returns)


# The judge's own copies of the profiles' limits (on purpose, see the module's text); each is held equal to
# ``profile(target).limits`` by tests/checks/test_provider_limits.py, so a difference is a decision, not drift.

#: Gemini's one `Tool` holds at most this many function declarations (§3.1, GEN-PY `class Tool`).
GEMINI_MAX_DECLARATIONS = 512


#: OpenAI Chat Completions: "Invalid 'tools': array too long. Expected an array with maximum length 128"
#: (code array_above_max_length; zed-industries/zed#32946, anomalyco/opencode#4909). Responses is reported
#: only from clients that may use either API (unclear), so it is a check there, not a refusal.
OPENAI_MAX_TOOLS = 128


#: Anthropic strict tool use: at most 20 strict tools in one request (§2.4), and across them at most 24 optional
#: and 16 union-typed parameters.
ANTHROPIC_STRICT_REQUEST = StrictRequestLimits(strict_tools=20, optional_parameters=24, union_parameters=16)


def parameter_counts(schema: Any) -> tuple[int, int]:
    """(optional, union-typed) properties of every object in ``schema``: what Anthropic strict counts."""
    optional = unions = 0
    for _, node in _nodes(schema):
        props = node.get("properties")
        if not isinstance(props, dict):
            continue
        listed = node.get("required")
        req: list[Any] = listed if isinstance(listed, list) else []
        optional += sum(1 for p in props if p not in req)
        unions += sum(1 for sub in props.values()
                      if isinstance(sub, dict) and ("anyOf" in sub or isinstance(sub.get("type"), list)))
    return optional, unions


#: Targets that reject a request whose tools share a name (as sent: after each target's name sanitising).
DUPLICATE_NAMES_REFUSED = frozenset({"gemini", "gemini-json", "anthropic"})


def list_violation(target: str, items: list[Any]) -> Violation | None:
    """A list of tools converted together (one request's tools, each in ``target``'s envelope): Gemini's
    declaration limit, OpenAI Chat's tool limit, Anthropic's limit on strict tools."""
    count = len(items)
    if target in DUPLICATE_NAMES_REFUSED:
        seen: set[str] = set()
        for item in items:
            name = field_of(target, item, "name")
            if isinstance(name, str) and name in seen:
                return Violation("duplicate-names", "tools", "", f"two tools are named `{name}` as sent to {target}, "
                                 "which rejects the request; rename one")
            if isinstance(name, str):
                seen.add(name)
    if target in ("gemini", "gemini-json") and count > GEMINI_MAX_DECLARATIONS:
        return Violation("declarations", "tools", "", f"{count} function declarations in one tool list "
                         f"(at most {GEMINI_MAX_DECLARATIONS})")
    if target == "openai" and count > OPENAI_MAX_TOOLS:
        return Violation("tools-count", "tools", "", f"{count} tools in one request (at most {OPENAI_MAX_TOOLS})")
    strict = sum(1 for item in items if isinstance(item, dict) and item.get("strict") is True)
    per_request = ANTHROPIC_STRICT_REQUEST
    if target == "anthropic" and strict > per_request.strict_tools:
        return Violation("strict-tools", "tools", "", f"{strict} strict tools in one request "
                         f"(at most {per_request.strict_tools})")
    if target == "anthropic" and strict:
        counts = [parameter_counts(item.get("input_schema")) for item in items
                  if isinstance(item, dict) and item.get("strict") is True]
        for rule, index, limit, what in (("strict-optional", 0, per_request.optional_parameters, "optional"),
                                         ("strict-unions", 1, per_request.union_parameters, "union-typed")):
            total = sum(c[index] for c in counts)
            if total > limit:
                return Violation(rule, "tools", "", f"{total} {what} parameters across the strict tools of one "
                                 f"request (at most {limit})")
    return None


# ------------------------------------------------------------------------------------------------ schemas

#: OpenAI strict (§1.4 table): keywords outside the supported subset, "not permitted".
_OPENAI_STRICT_UNSUPPORTED = frozenset({
    "oneOf", "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "default",
    "patternProperties", "propertyNames", "minProperties", "maxProperties", "unevaluatedProperties",
    "unevaluatedItems", "prefixItems", "contains", "minContains", "maxContains", "uniqueItems", "minLength",
    "maxLength", "propertyOrdering", "example", "examples",
})
#: §1.4 `format` in OpenAI strict; §2.4 in Anthropic strict (with `uri`).
_STRICT_FORMATS = MappingProxyType({
    "openai": frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}),
    "anthropic": frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6",
                            "uuid"}),
})
#: Anthropic strict (§2.4): "Numerical constraints", "String constraints", array constraints beyond minItems 0/1.
_ANTHROPIC_STRICT_UNSUPPORTED = frozenset({
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
    "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
})
#: Gemini `Schema` fields (§3.3, GEN-PY `class Schema`; `extra='forbid'`, §3.5).
_GEMINI_FIELDS = frozenset({
    "anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength",
    "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern",
    "properties", "propertyOrdering", "required", "title", "type",
})
_COMPOSITION = ("anyOf", "oneOf", "allOf")
_OPENAI_ROOT_REFUSED = (*_COMPOSITION, "enum", "not")


def _family(target: str) -> str:
    return {"openai-responses": "openai", "bedrock": "anthropic"}.get(target, target)


def schema_violation(target: str, strict: bool, schema: Any) -> Violation | None:
    """The first rule ``target`` (in strict mode or not) would reject ``schema``, its parameter schema, by."""
    def bad(rule: str, pointer: str, message: str) -> Violation:
        return Violation(rule, "parameters", pointer, message)

    problem = root_problem(schema, allow_null=target in NULLABLE_ROOT_TARGETS)
    if problem is not None:
        return bad("root-not-object", "", problem)
    family = _family(target)
    if target == "gemini":
        return _gemini(schema, bad)
    if "$ref" in schema and family == "openai" and strict:
        return bad("root-ref", "/$ref", "the root is a `$ref`")
    # OpenAI refuses these at the root in both modes ("schema must have type 'object' and not have
    # 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"); Anthropic the compositions.
    composed = [k for k in (_OPENAI_ROOT_REFUSED if family == "openai" else _COMPOSITION) if k in schema]
    if composed and family in ("anthropic", "openai"):
        return bad("root-composition", "/" + composed[0], f"`{composed[0]}` at the root of the parameters")
    found = _json_schema(target, family, strict, schema, bad)
    if found is None and family == "openai" and strict:
        found = _limits(schema, bad)
    if found is not None:
        return found
    if family == "openai" and not isinstance(schema.get("properties"), dict):
        return bad("object-properties", "", "the root object has no `properties`")
    return None


def returns_violation(target: str, schema: Any) -> Violation | None:
    """A return-value schema: valid JSON Schema whose references resolve (Gemini `response`: its Schema rules)."""
    def bad(rule: str, pointer: str, message: str) -> Violation:
        return Violation(rule, "returns", pointer, message)

    if target == "gemini":
        return _gemini(schema, bad) if isinstance(schema, dict) else bad(
            "gemini-schema", "", "the response schema is not an object")
    nodes = _listed(schema)
    return _meta(target, schema, nodes, bad) or _refs(schema, nodes, bad)


#: Targets whose parameter schema may be a nullable object (Gemini's two fields).
NULLABLE_ROOT_TARGETS = frozenset({"gemini", "gemini-json"})


def root_problem(schema: Any, *, allow_null: bool = False) -> str | None:
    """Why ``schema`` is not a parameter schema every target can take as its root (an object: `type: "object"`,
    not nullable unless ``allow_null``), or None. The check of the source (TC107) and the acceptor share it."""
    if not isinstance(schema, dict):
        return f"the parameters must be an object schema, not {_kind(schema)}"
    t = schema.get("type", _ABSENT)
    if t is _ABSENT:
        return 'the parameters have no `"type": "object"`'
    if isinstance(t, str) and t.lower() == "object":
        return None
    if isinstance(t, list) and allow_null and {x.lower() for x in t if isinstance(x, str)} == {"object", "null"}:
        return None
    if isinstance(t, list) and "object" in t:
        return f'the parameters\' `type` is {_text(t)}; the root must be a non-nullable `"type": "object"`'
    return f'the parameters\' `type` is {_text(t)}, not "object": tool arguments are always a JSON object'


def _json_schema(target: str, family: str, strict: bool, schema: dict[str, Any], bad: Bad) -> Violation | None:
    nodes = _listed(schema)  # one walk of the output for every rule below
    found: Violation | None = _meta(target, schema, nodes, bad) or _refs(schema, nodes, bad)
    if found is not None:
        return found
    for path, node in nodes:
        types = _types(node)
        if family == "openai" and "array" in types and "items" not in node \
                and "prefixItems" not in node:
            return bad("array-items", _at(path), "an array without `items`")
        if family == "gemini-json" and "$ref" in node and set(node) - {"$ref", "description", "default"} - {
                k for k in node if k.startswith("$")}:
            return bad("ref-siblings", _at(path), f"`$ref` beside {sorted(set(node) - {'$ref'})}")
        if not strict:
            continue
        is_object = "object" in types or "properties" in node
        extra = node.get("additionalProperties", _ABSENT)
        if family == "openai":
            if is_object and extra is not False:
                return bad("strict-closed", _at(path), "an object without `additionalProperties: false`")
            if is_object:
                props = node.get("properties")
                if not isinstance(props, dict):
                    return bad("object-properties", _at(path), "an object without `properties`")
                req = node.get("required", [])
                if not isinstance(req, list) or sorted(map(str, req)) != sorted(props):
                    return bad("strict-required", _at(path), "`required` does not list every property")
            if "$ref" in node and len(node) > 1:
                return bad("ref-siblings", _at(path), f"`$ref` beside {sorted(k for k in node if k != '$ref')}")
            if not ({"type", "anyOf", "$ref", "enum", "const"} & set(node)):
                return bad("strict-keyword", _at(path), "a schema without `type`")
            unsupported = _OPENAI_STRICT_UNSUPPORTED
        elif family == "anthropic":
            if extra is not _ABSENT and extra is not False:
                return bad("strict-closed", _at(path), "`additionalProperties` other than false")
            unsupported = _ANTHROPIC_STRICT_UNSUPPORTED
        else:
            continue
        for key in node:
            if key in unsupported:
                return bad("strict-keyword", _at(path, key), f"`{key}` in strict mode")
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in _STRICT_FORMATS[family]:
            return bad("strict-keyword", _at(path, "format"), f"format `{fmt}` in strict mode")
    return None


def _meta(target: str, schema: Any, nodes: list[tuple[Path, dict[str, Any]]], bad: Bad) -> Violation | None:
    """The meta-schema: draft-07 for Mistral (mistral-common's Draft7Validator, §4), 2020-12 for the others."""
    draft7 = target == "mistral"
    error = _meta_error(draft7, schema, draft7 and any(isinstance(n.get("items"), list) for _, n in nodes))
    return None if error is None else bad("schema-invalid", error[0], f"not valid JSON Schema: {error[1]}")


def _listed(schema: Any) -> list[tuple[Path, dict[str, Any]]]:
    return list(_nodes(schema))


def _meta_error(draft7: bool, schema: Any, doubt: bool) -> tuple[str, str] | None:
    """The first meta-schema error (pointer, message), or None; ``doubt``: a 2020-12-valid schema that draft-07
    may still refuse (`items` as an array means something else there)."""
    return _judge_meta(draft7, schema, doubt)


def _judge_meta(draft7: bool, schema: Any, doubt: bool) -> tuple[str, str] | None:
    from ..schema.depth import MAX_VALIDATION_DEPTH, json_depth
    from ..schema.fast_meta import certainly_valid

    if certainly_valid(schema) and not doubt:
        return None
    if json_depth(schema, MAX_VALIDATION_DEPTH) > MAX_VALIDATION_DEPTH:
        return "", f"nested deeper than {MAX_VALIDATION_DEPTH} levels: toolcast cannot validate it"
    error = best_match(_validator(draft7).iter_errors(schema))
    if error is None:
        return None
    return jp.from_parts(list(error.absolute_path)), error.message[:200]


#: The meta-schema validators (built once, at import: jsonschema is loaded by the checks anyway).
_VALIDATORS = (Draft202012Validator(Draft202012Validator.META_SCHEMA), Draft7Validator(Draft7Validator.META_SCHEMA))


def _validator(draft7: bool) -> Any:
    return _VALIDATORS[1] if draft7 else _VALIDATORS[0]


def _refs(schema: dict[str, Any], nodes: list[tuple[Path, dict[str, Any]]], bad: Bad) -> Violation | None:
    refs = [(path, node["$ref"]) for path, node in nodes if "$ref" in node]
    if not refs:
        return None
    anchors = {n["$anchor"] for _, n in nodes if isinstance(n.get("$anchor"), str)}
    for path, ref in refs:
        if not isinstance(ref, str) or not ref.startswith("#"):
            return bad("ref-unresolved", _at(path, "$ref"), f"`$ref` {_text(ref)} is not a local reference")
        frag = ref[1:]
        target = jp.resolve(schema, _unquote(frag), _ABSENT) if frag == "" or frag.startswith("/") else (
            True if frag in anchors else _ABSENT)
        if target is _ABSENT or not isinstance(target, (dict, bool)):
            return bad("ref-unresolved", _at(path, "$ref"), f"`$ref` {ref} does not resolve inside the schema")
    return None


def _unquote(fragment: str) -> str:
    return unquote(fragment)


def _gemini(schema: dict[str, Any], bad: Bad) -> Violation | None:
    """Gemini `parameters` and `response` (an OpenAPI Schema, §3.3): each node an object of Schema fields with
    one type. The root may be an OBJECT without properties (a tool without parameters has none: the envelope
    leaves `parameters` out; a free-form `response` keeps it)."""
    stack: list[tuple[str, Any, bool]] = [("", schema, True)]
    while stack:
        ptr, node, is_root = stack.pop()
        if not isinstance(node, dict):
            return bad("gemini-schema", ptr, f"a schema must be an object, not {_kind(node)}")
        unknown = sorted(k for k in node if k not in _GEMINI_FIELDS)
        if unknown:
            return bad("gemini-schema", jp.join(ptr, unknown[0]), f"`{unknown[0]}` is not a Gemini Schema field")
        t = node.get("type")
        if "anyOf" in node:
            if set(node) - {"anyOf"}:
                return bad("gemini-schema", ptr, "`anyOf` beside other fields")
            branches = node["anyOf"]
            if not isinstance(branches, list) or not branches:
                return bad("gemini-schema", jp.join(ptr, "anyOf"), "`anyOf` must be a non-empty list")
            stack.extend((jp.join(ptr, "anyOf", i), b, False) for i, b in enumerate(branches))
            continue
        if not isinstance(t, str) or t.upper() not in {x.upper() for x in JSON_TYPES}:
            return bad("gemini-schema", jp.join(ptr, "type"), f"type {_text(t)} is not one Gemini type")
        kind = t.lower()
        enum = node.get("enum")
        if enum is not None and (kind != "string" or not isinstance(enum, list)
                                 or not all(isinstance(v, str) for v in enum)):
            return bad("gemini-schema", jp.join(ptr, "enum"), "`enum` only on STRING, of strings")
        if enum is not None and "" in enum:
            return bad("gemini-schema", jp.join(ptr, "enum", enum.index("")), "an empty string in `enum`")
        props = node.get("properties")
        if "properties" in node and not isinstance(props, dict):
            return bad("gemini-schema", jp.join(ptr, "properties"), "`properties` must be an object")
        if kind == "object" and not props and not is_root:
            return bad("object-properties", ptr, "an OBJECT without properties")
        if kind == "array" and not isinstance(node.get("items"), dict):
            return bad("array-items", ptr, "an ARRAY without `items`")
        req = node.get("required")
        if req is not None and (not isinstance(req, list)
                                or any(not isinstance(r, str) or r not in (props or {}) for r in req)):
            return bad("gemini-schema", jp.join(ptr, "required"), "`required` names a property that is not declared")
        for name, sub in (props or {}).items():
            stack.append((jp.join(ptr, "properties", name), sub, False))
        if "items" in node:
            stack.append((jp.join(ptr, "items"), node["items"], False))
    return None


# ------------------------------------------------------------------------------------ OpenAI strict sizes

#: OpenAI strict limits (§1.4 "Limits (strict)"): object properties, levels of object nesting, enum values,
#: total characters of property and definition names and enum and const values, and one string enum of more
#: than 250 values whose values exceed 15,000 characters.
OPENAI_STRICT_SCHEMA = StrictSchemaLimits(properties=5000, depth=10, enum_values=1000, total_string_length=120_000,
                                          large_enum_threshold=250, large_enum_length=15_000)


@dataclass(frozen=True)
class StrictSizes:
    """What OpenAI strict limits count in a schema (``depth``: levels of objects with properties, the root 1)."""

    properties: int
    depth: int
    enum_values: int
    string_size: int
    big_enum: str | None  # pointer of an enum over the large-enum limits


def strict_sizes(schema: Any) -> StrictSizes:
    """The counts of ``schema``: the source's checks (TC601–TC604) and the output's judge (`strict-limits`) both
    count with this. Raises ``checks.schema_walk.BudgetExceeded`` for a schema too large to walk."""
    from ..schema.subschemas import subschemas

    props = depth = enum_values = string_size = 0
    big_enum: str | None = None
    limits = OPENAI_STRICT_SCHEMA
    for rel, node, d in subschemas(schema):
        p = node.get("properties")
        if isinstance(p, dict):
            props += len(p)
            string_size += sum(len(k) for k in p)
            depth = max(depth, d)
        for key in ("$defs", "definitions"):
            if isinstance(node.get(key), dict):
                string_size += sum(len(k) for k in node[key])
        e = node.get("enum")
        if isinstance(e, list):
            enum_values += len(e)
            string_size += sum(len(v) for v in e if isinstance(v, str))
            if len(e) > limits.large_enum_threshold and sum(len(str(v)) for v in e) > limits.large_enum_length:
                big_enum = rel
        c = node.get("const")
        if isinstance(c, str):
            string_size += len(c)
    return StrictSizes(props, depth, enum_values, string_size, big_enum)


def _limits(schema: Any, bad: Bad) -> Violation | None:
    from ..schema.subschemas import BudgetExceeded

    try:
        sizes = strict_sizes(schema)
    except BudgetExceeded as exc:
        return bad("strict-limits", exc.pointer, f"too large to count: {exc.what}")
    limits = OPENAI_STRICT_SCHEMA
    for value, limit, text in ((sizes.properties, limits.properties, "object properties"),
                               (sizes.depth, limits.depth, "levels of nesting"),
                               (sizes.enum_values, limits.enum_values, "enum values"),
                               (sizes.string_size, limits.total_string_length,
                                "characters of names and enum and const values")):
        if value > limit:
            return bad("strict-limits", "", f"{value:,} {text} (at most {limit:,})")
    if sizes.big_enum is not None:
        return bad("strict-limits", sizes.big_enum, f"an enum of more than {limits.large_enum_threshold} values "
                   f"over {limits.large_enum_length:,} characters")
    return None


# ------------------------------------------------------------------------------------------------ helpers

_MAPS = frozenset(SCHEMA_MAP)
_ONES = frozenset((*ONE_SCHEMA, *DRAFT7_ONE_SCHEMA))
_LISTS = frozenset((*SCHEMA_LIST, *DRAFT7_SCHEMA_LIST))
Path = tuple[str | int, ...]


def _nodes(schema: Any) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every schema object of a JSON Schema with its path (the walker's output is at most 128 deep); a path
    becomes a pointer (``_at``) only for the violation reported. One pass over each node's own keys."""
    stack: list[tuple[Path, Any]] = [((), schema)]
    while stack:
        at, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield at, node
        for key, value in node.items():
            if isinstance(value, dict):
                if key in _MAPS:
                    stack.extend(((*at, key, k), v) for k, v in value.items())
                elif key in _ONES:
                    stack.append(((*at, key), value))
            elif isinstance(value, list) and key in _LISTS:
                stack.extend(((*at, key, i), v) for i, v in enumerate(value))


def _at(path: Path, *more: str | int) -> str:
    return jp.from_parts([*path, *more])


def _types(node: dict[str, Any]) -> list[Any]:
    t = node.get("type")
    return t if isinstance(t, list) else [] if t is None else [t]


def _text(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)[:80]
    except (TypeError, ValueError):
        return repr(value)[:80]


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
            type(None): "null", dict: "an object"}.get(type(value), type(value).__name__)
