"""Checks of a tool's schema trees (``parameters`` and ``returns``): the meta-schema (TC301), then one walk
over the subschemas for their types (TC109, TC110), ``required`` (TC302), ``$ref``s (TC303, TC304),
defaults (TC305), arrays without ``items`` (TC307) and empty objects (TC308); the tool's examples against
its ``parameters`` (TC306); a legacy parameter map (TC401). The walk also counts the optional and
union-typed parameters the file-level checks weigh (``ParamCounts``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import pointer as jp
from ..convert.walker import known_type_name
from ..document.limits import numbers_out_of_range
from ..rules.codes import (
    ARRAY_WITHOUT_ITEMS,
    DEFAULT_INVALID,
    DOCUMENT_TOO_LARGE,
    EMPTY_OBJECT,
    EXAMPLE_INVALID,
    LEGACY_PARAMETER_MAP,
    MIXED_DRAFTS,
    PATTERN_TOO_COSTLY,
    PROPERTY_TYPE_INVALID,
    PROPERTY_TYPE_MISSING,
    REF_REMOTE,
    REF_UNRESOLVABLE,
    REQUIRED_UNDEFINED,
    SCHEMA_INVALID,
)
from ..rules.findings import Severity
from ..schema.bounded import PatternTooCostly, pattern_place
from ..schema.subschemas import BudgetExceeded, subschemas, types_of
from ..schema_keywords import JSON_TYPE_NAMES
from .edits import FixSpec, Op
from .raw import Unplaced
from .tool_context import ToolContext, exists, last_token, parent_pointer, targets_text
from .validation import Validation

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


@dataclass(frozen=True, slots=True)
class ParamCounts:
    """Properties of a schema tree's objects that are not required (``optional``), and those whose type is
    a union (``unions``: an ``anyOf`` or a list of types)."""

    optional: int = 0
    unions: int = 0

    def __add__(self, other: ParamCounts) -> ParamCounts:
        return ParamCounts(self.optional + other.optional, self.unions + other.unions)


def check_legacy(ctx: ToolContext, ptr: str, params: Any) -> None:
    """TC401 for a legacy parameter map, with its rewrite as JSON Schema; then each parameter's type."""
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
    ctx.add(
        Unplaced(
            LEGACY_PARAMETER_MAP,
            "`parameters` is a legacy parameter map, not JSON Schema",
            ptr,
            "key",
            fixes=(FixSpec("Rewrite `parameters` as JSON Schema", (Op("replace", ptr, schema),)),),
        )
    )
    for pname, spec in params.items():
        if isinstance(spec, dict):
            check_type_keyword(ctx, jp.join(ptr, pname), spec, property_name=pname)


