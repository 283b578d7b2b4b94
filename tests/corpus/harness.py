"""The real-world corpus, converted to every target and judged by the providers' SDK types and documented rules.

For each corpus tool and each target (default options: strict where the target defaults to strict), the
outcome is one of:

* ``valid``    – the output passes the provider's SDK type and every rule below, with no loss or only
  neutral ones (meaning kept);
* ``repaired`` – valid, with at least one loss that changes meaning (widening/narrowing/unsatisfiable);
* ``refused``  – toolcast refused with its own error or a ``rejected`` loss, and said why;
* ``invalid``  – toolcast produced output the provider rejects (the first reason is recorded), or refused
  without a message;
* ``crash``    – any other exception.

The rules are written here from the providers' documentation and observed API errors (the citations are
the sections of docs/providers.md, which names each source), not read from toolcast's own
profiles: the corpus must be able to catch a profile that is wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import jsonschema
import pydantic
from toolcast.adapters.convert import Conversion, convert
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.loading import LoadedTool, detect_shape, load_tools
from toolcast.adapters.losses import Action, Effect
from toolcast.adapters.targets import TARGETS

from ..convert.sdk import VALIDATORS, schema_of

CORPUS_DIR = Path(__file__).resolve().parent
KNOWN_INVALID = CORPUS_DIR / "known_invalid.json"
OUTCOMES = ("valid", "repaired", "refused", "invalid", "crash")


# ---------------------------------------------------------------------------------------------- corpus


@dataclass(frozen=True, eq=False)  # identity: the corpus is loaded once
class Entry:
    """One corpus tool exactly as found, with the shape of its source."""

    file: str
    index: int
    shape: str  # a toolcast shape, or "schema" for a bare JSON Schema (a pydantic model's schema)
    raw: Any

    @property
    def key(self) -> str:
        return f"{self.file}#{self.index}"

    @property
    def name(self) -> str:
        return str(_tool_name(self.raw, self.shape))

    def document(self) -> Any:
        """What a user would put in a tool file: the tool itself; a bare schema becomes a tool's parameters
        (as pydantic-based frameworks do: the model's title is the name, its description the description)."""
        if self.shape == "schema":
            doc = {"name": self.raw.get("title", "model"), "parameters": self.raw}
            if isinstance(self.raw.get("description"), str):
                doc["description"] = self.raw["description"]
            return doc
        return self.raw

    @property
    def load_shape(self) -> str:
        return "canonical" if self.shape == "schema" else self.shape


def _tool_name(raw: Any, shape: str) -> Any:
    if not isinstance(raw, dict):
        return "?"
    if shape == "schema":
        return raw.get("title", "model")
    if shape in ("openai", "mistral"):
        return raw.get("function", {}).get("name", "?")
    if shape == "bedrock":
        return raw.get("toolSpec", {}).get("name", "?")
    return raw.get("name", "?")


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS_DIR.glob("*.json") if p != KNOWN_INVALID)


@cache
def corpus() -> tuple[Entry, ...]:
    entries = []
    for path in corpus_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        shapes = data.get("shapes") or [data["shape"]] * len(data["tools"])
        entries.extend(Entry(path.name, i, shapes[i], tool) for i, tool in enumerate(data["tools"]))
    return tuple(entries)


# ----------------------------------------------------------------------------------------- outcomes


@dataclass(frozen=True)
class Outcome:
    kind: str           # one of OUTCOMES
    reason: str = ""    # invalid/crash: the first problem's class; refused: toolcast's message
    detail: str = ""    # where and what
    problems: tuple[tuple[str, str], ...] = ()  # every (class, detail) found on an invalid output


@dataclass(frozen=True)
class Loaded:
    tool: LoadedTool | None
    detected: str | None     # what toolcast's detection says without --from
    error: Outcome | None    # refused/crash while loading


