"""Feature-loss findings (TC5xx): exactly the ``Loss`` objects ``convert()`` reports for each configured
target (the same call ``toolcast convert`` makes), placed on the lost keyword in the document."""

from __future__ import annotations

import json
from typing import Any

from .. import pointer as jp
from ..consumers import provider_pattern_rules
from ..convert import convert
from ..convert.accept import RULES
from ..convert.shared import SharedLowering
from ..errors import ToolcastError
from ..loading import load_tools
from ..losses import Action, Effect, Loss, is_strict_closure
from ..providers import DISPLAY_NAMES
from ..rules.codes import (
    DESCRIPTION_TOO_LONG,
    LOSS_NARROWING,
    LOSS_NEUTRAL,
    LOSS_REJECTED,
    LOSS_STRICT_CLOSURE,
    LOSS_UNSATISFIABLE,
    LOSS_WIDENING,
    OUTPUT_REJECTED,
    PATTERN_DIALECT,
)
from .config import CheckConfig
from .edits import FixSpec, Op
from .raw import Unplaced

_EFFECT_CODES = {
    Effect.NEUTRAL: LOSS_NEUTRAL,
    Effect.WIDENING: LOSS_WIDENING,
    Effect.NARROWING: LOSS_NARROWING,
    Effect.UNSATISFIABLE: LOSS_UNSATISFIABLE,
}


def changes_meaning(code: str) -> bool:
    """A finding that counts as a loss wherever losses are summed up (hover, code lens): every TC5xx but
    TC501, a neutral rewrite (same accepted values, other spelling)."""
    return code.startswith("TC5") and code != _EFFECT_CODES[Effect.NEUTRAL]


def loss_code(loss: Loss) -> str:
    """Codes by effect, so narrowing/unsatisfiable/rejected losses can be louder than neutral ones."""
    if loss.action == Action.REJECTED:
        # The output's judge names its rule as the keyword (``convert.accept.RULES``); the walker's refusals
        # name a schema keyword.
        return OUTPUT_REJECTED if loss.keyword in RULES else LOSS_REJECTED
    if is_strict_closure(loss):
        return LOSS_STRICT_CLOSURE
    if loss.rule is not None and loss.keyword == "pattern":  # a provider's `pattern_dialect` rule
        return PATTERN_DIALECT
    return _EFFECT_CODES.get(loss.effect, LOSS_WIDENING)


def conversions(value: Any, shape: str | None, config: CheckConfig) -> list[tuple[Any, Any]]:
    """[(LoadedTool, Conversion)] for every configured target; empty when the tool does not load
    (discovery findings already say why). The losses are ``convert``'s own; the outputs are not meant
    to be sent (``convert.shared``)."""
    try:
        loaded = load_tools(value, shape if shape not in (None, "canonical") else None)
    except (ToolcastError, ValueError, TypeError, KeyError):
        return []
    out = []
    for lt in loaded[:1]:
        shared = SharedLowering()  # each distinct mode walked once; outputs are not for sending
        for target in config.targets:
            try:
                out.append((lt, convert(lt.tool, target, config.options_for(target), lowering=shared)))
            except ToolcastError:
                continue
    return out


def loss_findings(value: Any, shape: str | None, config: CheckConfig) -> list[Any]:
    """One finding per lost keyword and kind of loss; targets that lose it the same way share it
    (``data["targets"]``), so eight targets do not put eight squiggles on one keyword."""
    groups: dict[tuple[str, str, str], list[Loss]] = {}
    places: dict[str, str] = {}  # targets lose the same keywords: each pointer is placed once
    # Codes the configuration turns off are never made: TC501 alone (off unless selected) is most of an
    # ordinary tool's losses, and a finding made only to be dropped costs its placing and its memory.
    enabled: dict[str, bool] = {}
    # The description cut to a target's limit is TC609's finding, on the same text for the same targets:
    # one finding per fact (``convert`` still lists the loss, a widening).
    cut_told = config.is_enabled(DESCRIPTION_TOO_LONG)
    for lt, conv in conversions(value, shape, config):
        for loss in conv.losses:
            if cut_told and loss.pointer == "/description" and loss.keyword == "description":
                continue
            code = loss_code(loss)
            on = enabled.get(code)
            if on is None:
                on = enabled[code] = config.is_enabled(code)
            if not on:
                continue
            ptr = places.get(loss.pointer)
            if ptr is None:
                ptr = places[loss.pointer] = loss_place(lt, value, loss)
            template = loss.message.replace(loss.target, "\0")
            groups.setdefault((code, ptr, template), []).append(loss)
    raws: list[Unplaced] = []
    for (code, ptr, template), losses in groups.items():
        first = losses[0]
        labels = [DISPLAY_NAMES.get(x.target, x.target) for x in losses]
        if len(losses) == 1:
            message = f"{labels[0]}: {first.message}"
        else:
            message = template.replace("\0", ", ".join(labels))
        if first.rule is not None:
            message += _cite(first)
        raws.append(
            Unplaced(
                code,
                f"{message} ({first.action.value}, {first.effect.value})",
                ptr,
                "key",
                target=first.target,
                fixes=_fixes(value, ptr, first),
                data={"loss": first.to_dict(), "targets": [x.target for x in losses]},
            )
        )
    return raws


