"""Every rule toolcast checks, by family. The registry (``registry.RULES``) is filled by importing this
module; ``docs/rules.md``, ``toolcast explain`` and SARIF metadata are generated from it.

Families: TC0xx file and syntax · TC1xx discovery (seed 000) · TC2xx registration and names ·
TC3xx JSON Schema validity · TC4xx legacy parameter map · TC5xx feature loss per target ·
TC6xx provider limits · TC7xx configuration · TC8xx request files (messages) · TC9xx consumers (MCP hosts,
model families, OpenAI-compatible APIs: ``schemas/consumers``) and request budgets (TC93x).

Each code is bound here, and only here, to a constant named after its rule (``REQUIRED_UNDEFINED`` is
TC302 ``required-undefined``); the code that emits a finding imports the constant, never the string
(``tests/checks/test_codes.py`` enforces both).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from types import MappingProxyType

from ..document.limits import MAX_DEPTH as DOCUMENT_DEPTH
from ..document.limits import MAX_FILE_BYTES, MAX_TEXT
from ..schema.subschemas import MAX_DEPTH as SCHEMA_DEPTH
from ..schema.subschemas import MAX_NODES as SCHEMA_NODES
from .findings import Severity
from .quoted import (
    anthropic_strict,
    consumer_max,
    gemini_declarations,
    openai_max_tools,
    openai_strict,
    pattern_limits,
    provider,
)
from .registry import Rule, Text, register

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741

FAMILIES: dict[str, str] = {
    "TC0": "File and syntax",
    "TC1": "Discovery (seed 000): the fields every tool needs",
    "TC2": "Registration: tool names",
    "TC3": "JSON Schema validity",
    "TC4": "Legacy parameter map",
    "TC5": "Feature loss per target",
    "TC6": "Provider limits",
    "TC7": "Configuration",
    "TC8": "Request files",
    "TC9": "Consumers, request limits and budgets",
}

#: The severity model, stated once (``docs/rules.md`` and ``docs/design.md`` read it from here).
SEVERITY_MODEL = (
    "- **error** for a target T: the provider, host or model (or seed 000's registry, where selected) rejects the "
    "tool as toolcast would send it to T, and `toolcast convert --to T` refuses it (exit 2, nothing written). "
    "An error that concerns some targets only names them.\n"
    "- **warning**: toolcast can send it, but what the model is told differs from what the author wrote, and the "
    "author can act (the fix says how). Where `toolcast convert` repairs the input without changing its meaning, "
    "the check offers the same repair as its fix, at warning level, and says that convert does it.\n"
    "- **information**: a rewrite every converter makes and nobody needs to act on (off or quiet by default).\n"
    "- Seed 000's registration rules (a tool without a description, `parameters`, an object `type`, "
    "`properties`) are the rules of seed 000's registry, a consumer like the MCP hosts: errors when selected by "
    "code, and by default for tool executables (`toolcast check --exec`); judged per provider otherwise."
)

#: Where a rule's severity depends on who consumes the tool: the severity by consumer.
BY_CONSUMER: Mapping[str, str] = MappingProxyType({
    "TC103": "seed 000's registry (selected, `--exec`): error · providers: information (taken without a description)",
    "TC105": "seed 000's registry (selected, `--exec`): error · providers: warning (sent as a tool without "
             "arguments)",
    "TC107": "seed 000's registry (`--exec`): error · providers: error for the targets convert refuses; warning "
             "where convert sends `type: object` with the same meaning",
    "TC108": "seed 000's registry (selected, `--exec`): error · providers: warning (`properties: {}` added for "
             "OpenAI, no `parameters` for Gemini, a map root as it is for Anthropic and MCP)",
    "TC110": "every provider: error for a type name convert does not know; warning for one it reads (`dict`, "
             "`int`, `List[str]`)",
    "TC201": "Gemini, Anthropic: error (convert refuses the list) · others: warning (sent; the model cannot tell "
             "the two apart)",
    "TC204": "every target: warning (convert sends the sanitised name and maps calls back)",
    "TC205": "Gemini, Anthropic: error (convert refuses the list) · others: warning",
    "TC301": "every target: error; warning for an older draft's form convert rewrites (draft-04 boolean bounds, "
             "draft-07 tuple `items`); judged by the draft `$schema` names",
    "TC303": "every target: warning (convert drops the reference, a reported widening)",
    "TC505": "the targets named: error (convert refuses)",
    "TC511": "providers: warning (convert states the pattern in the description) · selected hosts and APIs: "
             "error for a rule documented or observed to reject, warning for an unclear one",
    "TC506": "the targets named: error (convert refuses)",
    "TC504": "the targets named: error",
    "TC502": "the targets named: warning",
    "TC503": "the targets named: warning",
    "TC605": "Anthropic strict: error (convert refuses the list)",
    "TC606": "Anthropic strict: error (convert refuses the list; counted on the schema sent)",
    "TC607": "Anthropic strict: error (convert refuses the list; counted on the schema sent)",
})


def _rule(
    code: str, name: str, severity: Severity, summary: Text, why: Text, bad: Text, good: Text, fix: bool = False,
    opt_in: bool = False, selected: Severity | None = None,
) -> str:
    """Register the rule and return its code, bound by the caller to a constant named after the rule
    (``REQUIRED_UNDEFINED = _rule("TC302", "required-undefined", ...)``): the code that emits a finding
    imports that constant, so it cannot name a code that is not registered. A text given as a function
    (``Text``) quotes its numbers from their owner when it is read."""
    def doc() -> str:
        why_, bad_, good_ = (_read(t).strip() for t in (why, bad, good))
        return f"{why_}\n\nBad:\n\n```json\n{bad_}\n```\n\nFixed:\n\n```json\n{good_}\n```\n"

    quoting = not all(isinstance(t, str) for t in (why, bad, good))
    return register(Rule(code, name, severity, summary, doc if quoting else doc(), fix, opt_in, selected)).code


def _read(text: Text) -> str:
    return text if isinstance(text, str) else text()


_OK = (
    '{"name": "get_weather", "description": "Current weather.", "parameters": {"type": "object", '
    '"properties": {"city": {"type": "string"}}, "required": ["city"]}}'
)

# --- TC0xx: file and syntax -------------------------------------------------------------------------
INVALID_JSON = _rule(
    "TC001",
    "invalid-json",
    E,
    "The file is not valid JSON (or JSONC).",
    "The parser recovers what it can so that the other checks still run, but no provider accepts a "
    "tool definition that does not parse. Comments and trailing commas are accepted in `.jsonc` files "
    "only.",
    '{"name": "get_weather" "description": "Current weather."}',
    '{"name": "get_weather", "description": "Current weather."}',
)
DUPLICATE_KEY = _rule(
    "TC002",
    "duplicate-key",
    W,
    "An object has the same key twice; only the last one counts.",
    "JSON parsers keep the last value of a repeated key, so the first one is silently ignored.",
    '{"name": "a", "name": "b"}',
    '{"name": "b"}',
)
DOCUMENT_TOO_LARGE = _rule(
    "TC003",
    "document-too-large",
    W,
    "The document exceeds toolcast's size or nesting limits; part of it was not checked.",
    f"Hostile or generated schemas can be huge. toolcast reads at most {MAX_FILE_BYTES:,} bytes of a file and "
    f"checks at most {MAX_TEXT:,} characters of a document (an MCP server's tool list included); a larger one "
    f"is not checked at all, and this finding is then an error. Within a document the parser stops at "
    f"{DOCUMENT_DEPTH} levels of nesting, and a schema's walk at {SCHEMA_DEPTH} levels and {SCHEMA_NODES:,} "
    "schema nodes per tool; toolcast says so instead of silently skipping the rest.",
    '{"name": "t", "parameters": {"type": "object", "properties": {"a": {"properties": {"a": "... 300 levels"}}}}}',
    '{"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}',
)
NOT_A_TOOL_FILE = _rule(
    "TC004",
    "not-a-tool-file",
    W,
    "The document does not contain any recognisable tool definition.",
    'A file matched by the tool-file globs should hold one tool, a list of tools, `{"tools": [...]}` or '
    "one of the provider shapes toolcast reads (OpenAI, Anthropic, Gemini, Mistral, MCP, Bedrock, the "
    "legacy parameter map).",
    '{"tool": "get_weather"}',
    _OK,
)
NUMBER_OUT_OF_RANGE = _rule(
    "TC005",
    "number-out-of-range",
    E,
    "A number is beyond the range of a double (an IEEE 754 64-bit float).",
    "JSON itself puts no limit on numbers, but the parsers providers and clients use do: JavaScript and most "
    "JSON libraries read `1e999` or a 400-digit integer as infinity, and others refuse it. Python's `json` "
    f"reads an integer of more than {sys.int_info.default_max_str_digits:,} digits as infinity too. toolcast never "
    "writes such a number (it would come out as `Infinity`, which is not JSON); convert and export refuse the tool "
    "instead.",
    '{"type": "number", "maximum": 1e999}',
    '{"type": "number", "maximum": 1e308}',
)

# --- TC1xx: discovery (seed 000) ------------------------------------------------------------------
NAME_MISSING = _rule(
    "TC101",
    "name-missing",
    E,
    "The tool has no `name`.",
    "Every provider identifies a tool by its name; a tool without one is skipped at discovery.",
    '{"description": "Current weather.", "parameters": {"type": "object", "properties": {}}}',
    '{"name": "get_weather", "description": "Current weather.", "parameters": {"type": "object", "properties": {}}}',
)
NAME_NOT_STRING = _rule(
    "TC102",
    "name-not-string",
    E,
    "The tool's `name` is not a string.",
    "Names must be strings.",
    '{"name": 42}',
    '{"name": "get_weather"}',
)
DESCRIPTION_MISSING = _rule(
    "TC103",
    "description-missing",
    I,
    "The tool has no `description`.",
    "The description is what the model reads to decide when to call the tool. Seed 000's registry skips tools "
    "without one (an error there: select `TC103` by its code, as checking tool executables with `--exec` does); "
    "the providers take the tool without it.",
    '{"name": "get_weather", "parameters": {"type": "object", "properties": {}}}',
    '{"name": "get_weather", "description": "Current weather for a city.", "parameters": {"type": "object", "properties": {}}}',  # noqa: E501
    selected=E,
)
DESCRIPTION_NOT_STRING = _rule(
    "TC104",
    "description-not-string",
    E,
    "The tool's `description` is not a string.",
    "Descriptions must be strings.",
    '{"name": "t", "description": ["a", "b"]}',
    '{"name": "t", "description": "a b"}',
)
PARAMETERS_MISSING = _rule(
    "TC105",
    "parameters-missing",
    W,
    "The tool has no `parameters` schema.",
    "Seed 000's registry requires a parameters object (an error there: select `TC105` by its code, as checking "
    "tool executables with `--exec` does); tools without arguments use an empty object schema. The providers take "
    "a tool without one as a tool without arguments, and `toolcast convert` sends it so.",
    '{"name": "ping", "description": "Ping."}',
    '{"name": "ping", "description": "Ping.", "parameters": {"type": "object", "properties": {}}}',
    fix=True,
    selected=E,
)
PARAMETERS_NOT_OBJECT = _rule(
    "TC106",
    "parameters-not-object",
    E,
    "`parameters` is not a JSON object.",
    "The parameters schema must be an object schema.",
    '{"name": "t", "parameters": []}',
    '{"name": "t", "parameters": {"type": "object", "properties": {}}}',
)
PARAMETERS_TYPE_NOT_OBJECT = _rule(
    "TC107",
    "parameters-type-not-object",
    E,
    '`parameters.type` is missing or not "object".',
    "Every provider requires the root of the parameters schema to describe an object. A root whose `type` is "
    "something else is refused by `toolcast convert` (an error). A root without `type` that can only be an object "
    "(no composition, or one whose every branch is an object) is one `toolcast convert` repairs by adding "
    "`type: object`, with the same meaning: a warning, and the fix adds what convert adds.",
    '{"name": "t", "parameters": {"properties": {"a": {"type": "string"}}}}',
    '{"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}',
    fix=True,
)
PROPERTIES_MISSING = _rule(
    "TC108",
    "properties-missing",
    W,
    "`parameters.properties` is missing.",
    "Seed 000's registry requires `properties` (an error there: select `TC108` by its code, as checking tool "
    "executables with `--exec` does). The providers do not refuse the tool as toolcast sends it: OpenAI rejects an "
    "object schema without `properties`, and `toolcast convert` adds `properties: {}` (same meaning); Gemini gets "
    "no `parameters` (a narrowing, TC503, where extra keys were allowed); Anthropic and MCP take a map root such "
    "as `{\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}` as it is. The fix adds what "
    "convert adds.",
    '{"name": "t", "parameters": {"type": "object"}}',
    '{"name": "t", "parameters": {"type": "object", "properties": {}}}',
    fix=True,
    selected=E,
)
PROPERTY_TYPE_MISSING = _rule(
    "TC109",
    "property-type-missing",
    W,
    "A parameter has no `type` (and no `$ref`, `enum`, `const` or composition that would give it one).",
    "Without a type the model may send anything; several providers reject untyped properties.",
    '{"type": "object", "properties": {"city": {"description": "City name"}}}',
    '{"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}',
)
PROPERTY_TYPE_INVALID = _rule(
    "TC110",
    "property-type-invalid",
    E,
    "A parameter's `type` is not a JSON Schema type name.",
    "Valid types are `string`, `number`, `integer`, `boolean`, `object`, `array` and `null` (or a list "
    "of them). A misspelt type (`str`, `int`, `float`) is rejected by every provider; `toolcast convert` reads the "
    "well-known ones (`dict`, `int`, `float`, `List[str]`, upper case) as the JSON Schema type they stand for, so "
    "those are warnings (the fix writes what convert sends), and refuses the others (an error).",
    '{"type": "object", "properties": {"count": {"type": "int"}}}',
    '{"type": "object", "properties": {"count": {"type": "integer"}}}',
    fix=True,
)

# --- TC2xx: registration and names ---------------------------------------------------------------
DUPLICATE_NAME = _rule(
    "TC201",
    "duplicate-name",
    E,
    "Two tools in the same file have the same name.",
    "Providers reject requests whose tools share a name (`Tool names must be unique`).",
    '[{"name": "search", "description": "A"}, {"name": "search", "description": "B"}]',
    '[{"name": "search_web", "description": "A"}, {"name": "search_docs", "description": "B"}]',
)
DUPLICATE_NAME_ACROSS_FILES = _rule(
    "TC202",
    "duplicate-name-across-files",
    E,
    "Two files checked together define a tool with the same name.",
    "Tools from every file end up in one request; their names must be unique. The message names up to five "
    "of the other files (in path order) and counts the rest.",
    '// a.tool.json\n{"name": "search"}\n// b.tool.json\n{"name": "search"}',
    '// a.tool.json\n{"name": "search_web"}\n// b.tool.json\n{"name": "search_docs"}',
)
NAME_FORMAT = _rule(
    "TC203",
    "name-format",
    W,
    "The name is empty or uses characters outside letters, digits, `_` and `-`.",
    "Seed 000's registration rule. Letters, digits, underscores and dashes are accepted by every "
    "target; anything else (spaces, dots, slashes) is accepted by some targets only (see TC204).",
    '{"name": "get weather"}',
    '{"name": "get_weather"}',
    fix=True,
)
NAME_INVALID_FOR_TARGET = _rule(
    "TC204",
    "name-invalid-for-target",
    W,
    "The name breaks a configured target's name rule (charset or length).",
    lambda: f"OpenAI, Mistral and Bedrock accept `{provider('openai').names.pattern.pattern}`, Anthropic up to "
    f"{provider('anthropic').names.max_length} characters, Gemini must start with a letter or `_` and also allows "
    "`.` and `:`, MCP allows `.`. `toolcast convert` sends the target's sanitised name and maps calls back, so the "
    "provider takes the tool, but the model sees another name: a warning. The fix renames the tool to that name "
    "(or set `x-toolcast.targets.<target>.name`).",
    '{"name": "files.read"}',
    '{"name": "files_read"}',
    fix=True,
)
NAME_COLLISION_AFTER_SANITISING = _rule(
    "TC205",
    "name-collision-after-sanitising",
    E,
    "Two tools get the same name once a target's name sanitising is applied.",
    "Sanitising replaces characters a target does not accept; two distinct names can collapse into one "
    "(`files.read` and `files/read` both become `files_read`), and the target would then see duplicates.",
    '[{"name": "files.read"}, {"name": "files/read"}]',
    '[{"name": "files_read"}, {"name": "files_read_raw"}]',
)

DUPLICATE_NAME_ACROSS_SERVERS = _rule(
    "TC206",
    "duplicate-name-across-servers",
    W,
    "Two MCP servers that one host loads together list a tool of the same name.",
    "`toolcast check --mcp-config` checks every server of a host's configuration as one request. Hosts that "
    "prefix names with the server's (`mcp__<server>__<tool>`) still show the model two tools it must tell apart "
    "by their descriptions alone. The message names the other servers and, for each host selected whose profile "
    "says how it names such tools (its `duplicate_names` rule), what that host sends, with the rule's sources.",
    '// .vscode/mcp.json: servers "github" and "gitlab" both list\n{"name": "search_issues"}',
    '// give the tools distinct names, or leave one server out (Gemini CLI: `excludeTools`)\n'
    '{"name": "search_github_issues"}',
)

# --- TC3xx: JSON Schema validity ----------------------------------------------------------------
SCHEMA_INVALID = _rule(
    "TC301",
    "schema-invalid",
    E,
    "`parameters` or `returns` is not a valid JSON Schema (the meta-schema of the draft its `$schema` names; "
    "2020-12 without one).",
    "Anthropic, OpenAI and MCP reject schemas that fail the meta-schema. A schema that declares "
    "`\"$schema\": \"http://json-schema.org/draft-07/schema#\"` (or 2019-09, draft-06, draft-04) is judged by "
    "that draft, where tuple `items` and `additionalItems` are valid; toolcast converts it to the 2020-12 forms. "
    "A common cause is the draft-04 boolean form of `exclusiveMinimum` in a schema that does not declare draft-04.",
    '{"type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}',
    '{"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}}',
)
REQUIRED_UNDEFINED = _rule(
    "TC302",
    "required-undefined",
    W,
    "`required` names a property that is not defined in `properties`.",
    "The model is told to send an argument the schema does not describe; OpenAI strict rejects it.",
    '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city", "country"]}',
    '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}',
    fix=True,
)
REF_UNRESOLVABLE = _rule(
    "TC303",
    "ref-unresolvable",
    W,
    "A `$ref` does not resolve within the document or the workspace.",
    "References are resolved against the document itself and files next to it. No provider is sent a dangling "
    "reference: `toolcast convert` drops it and accepts any value in its place (a widening it reports), so the "
    "author's constraint is lost for every target: a warning.",
    '{"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}',
    '{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}',
)
REF_REMOTE = _rule(
    "TC304",
    "ref-remote",
    W,
    "A `$ref` points at a remote URL, which toolcast never fetches.",
    "Providers do not fetch remote references either (Anthropic strict and Gemini reject them). Inline "
    "the referenced schema or copy it into `$defs`.",
    '{"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}',
    '{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}',
)
DEFAULT_INVALID = _rule(
    "TC305",
    "default-invalid",
    W,
    "A `default` value does not match its own schema.",
    "The model may copy the default into its call; a default the schema rejects leads to invalid calls. "
    "`default: null` on a type without null (pydantic's `x: str = None`) is information: the property may be "
    "omitted, and every provider takes the schema as written.",
    '{"type": "integer", "default": "ten"}',
    '{"type": "integer", "default": 10}',
)
EXAMPLE_INVALID = _rule(
    "TC306",
    "example-invalid",
    E,
    "A tool example (`examples`) does not validate against `parameters`.",
    "Anthropic returns 400 for invalid `input_examples`; elsewhere a wrong example teaches the model a "
    "wrong call.",
    '{"name": "t", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}, "examples": [{"n": "x"}]}',  # noqa: E501
    '{"name": "t", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}, "examples": [{"n": 1}]}',
)
ARRAY_WITHOUT_ITEMS = _rule(
    "TC307",
    "array-without-items",
    W,
    "An array schema has no `items`, which a configured target requires.",
    "OpenAI (`array schema missing items`) and Gemini (`items: missing field`) reject arrays without "
    "`items`.",
    '{"type": "object", "properties": {"tags": {"type": "array"}}}',
    '{"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}',
    fix=True,
)
EMPTY_OBJECT = _rule(
    "TC308",
    "empty-object",
    W,
    "An object schema has no properties, which a configured target rejects.",
    "Gemini's `parameters` route rejects it (`properties: should be non-empty for OBJECT type`) and "
    "OpenAI strict rejects open objects.",
    '{"type": "object", "properties": {"headers": {"type": "object"}}}',
    '{"type": "object", "properties": {"headers": {"type": "object", "properties": {"accept": {"type": "string"}}}}}',
)

PATTERN_TOO_COSTLY = _rule(
    "TC309",
    "pattern-too-costly",
    W,
    "A `pattern` could not be checked against a value of the file in time: it backtracks too much, or is too long.",
    lambda: "toolcast matches every `pattern` (and `patternProperties` key) against the file's defaults and "
    f"examples, and a tool call's arguments, under limits: {pattern_limits().match_seconds} s of CPU time a match, "
    f"{pattern_limits().tool_seconds} s for all the matches of one tool, and no pattern over "
    f"{pattern_limits().max_pattern:,} characters. A pattern with nested or overlapping repetition (`(a|aa)+`, "
    "`(a|a)*`) takes time exponential in the length of a value it does not match, in any backtracking engine: a "
    "model's argument, or a prompt injection writing one, can then stall whatever validates the call. The value "
    "is left unjudged (no TC305 or TC306); a call mapped back against such a pattern gets a problem naming the "
    "argument, never a silent pass.",
    '{"type": "string", "pattern": "^(a|aa)+$", "default": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}',
    '{"type": "string", "pattern": "^a+$", "default": "aaaa"}',
)

MIXED_DRAFTS = _rule(
    "TC310",
    "mixed-drafts",
    W,
    "A schema uses a keyword of another JSON Schema draft than the one it is read as: that keyword is ignored.",
    "`$schema` decides the dialect (2020-12 when it names none, as MCP and Anthropic read tools). A draft-04, -06 "
    "or -07 schema knows nothing of 2019-09's and 2020-12's `prefixItems`, `$defs`, `dependentRequired`, "
    "`dependentSchemas`, `unevaluatedProperties`, `unevaluatedItems`, `minContains`, `maxContains`, `$anchor` or "
    "`$dynamicRef`; a 2019-09 or 2020-12 schema no longer has draft-07's `dependencies` (split into "
    "`dependentRequired` and `dependentSchemas`). A validator of the declared draft, and a model reading it as "
    "one, skips the keyword: the rule it states is not enforced (toolcast convert itself sends draft-07's "
    "`dependencies` in the 2020-12 form). Declare the draft the schema is written in, or write the keyword in the "
    "declared draft's form.",
    '{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", '
    '"properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "dependentRequired": {"a": ["b"]}}',
    '{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", '
    '"properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "dependencies": {"a": ["b"]}}',
)

# --- TC4xx: legacy parameter map ----------------------------------------------------------------
LEGACY_PARAMETER_MAP = _rule(
    "TC401",
    "legacy-parameter-map",
    W,
    "`parameters` uses the legacy parameter map instead of JSON Schema.",
    "Seeds 001/002: the old format maps each parameter name to `{type, description, required: true}`. "
    "It cannot express arrays, nesting, enums or nullability; the fix rewrites it to JSON Schema with "
    "a `required` array.",
    '{"name": "read", "parameters": {"path": {"type": "string", "required": true}}}',
    '{"name": "read", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}',  # noqa: E501
    fix=True,
)

# --- TC5xx: feature loss per target (codes by effect) -------------------------------------------
_LOSS_WHY = (
    "These findings are exactly the losses `toolcast convert` reports for the target (one code "
    "path). The finding sits on the keyword that is lost and names the target."
)
LOSS_NEUTRAL = _rule(
    "TC501",
    "loss-neutral",
    I,
    "A keyword is rewritten for a target into an equivalent form.",
    _LOSS_WHY + " Neutral: the converted schema accepts the same instances (e.g. `const` lowered to a "
    "one-value `enum`). Off unless selected (`select = [\"TC501\"]` or a severity for it): nothing is "
    "lost, and a file of ordinary tools has several per tool; `toolcast convert` still lists them.",
    '{"type": "string", "const": "celsius"}',
    '{"type": "string", "enum": ["celsius"]}',
    fix=True,
    opt_in=True,
)
LOSS_WIDENING = _rule(
    "TC502",
    "loss-widening",
    W,
    "A constraint is not enforced by a target (it accepts more).",
    _LOSS_WHY + " Widening: a keyword is dropped or folded into the description, so the provider may "
    "produce calls the original schema rejects; validate calls against the original schema.",
    '{"type": "string", "minLength": 3}',
    '{"type": "string", "description": "At least 3 characters."}',
)
LOSS_NARROWING = _rule(
    "TC503",
    "loss-narrowing",
    W,
    "A target's version of the schema rejects valid calls (it accepts less).",
    _LOSS_WHY + " Narrowing: for example an optional field becomes required in OpenAI strict. The fix "
    'makes such optional properties nullable so that the model can still say "absent".',
    '{"type": "object", "properties": {"unit": {"type": "string"}}}',
    '{"type": "object", "properties": {"unit": {"type": ["string", "null"]}}}',
    fix=True,
)
LOSS_UNSATISFIABLE = _rule(
    "TC504",
    "loss-unsatisfiable",
    E,
    "A target's version of the schema accepts no input at all.",
    _LOSS_WHY + " Unsatisfiable: e.g. a multi-branch `allOf` combined with `additionalProperties: false`.",
    '{"allOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}',
    '{"type": "object", "properties": {"a": {}, "b": {}}}',
)
LOSS_REJECTED = _rule(
    "TC505",
    "loss-rejected",
    E,
    "toolcast refuses to convert the tool for a target without changing its meaning.",
    _LOSS_WHY + " Rejected: no output for this target would keep the tool's meaning; change the schema "
    "or drop the target from `targets`.",
    '{"type": "object", "properties": {"a": {"$ref": "#"}}}',
    '{"type": "object", "properties": {"a": {"type": "string"}}}',
    fix=True,
)
OUTPUT_REJECTED = _rule(
    "TC506",
    "output-rejected",
    E,
    "A target's provider would reject toolcast's output for the tool; toolcast refuses to write it.",
    _LOSS_WHY + " Every output is judged before it is written by the rules each provider documents or is "
    "observed to enforce (the finding names the rule and the place; `docs/design.md`, \"What an output must "
    "pass\"): a root that is not a non-nullable `type: \"object\"`, composition at the root where refused, a "
    "schema that is not valid JSON Schema, a reference that does not resolve. `toolcast convert` exits 2 and the "
    "editor's export answers an error for that target.",
    '{"type": "string", "description": "A city name"}',
    '{"type": "object", "properties": {"city": {"type": "string", "description": "A city name"}}}',
)
LOSS_STRICT_CLOSURE = _rule(
    "TC510",
    "loss-strict-closure",
    I,
    "Strict mode closes an object the schema left open (`additionalProperties: false` added).",
    _LOSS_WHY + " Every strict converter closes objects, and almost no tool means to accept keys it does "
    "not list, so this narrowing is information by default (`toolcast convert` still lists it); it is a "
    "warning when selected by code (`select = [\"TC510\"]`). An explicit map (`additionalProperties` "
    "with a schema or `true`) that strict mode closes stays TC503. A tool without parameters is a "
    "no-argument tool everywhere and gets no finding. The fix says `additionalProperties: false` in the "
    "source, so every target agrees.",
    '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}',
    '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], '
    '"additionalProperties": false}',
    fix=True,
    selected=W,
)
PATTERN_DIALECT = _rule(
    "TC511",
    "pattern-dialect",
    W,
    "A `pattern` that the regular-expression engine of a target, host or API does not compile.",
    "JSON Schema's `pattern` is an ECMA-262 regular expression, but each reader compiles it with its own engine, "
    "and one bad pattern fails the whole request, for every tool in it. OpenAI checks every `pattern` with "
    "Python's `re` (`'^[^\\p{Cc}]+$' is not a 'regex'`: BerriAI/litellm#40485) and in strict mode refuses "
    "lookarounds (`Invalid JSON schema: regex lookaround is not supported`: vercel/ai#21037); llama.cpp needs "
    "`^…$` (`Pattern must start with '^' and end with '$'`: ggml-org/llama.cpp#26930); DeepSeek has refused "
    "patterns that ECMAScript's `v` mode refuses (Dokploy/mcp#43); MCP hosts and clients written in JavaScript "
    "compile every `pattern` as ECMAScript with the u flag (ajv's default), so `^https\\:\\/\\/` fails a whole "
    "server there (langchain-ai/langchainjs#11351). The pattern is compiled with the engine the "
    "profile names (`pattern_dialect` rules, each with its sources and confidence) and the finding names the "
    "engine and its error. For a provider target, `toolcast convert` states the pattern in the description "
    "instead (a widening loss) and the finding is a warning; for a selected host or API it follows the rule "
    "(rejected: error; unclear: warning). An engine that is not installed (`toolcast[dialects]`) is reported as "
    "not checked, never guessed.",
    '{"type": "string", "pattern": "^[\\p{L} ]+$"}',
    '{"type": "string", "pattern": "^[A-Za-z\\u00C0-\\u024F ]+$"}',
)


# --- TC6xx: provider limits ----------------------------------------------------------------------
OPENAI_STRICT_PROPERTIES = _rule(
    "TC601",
    "openai-strict-properties",
    E,
    lambda: f"OpenAI strict: more than {openai_strict().properties:,} object properties in one schema.",
    "Structured Outputs limit.",
    lambda: '{"type": "object", "properties": {"p1": {}, "...": {}, '
            f'"p{openai_strict().properties + 1}": {{}}}}}}',
    '{"type": "object", "properties": {"p1": {"type": "string"}}}',
)
OPENAI_STRICT_DEPTH = _rule(
    "TC602",
    "openai-strict-depth",
    E,
    lambda: f"OpenAI strict: more than {openai_strict().depth} levels of object nesting.",
    "Structured Outputs limit.",
    lambda: '{"type": "object", "properties": {"a": {"type": "object", "properties": {"...": '
            f'"{openai_strict().depth + 1} levels"}}}}}}}}',
    '{"type": "object", "properties": {"a": {"type": "string"}}}',
)
OPENAI_STRICT_ENUM_VALUES = _rule(
    "TC603",
    "openai-strict-enum-values",
    E,
    lambda: f"OpenAI strict: more than {openai_strict().enum_values:,} enum values, or a string enum over "
            f"{openai_strict().large_enum_threshold:,} values whose values exceed "
            f"{openai_strict().large_enum_length:,} characters.",
    "Structured Outputs limit.",
    lambda: f'{{"type": "string", "enum": ["v1", "...", "v{openai_strict().enum_values + 1}"]}}',
    '{"type": "string", "description": "One of the codes listed in the docs."}',
)
OPENAI_STRICT_STRING_SIZE = _rule(
    "TC604",
    "openai-strict-string-size",
    E,
    lambda: "OpenAI strict: property names, definition names, enum and const values exceed "
            f"{openai_strict().total_string_length:,} characters in total.",
    "Structured Outputs limit.",
    lambda: f'{{"type": "string", "enum": ["<{openai_strict().total_string_length:,} characters of values>"]}}',
    '{"type": "string"}',
)
ANTHROPIC_STRICT_TOOLS = _rule(
    "TC605",
    "anthropic-strict-tools",
    E,
    lambda: f"Anthropic strict: more than {anthropic_strict().strict_tools} strict tools in one request.",
    lambda: "Anthropic's strict tool use compiles every strict schema of a request into one grammar; at most "
            f"{anthropic_strict().strict_tools} strict tools are allowed. Counted over the tools checked together "
            "in a file.",
    lambda: '[{"name": "t1", "x-toolcast": {"targets": {"anthropic": {"strict": true}}}}, '
            f'"... {anthropic_strict().strict_tools + 1} tools"]',
    '[{"name": "t1"}, "... only the tools that need strict"]',
)
ANTHROPIC_STRICT_OPTIONAL = _rule(
    "TC606",
    "anthropic-strict-optional",
    E,
    lambda: f"Anthropic strict: more than {anthropic_strict().optional_parameters} optional parameters across the "
            "strict tools of a request.",
    "Schema complexity limit of strict tool use.",
    lambda: '{"type": "object", "properties": {"o1": {}, "...": {}, '
            f'"o{anthropic_strict().optional_parameters + 1}": {{}}}}}}',
    '{"type": "object", "properties": {"o1": {}}, "required": ["o1"]}',
)
ANTHROPIC_STRICT_UNIONS = _rule(
    "TC607",
    "anthropic-strict-unions",
    E,
    lambda: f"Anthropic strict: more than {anthropic_strict().union_parameters} union-typed parameters across the "
            "strict tools of a request.",
    '`anyOf` and type arrays such as `["string", "null"]` count as unions.',
    lambda: '{"properties": {"u1": {"type": ["string", "null"]}, "...": {}, '
            f'"u{anthropic_strict().union_parameters + 1}": {{"anyOf": []}}}}}}',
    '{"properties": {"u1": {"type": "string"}}}',
)
GEMINI_FUNCTION_COUNT = _rule(
    "TC608",
    "gemini-function-count",
    E,
    lambda: f"Gemini: more than {gemini_declarations()} function declarations in one request.",
    lambda: f"The google-genai SDK documents at most {gemini_declarations()} function declarations.",
    lambda: f'[{{"name": "f1"}}, "... {gemini_declarations() + 1} tools"]',
    lambda: f'[{{"name": "f1"}}, "... at most {gemini_declarations()} tools"]',
)
DESCRIPTION_TOO_LONG = _rule(
    "TC609",
    "description-too-long",
    W,
    "The description exceeds a target's documented or observed length limit.",
    lambda: f"OpenAI has rejected tool descriptions over {provider('openai').names.description_max or 0:,} "
            "characters (`string_above_max_length`).",
    '{"name": "t", "description": "<1,100 characters>"}',
    lambda: f'{{"name": "t", "description": "<under {provider("openai").names.description_max or 0:,} characters>"}}',
)

# --- TC7xx: configuration ------------------------------------------------------------------------
CONFIG_UNKNOWN_KEY = _rule(
    "TC701",
    "config-unknown-key",
    E,
    "The toolcast configuration has a key toolcast does not know.",
    "Unknown keys are reported rather than ignored, so a typo cannot silently disable a setting. "
    "(Examples in TOML.)",
    '[tool.toolcast]\ntarget = ["openai"]',
    '[tool.toolcast]\ntargets = ["openai"]',
)
CONFIG_BAD_VALUE = _rule(
    "TC702",
    "config-bad-value",
    E,
    "A toolcast configuration key has a value of the wrong type or an unknown target, code or severity.",
    "Bad values are reported and the setting falls back to its default. (Examples in TOML.)",
    '[tool.toolcast]\ntargets = ["openia"]\nseverity = {TC501 = "loud"}',
    '[tool.toolcast]\ntargets = ["openai"]\nseverity = {TC501 = "warning"}',
)

CONFIG_UNKNOWN_CONSUMER = _rule(
    "TC703",
    "config-unknown-consumer",
    E,
    "`consumers` or `models` names a host, API or model that no consumer profile knows.",
    "The message lists the known names (`schemas/consumers/*.json`, and the model families of "
    "`schemas/consumers/models/*.json` with example model names). The unknown name is left out. (Examples in TOML.)",
    'consumers = ["vs-code"]\nmodels = ["gemini-pro-9"]',
    'consumers = ["vscode"]\nmodels = ["gemini-2.5-pro"]',
)

CONFIG_BAD_BUDGET = _rule(
    "TC706",
    "config-bad-budget",
    E,
    "A budget (`max_tokens`, `max_tools`) is not a positive whole number.",
    "A budget that is zero, negative, fractional or not a number cannot be met or checked; it is reported "
    "and no budget applies. (Examples in TOML.)",
    '[tool.toolcast]\nmax_tokens = "8k"\nmax_tools = 0',
    '[tool.toolcast]\nmax_tokens = 8000\nmax_tools = 40',
)

# --- TC8xx: request files (*.request.json, seed 004) -------------------------------------------------
REQUEST_FORMAT = _rule(
    "TC801",
    "request-format",
    E,
    "A request file does not have the canonical request shape.",
    "A `*.request.json` file (or any JSON object with `model` and `messages`) is a canonical request: "
    "`model`, `messages` of `{role, content}` with text / thinking / tool_call / tool_result blocks, optional "
    "`system`, `tools`, `thinking` (none, low, medium, high) and `max_output_tokens`. `toolcast request FILE "
    "--to TARGET` turns it into a provider's wire JSON.",
    '{"model": "claude-sonnet-4-5", "messages": [{"role": "system", "content": "Hi"}]}',
    '{"model": "claude-sonnet-4-5", "system": "Hi", "messages": [{"role": "user", "content": "Hello"}]}',
)
REQUEST_UNDEFINED_TOOL = _rule(
    "TC802",
    "request-undefined-tool",
    E,
    "A tool call names a tool the request does not define.",
    "Providers reject a conversation whose tool calls name tools missing from `tools`.",
    '{"model": "m", "tools": [], "messages": [{"role": "assistant", "content": [{"type": "tool_call", '
    '"id": "c1", "name": "get_weather", "arguments": {}}]}]}',
    '{"model": "m", "tools": [{"name": "get_weather", "parameters": {"type": "object"}}], "messages": [...]}',
)
REQUEST_ORPHAN_TOOL_RESULT = _rule(
    "TC803",
    "request-orphan-tool-result",
    E,
    "A tool result answers a call that no earlier message makes.",
    "Every provider pairs a tool result with the call it answers (Anthropic `tool_use_id`, OpenAI "
    "`tool_call_id`, Gemini the function's name), so an unmatched result is rejected or cannot be sent.",
    '{"type": "tool_result", "call_id": "c9", "content": "18 C"}',
    '{"type": "tool_result", "call_id": "c1", "content": "18 C"}',
)
REQUEST_THINKING_UNSUPPORTED = _rule(
    "TC804",
    "request-thinking-unsupported",
    W,
    "The request asks for thinking and toolcast knows no thinking configuration for its model.",
    "Thinking budgets and levels come from `schemas/models.json` (seed 004's formulas); for a Claude or "
    "Gemini model not in it, `toolcast request` cannot write the thinking configuration.",
    '{"model": "claude-2", "thinking": "high", "messages": []}',
    '{"model": "claude-sonnet-4-5", "thinking": "high", "messages": []}',
)
REQUEST_INVALID_ARGUMENTS = _rule(
    "TC805",
    "request-invalid-arguments",
    E,
    "A tool call's arguments do not validate against the tool's parameters.",
    "The arguments are checked against the tool's original `parameters` (JSON Schema 2020-12, no remote "
    "references), as a program receiving the call would.",
    '{"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {"city": 5}}',
    '{"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}',
)
REQUEST_ANTHROPIC_THINKING_HISTORY = _rule(
    "TC806",
    "request-anthropic-thinking-history",
    E,
    "With thinking on, the last assistant turn that used a tool lacks its signed thinking block (Anthropic).",
    "While a tool loop is running (the last assistant turn made tool calls and only their results follow), "
    "Anthropic with thinking enabled requires that turn to start with the thinking block the response "
    "returned, signature included; the API rejects the request otherwise. Checked for Claude models.",
    '{"role": "assistant", "content": [{"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {}}]}',
    '{"role": "assistant", "content": [{"type": "thinking", "text": "...", "signature": "EqQB..."}, '
    '{"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {}}]}',
)
REQUEST_TOOL_RESULT_ORDER = _rule(
    "TC807",
    "request-tool-result-order",
    E,
    "A tool call is not answered in the next message, or a result is not right after its call.",
    "Providers pair calls and results by position: OpenAI needs a tool message for every call right after "
    "the assistant message, Anthropic the `tool_result` blocks in the next user turn (before any text), "
    "Gemini the function responses in the next turn.",
    '[{"role": "assistant", "content": [{"type": "tool_call", "id": "c1", ...}]}, {"role": "user", "content": "Hm?"}]',
    '[{"role": "assistant", "content": [{"type": "tool_call", "id": "c1", ...}]}, '
    '{"role": "user", "content": [{"type": "tool_result", "call_id": "c1", "content": "18 C"}]}]',
)
REQUEST_GEMINI_THOUGHT_SIGNATURE = _rule(
    "TC808",
    "request-gemini-thought-signature",
    E,
    "A Gemini 3 request does not send back the thought signature of a function call in the current turn.",
    "Gemini 3 returns a thought signature on the first function call of each step and rejects a request "
    "whose current turn (since the last user text) leaves it out. Keep the tool call's `signature` as "
    "`toolcast response` gives it.",
    '{"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {}}',
    '{"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": {}, "signature": "Cj4B..."}',
)

# --- TC9xx: consumers (schemas/consumers) --------------------------------------------------------------
_CONSUMER_WHY = (
    "Each finding names the consumer and the source of its rule (a docs URL, a source file at a commit or an "
    "issue) with its confidence: documented, observed (an error quoted in a public report) or unclear (sources "
    "disagree; never more than a warning). Consumer rules run only for the hosts and models selected with "
    "`consumers`/`models` (or `--for`/`--model`)."
)
PROVIDER_TOOL_COUNT = _rule(
    "TC901",
    "provider-tool-count",
    E,
    "More tools in one file or server than a provider accepts in one request.",
    lambda: "The provider's own limit (`limits.max_tools` in its profile), so it is checked without a consumer: "
    "OpenAI answers `Invalid 'tools': array too long. Expected an array with maximum length "
    f"{openai_max_tools()}` (zed-industries/zed#32946, anomalyco/opencode#4909).",
    '{"tools": ["... 150 tools"]}',
    lambda: f'{{"tools": ["... at most {openai_max_tools()} tools, or split them across agents"]}}',
)
CONSUMER_TOOL_COUNT = _rule(
    "TC902",
    "consumer-tool-count",
    E,
    "More tools than a selected host or API sends or accepts in one request.",
    lambda: f"VS Code's Copilot stops at {consumer_max('vscode', 'tool-limit')} tools, Groq at "
    f"{consumer_max('groq', 'tool-limit')}, xAI at {consumer_max('xai', 'tool-limit')}; Cursor and Windsurf send only "
    "part of a long list (their limits are unclear, so the finding is a warning). " + _CONSUMER_WHY,
    '{"tools": ["... 150 tools"]}  // consumers = ["vscode"]',
    lambda: f'{{"tools": ["... at most {consumer_max("vscode", "tool-limit")} tools"]}}',
)
CONSUMER_NAME_LENGTH = _rule(
    "TC903",
    "consumer-name-length",
    E,
    "A tool name is too long once a host adds its prefix, or for a selected model.",
    lambda: "Claude Code sends `mcp__<server>__<tool>` and the API rejects it over "
    f"{consumer_max('claude-code', 'prefixed-name')} characters (anthropics/claude-code#2326); Cursor filters tools "
    f"whose server and tool names together reach {consumer_max('cursor', 'combined-name') + 1}; VS Code cuts "
    f"silently at {consumer_max('vscode', 'name-cut')}; Codex CLI and Gemini CLI rename (a hash, or a cut in the "
    f"middle). Gemini 2.x models have rejected names over {consumer_max('gemini-2', 'name-64')} "
    "(google-gemini/gemini-cli#7869). The server name is the one the host is configured "
    "with: `server_name` in the configuration or `--server-name`. " + _CONSUMER_WHY,
    '{"name": "search_repository_issues_and_pull_requests_by_label_name"}  // server "github"',
    '{"name": "search_issues_by_label"}',
)
CONSUMER_ARRAY_ITEMS = _rule(
    "TC904",
    "consumer-array-items",
    E,
    "An array schema has no `items` (a tuple with `prefixItems` only counts), which a selected host rejects.",
    "VS Code's Copilot fails the whole request: `Failed to validate tool …: tool parameters array type must have "
    "items` (microsoft/vscode#246119), at any depth. Pydantic writes tuples as `prefixItems` without `items`. "
    + _CONSUMER_WHY,
    '{"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}}}',  # noqa: E501
    '{"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}}}',  # noqa: E501
)
CONSUMER_META_SCHEMA = _rule(
    "TC905",
    "consumer-meta-schema",
    E,
    "The parameters schema is not valid under the JSON Schema draft a selected host validates against.",
    "VS Code validates every MCP `inputSchema` against draft-07 and omits the tools that fail. " + _CONSUMER_WHY,
    '{"type": "object", "properties": {"n": {"type": "integer", "minimum": "0"}}}',
    '{"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}}',
)
CONSUMER_UNTYPED_SCHEMA = _rule(
    "TC906",
    "consumer-untyped-schema",
    E,
    "A schema node has no `type` where a selected host or model needs one.",
    "Gemini CLI skipped such tools (`… because it has missing types in its parameter schema`, "
    "arben-adm/mcp-sequential-thinking#12); Gemini 3 rejects `TYPE_UNSPECIFIED` nodes sent through `parameters` "
    "(UKGovernmentBEIS/inspect_ai#3097). " + _CONSUMER_WHY,
    '{"type": "object", "properties": {"value": {"description": "any JSON value"}}}',
    '{"type": "object", "properties": {"value": {"type": "string", "description": "a JSON-encoded value"}}}',
)
CONSUMER_STRICT_UNSUPPORTED = _rule(
    "TC907",
    "consumer-strict-unsupported",
    E,
    "A strict tool is sent to a model that rejects `strict`.",
    "On Bedrock Converse, Claude Opus 4.7/4.8, Sonnet 4 and Sonnet 5 answer `tools.0.custom.strict: Extra inputs "
    "are not permitted` (BerriAI/litellm#31585). " + _CONSUMER_WHY,
    '{"toolSpec": {"name": "t", "strict": true, "inputSchema": {"json": {"type": "object"}}}}  // us.anthropic.claude-opus-4-7',  # noqa: E501
    '{"toolSpec": {"name": "t", "inputSchema": {"json": {"type": "object"}}}}',
)
CONSUMER_STRICT_KEYWORD = _rule(
    "TC908",
    "consumer-strict-keyword",
    E,
    "A strict tool uses a keyword that a selected model or API rejects in strict mode.",
    "On Bedrock, Claude Sonnet 4.6 with `strict` rejects `maxItems`: `tools.1.custom: For 'array' type, property "
    "'maxItems' is not supported` (BerriAI/litellm#39115). " + _CONSUMER_WHY,
    '{"type": "array", "items": {"type": "string"}, "maxItems": 5}',
    '{"type": "array", "items": {"type": "string"}, "description": "at most 5"}',
)
CONSUMER_TOOLS_UNSUPPORTED = _rule(
    "TC909",
    "consumer-tools-unsupported",
    E,
    "Tools are sent to a model that does not support tool use.",
    "Bedrock's supported-features table lists tool use: No for Titan text, Claude 2.x and Instant, "
    "Jamba-Instruct and Cohere Command Text/Light. " + _CONSUMER_WHY,
    '{"name": "get_weather", "parameters": {"type": "object"}}  // amazon.titan-text-express-v1',
    '// a model with tool use, e.g. anthropic.claude-3-5-sonnet-20240620-v1:0',
)

CONSUMER_ENUM_VALUE = _rule(
    "TC910",
    "consumer-enum-value",
    E,
    "An `enum` holds a value a selected API or host rejects (an empty string, null).",
    "xAI answers `Client specified an invalid argument` when an `enum` holds null (tailcallhq/forgecode#2809). "
    "Where a provider itself rejects the value (Gemini: `enum[3]: cannot be empty`, Smana/runlore#40), "
    "`convert` leaves the member out and reports the loss instead. " + _CONSUMER_WHY,
    '{"type": "string", "enum": ["content", "count", null]}  // consumers = ["xai"]',
    '{"anyOf": [{"type": "string", "enum": ["content", "count"]}, {"type": "null"}]}',
)
CONSUMER_INTEGER_RANGE = _rule(
    "TC911",
    "consumer-integer-range",
    E,
    "An integer bound is outside the range a selected API, host or model accepts.",
    "Bedrock answers `input_schema: int too big to convert` for zod's bound 9007199254740991 "
    "(tailcallhq/forgecode#3308). Where the provider's own profile states the range, `convert` drops the bound "
    "and reports the loss instead. " + _CONSUMER_WHY,
    '{"type": "string", "maxLength": 9007199254740991}',
    '{"type": "string"}',
)
CONSUMER_TYPE_WITH_COMPOSITION = _rule(
    "TC912",
    "consumer-type-with-composition",
    E,
    "A schema node has both `type` and `anyOf`/`oneOf`, which a selected host refuses.",
    "Gemini CLI answered `type and anyOf cannot be both populated` and registered none of the server's tools "
    "(evcc-io/evcc#22400). " + _CONSUMER_WHY,
    '{"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]}',
    '{"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}]}',
)
CONSUMER_BUDGET = _rule(
    "TC913",
    "consumer-budget",
    E,
    "A tool's schema is over a complexity budget of a provider or selected model (depth, `maxItems` added up, "
    "`enum` text, size, properties).",
    "Such a budget fails the whole request with an error that names no tool. Gemini 3 refused a tool whose "
    "`maxItems` added up to 960 (googleapis/python-genai#2170). Budgets nobody documents are `observed`, and the "
    "message says so; `toolcast convert --model` refuses a tool over its model's budget. " + _CONSUMER_WHY,
    '{"type": "object", "properties": {"a": {"type": "array", "maxItems": 500}, "b": {"type": "array", "maxItems": 500}}}',  # noqa: E501
    '{"type": "object", "properties": {"a": {"type": "array", "description": "at most 500 items"}, "b": {"type": "array"}}}',  # noqa: E501
)

# --- TC92x: consumers, continued: names after a host's prefix, rewrites per model family ------------------
CONSUMER_NAME_CHARS = _rule(
    "TC920",
    "consumer-name-chars",
    E,
    "A tool name has characters a provider rejects once a host adds its prefix (the server's name included).",
    "Roo Code sent `mcp--<server>--<tool>` keeping the dots of a server named `awslabs.aws-documentation-mcp-server`, "
    "and Bedrock answered `Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+` "
    "(RooCodeInc/Roo-Code#10152); GitHub Copilot CLI sends `<server>-<tool>`, which Claude models reject with a "
    "`.` or `/` in it (github/copilot-cli#1879). The server name is the one the host is configured with: "
    "`server_name` in the configuration or `--server-name` (with `--mcp`, the name the server reports). "
    + _CONSUMER_WHY,
    '{"name": "read_documentation"}  // server "awslabs.aws-documentation-mcp-server", consumers = ["roo-code"]',
    '{"name": "read_documentation"}  // server "aws-documentation"',
)
CONSUMER_KEYWORD = _rule(
    "TC921",
    "consumer-keyword",
    W,
    "A schema keyword that a selected host removes (or a model rejects) before the model sees the tool.",
    "Copilot removes `minLength`, `pattern`, `format`, `minimum`, `maxItems` and other validation keywords at every "
    "depth for GPT-4 models (`gpt4oUnsupportedSchemaKeywords` in its schema normalizer), so the model is not told "
    "the constraint. Judged for the model named with `models` (or `--model`). " + _CONSUMER_WHY,
    '{"type": "string", "pattern": "^[A-Z]{3}$"}  // consumers = ["vscode"], models = ["gpt-4.1"]',
    '{"type": "string", "pattern": "^[A-Z]{3}$", "description": "three capital letters, e.g. ABC"}',
)
CONSUMER_DESCRIPTION_LENGTH = _rule(
    "TC922",
    "consumer-description-length",
    W,
    "A schema description longer than a selected host or model keeps.",
    "Copilot cuts every schema node's `description` to 1024 characters for GPT-4 models (`gpt4oMaxStringLength`), "
    "so what follows is never read. " + _CONSUMER_WHY,
    '{"type": "string", "description": "... 1500 characters"}  // consumers = ["vscode"], models = ["gpt-4o"]',
    '{"type": "string", "description": "... at most 1024 characters"}',
)
CONSUMER_TYPE_LIST = _rule(
    "TC923",
    "consumer-type-list",
    E,
    "A `type` list with \"null\" that a selected host and model reject or rewrite.",
    "GitHub Copilot CLI with a Gemini model fails every request with `400 Bad Request` when one tool's array "
    "`items` has `type: [\"object\", \"null\"]`; GPT and Claude models accept it (github/copilot-cli#4623). VS Code's "
    "Copilot removes \"null\" from a list of two or more other types for Gemini models, so the field is no longer "
    "nullable (a warning). " + _CONSUMER_WHY,
    '{"type": "array", "items": {"type": ["object", "null"], "properties": {"a": {"type": "string"}}}}',
    '{"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}',
)

CONSUMER_ROOT_PROPERTIES = _rule(
    "TC924",
    "consumer-root-properties",
    E,
    "A tool's parameters are an object without `properties`, which a selected host sends as it is to a model that "
    "rejects it.",
    "OpenAI refuses a tool whose parameters are `{\"type\": \"object\"}` alone: `Invalid schema for function "
    "'...': In context=(), object schema missing properties.` GitHub Copilot CLI passes an MCP tool with no "
    "arguments that way to GPT models, and every prompt fails (github/copilot-cli#2223, github/copilot-cli#1825); "
    "Codex rejected such tools too (nnemirovsky/iwdp-mcp#3). `toolcast convert` adds `properties: {}` for OpenAI "
    "(TC108); a host does not. " + _CONSUMER_WHY,
    '{"type": "object"}',
    '{"type": "object", "properties": {}}',
)

# --- TC9xx: request budgets (configured in toolcast.toml) -------------------------------------------------
TOKEN_BUDGET = _rule(
    "TC930",
    "token-budget",
    W,
    "The tools of a file (or MCP server) take more tokens than the configured `max_tokens` for a target.",
    "Tool definitions are sent with every request and take context before the conversation starts. The "
    "estimate is the tokens of the definitions as toolcast converts them for the target, counted with the "
    "model family's encoding (OpenAI: the text the API renders for the tools, in the mode they are sent; "
    "providers whose tokenizer is not public: an OpenAI encoding that approximates it), plus what a request "
    "adds once (Anthropic and Bedrock: the tool-use system prompt of the model named in `models`, the low end "
    "of its range when none is). Checked only when `max_tokens` is set; needs the `toolcast[tokens]` extra. "
    "The finding is on the tool where the running total passes the budget.",
    '# toolcast.toml\nmax_tokens = 100\n# tools.json: 3 tools, ≈ 240 tokens for OpenAI',
    '# toolcast.toml\nmax_tokens = 300\n# or shorter descriptions, or fewer tools per request',
)
TOOL_COUNT_BUDGET = _rule(
    "TC931",
    "tool-count-budget",
    W,
    "A file (or MCP server) has more tools than the configured `max_tools`.",
    "Models choose worse among many tools, and hosts and APIs cap the number per request. `max_tools` in "
    "toolcast.toml sets the project's own cap; the finding is on the first tool over it.",
    '# toolcast.toml\nmax_tools = 2\n# tools.json: 3 tools',
    '# toolcast.toml\nmax_tools = 40',
)
TOKEN_BUDGET_UNAVAILABLE = _rule(
    "TC932",
    "token-budget-unavailable",
    W,
    "`max_tokens` is set but token counts are not available (install toolcast[tokens]).",
    "The token budget needs the tokenizer of the optional extra `toolcast[tokens]`; without it the budget is "
    "not checked, and this finding says so rather than passing silently.",
    '# toolcast.toml\nmax_tokens = 8000\n# pip install toolcast',
    "# pip install 'toolcast[tokens]'",
)
