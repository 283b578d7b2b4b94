"""The file-level rules: findings about the tools of one file together (the tools of one file are sent in
one request), one function per rule over each tool's pointers and ``ToolFacts``; ``file_raws`` runs them
all. Each rule sees the tools in file order and never their schemas: what it needs is in the facts, so
that the engine can reuse the result while the facts are equal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .. import pointer as jp
from ..convert.accept import DUPLICATE_NAMES_REFUSED
from ..provider_limits import StrictRequestLimits
from ..providers import DISPLAY_NAMES, ProfileError, profile
from ..rules.codes import (
    ANTHROPIC_STRICT_OPTIONAL,
    ANTHROPIC_STRICT_TOOLS,
    ANTHROPIC_STRICT_UNIONS,
    DUPLICATE_NAME,
    GEMINI_FUNCTION_COUNT,
    NAME_COLLISION_AFTER_SANITISING,
)
from ..targets import TARGETS
from .config import CheckConfig
from .consumer_checks import document_raws
from .raw import ToolFacts, Unplaced

if TYPE_CHECKING:
    from ..loading import ToolObject

#: The tools of one file, in file order, each with its facts.
FileTools = Sequence[tuple["ToolObject", ToolFacts]]


def _per_request() -> StrictRequestLimits:
    """Anthropic strict tool use's limits per request (its profile's ``limits.strict_request``)."""
    limits = profile("anthropic").limits.strict_request
    if limits is None:
        raise ProfileError("schemas/providers/anthropic.json: no `limits.strict_request`")
    return limits


def _relative(pointer: str, base: str) -> str:
    return pointer[len(base) :] if jp.is_prefix(base, pointer) else pointer


def _name_pointer(obj: ToolObject) -> str:
    return obj.pointer + _relative(obj.field_pointers.get("name", obj.pointer + "/name"), obj.pointer)


def duplicate_names(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    """A name given to two tools: found on the later one, pointing at the first."""
    raws: list[Unplaced] = []
    first_by_name: dict[str, str] = {}
    for obj, f in facts:
        if f.name is None:
            continue
        name_ptr = _name_pointer(obj)
        if f.name in first_by_name:
            raws.append(_name_clash(DUPLICATE_NAME, f"duplicate tool name {f.name!r}", name_ptr, list(config.targets),
                                    {}, ((first_by_name[f.name], "first defined here"),)))
        else:
            first_by_name[f.name] = name_ptr
    return raws


def sanitised_collisions(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    """Different names that one target's sanitising makes equal: one finding per colliding tool, listing
    every target where it collides."""
    collisions: dict[tuple[str, str], tuple[str, str, str, list[str]]] = {}
    for target in config.targets:
        seen: dict[str, tuple[str, str]] = {}
        for obj, f in facts:
            tname = f.target_names.get(target)
            if f.name is None or tname is None:
                continue
            name_ptr = _name_pointer(obj)
            if tname in seen and seen[tname][0] != f.name:
                other, other_ptr = seen[tname]
                entry = collisions.setdefault((name_ptr, other_ptr), (f.name, other, tname, []))
                entry[3].append(target)
            else:
                seen.setdefault(tname, (f.name, name_ptr))
    raws = []
    for (name_ptr, other_ptr), (name, other, tname, targets) in collisions.items():
        who = ", ".join(DISPLAY_NAMES.get(t, t) for t in targets)
        raws.append(_name_clash(NAME_COLLISION_AFTER_SANITISING, f"{name!r} and {other!r} both become {tname!r} for "
                                f"{who}", name_ptr, targets, {"sanitised": tname},
                                ((other_ptr, f"{other!r} also becomes {tname!r}"),)))
    return raws


def _name_clash(code: str, message: str, ptr: str, targets: list[str], data: dict[str, Any],
                related: tuple[tuple[str, str], ...]) -> Unplaced:
    """Two tools sent with one name: an error for the targets that reject such a request (``convert_all``
    refuses it there), named; a warning where it is sent (the model cannot tell the two apart)."""
    refusing = [t for t in targets if t in DUPLICATE_NAMES_REFUSED]
    if refusing:
        who = ", ".join(DISPLAY_NAMES.get(t, t) for t in refusing)
        return Unplaced(code, f"{message}: rejected by {who}", ptr, target=refusing[0],
                   data={**data, "targets": refusing}, related=related)
    return Unplaced(code, f"{message}: the model cannot tell them apart", ptr, target=targets[0] if targets else None,
               data={**data, "targets": targets, "severity": "warning"}, related=related)


def _strict(facts: FileTools, config: CheckConfig) -> FileTools:
    """The tools Anthropic's strict mode counts (none unless Anthropic is a target)."""
    return [(obj, f) for obj, f in facts if f.anthropic_strict] if "anthropic" in config.targets else []


def anthropic_strict_tools(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    """More strict tools than Anthropic takes in one request: found on the first one too many."""
    strict = _strict(facts, config)
    limit = _per_request().strict_tools
    if len(strict) <= limit:
        return []
    return [Unplaced(ANTHROPIC_STRICT_TOOLS, f"Anthropic strict: more than {limit} strict tools in one request",
                strict[limit][0].pointer, "value", target="anthropic")]


def _over_strict_budget(facts: FileTools, config: CheckConfig, count: Callable[[ToolFacts], int],
                        limit: int, code: str, what: str) -> list[Unplaced]:
    """The strict tool whose parameters take the running count over ``limit``: found on its parameters."""
    total = 0
    for obj, f in _strict(facts, config):
        before, total = total, total + count(f)
        if before <= limit < total:
            return [Unplaced(code, f"Anthropic strict: {total} {what} parameters so far across strict tools "
                              f"(at most {limit} per request)",
                        obj.field_pointers.get("parameters", obj.pointer + "/parameters"), "key",
                        target="anthropic")]
    return []


def anthropic_strict_optional(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    return _over_strict_budget(facts, config, lambda f: f.optional_params, _per_request().optional_parameters,
                               ANTHROPIC_STRICT_OPTIONAL, "optional")


def anthropic_strict_unions(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    return _over_strict_budget(facts, config, lambda f: f.union_params, _per_request().union_parameters,
                               ANTHROPIC_STRICT_UNIONS, "union-typed")


def function_count(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    """More functions than a target takes in one request (the first such target only): found on the first
    one too many."""
    for target in (t for t in TARGETS if t in config.targets):
        declarations = profile(target).limits.function_declarations
        if declarations is not None and len(facts) > (limit := declarations.max):
            return [Unplaced(GEMINI_FUNCTION_COUNT,
                        f"{DISPLAY_NAMES.get(target, target)}: {len(facts)} function declarations "
                        f"(at most {limit} per request)",
                        facts[limit][0].pointer, "value", target=target)]
    return []


def consumer_limits(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    """The consumers' file-level rules (``consumer_checks.document_raws``)."""
    return document_raws([obj.pointer for obj, _ in facts], config)


#: Every file-level rule, in the order their findings are listed before sorting.
FILE_RULES: tuple[Callable[[FileTools, CheckConfig], list[Unplaced]], ...] = (
    duplicate_names, sanitised_collisions, anthropic_strict_tools, anthropic_strict_optional,
    anthropic_strict_unions, function_count, consumer_limits,
)


def file_raws(facts: FileTools, config: CheckConfig) -> list[Unplaced]:
    """The findings of every file-level rule over the tools of one file."""
    return [raw for rule in FILE_RULES for raw in rule(facts, config)]


__all__ = ["FILE_RULES", "FileTools", "file_raws"]
