"""Checks of what a model discovers a tool by: its ``name`` and ``description`` present and strings, the
root of its ``parameters`` an object schema with ``properties`` (TC1xx), its name portable and valid for
each target (TC2xx), and its description within each target's length (TC609)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .. import pointer as jp
from ..convert import convert
from ..convert.accept import root_problem
from ..convert.walker import convert_types_root
from ..errors import ToolcastError
from ..loading import load_tools
from ..rules.codes import (
    DESCRIPTION_MISSING,
    DESCRIPTION_NOT_STRING,
    DESCRIPTION_TOO_LONG,
    NAME_FORMAT,
    NAME_INVALID_FOR_TARGET,
    NAME_MISSING,
    NAME_NOT_STRING,
    PARAMETERS_MISSING,
    PARAMETERS_NOT_OBJECT,
    PARAMETERS_TYPE_NOT_OBJECT,
    PROPERTIES_MISSING,
)
from .edits import FixSpec, Op
from .raw import Unplaced
from .target_rules import name_rule
from .tool_context import ToolContext, exists, kind, last_token, parent_pointer, targets_text

_PORTABLE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def check_name_and_description(ctx: ToolContext) -> str | None:
    """TC101–TC104: ``name`` and ``description`` present and strings; the name when it is one."""
    name_ptr, desc_ptr = ctx.field_ptr("name"), ctx.field_ptr("description")
    name = jp.resolve(ctx.value, name_ptr, None)
    if name is None and not exists(ctx.value, name_ptr):
        ctx.add(Unplaced(NAME_MISSING, "the tool has no `name`", name_ptr, "missing"))
    elif not isinstance(name, str):
        ctx.add(Unplaced(NAME_NOT_STRING, f"`name` must be a string, not {kind(name)}", name_ptr))
    desc = jp.resolve(ctx.value, desc_ptr, None)
    if not exists(ctx.value, desc_ptr):
        ctx.add(Unplaced(DESCRIPTION_MISSING, "the tool has no `description`", desc_ptr, "missing"))
    elif not isinstance(desc, str):
        ctx.add(Unplaced(DESCRIPTION_NOT_STRING, f"`description` must be a string, not {kind(desc)}", desc_ptr))
    return name if isinstance(name, str) else None


def check_parameters_root(ctx: ToolContext) -> None:
    """TC105–TC108: ``parameters`` present, an object, typed ``object`` and with ``properties``."""
    params_ptr = ctx.field_ptr("parameters")
    params = jp.resolve(ctx.value, params_ptr, None)
    if not exists(ctx.value, params_ptr):
        ctx.add(_parameters_missing(ctx, params_ptr))
    elif not isinstance(params, dict):
        ctx.add(
            Unplaced(PARAMETERS_NOT_OBJECT, f"`{last_token(params_ptr)}` must be an object, not {kind(params)}",
                     params_ptr)
        )
    elif ctx.shape != "legacy" and (problem := root_problem(params)) is not None:
        # The output's judge (``convert.accept``) refuses such a root by the same function, so the check
        # of the source and the refusal of the output say the same thing; a nullable object root only for
        # the targets that refuse it (Gemini's fields take one).
        found = _root_not_object(params_ptr, params, problem)
        refusing = _refusing_targets(ctx) if found.data.get("severity") != "warning" else list(ctx.config.targets)
        if refusing == list(ctx.config.targets):
            ctx.add(found)
        elif refusing:
            ctx.add(replace(found, target=refusing[0], data={**found.data, "targets": refusing}))
    if ctx.shape != "legacy" and isinstance(params, dict) and "properties" not in params and not any(
        k in params for k in ("anyOf", "oneOf", "allOf", "$ref")
    ):
        ctx.add(
            Unplaced(
                PROPERTIES_MISSING,
                "`parameters` has no `properties` (toolcast convert adds `properties: {}` where a target needs it)",
                jp.join(params_ptr, "properties"),
                "missing",
                fixes=(
                    FixSpec('Add `"properties": {}`', (Op("add", params_ptr, {}, key="properties"),)),
                ),
            )
        )


def _refusing_targets(ctx: ToolContext) -> list[str]:
    """The configured targets ``convert`` refuses the tool for (a root some target reads as an object, as
    Gemini reads an object-or-null union, is an error for the others only)."""
    try:
        loaded = load_tools(ctx.value, ctx.shape if ctx.shape != "canonical" else None)
    except (ToolcastError, ValueError, TypeError, KeyError):
        return list(ctx.config.targets)
    if not loaded:
        return list(ctx.config.targets)
    refusing = []
    for target in ctx.config.targets:
        try:
            ok = convert(loaded[0].tool, target, ctx.config.options_for(target)).ok
        except ToolcastError:
            ok = False
        if not ok:
            refusing.append(target)
    return refusing


def _parameters_missing(ctx: ToolContext, params_ptr: str) -> Unplaced:
    """TC105, with a fix that adds an empty schema where the tool's object can take one."""
    parent = parent_pointer(params_ptr)
    fixes: tuple[FixSpec, ...] = ()
    if isinstance(jp.resolve(ctx.value, parent, None), dict):
        fixes = (
            FixSpec(
                "Add an empty `parameters` schema",
                (Op("add", parent, {"type": "object", "properties": {}}, key=last_token(params_ptr)),),
            ),
        )
    return Unplaced(
        PARAMETERS_MISSING,
        f"the tool has no `{last_token(params_ptr)}` schema",
        params_ptr,
        "missing",
        fixes=fixes,
    )