def _cite(loss: Loss) -> str:
    """`` [sources (confidence)]`` of the provider rule a loss names (among its profile's ``rules``)."""
    rule = next((r for r in provider_pattern_rules(loss.target) if r.id == loss.rule), None)
    return f" [{rule.cite()}]" if rule is not None else ""


def loss_place(lt: Any, value: Any, loss: Loss) -> str:
    """Where a loss is shown in the tool object ``value``: the place in the source its pointer came from,
    or its nearest ancestor there (a keyword the converter added sits on its node); a pointer that does
    not map sits on the tool. The loss findings and hover both place losses with it."""
    try:
        ptr = lt.doc_pointer(loss.pointer)
    except Exception:
        ptr = ""
    return _nearest_existing(value, ptr)


def _nearest_existing(value: Any, ptr: str) -> str:
    """The pointer itself, or its nearest ancestor present in the tool object."""
    sentinel = object()
    parts = jp.parts(ptr) if ptr.startswith("/") or ptr == "" else []
    while parts and jp.resolve(value, jp.from_parts(parts), sentinel) is sentinel:
        parts.pop()
    return jp.from_parts(parts)


def _fixes(value: Any, ptr: str, loss: Loss) -> tuple[FixSpec, ...]:
    parts = jp.parts(ptr)
    parent = jp.from_parts(parts[:-1])
    node = jp.resolve(value, parent, None)
    if (
        loss.keyword == "const"
        and parts
        and parts[-1] == "const"
        and isinstance(node, dict)
        and "enum" not in node
    ):
        return (
            FixSpec(
                "Replace `const` with a one-value `enum`", (Op("rename", ptr, [node["const"]], key="enum"),)
            ),
        )
    if loss.keyword == "$ref" and parts and parts[-1] == "$ref" and isinstance(node, dict):
        inlined = _inline(value, parent, node)
        if inlined is not None:
            return (FixSpec("Inline the referenced schema", (Op("replace", parent, inlined),)),)
    closing = jp.resolve(value, ptr, None)  # the finding sits on the object: its keyword is not in the source
    if (
        loss.keyword == "additionalProperties"
        and loss.effect == Effect.NARROWING
        and isinstance(closing, dict)
        and "additionalProperties" not in closing
        and (closing.get("type") == "object" or "properties" in closing)
    ):
        # Strict mode closes the object anyway; saying so in the source makes every target agree.
        return (
            FixSpec("Close the object (`additionalProperties: false`)",
                    (Op("add", ptr, False, key="additionalProperties"),)),
        )
    if loss.effect == Effect.NARROWING and loss.target.startswith("openai"):
        target = jp.resolve(value, ptr, None)
        if len(parts) >= 2 and parts[-2] == "properties" and isinstance(target, dict):
            t = target.get("type")
            if isinstance(t, str) and t != "null":
                return (
                    FixSpec(
                        f"Make `{parts[-1]}` nullable", (Op("replace", jp.join(ptr, "type"), [t, "null"]),)
                    ),
                )
            if isinstance(t, list) and "null" not in t:
                return (
                    FixSpec(
                        f"Make `{parts[-1]}` nullable", (Op("replace", jp.join(ptr, "type"), [*t, "null"]),)
                    ),
                )
    return ()


def _inline(value: Any, at: str, node: dict[str, Any]) -> dict[str, Any] | None:
    """``node`` with its local ``$ref`` replaced by the referenced schema (siblings kept, they win);
    None for remote or recursive references."""
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    # Local refs are relative to the parameters/returns root: find it among the ancestors of `at`.
    parts = jp.parts(at)
    for cut in range(len(parts), -1, -1):
        root = jp.resolve(value, jp.from_parts(parts[:cut]), None)
        if not isinstance(root, dict) or cut == 0:
            continue
        try:
            target = jp.resolve(root, ref[1:], None) if ref != "#" else root
        except ValueError:
            target = None
        if isinstance(target, dict) and ("$defs" in root or "definitions" in root or ref == "#"):
            if json.dumps(target).find(json.dumps(ref)) >= 0 or target is node:
                return None  # recursive: inlining would not terminate
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            return merged
    return None