@cache
def load(entry: Entry) -> Loaded:
    doc = entry.document()
    detected = detect_shape(doc)
    try:
        tools = load_tools(doc, entry.load_shape)
    except ToolcastError as exc:
        return Loaded(None, detected, _refusal(str(exc), "load"))
    except Exception as exc:  # a crash is an outcome to report
        return Loaded(None, detected, Outcome("crash", f"load: {type(exc).__name__}", str(exc)[:300]))
    if len(tools) != 1:
        return Loaded(None, detected, Outcome("crash", "load: not one tool", f"{len(tools)} tools"))
    return Loaded(tools[0], detected, None)


def _refusal(message: str, stage: str) -> Outcome:
    if not message.strip():
        return Outcome("invalid", "refusal without a message", stage)
    return Outcome("refused", message.strip().splitlines()[0][:300])


def outcome(entry: Entry, target: str) -> Outcome:
    loaded = load(entry)
    if loaded.error is not None:
        return loaded.error
    assert loaded.tool is not None
    try:
        conv = convert(loaded.tool.tool, target)
    except ToolcastError as exc:
        return _refusal(str(exc), "convert")
    except Exception as exc:
        return Outcome("crash", f"convert: {type(exc).__name__}", str(exc)[:300])
    return judge(target, conv, source_properties(entry))


#: Where each source shape keeps its parameter schema, read here independently of toolcast's loader
#: (the google-genai Python SDK spells Gemini's JSON Schema field `parameters_json_schema`).
_SCHEMA_AT: dict[str, tuple[tuple[str, ...], ...]] = {
    "mcp": (("inputSchema",),), "anthropic": (("input_schema",),), "openai": (("function", "parameters"),),
    "mistral": (("function", "parameters"),), "openai-responses": (("parameters",),), "gemini": (("parameters",),),
    "gemini-json": (("parametersJsonSchema",), ("parameters_json_schema",)), "canonical": (("parameters",),),
    "legacy": (("parameters",),), "bedrock": (("toolSpec", "inputSchema", "json"),), "schema": ((),),
}


def source_properties(entry: Entry) -> int:
    """How many top-level properties the tool's schema has where its source keeps it."""
    for path in _SCHEMA_AT.get(entry.shape, ()):
        node = entry.raw
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict):
            props = node.get("properties")
            return len(props) if isinstance(props, dict) else 0
    return 0


def judge(target: str, conv: Conversion, source_props: int = 0) -> Outcome:
    if not conv.ok:
        messages = [loss.message for loss in conv.losses if loss.action == Action.REJECTED]
        return _refusal(" / ".join(m for m in messages if m.strip()), "rejected loss")
    try:
        found = problems(target, conv.output)
        out_schema = schema_of(target, conv.output)
        out_props = out_schema.get("properties") if isinstance(out_schema, dict) else None
        if source_props and not out_props and not conv.losses:
            # Not a provider rule: the provider accepts it, but every parameter vanished and no loss says so.
            found.append(("parameters dropped without a loss", f"{source_props} properties in the source, none out"))
    except Exception as exc:  # the harness must not hide what it could not judge
        return Outcome("crash", f"judging: {type(exc).__name__}", str(exc)[:300])
    if found:
        return Outcome("invalid", found[0][0], found[0][1], tuple(found))
    if any(loss.effect != Effect.NEUTRAL for loss in conv.losses):
        return Outcome("repaired")
    return Outcome("valid")


@cache
def all_outcomes() -> dict[tuple[str, str], Outcome]:
    return {(e.key, t): outcome(e, t) for e in corpus() for t in TARGETS}


# ------------------------------------------------------------------------------------------- the rules

JSON_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}

#: Name patterns per provider (providers.md §1.2 OpenAI "a-z, A-Z, 0-9, underscores and dashes, max 64";
#: §2.2 Anthropic Define-tools page `^[a-zA-Z0-9_-]{1,128}$`; §3.2 Gemini FunctionDeclaration.name "must
#: start with a letter or an underscore … a-z, A-Z, 0-9, underscores, dots, colons and dashes", 128 in the
#: current SDK docstring; §4 Mistral validator.py `^[a-zA-Z0-9_-]{1,64}$`; §5.2 MCP SEP-986 / Python SDK
#: TOOL_NAME_REGEX `^[A-Za-z0-9._-]{1,128}$`; §6.1 Bedrock ToolSpecification.name length 1–64 `[a-zA-Z0-9_-]+`.)
NAME_RULES: dict[str, str] = {
    "openai": r"[a-zA-Z0-9_-]{1,64}", "openai-responses": r"[a-zA-Z0-9_-]{1,64}",
    "anthropic": r"[a-zA-Z0-9_-]{1,128}", "gemini": r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}",
    "gemini-json": r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}", "mistral": r"[a-zA-Z0-9_-]{1,64}",
    "mcp": r"[A-Za-z0-9._-]{1,128}", "bedrock": r"[a-zA-Z0-9_-]{1,64}",
}