def _root_not_object(params_ptr: str, params: dict[str, Any], problem: str) -> Unplaced:
    """TC107 at the root's ``type``: a fix that adds it when absent, else one that sets it."""
    type_ptr = jp.join(params_ptr, "type")
    # convert repairs a root that can only be an object with the same meaning: the author is told, at warning
    # level, with that repair as the fix
    repaired = {"severity": "warning"} if convert_types_root(params) else {}
    said = " (toolcast convert sends `\"type\": \"object\"`)" if repaired else ""
    if "type" not in params:
        fix = FixSpec('Add `"type": "object"`', (Op("add", params_ptr, "object", key="type"),))
        return Unplaced(PARAMETERS_TYPE_NOT_OBJECT, problem + said, type_ptr, "missing", fixes=(fix,), data=repaired)
    fix = FixSpec('Set `"type": "object"`', (Op("replace", type_ptr, "object"),))
    return Unplaced(PARAMETERS_TYPE_NOT_OBJECT, problem + said, type_ptr, fixes=(fix,), data=repaired)


def _override_name(tool: Any, target: str) -> str | None:
    ext = tool.get("x-toolcast") if isinstance(tool, dict) else None
    targets = ext.get("targets") if isinstance(ext, dict) else None
    over = targets.get(target) if isinstance(targets, dict) else None
    name = over.get("name") if isinstance(over, dict) else None
    return name if isinstance(name, str) else None


def check_names(ctx: ToolContext, name: str | None) -> dict[str, str]:
    """TC203 (a portable name) and TC204 (valid for each target, grouped by problem and fix); the name each
    target would see (its ``x-toolcast`` override, sanitised where invalid)."""
    names: dict[str, str] = {}
    if name is None:
        return names
    ptr = ctx.field_ptr("name")
    if not _PORTABLE_NAME.fullmatch(name):
        portable = re.sub(r"[^A-Za-z0-9_-]", "_", name) or "tool"
        ctx.add(
            Unplaced(
                NAME_FORMAT,
                f"name {name!r} should use only letters, digits, `_` and `-`",
                ptr,
                fixes=(FixSpec(f"Rename to {portable!r}", (Op("replace", ptr, portable),)),),
            )
        )
    by_fix: dict[tuple[str, str], list[str]] = {}
    for target in ctx.config.targets:
        own = _override_name(ctx.value, target) or name
        rule = name_rule(target)
        problem = rule.problem(own)
        names[target] = rule.sanitise(own) if problem else own
        if problem and own == name:
            by_fix.setdefault((problem, names[target]), []).append(target)
    for (problem, fixed), targets in by_fix.items():
        message = f"name {name!r} {problem}: invalid for {targets_text(targets)} (toolcast convert sends {fixed!r})"
        rename = FixSpec(f"Rename to {fixed!r}", (Op("replace", ptr, fixed),))
        data = {"targets": targets, "sanitised": fixed}
        ctx.add(Unplaced(NAME_INVALID_FOR_TARGET, message, ptr, target=targets[0], data=data, fixes=(rename,)))
    return names


def check_description_length(ctx: ToolContext) -> None:
    """TC609: a description longer than some target accepts."""
    ptr = ctx.field_ptr("description")
    desc = jp.resolve(ctx.value, ptr, None)
    if not isinstance(desc, str):
        return
    over = [
        t
        for t in ctx.config.targets
        if (m := name_rule(t).description_max) is not None and len(desc) > m
    ]
    if over:
        limit = min(name_rule(t).description_max or 0 for t in over)
        ctx.add(
            Unplaced(
                DESCRIPTION_TOO_LONG,
                f"description is {len(desc):,} characters; {targets_text(over)} "
                f"reject more than {limit:,}",
                ptr,
                target=over[0],
                data={"targets": over},
            )
        )
