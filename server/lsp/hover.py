"""Hover texts: for a schema keyword, what each target does with it; for a tool's name, its losses.

Both read the losses the diagnostics are made from: a keyword's fate for a target is the ``Loss`` that
``convert()`` reports at that keyword (the checks' own ``conversions``, the same call ``toolcast convert``
makes), so hover and the TC5xx on the same key cannot disagree. With no targets named, each provider is
judged in the form that keeps the tool best (``convert.forms``): hover names that form and why, and shows the
forms not chosen as information. A hover is a title and one line per form, written as markdown or plain text
(the client's ``contentFormat``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from toolcast.adapters import pointer as jp
from toolcast.adapters.checks import (
    CheckConfig,
    DocumentReport,
    changes_meaning,
    choices,
    conversions,
    loss_place,
)
from toolcast.adapters.cost import UNAVAILABLE, TokenCosts, model_for
from toolcast.adapters.document import ParsedDocument
from toolcast.adapters.losses import Action, Loss
from toolcast.adapters.providers import DISPLAY_NAMES
from toolcast.adapters.targets import TargetOptions

_ACTIONS = {Action.FOLDED: "folded into the description", Action.DROPPED: "dropped",
            Action.LOWERED: "lowered", Action.REJECTED: "rejected"}


def cost_lines(costs: TokenCosts, value: Any, shape: str | None, config: CheckConfig) -> list[str]:
    """The tool's estimated tokens in each form it is judged in (as sent), and how they were counted."""
    forms = [form for form in judged_forms(value, shape, config) if form.chosen]
    if not forms:
        return []
    if not costs.available:
        return [f"\nTokens: {UNAVAILABLE}"]
    lines = ["\nTokens (estimate: the tool as toolcast converts it for the target, as sent, counted with the model "
             "family's encoding; '≈ cl100k': the provider's tokenizer is not public, an OpenAI encoding "
             "approximates it; each with its error on published pairs):"]
    for form in forms:
        target = form.target
        model = model_for(target, config.models)
        cost = costs.tool(value, shape, target, form.options, model)
        shown = f"≈ {cost.figure} ({cost.qualifiers})" if cost.tokens is not None else cost.reason
        lines.append(f"- {form.label}: {shown}")
        once = costs.per_request(target, model) if cost.tokens is not None else None
        if once is not None and once.prompt is not None:
            lines.append(f"  + {once.figure} once per request: the tool-use system prompt {cost.method.provider} "
                         f"adds ({once.prompt_label})")
    return lines


def loss_fate(loss: Loss) -> str:
    """What happens to a keyword, as the diagnostic's ``(action, effect)`` says it."""
    return f"{_ACTIONS.get(loss.action, loss.action.value)} ({loss.effect.value})"


@dataclass(frozen=True)
class Form:
    """One form a tool is shown in: ``chosen`` (judged: its losses are diagnostics) or not (information)."""

    target: str
    label: str
    chosen: bool
    why: str
    options: TargetOptions


def judged_forms(value: Any, shape: str | None, config: CheckConfig) -> list[Form]:
    """The forms the checks judge the tool in, then each provider's forms not chosen; a tool that does not
    load is shown in the configured targets."""
    found = choices(value, shape, config)
    if found is None:
        return [Form(t, DISPLAY_NAMES[t], True, "", config.options_for(t)) for t in config.targets]
    forms = []
    for choice in found:
        for n, target in enumerate(choice.targets):
            why = choice.why if n == 0 and not choice.named else ""
            label = DISPLAY_NAMES[target] if choice.named else choice.form(target)
            forms.append(Form(target, label, True, why, choice.options[target]))
    for choice in found:
        for target, options in choice.others:
            forms.append(Form(target, DISPLAY_NAMES[target], False, "", options))
    return forms


def keyword_fates(value: Any, shape: str | None, pointer: str, config: CheckConfig,
                  forms: list[Form] | None = None) -> dict[str, list[Loss]]:
    """Per form (``judged_forms``; the configured targets without), the losses ``convert()`` reports at
    ``pointer`` (relative to the tool object ``value``), placed as the TC5xx findings are placed; a target
    that refuses the whole tool is missing (the checks report why)."""
    if forms is not None:
        config = replace(config, targets=tuple(f.target for f in forms), targets_named=True,
                         target_options=MappingProxyType({f.target: f.options for f in forms}))
    fates: dict[str, list[Loss]] = {}
    for lt, conv in conversions(value, shape, config):
        at = fates.setdefault(conv.target, [])
        at.extend(loss for loss in conv.losses if loss_place(lt, value, loss) == pointer)
    return fates


def render(title: str, lines: list[str], markdown: bool, code: bool = False) -> str:
    """A title and a list; markdown marks the title up (bold, or code for a keyword), plain text not."""
    head = (f"`{title}`" if code else f"**{title}**") if markdown else title
    return "\n".join([head, *(f"- {line}" for line in lines)])


def hover_text(parsed: ParsedDocument, offset: int, report: DocumentReport | None, config: CheckConfig,
               costs: TokenCosts | None = None, markdown: bool = True) -> tuple[str, tuple[int, int]] | None:
    loc = parsed.location(offset)
    if not loc.pointer:
        return None
    key = loc.pointer.rsplit("/", 1)[-1]
    findings = report.findings if report else ()
    for tool in report.tools if report else ():
        if tool.name_span and tool.name_span[0] <= offset <= tool.name_span[1]:
            value = jp.resolve(parsed.value, tool.pointer, None)
            lines = []
            for form in judged_forms(value, tool.shape, config):
                if not form.chosen:
                    lines.append(f"{form.label}: not chosen (its losses are shown on each keyword's hover)")
                    continue
                n = len([f for f in findings if f.tool_index == tool.index and form.target in f.targets
                         and changes_meaning(f.code)])
                why = f" (chosen: {form.why})" if form.why else ""
                lines.append(f"{form.label}: {'kept' if n == 0 else f'{n} loss(es)'}{why}")
            text = render(tool.name or "", lines, markdown)
            if costs is not None:
                text += "\n" + "\n".join(cost_lines(costs, value, tool.shape, config))
            return text, tool.name_span
    span = parsed.span(loc.pointer, "key")
    if not loc.is_key or span is None or ("/parameters" not in loc.pointer and "Schema" not in loc.pointer
                                          and "input_schema" not in loc.pointer):
        return None
    under = report.tool_at(offset) if report else None
    if under is None or not jp.is_prefix(under.pointer, loc.pointer):
        return None
    value = jp.resolve(parsed.value, under.pointer, None)
    forms = judged_forms(value, under.shape, config)
    fates = keyword_fates(value, under.shape, loc.pointer[len(under.pointer):], config, forms)
    lines = []
    for form in forms:
        losses = fates.get(form.target)
        fate = "not converted" if losses is None else "; ".join(loss_fate(x) for x in losses) or "kept"
        lines.append(f"{form.label}: {fate}" + ("" if form.chosen else " (not chosen: information)"))
    return render(jp.unescape(key), lines, markdown, code=True), span