#: OpenAI strict (providers.md §1.4, OAI-SO "Supported schemas" + the 2024 error collection): keywords
#: outside the supported subset ("not permitted").
OPENAI_STRICT_UNSUPPORTED = (
    "oneOf", "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "default",
    "patternProperties", "propertyNames", "minProperties", "maxProperties", "unevaluatedProperties",
    "unevaluatedItems", "prefixItems", "contains", "minContains", "maxContains", "uniqueItems",
    "minLength", "maxLength",
)
#: §1.4 `format`: only these in strict mode (no `uri`).
OPENAI_STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

#: Gemini `parameters` (providers.md §3.3): the `Type` enum (upper case in the SDK; Gemini 3 rejects
#: TYPE_UNSPECIFIED) and the formats the backend accepts ("only 'enum' and 'date-time' are supported for
#: STRING type"; int32/int64 on INTEGER, float/double on NUMBER per the Schema docstring).
GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
GEMINI_FORMATS = {"STRING": {"enum", "date-time"}, "INTEGER": {"int32", "int64"},
                  "NUMBER": {"float", "double", "int32", "int64"}}


def is_strict(target: str, out: dict[str, Any]) -> bool:
    if target == "openai":
        return out.get("function", {}).get("strict") is True
    if target == "openai-responses":
        return out.get("strict") is not False  # Responses normalises to strict when `strict` is omitted (§1.3)
    if target == "anthropic":
        return out.get("strict") is True
    if target == "bedrock":
        return out.get("toolSpec", {}).get("strict") is True
    if target == "mistral":
        return out.get("function", {}).get("strict") is True
    return False


def description_of(target: str, out: dict[str, Any]) -> Any:
    if target in ("openai", "mistral"):
        return out.get("function", {}).get("description")
    if target == "bedrock":
        return out.get("toolSpec", {}).get("description")
    return out.get("description")


def name_of(target: str, out: dict[str, Any]) -> Any:
    if target in ("openai", "mistral"):
        return out.get("function", {}).get("name")
    if target == "bedrock":
        return out.get("toolSpec", {}).get("name")
    return out.get("name")


def walk(schema: Any, ptr: str = "", depth: int = 0) -> Iterator[tuple[str, dict[str, Any], int]]:
    """Every schema object with its pointer and object-nesting depth (JSON Schema keywords)."""
    if not isinstance(schema, dict):
        return
    yield ptr, schema, depth
    is_obj = schema.get("type") == "object" or "properties" in schema
    for key in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas"):
        if isinstance(schema.get(key), dict):
            for k, v in schema[key].items():
                yield from walk(v, f"{ptr}/{key}/{_esc(k)}", depth + (1 if is_obj and key == "properties" else 0))
    for key in ("items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames",
                "unevaluatedProperties", "unevaluatedItems", "additionalItems"):
        if isinstance(schema.get(key), dict):
            yield from walk(schema[key], f"{ptr}/{key}", depth)
    for key in ("anyOf", "oneOf", "allOf", "prefixItems", "items"):
        if isinstance(schema.get(key), list):
            for i, v in enumerate(schema[key]):
                yield from walk(v, f"{ptr}/{key}/{i}", depth)


