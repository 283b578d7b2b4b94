"""Checks of one tool object. Everything here is a function of the tool object's value, its shape,
where its fields sit, the configuration and the workspace folder, so results are remembered by content
(in the caller's ``Analyzer``) and an edit re-checks only the tool it touched. Pointers in the results
are relative to the tool object; the engine rebases them and turns them into spans and fixes."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .. import pointer as jp
from ..convert.accept import root_problem, strict_sizes
from ..providers import DISPLAY_NAMES, effective_strict
from ..rules.codes import (
    ARRAY_WITHOUT_ITEMS,
    DEFAULT_INVALID,
    DESCRIPTION_MISSING,
    DESCRIPTION_NOT_STRING,
    DESCRIPTION_TOO_LONG,
    DOCUMENT_TOO_LARGE,
    EMPTY_OBJECT,
    EXAMPLE_INVALID,
    LEGACY_PARAMETER_MAP,
    NAME_FORMAT,
    NAME_INVALID_FOR_TARGET,
    NAME_MISSING,
    NAME_NOT_STRING,
    OPENAI_STRICT_DEPTH,
    OPENAI_STRICT_ENUM_VALUES,
    OPENAI_STRICT_PROPERTIES,
    OPENAI_STRICT_STRING_SIZE,
    PARAMETERS_MISSING,
    PARAMETERS_NOT_OBJECT,
    PARAMETERS_TYPE_NOT_OBJECT,
    PROPERTIES_MISSING,
    PROPERTY_TYPE_INVALID,
    PROPERTY_TYPE_MISSING,
    REF_REMOTE,
    REF_UNRESOLVABLE,
    REQUIRED_UNDEFINED,
    SCHEMA_INVALID,
)
from ..schema.walk import BudgetExceeded, subschemas, types_of
from ..targets import TargetOptions
from .caches import Caches
from .config import CheckConfig
from .edits import FixSpec, Op
from .raw import Raw, ToolFacts, ToolResult
from .target_rules import name_rule
from .validation import Validation
from .workspace_files import WorkspaceFiles

_JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
_TYPE_FIXES = {
    "str": "string",
    "text": "string",
    "int": "integer",
    "long": "integer",
    "float": "number",
    "double": "number",
    "decimal": "number",
    "bool": "boolean",
    "dict": "object",
    "map": "object",
    "list": "array",
    "tuple": "array",
    "none": "null",
}
_TYPE_GIVERS = ("$ref", "enum", "const", "anyOf", "oneOf", "allOf", "not", "if", "$dynamicRef")
_PORTABLE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def strict_for(target: str, tool: Any, shape: str | None, options: TargetOptions) -> bool:
    """Effective strictness, the converter's own rule (``providers.effective_strict``) applied to the raw
    tool: its ``x-toolcast.targets`` overrides and its own flag under its shape."""
    overrides: dict[str, Any] = {}
    if isinstance(tool, dict):
        ext = tool.get("x-toolcast")
        if isinstance(ext, dict) and isinstance(ext.get("targets"), dict):
            overrides.update({k: v for k, v in ext["targets"].items() if isinstance(v, dict)})
        own = tool.get("function", tool).get("strict") if isinstance(tool.get("function"), dict) \
            else tool.get("strict")
        if shape is not None and isinstance(own, bool) and shape not in overrides:
            overrides[shape] = {"strict": own}
    return effective_strict(target, overrides, shape, options)


def _override_name(tool: Any, target: str) -> str | None:
    ext = tool.get("x-toolcast") if isinstance(tool, dict) else None
    targets = ext.get("targets") if isinstance(ext, dict) else None
    over = targets.get(target) if isinstance(targets, dict) else None
    name = over.get("name") if isinstance(over, dict) else None
    return name if isinstance(name, str) else None


def _parent(pointer: str) -> str:
    parts = jp.parts(pointer)
    return jp.from_parts(parts[:-1])


def _last(pointer: str) -> str:
    parts = jp.parts(pointer)
    return parts[-1] if parts else ""


def check_tool(
    value: Any,
    shape: str | None,
    fields: Mapping[str, str],
    config: CheckConfig,
    base_dir: str | None = None,
    content: str | None = None,
    *,
    analyzer: Caches | None = None,
) -> ToolResult:
    """All per-tool findings (pointers relative to the tool object), remembered by content in the
    ``analyzer`` (none: a fresh one, nothing reused): ``content`` is the tool's source text when the
    caller has it (cheaper than serialising ``value``)."""
    if analyzer is None:
        analyzer = Caches()
    if content is None:
        try:
            content = json.dumps(value, ensure_ascii=False, allow_nan=True)
        except (TypeError, ValueError):
            content = repr(value)
    # A digest, not the text: the cache would otherwise keep a copy of every tool's text.
    digest = hashlib.blake2b(content.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    key = (digest, len(content), shape, tuple(sorted(fields.items())), config.cache_key(), base_dir)
    hit = analyzer.tool_results.hit(key)
    if hit is not None:
        return hit
    result = _ToolChecker(value, shape, fields, config, base_dir, analyzer.workspace_files).run()
    analyzer.tool_results.keep(key, result)
    return result


class _ToolChecker:
    def __init__(
        self,
        value: Any,
        shape: str | None,
        fields: Mapping[str, str],
        config: CheckConfig,
        base_dir: str | None,
        files: WorkspaceFiles | None = None,
    ) -> None:
        self.files = files
        self.value = value
        self.shape = shape or "canonical"
        self.fields = fields
        self.config = config
        self.base_dir = base_dir
        self.raws: list[Raw] = []
        self.optional = 0
        self.unions = 0

    def add(self, raw: Raw) -> None:
        if self.config.is_enabled(raw.code):  # a finding the configuration turns off is not kept
            self.raws.append(raw)

    def field_ptr(self, name: str) -> str:
        return self.fields.get(name, "/" + name)

    def run(self) -> ToolResult:
        name = self.check_discovery()
        params_ptr = self.field_ptr("parameters")
        params = jp.resolve(self.value, params_ptr, None)
        if self.shape == "legacy":
            self.check_legacy(params_ptr, params)
        elif isinstance(params, dict):
            self.check_schema_tree(params_ptr, params, is_parameters=True)
        returns_ptr = self.field_ptr("returns")
        returns = jp.resolve(self.value, returns_ptr, None)
        if isinstance(returns, (dict, bool)) and self.shape != "legacy":
            self.check_schema_tree(returns_ptr, returns, is_parameters=False)
        target_names = self.check_names(name)
        self.check_descriptions()
        self.check_losses()
        self.check_consumers(name)
        anthropic_strict = "anthropic" in self.config.targets and strict_for(
            "anthropic", self.value, self.shape, self.config.options_for("anthropic")
        )
        facts = ToolFacts(name, target_names, anthropic_strict, self.optional, self.unions)
        return ToolResult(tuple(self.raws), facts)

    def check_consumers(self, name: str | None) -> None:
        """TC9xx: what the selected hosts, APIs and models do to this tool (``consumer_checks``)."""
        if not (self.config.consumers or self.config.models):
            return
        from .consumer_checks import tool_raws  # it builds on this module's `Raw`

        for raw in tool_raws(self.value, self.shape, self.fields, name, self.config):
            self.add(raw)

    # --- TC1xx ------------------------------------------------------------------------------------
    def check_discovery(self) -> str | None:
        name_ptr, desc_ptr, params_ptr = (self.field_ptr(f) for f in ("name", "description", "parameters"))
        name = jp.resolve(self.value, name_ptr, None)
        if name is None and not _exists(self.value, name_ptr):
            self.add(Raw(NAME_MISSING, "the tool has no `name`", name_ptr, "missing"))
        elif not isinstance(name, str):
            self.add(Raw(NAME_NOT_STRING, f"`name` must be a string, not {_kind(name)}", name_ptr))
        desc = jp.resolve(self.value, desc_ptr, None)
        if not _exists(self.value, desc_ptr):
            self.add(Raw(DESCRIPTION_MISSING, "the tool has no `description`", desc_ptr, "missing"))
        elif not isinstance(desc, str):
            self.add(Raw(DESCRIPTION_NOT_STRING, f"`description` must be a string, not {_kind(desc)}", desc_ptr))
        params = jp.resolve(self.value, params_ptr, None)
        if not _exists(self.value, params_ptr):
            parent = _parent(params_ptr)
            fixes: tuple[FixSpec, ...] = ()
            if isinstance(jp.resolve(self.value, parent, None), dict):
                fixes = (
                    FixSpec(
                        "Add an empty `parameters` schema",
                        (Op("add", parent, {"type": "object", "properties": {}}, key=_last(params_ptr)),),
                    ),
                )
            self.add(
                Raw(
                    PARAMETERS_MISSING,
                    f"the tool has no `{_last(params_ptr)}` schema",
                    params_ptr,
                    "missing",
                    fixes=fixes,
                )
            )
        elif not isinstance(params, dict):
            self.add(
                Raw(PARAMETERS_NOT_OBJECT, f"`{_last(params_ptr)}` must be an object, not {_kind(params)}", params_ptr)
            )
        elif self.shape != "legacy" and (problem := root_problem(params)) is not None:
            # The output's judge (``convert.accept``) refuses such a root by the same function, so the check
            # of the source and the refusal of the output say the same thing.
            if "type" not in params:
                self.add(
                    Raw(
                        PARAMETERS_TYPE_NOT_OBJECT,
                        problem,
                        jp.join(params_ptr, "type"),
                        "missing",
                        fixes=(
                            FixSpec('Add `"type": "object"`', (Op("add", params_ptr, "object", key="type"),)),
                        ),
                    )
                )
            else:
                self.add(
                    Raw(
                        PARAMETERS_TYPE_NOT_OBJECT,
                        problem,
                        jp.join(params_ptr, "type"),
                        fixes=(
                            FixSpec(
                                'Set `"type": "object"`',
                                (Op("replace", jp.join(params_ptr, "type"), "object"),),
                            ),
                        ),
                    )
                )
        if self.shape != "legacy" and isinstance(params, dict) and "properties" not in params and not any(
            k in params for k in ("anyOf", "oneOf", "allOf", "$ref")
        ):
            self.add(
                Raw(
                    PROPERTIES_MISSING,
                    "`parameters` has no `properties`",
                    jp.join(params_ptr, "properties"),
                    "missing",
                    fixes=(
                        FixSpec('Add `"properties": {}`', (Op("add", params_ptr, {}, key="properties"),)),
                    ),
                )
            )
        return name if isinstance(name, str) else None

    # --- TC4xx ------------------------------------------------------------------------------------
    def check_legacy(self, ptr: str, params: Any) -> None:
        if not isinstance(params, dict):
            return
        props: dict[str, Any] = {}
        required: list[str] = []
        for pname, spec in params.items():
            if isinstance(spec, dict):
                spec = dict(spec)
                if spec.pop("required", False) is True:
                    required.append(pname)
            props[pname] = spec
        schema: dict[str, Any] = {"type": "object", "properties": props}
        if required:
            schema["required"] = required
        self.add(
            Raw(
                LEGACY_PARAMETER_MAP,
                "`parameters` is a legacy parameter map, not JSON Schema",
                ptr,
                "key",
                fixes=(FixSpec("Rewrite `parameters` as JSON Schema", (Op("replace", ptr, schema),)),),
            )
        )
        for pname, spec in params.items():
            if isinstance(spec, dict):
                self.check_type_keyword(jp.join(ptr, pname), spec, property_name=pname)

    # --- TC1xx types, TC3xx ---------------------------------------------------------------------
    def check_type_keyword(self, ptr: str, schema: dict[str, Any], property_name: str | None) -> None:
        gemini_shape = self.shape == "gemini"
        if "type" not in schema:
            if property_name is not None and not any(k in schema for k in _TYPE_GIVERS):
                self.add(
                    Raw(
                        PROPERTY_TYPE_MISSING,
                        f"parameter `{property_name}` has no `type`",
                        jp.join(ptr, "type"),
                        "missing",
                    )
                )
            return
        t = schema["type"]
        values = t if isinstance(t, list) else [t]
        for i, v in enumerate(values):
            vptr = jp.join(ptr, "type", i) if isinstance(t, list) else jp.join(ptr, "type")
            ok = isinstance(v, str) and (v in _JSON_TYPES or (gemini_shape and v.lower() in _JSON_TYPES))
            if ok:
                continue
            guess = _TYPE_FIXES.get(v.lower()) if isinstance(v, str) else None
            if isinstance(v, str) and guess is None and v.lower() in _JSON_TYPES:
                guess = v.lower()
            fixes = (
                (FixSpec(f'Change the type to "{guess}"', (Op("replace", vptr, guess),)),) if guess else ()
            )
            what = f"parameter `{property_name}`" if property_name else "the schema"
            self.add(
                Raw(
                    PROPERTY_TYPE_INVALID,
                    f"{what} has type {json.dumps(v, ensure_ascii=False)}, which is not a JSON "
                    f"Schema type ({', '.join(_JSON_TYPES)})",
                    vptr,
                    fixes=fixes,
                )
            )

    def check_schema_tree(self, root_ptr: str, root: Any, *, is_parameters: bool) -> None:
        gemini_openapi = self.shape == "gemini" and _last(root_ptr) == "parameters"
        validation = Validation(root, self.base_dir, self.files)
        if not gemini_openapi:
            for rel, message in validation.meta_errors():
                self.add(Raw(SCHEMA_INVALID, f"invalid JSON Schema: {message}", root_ptr + rel))
        if validation.too_deep:
            self.add(
                Raw(DOCUMENT_TOO_LARGE, "schema nested too deeply to validate against the meta-schema", root_ptr, "key")
            )
        openai_items = [t for t in ("openai", "openai-responses", "gemini") if t in self.config.targets]
        gemini_on = "gemini" in self.config.targets
        try:
            for rel, node, _depth in subschemas(root):
                ptr = root_ptr + rel
                parent_key = _last(_parent(rel)) if rel else ""
                is_property = parent_key == "properties"
                self.check_type_keyword(ptr, node, _last(rel) if is_property else None)
                self.count_params(rel, node)
                self.check_required(ptr, node)
                ref = node.get("$ref")
                if isinstance(ref, str):
                    problem = validation.ref_problem(ref)
                    if problem == "remote":
                        self.add(
                            Raw(REF_REMOTE, f"remote `$ref` {ref!r} is never fetched", jp.join(ptr, "$ref"))
                        )
                    elif problem:
                        self.add(
                            Raw(
                                REF_UNRESOLVABLE, f"`$ref` {ref!r} cannot be resolved: {problem}", jp.join(ptr, "$ref")
                            )
                        )
                if "default" in node and not gemini_openapi:
                    err = validation.instance_error(rel, node["default"])
                    if err:
                        self.add(
                            Raw(
                                DEFAULT_INVALID,
                                f"`default` does not match its schema: {err}",
                                jp.join(ptr, "default"),
                            )
                        )
                types = types_of(node)
                if "array" in types and "items" not in node and "prefixItems" not in node and openai_items:
                    self.add(
                        Raw(
                            ARRAY_WITHOUT_ITEMS,
                            f"array has no `items` ({_targets_text(openai_items)} require it)",
                            jp.join(ptr, "items"),
                            "missing",
                            data={"targets": openai_items},
                            fixes=(
                                FixSpec(
                                    'Add `"items": {"type": "string"}`',
                                    (Op("add", ptr, {"type": "string"}, key="items"),),
                                ),
                            ),
                        )
                    )
                if (
                    rel
                    and gemini_on
                    and types == {"object"}
                    and not node.get("properties")
                    and not any(k in node for k in ("anyOf", "oneOf", "allOf", "$ref"))
                ):
                    self.add(
                        Raw(
                            EMPTY_OBJECT,
                            "object schema has no properties (Gemini rejects it: "
                            '"properties: should be non-empty for OBJECT type")',
                            ptr,
                            "value",
                            target="gemini",
                        )
                    )
        except BudgetExceeded as exc:
            self.add(Raw(DOCUMENT_TOO_LARGE, f"schema not fully checked: {exc.what}", root_ptr + exc.pointer))
        if is_parameters:
            self.check_examples(validation)
            self.check_openai_limits(root_ptr, root)

    def count_params(self, rel: str, node: dict[str, Any]) -> None:
        props = node.get("properties")
        if isinstance(props, dict):
            req = node.get("required") if isinstance(node.get("required"), list) else []
            assert isinstance(req, list)
            self.optional += sum(1 for p in props if p not in req)
            for sub in props.values():
                if isinstance(sub, dict) and ("anyOf" in sub or isinstance(sub.get("type"), list)):
                    self.unions += 1

    def check_required(self, ptr: str, node: dict[str, Any]) -> None:
        req, props = node.get("required"), node.get("properties")
        if not isinstance(req, list) or not isinstance(props, dict):
            return
        if any(
            k in node
            for k in ("allOf", "anyOf", "oneOf", "$ref", "if", "dependentSchemas", "patternProperties")
        ):
            return
        for i, r in enumerate(req):
            if isinstance(r, str) and r not in props:
                self.add(
                    Raw(
                        REQUIRED_UNDEFINED,
                        f"`required` names `{r}`, which is not defined in `properties`",
                        jp.join(ptr, "required", i),
                        fixes=(
                            FixSpec(
                                f"Remove `{r}` from `required`", (Op("remove", jp.join(ptr, "required", i)),)
                            ),
                            FixSpec(
                                f"Define property `{r}` (as a string)",
                                (Op("add", jp.join(ptr, "properties"), {"type": "string"}, key=r),),
                            ),
                        ),
                    )
                )

    def check_examples(self, validation: Validation) -> None:
        for key in ("examples", "input_examples"):
            examples = self.value.get(key) if isinstance(self.value, dict) else None
            if not isinstance(examples, list):
                continue
            for i, ex in enumerate(examples):
                # Canonical examples may be {"arguments": {...}} records or bare argument objects.
                args = (
                    ex.get("arguments")
                    if isinstance(ex, dict) and isinstance(ex.get("arguments"), dict)
                    else ex
                )
                base = jp.join("", key, i, "arguments") if args is not ex else jp.join("", key, i)
                err = validation.instance_error("", args, with_path=True)
                if err:
                    path = validation.last_error_path
                    where = base + path if _exists(self.value, base + path) else base
                    self.add(Raw(EXAMPLE_INVALID, f"example {i} does not match `parameters`: {err}", where))

    def check_openai_limits(self, ptr: str, root: Any) -> None:
        targets = [
            t
            for t in ("openai", "openai-responses")
            if t in self.config.targets and strict_for(t, self.value, self.shape, self.config.options_for(t))
        ]
        if not targets or not isinstance(root, dict):
            return
        try:
            # The output's judge counts with the same function (`strict-limits`): a source over a limit is
            # refused by `convert` as well.
            sizes = strict_sizes(root)
        except BudgetExceeded:
            return
        props, depth, enum_values, string_size, big_enum = (
            sizes.properties, sizes.depth, sizes.enum_values, sizes.string_size, sizes.big_enum)
        who = _targets_text(targets)
        data = {"targets": targets}
        if props > 5000:
            self.add(
                Raw(
                    OPENAI_STRICT_PROPERTIES,
                    f"{who} strict: {props} object properties (at most 5,000)",
                    ptr,
                    "key",
                    data=data,
                )
            )
        if depth > 10:
            self.add(
                Raw(OPENAI_STRICT_DEPTH, f"{who} strict: {depth} levels of nesting (at most 10)", ptr, "key", data=data)
            )
        if enum_values > 1000:
            self.add(
                Raw(
                    OPENAI_STRICT_ENUM_VALUES,
                    f"{who} strict: {enum_values} enum values (at most 1,000)",
                    ptr,
                    "key",
                    data=data,
                )
            )
        elif big_enum is not None:
            self.add(
                Raw(
                    OPENAI_STRICT_ENUM_VALUES,
                    f"{who} strict: an enum of more than 250 values over 15,000 characters",
                    ptr + big_enum,
                    "key",
                    data=data,
                )
            )
        if string_size > 120_000:
            self.add(
                Raw(
                    OPENAI_STRICT_STRING_SIZE,
                    f"{who} strict: {string_size:,} characters of names and enum/const values "
                    "(at most 120,000)",
                    ptr,
                    "key",
                    data=data,
                )
            )

    # --- TC2xx, TC609 ---------------------------------------------------------------------------
    def check_names(self, name: str | None) -> dict[str, str]:
        names: dict[str, str] = {}
        if name is None:
            return names
        ptr = self.field_ptr("name")
        if not _PORTABLE_NAME.fullmatch(name):
            portable = re.sub(r"[^A-Za-z0-9_-]", "_", name) or "tool"
            self.add(
                Raw(
                    NAME_FORMAT,
                    f"name {name!r} should use only letters, digits, `_` and `-`",
                    ptr,
                    fixes=(FixSpec(f"Rename to {portable!r}", (Op("replace", ptr, portable),)),),
                )
            )
        by_fix: dict[tuple[str, str], list[str]] = {}
        for target in self.config.targets:
            own = _override_name(self.value, target) or name
            rule = name_rule(target)
            problem = rule.problem(own)
            names[target] = rule.sanitise(own) if problem else own
            if problem and own == name:
                by_fix.setdefault((problem, names[target]), []).append(target)
        for (problem, fixed), targets in by_fix.items():
            self.add(
                Raw(
                    NAME_INVALID_FOR_TARGET,
                    f"name {name!r} {problem}: invalid for {_targets_text(targets)}",
                    ptr,
                    target=targets[0],
                    data={"targets": targets, "sanitised": fixed},
                    fixes=(FixSpec(f"Rename to {fixed!r}", (Op("replace", ptr, fixed),)),),
                )
            )
        return names

    def check_descriptions(self) -> None:
        ptr = self.field_ptr("description")
        desc = jp.resolve(self.value, ptr, None)
        if not isinstance(desc, str):
            return
        over = [
            t
            for t in self.config.targets
            if (m := name_rule(t).description_max) is not None and len(desc) > m
        ]
        if over:
            limit = min(name_rule(t).description_max or 0 for t in over)
            self.add(
                Raw(
                    DESCRIPTION_TOO_LONG,
                    f"description is {len(desc):,} characters; {_targets_text(over)} "
                    f"reject more than {limit:,}",
                    ptr,
                    target=over[0],
                    data={"targets": over},
                )
            )

    # --- TC5xx ------------------------------------------------------------------------------------
    def check_losses(self) -> None:
        from .losses import loss_findings

        self.raws.extend(loss_findings(self.value, self.shape, self.config))


def _targets_text(targets: Sequence[str]) -> str:
    return ", ".join(DISPLAY_NAMES.get(t, t) for t in targets)


def _exists(value: Any, ptr: str) -> bool:
    sentinel = object()
    return jp.resolve(value, ptr, sentinel) is not sentinel


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)
