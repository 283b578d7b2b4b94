"""``adapt``, ``adapt_all`` and ``to_canonical``: the core's ``load_tools`` → ``convert`` / ``convert_all`` (what
``toolcast convert`` runs), with inputs taken as plain JSON or SDK objects and results as JSON-ready values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.convert import Conversion, convert, convert_all
from toolcast.adapters.errors import ConversionError
from toolcast.adapters.jsonvalue import copy_json
from toolcast.adapters.loading import apply_roundtrip, load_tools
from toolcast.adapters.losses import Action, Loss
from toolcast.adapters.providers import profile
from toolcast.adapters.targets import TargetOptions

from ._inputs import plain_json


@dataclass(frozen=True)
class Adapted:
    """One tool as ``target`` takes it: ``output`` is the tool object to send, ``losses`` what it could not carry
    over intact, ``roundtrip`` what ``map_call_back`` needs to undo (sanitised names, strict-mode nulls)."""

    target: str
    name: str
    output: dict[str, Any]
    losses: tuple[Loss, ...]
    roundtrip: dict[str, Any]
    # What the tool calls coming back are mapped with: the canonical tool and its conversion, as sent.
    _tool: CanonicalTool = field(repr=False, compare=False)
    _conversion: Conversion = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"output", "losses", "roundtrip"}``: what ``toolcast convert --format json`` writes for the tool."""
        return {"output": copy_json(self.output), "losses": [x.to_dict() for x in self.losses],
                "roundtrip": copy_json(self.roundtrip)}


@dataclass(frozen=True)
class AdaptedList:
    """Several tools as ``target`` takes them. ``output`` is the value a request's tools take: a list of tool
    objects, for Gemini ``[{"functionDeclarations": [...]}]``, for Bedrock ``{"tools": [...]}``."""

    target: str
    output: Any
    tools: tuple[Adapted, ...]

    @property
    def losses(self) -> tuple[Loss, ...]:
        """Every tool's losses, in the tools' order."""
        return tuple(x for t in self.tools for x in t.losses)

    def to_dict(self) -> dict[str, Any]:
        """``{"output", "losses", "roundtrip"}`` with one round-trip record per tool."""
        return {"output": copy_json(self.output), "losses": [x.to_dict() for x in self.losses],
                "roundtrip": [copy_json(t.roundtrip) for t in self.tools]}


def adapt(tool: Any, target: str, *, strict: bool | None = None, source: str | None = None) -> Adapted:
    """``tool`` (canonical or any provider's shape, a dict or an SDK object) as ``target``'s tool object.
    ``strict=None``: the tool's own setting, else the target's default. ``source`` forces the input shape.
    Raises ``ConversionError`` when the input is not one tool or ``target`` cannot keep its meaning."""
    profile(target)  # an unknown target is the error, before anything is read
    canonical = _read(tool, source, one=True)[0]
    return _adapted(canonical, convert(canonical, target, TargetOptions(strict=strict)))


def adapt_all(tools: Any, target: str, *, strict: bool | None = None, source: str | None = None) -> AdaptedList:
    """Every tool of ``tools`` (a sequence of tools of any shapes, or a whole tool file such as
    ``{"tools": [...]}``) as ``target`` takes them together."""
    profile(target)
    canonical = _read(tools, source, one=False)
    whole = convert_all(canonical, target, TargetOptions(strict=strict))
    adapted = tuple(_adapted(t, c) for t, c in zip(canonical, whole.conversions, strict=True))
    return AdaptedList(target, copy_json(whole.output), adapted)


def to_canonical(obj: Any, source: str | None = None, *, roundtrip: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One tool in toolcast's canonical form (the ``*.tool.json`` format). ``source`` forces the input shape;
    ``roundtrip`` (an ``Adapted.roundtrip``) restores what an export of toolcast's changed."""
    tool = _read(obj, source, one=True)[0]
    if roundtrip:
        tool = apply_roundtrip(tool, plain_json(roundtrip, source or "auto"))
    return tool.to_dict()


def _read(value: Any, source: str | None, *, one: bool) -> list[CanonicalTool]:
    shape = source or "auto"
    if not one and isinstance(value, Iterable) and not isinstance(value, (Mapping, str, bytes)) and not hasattr(
            value, "model_dump"):  # a pydantic model iterates over its fields: it is one value, not a list
        value = list(value)  # a generator or tuple of SDK objects reads as a list of tools
    loaded = load_tools(plain_json(value, shape), source)
    if one and len(loaded) != 1:
        raise ConversionError(shape, "to_canonical",
                              f"expected one tool, found {len(loaded)} (adapt_all takes several)")
    return [lt.tool for lt in loaded]


def _adapted(tool: CanonicalTool, conversion: Conversion) -> Adapted:
    rejected = [x for x in conversion.losses if x.action == Action.REJECTED]
    if rejected:  # what `toolcast convert` refuses to write (exit 2): never a tool that means something else
        raise ConversionError(conversion.target, "from_canonical", f"tool {tool.name!r}: {conversion.target} cannot "
                              "express it without changing its meaning: " + "; ".join(
                                  f"{x.pointer}: {x.message}" for x in rejected), rejected[0].pointer)
    return Adapted(conversion.target, tool.name, copy_json(conversion.output), conversion.losses,
                   copy_json(conversion.roundtrip), tool, conversion)