def walk_gemini(schema: Any, ptr: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every node of a Gemini `Schema` (its fields: properties, items, anyOf, defs)."""
    if not isinstance(schema, dict):
        return
    yield ptr, schema
    for key in ("properties", "defs"):
        if isinstance(schema.get(key), dict):
            for k, v in schema[key].items():
                yield from walk_gemini(v, f"{ptr}/{key}/{_esc(k)}")
    if isinstance(schema.get("items"), dict):
        yield from walk_gemini(schema["items"], f"{ptr}/items")
    if isinstance(schema.get("anyOf"), list):
        for i, v in enumerate(schema["anyOf"]):
            yield from walk_gemini(v, f"{ptr}/anyOf/{i}")


def _esc(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _types(node: dict[str, Any]) -> list[Any]:
    t = node.get("type")
    return t if isinstance(t, list) else [] if t is None else [t]


def _resolve(root: Any, ref: str) -> bool:
    """Whether a local `$ref` (``#`` + JSON pointer) points at something in ``root``."""
    if not ref.startswith("#"):
        return False
    node = root
    frag = unquote(ref[1:])
    if frag and not frag.startswith("/"):
        return False  # `#anchor`: only resolvable through $anchor, looked up below
    for part in frag.split("/")[1:] if frag else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return isinstance(node, dict | bool)


def problems(target: str, out: dict[str, Any]) -> list[tuple[str, str]]:
    """Why ``target`` would reject ``out`` (class, detail), in the order they are checked; [] if it accepts it."""
    found: list[tuple[str, str]] = []

    def bad(cls: str, detail: str = "") -> None:
        found.append((cls, detail[:300]))

    # Output must be encodable as UTF-8 JSON (a lone surrogate is not).
    try:
        json.dumps(out, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        bad("output is not UTF-8 (lone surrogate)", str(exc))
    # The provider's own SDK type (tests/convert/sdk.py: pydantic TypeAdapters of the SDK params).
    try:
        VALIDATORS[target](out)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        bad(f"SDK type rejects the tool ({err['type']})", f"{'.'.join(map(str, err['loc']))}: {err['msg']}")
    except Exception as exc:  # the validators' own assertions, a missing key
        bad("SDK type rejects the tool", f"{type(exc).__name__}: {exc}")
    name = name_of(target, out)
    if not isinstance(name, str) or not re.fullmatch(NAME_RULES[target], name):
        bad("name does not match the provider's pattern", repr(name))
    desc = description_of(target, out)
    if target in ("openai", "openai-responses") and isinstance(desc, str) and len(desc) > 1024:
        bad("description over 1,024 characters", f"{len(desc)} characters")  # §1.2 observed hard limit
    if target == "bedrock" and desc is not None and (not isinstance(desc, str) or not desc):
        bad("description empty", "")  # §6.1 min length 1
    try:
        schema = schema_of(target, out)
    except (KeyError, TypeError):
        return found
    if schema is None:
        return found
    if target == "gemini":
        _gemini_rules(schema, bad)
    else:
        _json_schema_rules(target, is_strict(target, out), schema, bad)
    return found


def _gemini_rules(schema: Any, bad: Any) -> None:
    """Gemini `parameters`, the OpenAPI-subset Schema (providers.md §3.3)."""
    for ptr, node in walk_gemini(schema):
        where = ptr or "/"
        for key in node:
            if key.startswith("$"):
                bad(f"gemini: `{key}` is not a Schema field", where)  # "Unknown name "$schema"…"
        if "additionalProperties" in node:  # "Unknown name "additionalProperties"" (Developer API)
            bad("gemini: additionalProperties (rejected by the Developer API)", where)
        if "anyOf" in node and len(node) > 1:  # Vertex: "When using any_of, it must be the only field set"
            bad("gemini: anyOf with sibling fields", f"{where}: {sorted(k for k in node if k != 'anyOf')}")
        t = node.get("type")
        if "anyOf" not in node and "ref" not in node and t is None:
            bad("gemini: node without type", where)  # "schema didnt specify the schema type field"
        elif t is not None and (not isinstance(t, str) or t not in GEMINI_TYPES):
            bad("gemini: type not an upper-case Gemini Type", f"{where}: {t!r}")
        if t == "OBJECT" and not node.get("properties"):  # "properties: should be non-empty for OBJECT type"
            bad("gemini: OBJECT without properties", where)
        if t == "ARRAY" and not isinstance(node.get("items"), dict):  # "…items: missing field"
            bad("gemini: ARRAY without items", where)
        if "enum" in node and (t != "STRING" or not all(isinstance(v, str) for v in node.get("enum") or [])):
            bad("gemini: enum on a non-STRING node", where)  # "enum: only allowed for STRING type"
        if isinstance(node.get("enum"), list) and "" in node["enum"]:
            bad("gemini: an empty enum member", where)  # "enum[3]: cannot be empty" (Smana/runlore#40)
        fmt = node.get("format")
        if isinstance(fmt, str) and isinstance(t, str) and fmt not in GEMINI_FORMATS.get(t, {fmt}):
            bad("gemini: unsupported format", f"{where}: {t} {fmt}")
        if isinstance(node.get("required"), list) and isinstance(node.get("properties"), dict):
            missing = [r for r in node["required"] if r not in node["properties"]]
            if missing:
                bad("required names a property that does not exist", f"{where}: {missing}")


def _json_schema_rules(target: str, strict: bool, schema: Any, bad: Any) -> None:
    nodes = list(walk(schema))
    # Every type is a JSON Schema type (dirty `"dict"`, `"float"`, `"List[str]"` are not).
    for ptr, node, _ in nodes:
        for t in _types(node):
            if t not in JSON_TYPES:
                bad("type is not a JSON Schema type", f"{ptr or '/'}: {t!r}")
    # Every local $ref resolves; no remote ones (§5.3: implementations MUST NOT auto-dereference).
    anchors = {n["$anchor"] for _, n, _ in nodes if isinstance(n.get("$anchor"), str)}
    for ptr, node, _ in nodes:
        ref = node.get("$ref")
        if isinstance(ref, str) and not (_resolve(schema, ref) or ref[1:] in anchors):
            bad("$ref does not resolve", f"{ptr or '/'}: {ref}")
    # A closed object that requires an absent property accepts nothing.
    for ptr, node, _ in nodes:
        if node.get("additionalProperties") is False and not node.get("patternProperties"):
            props = node.get("properties") if isinstance(node.get("properties"), dict) else {}
            missing = [r for r in node.get("required", []) if isinstance(r, str) and r not in props]
            if missing:
                bad("closed object requires a property it does not define (accepts nothing)",
                    f"{ptr or '/'}: {missing}")
    if not isinstance(schema, dict):
        return
    # Root: an object schema (§1.5 OpenAI, §2.3 Anthropic `input_schema.type`, §5.3 MCP, §6.1 Bedrock).
    if schema.get("type") != "object" and target != "gemini-json":
        bad("root is not type object", repr(schema.get("type")))
    if target in ("anthropic", "bedrock") or (target in ("openai", "openai-responses") and strict):
        # §2.3 "input_schema does not support oneOf, allOf, or anyOf at the top level"; §1.4 root not anyOf.
        for key in ("anyOf", "oneOf", "allOf"):
            if key in schema:
                bad("composition at the root", key)
    if target in ("openai", "openai-responses"):
        for ptr, node, _ in nodes:  # "array schema missing items" (§1.5, strict or not)
            if "array" in _types(node) and "items" not in node and "prefixItems" not in node:
                bad("array without items", ptr or "/")
    if target in ("openai", "openai-responses") and strict:
        _openai_strict(schema, nodes, bad)
    if target == "gemini-json":
        for ptr, node, _ in nodes:  # §3.4: "$ref … only description and default can be set alongside it"
            if "$ref" in node and set(node) - {"$ref", "description", "default"} - {k for k in node if k[:1] == "$"}:
                bad("gemini-json: $ref with sibling keywords", ptr or "/")
    # The meta-schema: Anthropic "must match JSON Schema draft 2020-12" (§2.3); Mistral checks draft-07
    # (§4 mistral-common Draft7Validator.check_schema); MCP 2020-12 unless `$schema` says otherwise (§5.3);
    # OpenAI non-strict "any schema that validates against the meta-schema" (§1.5).
    if target == "mistral":
        cls: Any = jsonschema.Draft7Validator
    elif target in ("anthropic", "bedrock"):
        cls = jsonschema.Draft202012Validator
    else:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    error = _meta_error(cls, json.dumps(schema, sort_keys=True))
    if error:
        bad(f"not a valid {cls.__name__.removesuffix('Validator')} schema", error)


@cache
def _meta_validator(cls: Any) -> Any:
    return cls(cls.META_SCHEMA, format_checker=cls.FORMAT_CHECKER)


@cache
def _meta_error(cls: Any, schema_text: str) -> str:
    """The meta-schema's best error for a schema ("" if none); memoised, as targets often emit the same schema."""
    error = jsonschema.exceptions.best_match(_meta_validator(cls).iter_errors(json.loads(schema_text)))
    if error is None:
        return ""
    return "/" + "/".join(str(p) for p in error.path) + f": {error.message[:200]}"


def _openai_strict(schema: dict[str, Any], nodes: list[tuple[str, dict[str, Any], int]], bad: Any) -> None:
    """OpenAI Structured Outputs (providers.md §1.4 table and "Structural rules (strict)", §1.6 errors)."""
    if "$ref" in schema:
        bad("openai strict: root $ref", schema["$ref"])
    n_props = n_enum = 0
    for ptr, node, depth in nodes:
        where = ptr or "/"
        types = _types(node)
        if "object" in types or "properties" in node:
            if node.get("additionalProperties") is not False:
                bad("openai strict: object not closed with additionalProperties false", where)
            props = node.get("properties")
            if not isinstance(props, dict):
                bad("openai strict: object schema missing properties", where)
                props = {}
            if sorted(node.get("required", [])) != sorted(props):
                bad("openai strict: required does not list every property", where)
            n_props += len(props)
        for key in OPENAI_STRICT_UNSUPPORTED:
            if key in node:
                bad(f"openai strict: `{key}` is not permitted", where)
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in OPENAI_STRICT_FORMATS:
            bad("openai strict: unsupported format", f"{where}: {fmt}")
        if "$ref" in node and set(node) - {"$ref"}:
            bad("openai strict: $ref with sibling keywords", f"{where}: {sorted(set(node) - {'$ref'})}")
        if not ({"type", "anyOf", "$ref", "enum", "const"} & set(node)):
            bad("openai strict: schema without type", where)
        if isinstance(node.get("enum"), list):
            n_enum += len(node["enum"])
        if depth > 10:
            bad("openai strict: more than 10 levels of nesting", where)
    if n_props > 5000:
        bad("openai strict: more than 5,000 properties", str(n_props))
    if n_enum > 1000:
        bad("openai strict: more than 1,000 enum values", str(n_enum))


# ------------------------------------------------------------------------------------ expected failures


def known_invalid() -> dict[str, str]:
    """``"<file>#<index> <target>"`` → why the pair is invalid (or crashes) on today's converters."""
    if not KNOWN_INVALID.exists():
        return {}
    data: dict[str, str] = json.loads(KNOWN_INVALID.read_text(encoding="utf-8"))["pairs"]
    return data


def pair_key(entry_key: str, target: str) -> str:
    return f"{entry_key} {target}"


def failing_pairs(outcomes: dict[tuple[str, str], Outcome]) -> dict[str, str]:
    return {pair_key(k, t): f"{o.kind}: {o.reason} ({o.detail})" if o.detail else f"{o.kind}: {o.reason}"
            for (k, t), o in outcomes.items() if o.kind in ("invalid", "crash")}


def write_known_invalid(outcomes: dict[tuple[str, str], Outcome]) -> int:
    pairs = dict(sorted(failing_pairs(outcomes).items()))
    text = ('{"about": "(corpus tool, target) pairs whose output is invalid for the provider (or crashes) on the '
            'converters of this commit; test_corpus fails when a pair outside this list fails or a listed pair '
            'passes. Regenerate with: python -m tests.corpus.report --write-known",\n"pairs": {\n'
            + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in pairs.items())
            + "\n}}\n")
    KNOWN_INVALID.write_text(text, encoding="utf-8")
    return len(pairs)
