"""Which form of each provider a tool is judged and sent in: the one owner of a tool's strictness per target
and of the choice between a provider's forms.

With targets the user named (a configured ``targets`` list, ``--target``, ``--to``), each is exactly the form
named: its strictness is what the user or the tool states, else the profile's default. With none named, each
provider is judged in the form that keeps the tool's meaning best:

* OpenAI (Chat Completions and Responses alike): strict where strict loses nothing (its only changes are
  closing objects the schema left open and neutral rewrites), else non-strict; a tool written in OpenAI's own
  shape without ``strict`` is taken as written, non-strict (the API's default when the flag is absent).
* Gemini: ``parametersJsonSchema`` or ``parameters``, whichever loses less of the tool's meaning (a form that
  refuses the tool never wins over one that converts it; a tie goes to ``parametersJsonSchema``, JSON Schema as
  written). Every Gemini model toolcast knows takes both fields (docs/design.md, "Each provider in the form
  that keeps the tool best").
* Anthropic, Mistral, MCP and Bedrock: their one form (strictness as stated, else the profile's default).

What is stated always wins: a target option (configuration or flag) > the tool's ``x-toolcast.targets.<t>``
override > the tool's own flag when written for that target (an OpenAI Chat flag also holds for Responses).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ..canonical import CanonicalTool
from ..losses import Action, Effect, Loss, is_strict_closure
from ..providers import DISPLAY_NAMES, has_strict, profile
from ..targets import TargetOptions

#: Each provider's forms, as targets: judged together (``JUDGED``) or one chosen among them (``ALTERNATIVES``).
JUDGED: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "OpenAI": ("openai", "openai-responses"), "Anthropic": ("anthropic",), "Mistral": ("mistral",),
    "MCP": ("mcp",), "Bedrock": ("bedrock",),
})
ALTERNATIVES: Mapping[str, tuple[str, ...]] = MappingProxyType({"Gemini": ("gemini-json", "gemini")})
_OPENAI_SHAPES = ("openai", "openai-responses")
#: The field each Gemini form sends the parameters in, as hover and messages name it.
GEMINI_FIELDS: Mapping[str, str] = MappingProxyType({"gemini": "parameters", "gemini-json": "parametersJsonSchema"})


def stated_strict(target: str, overrides: Mapping[str, Any], source_shape: str | None,
                  options: TargetOptions) -> bool | None:
    """The strictness the user or the tool states for ``target``, or None when nothing is stated: the option
    given > the tool's override for the target > the tool's own flag when it was written for this target (an
    OpenAI Chat tool's flag also holds for Responses, the same API family)."""
    if not has_strict(target):
        return None
    if options.strict is not None:
        return options.strict
    over = overrides.get(target)
    if isinstance(over, Mapping) and isinstance(over.get("strict"), bool):
        return bool(over["strict"])
    if source_shape is not None and (source_shape == target or (target == "openai-responses"
                                                                 and source_shape == "openai")):
        own = overrides.get(source_shape)
        if isinstance(own, Mapping) and isinstance(own.get("strict"), bool):
            return bool(own["strict"])
    return None


def named_strict(target: str, overrides: Mapping[str, Any], source_shape: str | None,
                 options: TargetOptions) -> bool:
    """Strictness for a target the user named: what is stated, else the profile's default (``convert``'s)."""
    stated = stated_strict(target, overrides, source_shape, options)
    if stated is not None:
        return stated
    return has_strict(target) and profile(target).strict_default


def changes_meaning(loss: Loss) -> bool:
    """A loss the author would see in the tool's meaning: every effect but neutral, except strict mode closing
    an object that never said (every strict converter does it; the checks' TC510, information)."""
    return loss.effect != Effect.NEUTRAL and not is_strict_closure(loss)


@dataclass(frozen=True)
class Choice:
    """One provider's forms for one tool: the targets judged (``targets``, each with its ``options``), the
    forms not chosen (``others``, their losses information only), and why."""

    provider: str
    targets: tuple[str, ...]
    options: Mapping[str, TargetOptions]
    others: tuple[tuple[str, TargetOptions], ...]
    why: str
    named: bool

    def form(self, target: str) -> str:
        """``OpenAI Chat Completions (strict)``, ``Gemini (parametersJsonSchema)``: the form as hover names it."""
        strict = self.options[target].strict
        mode = "" if strict is None or not has_strict(target) else (" (strict)" if strict else " (non-strict)")
        return f"{DISPLAY_NAMES.get(target, target)}{mode}"


Convert = Callable[[CanonicalTool, str, TargetOptions], Any]


def choose(tool: CanonicalTool, named: Sequence[str] | None, options_for: Callable[[str], TargetOptions],
           convert: Convert) -> tuple[Choice, ...]:
    """The forms ``tool`` is judged in: exactly the ``named`` targets, or (None) each provider's best form.
    ``convert`` is the conversion to compare forms with (the checks pass theirs, with a shared lowering)."""
    if named is not None:
        return tuple(_named(tool, t, options_for(t)) for t in named)
    choices = []
    for provider, targets in JUDGED.items():
        options = {t: _resolved(tool, t, options_for(t), convert) for t in targets}
        # Only OpenAI's mode is chosen by the tool; the others are sent in their one form.
        why = _strict_why(tool, targets[0], options[targets[0]], options_for(targets[0]), convert) \
            if targets[0] in _OPENAI_SHAPES else ""
        choices.append(Choice(provider, targets, options, (), why, False))
    for provider, forms in ALTERNATIVES.items():
        choices.append(_best_of(tool, provider, forms, options_for, convert))
    return tuple(choices)


def sent_strict(tool: CanonicalTool, target: str, options: TargetOptions, convert: Convert) -> bool:
    """The strictness ``target`` is sent with when no target was named (the chooser's rule)."""
    return bool(_resolved(tool, target, options, convert).strict)


def _named(tool: CanonicalTool, target: str, options: TargetOptions) -> Choice:
    strict = named_strict(target, tool.overrides, tool.source_format, options) if has_strict(target) else None
    return Choice(DISPLAY_NAMES.get(target, target), (target,), {target: replace(options, strict=strict)}, (),
                  "the form named in the configuration or on the command line", True)


def _resolved(tool: CanonicalTool, target: str, options: TargetOptions, convert: Convert) -> TargetOptions:
    """``options`` with the strictness the chooser sends ``target`` with (None for a target without strict)."""
    if not has_strict(target):
        return options
    stated = stated_strict(target, tool.overrides, tool.source_format, options)
    if stated is None and target in _OPENAI_SHAPES:
        stated = False if tool.source_format in _OPENAI_SHAPES else _strict_keeps_all(tool, target, convert)
    if stated is None:
        stated = profile(target).strict_default
    return replace(options, strict=stated)


def _strict_losses(tool: CanonicalTool, target: str, convert: Convert) -> list[Loss] | None:
    """What strict mode changes in the tool's meaning, or None when strict refuses the tool."""
    conv = convert(tool, target, TargetOptions(strict=True))
    if not conv.ok:
        return None
    return [x for x in conv.losses if changes_meaning(x)]


def _strict_keeps_all(tool: CanonicalTool, target: str, convert: Convert) -> bool:
    lost = _strict_losses(tool, target, convert)
    return lost is not None and not lost


def _strict_why(tool: CanonicalTool, target: str, chosen: TargetOptions, given: TargetOptions,
                convert: Convert) -> str:
    """Why OpenAI is judged in the mode chosen, as hover says it."""
    if stated_strict(target, tool.overrides, tool.source_format, given) is not None:
        return f"{'strict' if chosen.strict else 'non-strict'}, as the configuration or the tool states"
    if tool.source_format in _OPENAI_SHAPES:
        return "non-strict: written in OpenAI's shape without `strict`, sent as written"
    if chosen.strict:
        return "strict: strict mode loses nothing of this tool"
    lost = _strict_losses(tool, target, convert)
    if lost is None:
        return "non-strict: strict mode would refuse this tool"
    return f"non-strict: strict mode would lose {_keywords(lost)}"


def _best_of(tool: CanonicalTool, provider: str, forms: tuple[str, ...],
             options_for: Callable[[str], TargetOptions], convert: Convert) -> Choice:
    """The form of ``forms`` (first preferred on a tie) that loses least of the tool's meaning."""
    ranked = []
    for order, target in enumerate(forms):
        conv = convert(tool, target, options_for(target))
        lost = [x for x in conv.losses if changes_meaning(x) and x.action != Action.REJECTED]
        ranked.append(((not conv.ok, len(lost), order), target, lost))
    ranked.sort(key=lambda r: r[0])
    (_, best, best_lost), rest = ranked[0], ranked[1:]
    others = tuple((t, options_for(t)) for _, t, _ in rest)
    why = _form_why(best, best_lost, rest)
    return Choice(provider, (best,), {best: options_for(best)}, others, why, False)


def _form_why(best: str, best_lost: list[Loss], rest: list[tuple[Any, str, list[Loss]]]) -> str:
    """``parametersJsonSchema`` keeps `additionalProperties`; ``parameters`` would drop it."""
    name = GEMINI_FIELDS.get(best, best)
    parts = []
    mine = {x.keyword for x in best_lost}
    for (refused, _, _), other, lost in rest:
        other_name = GEMINI_FIELDS.get(other, other)
        if refused:
            parts.append(f"`{other_name}` would refuse the tool")
            continue
        kept = [x for x in lost if x.keyword not in mine]
        if kept:
            parts.append(f"`{name}` keeps {_keywords(kept)}; `{other_name}` would lose it")
        elif not lost and not best_lost:
            parts.append(f"`{name}` and `{other_name}` both keep the tool; `{name}` sends it as written")
        else:
            parts.append(f"`{name}` loses no more than `{other_name}` would ({_keywords(lost) or 'nothing'})")
    return "; ".join(parts) or f"`{name}`"


def _keywords(losses: Sequence[Loss]) -> str:
    """The keywords lost, each once, the first three named: `` `pattern`, `minLength` and 2 more``."""
    names = list(dict.fromkeys(f"`{x.keyword}`" for x in losses))
    if len(names) <= 3:
        return ", ".join(names)
    return f"{', '.join(names[:3])} and {len(names) - 3} more"


__all__ = [
    "ALTERNATIVES", "GEMINI_FIELDS", "JUDGED", "Choice", "changes_meaning", "choose", "named_strict",
    "sent_strict", "stated_strict",
]