def check_type_keyword(ctx: ToolContext, ptr: str, schema: dict[str, Any], property_name: str | None) -> None:
    """TC109 (a property with nothing that gives it a type) and TC110 (a type that is not JSON Schema's,
    with the fix when the intended one is clear); Gemini's shape may spell types in capitals."""
    gemini_shape = ctx.shape == "gemini"
    if "type" not in schema:
        if property_name is not None and not any(k in schema for k in _TYPE_GIVERS):
            ctx.add(
                Unplaced(
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
        ok = isinstance(v, str) and (v in JSON_TYPE_NAMES or (gemini_shape and v.lower() in JSON_TYPE_NAMES))
        if ok:
            continue
        guess = _TYPE_FIXES.get(v.lower()) if isinstance(v, str) else None
        if isinstance(v, str) and guess is None and v.lower() in JSON_TYPE_NAMES:
            guess = v.lower()
        fixes = (
            (FixSpec(f'Change the type to "{guess}"', (Op("replace", vptr, guess),)),) if guess else ()
        )
        what = f"parameter `{property_name}`" if property_name else "the schema"
        # A name convert reads as the type it stands for is sent as that type: a warning, not a refusal.
        read = known_type_name(v)
        ctx.add(
            Unplaced(
                PROPERTY_TYPE_INVALID,
                f"{what} has type {json.dumps(v, ensure_ascii=False)}, which is not a JSON "
                f"Schema type ({', '.join(JSON_TYPE_NAMES)})"
                + (" (toolcast convert reads it as the type it stands for)" if read else ""),
                vptr,
                fixes=fixes,
                data={"severity": "warning"} if read else {},
            )
        )


def check_schema_tree(ctx: ToolContext, root_ptr: str, root: Any, validation: Validation) -> ParamCounts:
    """TC301 and TC003 for the tree at ``root_ptr`` as a whole (Gemini's OpenAPI ``parameters`` is not
    held to JSON Schema's meta-schema), then each subschema's checks (``check_nodes``)."""
    gemini_openapi = ctx.shape == "gemini" and last_token(root_ptr) == "parameters"
    if not gemini_openapi:
        for rel, message in validation.meta_errors():
            if _rewritten(root, rel):
                # an older draft's form convert rewrites as its 2020-12 equivalent (a neutral loss): a warning
                ctx.add(Unplaced(SCHEMA_INVALID, f"invalid JSON Schema: {message} (an older draft's form; toolcast "
                            "convert sends its 2020-12 equivalent; declare the draft with `$schema` or rewrite it)",
                            root_ptr + rel, data={"severity": "warning"}))
            else:
                ctx.add(Unplaced(SCHEMA_INVALID, f"invalid JSON Schema: {message}", root_ptr + rel))
        _mixed_drafts(ctx, root_ptr, root)
    if validation.too_deep:
        ctx.add(
            Unplaced(DOCUMENT_TOO_LARGE, "schema nested too deeply to validate against the meta-schema", root_ptr,
                     "key")
        )
    return check_nodes(ctx, root_ptr, root, validation, gemini_openapi)


#: Keywords that 2019-09 or 2020-12 introduced: a draft-04, -06 or -07 schema ignores them.
_NEWER_KEYWORDS = ("prefixItems", "$defs", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
                   "unevaluatedItems", "minContains", "maxContains", "$anchor", "$dynamicRef", "$dynamicAnchor")
#: Draft-07's keywords that 2019-09 removed: a 2019-09 or 2020-12 schema ignores them.
_OLDER_KEYWORDS = (("dependencies", "`dependentRequired` (lists of names) and `dependentSchemas` (schemas)"),)
_OLD_DRAFTS = ("draft-04", "draft-06", "draft-07")


def _declared_draft(root: Any) -> str | None:
    """The draft a root's `$schema` names (``draft-07`` …), or None for 2019-09, 2020-12, none or one unknown."""
    declared = root.get("$schema") if isinstance(root, dict) else None
    if not isinstance(declared, str):
        return None
    return next((name for name in _OLD_DRAFTS if name in declared), None)


def _mixed_drafts(ctx: ToolContext, root_ptr: str, root: Any) -> None:
    """TC310: a keyword of another draft than the one ``$schema`` makes the schema (2020-12 by default)."""
    old = _declared_draft(root)
    try:
        nodes = list(subschemas(root, root_ptr))
    except BudgetExceeded:
        return  # too large to walk: TC003 says so
    for ptr, node, _depth in nodes:
        if old is not None:
            for keyword in _NEWER_KEYWORDS:
                if keyword in node:
                    ctx.add(Unplaced(MIXED_DRAFTS, f"`{keyword}` is a 2019-09/2020-12 keyword, but `$schema` declares "
                                f"{old}: a {old} validator ignores it (declare 2020-12, or use {old}'s form)",
                                jp.join(ptr, keyword), "key"))
        else:
            for keyword, instead in _OLDER_KEYWORDS:
                if keyword in node:
                    ctx.add(Unplaced(MIXED_DRAFTS, f"`{keyword}` is draft-07's keyword, removed in 2019-09: the schema "
                                f"is read as 2020-12, which ignores it; toolcast convert sends it as {instead} (write "
                                "those, or declare draft-07 with `$schema`)", jp.join(ptr, keyword), "key"))


def _rewritten(root: Any, rel: str) -> bool:
    """Whether the meta-schema fault at ``rel`` is an older draft's form the walker rewrites with the same meaning
    (``walker._modernise``): a draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`, draft-07 tuple `items`."""
    parts = jp.parts(rel)
    if not parts:
        return False
    value = jp.resolve(root, rel, None)
    return (parts[-1] in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool)) or (
        parts[-1] == "items" and isinstance(value, list))


def check_nodes(
    ctx: ToolContext, root_ptr: str, root: Any, validation: Validation, gemini_openapi: bool
) -> ParamCounts:
    """Every subschema's checks, in one walk (the hot loop of a cold check: a finding's record is built
    by a helper, only when the node has one). A tree too large to walk is reported (TC003) where the walk
    stopped, with what it checked and counted up to there."""
    openai_items = [t for t in ("openai", "openai-responses", "gemini") if t in ctx.config.targets]
    gemini_on = "gemini" in ctx.config.targets
    optional = unions = 0
    try:
        for rel, node, _depth in subschemas(root):
            ptr = root_ptr + rel
            parent_key = last_token(parent_pointer(rel)) if rel else ""
            is_property = parent_key == "properties"
            check_type_keyword(ctx, ptr, node, last_token(rel) if is_property else None)
            props = node.get("properties")
            if isinstance(props, dict):
                more_optional, more_unions = count_params(node, props)
                optional += more_optional
                unions += more_unions
            check_required(ctx, ptr, node)
            ref = node.get("$ref")
            if isinstance(ref, str):
                check_ref(ctx, ptr, ref, validation)
            if "default" in node and not gemini_openapi:
                check_default(ctx, ptr, rel, node["default"], validation)
            types = types_of(node)
            if "array" in types and "items" not in node and "prefixItems" not in node and openai_items:
                ctx.add(array_without_items(ptr, openai_items))
            if (
                rel
                and gemini_on
                and types == {"object"}
                and not node.get("properties")
                and not any(k in node for k in ("anyOf", "oneOf", "allOf", "$ref"))
            ):
                ctx.add(empty_object(ptr))
    except BudgetExceeded as exc:
        ctx.add(Unplaced(DOCUMENT_TOO_LARGE, f"schema not fully checked: {exc.what}", root_ptr + exc.pointer))
    return ParamCounts(optional, unions)


def count_params(node: dict[str, Any], props: dict[str, Any]) -> tuple[int, int]:
    """(optional, union-typed) properties of one object schema (``props`` is its ``properties``); a bare
    tuple, as this runs for every object in the walk."""
    req = node.get("required") if isinstance(node.get("required"), list) else []
    assert isinstance(req, list)
    optional = sum(1 for p in props if p not in req)
    unions = sum(
        1 for sub in props.values() if isinstance(sub, dict) and ("anyOf" in sub or isinstance(sub.get("type"), list))
    )
    return optional, unions


def check_required(ctx: ToolContext, ptr: str, node: dict[str, Any]) -> None:
    """TC302: a ``required`` name that ``properties`` does not define, where nothing else could define it."""
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
            ctx.add(
                Unplaced(
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


def check_ref(ctx: ToolContext, ptr: str, ref: str, validation: Validation) -> None:
    """TC304 (a remote `$ref`, never fetched) or TC303 (one that does not resolve)."""
    problem = validation.ref_problem(ref)
    if problem == "remote":
        ctx.add(Unplaced(REF_REMOTE, f"remote `$ref` {ref!r} is never fetched", jp.join(ptr, "$ref")))
    elif problem:
        ctx.add(Unplaced(REF_UNRESOLVABLE, f"`$ref` {ref!r} cannot be resolved: {problem}", jp.join(ptr, "$ref")))


def check_default(ctx: ToolContext, ptr: str, rel: str, default: Any, validation: Validation) -> None:
    """TC305: a ``default`` its own subschema (at ``rel`` in the tree) refuses; TC309 when a pattern could
    not be matched against it in time. A default holding a number beyond a double is TC005's (read as
    infinity, it would be refused for the wrong reason)."""
    if numbers_out_of_range(default, 1):
        return
    try:
        err = validation.instance_error(rel, default)
    except PatternTooCostly as exc:
        ctx.add(too_costly(exc, validation, ptr[: len(ptr) - len(rel)], jp.join(ptr, "default"), "its `default`"))
        return
    if err and default is None:
        # pydantic's `x: str = None` idiom: the property is optional and its absence is the default. Every
        # provider takes it as written and the model omits the argument, so this is information, not a warning.
        ctx.add(Unplaced(DEFAULT_INVALID, f"`default: null` on a type without null (read as \"may be omitted\"): {err}",
                    jp.join(ptr, "default"), data={"severity": Severity.INFO.value}))
    elif err:
        ctx.add(Unplaced(DEFAULT_INVALID, f"`default` does not match its schema: {err}", jp.join(ptr, "default")))


def too_costly(exc: PatternTooCostly, validation: Validation, root_ptr: str, fallback: str, what: str) -> Unplaced:
    """TC309 at the pattern (in the tree at ``root_ptr``), or at the value checked when the pattern is not in
    this tree."""
    at = pattern_place(validation.root, exc)
    shown = exc.pattern if len(exc.pattern) <= 80 else exc.pattern[:77] + "..."
    return Unplaced(PATTERN_TOO_COSTLY, f"pattern {shown!r} could not be checked against {what}: {exc.why}",
               root_ptr + at if at is not None else fallback)


def array_without_items(ptr: str, targets: Sequence[str]) -> Unplaced:
    """TC307, with a fix that adds string ``items``."""
    return Unplaced(
        ARRAY_WITHOUT_ITEMS,
        f"array has no `items` ({targets_text(targets)} require it)",
        jp.join(ptr, "items"),
        "missing",
        data={"targets": targets},
        fixes=(FixSpec('Add `"items": {"type": "string"}`', (Op("add", ptr, {"type": "string"}, key="items"),)),),
    )


def empty_object(ptr: str) -> Unplaced:
    """TC308, in Gemini's own words."""
    return Unplaced(
        EMPTY_OBJECT,
        "object schema has no properties (Gemini rejects it: "
        '"properties: should be non-empty for OBJECT type")',
        ptr,
        "value",
        target="gemini",
    )


def check_examples(ctx: ToolContext, validation: Validation) -> None:
    """TC306: each of the tool's ``examples``/``input_examples`` against its ``parameters``, placed at the
    failing member when the example has it."""
    for key in ("examples", "input_examples"):
        examples = ctx.value.get(key) if isinstance(ctx.value, dict) else None
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
            if numbers_out_of_range(args, 1):
                continue  # TC005's: read as infinity, it would be refused for the wrong reason
            try:
                err = validation.instance_error("", args, with_path=True)
            except PatternTooCostly as exc:
                ctx.add(too_costly(exc, validation, ctx.field_ptr("parameters"), base, f"example {i}"))
                continue
            if err:
                path = validation.last_error_path
                where = base + path if exists(ctx.value, base + path) else base
                ctx.add(Unplaced(EXAMPLE_INVALID, f"example {i} does not match `parameters`: {err}", where))
