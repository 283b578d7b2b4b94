"""Hover texts: for a schema keyword, what each target does with it; for a tool's name, its losses.

Both read the losses the diagnostics are made from: a keyword's fate for a target is the ``Loss`` that
``convert()`` reports at that keyword (the checks' own ``conversions``, the same call ``toolcast convert``
makes), so hover and the TC5xx on the same key cannot disagree. A hover is a title and one line per
target, written as markdown or plain text (the client's ``contentFormat``).
"""

from __future__ import annotations

from typing import Any

from toolcast.adapters import pointer as jp
from toolcast.adapters.checks import CheckConfig, DocumentReport, changes_meaning, conversions, loss_place
from toolcast.adapters.cost import TokenCosts
from toolcast.adapters.document import ParsedDocument
from toolcast.adapters.losses import Action, Loss
from toolcast.adapters.providers import DISPLAY_NAMES

_ACTIONS = {Action.FOLDED: "folded into the description", Action.DROPPED: "dropped",
            Action.LOWERED: "lowered", Action.REJECTED: "rejected"}


def cost_lines(costs: TokenCosts, value: Any, shape: str | None, config: CheckConfig) -> list[str]:
    """The tool's estimated tokens for each configured target, and how they were counted."""
    from toolcast.adapters.cost import UNAVAILABLE

    if not config.targets:
        return []
    if not costs.available:
        return [f"\nTokens: {UNAVAILABLE}"]
    from toolcast.adapters.cost import model_for

    lines = ["\nTokens (estimate: the tool as toolcast converts it for the target, as sent, counted with the model "
             "family's encoding; '≈ cl100k': the provider's tokenizer is not public, an OpenAI encoding "
             "approximates it; each with its error on published pairs):"]
    for target in config.targets:
        model = model_for(target, config.models)
        cost = costs.tool(value, shape, target, config.options_for(target), model)
        shown = f"≈ {cost.figure} ({cost.qualifiers})" if cost.tokens is not None else cost.reason
        lines.append(f"- {DISPLAY_NAMES[target]}: {shown}")
        once = costs.per_request(target, model) if cost.tokens is not None else None
        if once is not None and once.prompt is not None:
            lines.append(f"  + {once.figure} once per request: the tool-use system prompt {cost.method.provider} "
                         f"adds ({once.prompt_label})")
    return lines


def loss_fate(loss: Loss) -> str:
    """What happens to a keyword, as the diagnostic's ``(action, effect)`` says it."""
    return f"{_ACTIONS.get(loss.action, loss.action.value)} ({loss.effect.value})"


def keyword_fates(value: Any, shape: str | None, pointer: str, config: CheckConfig) -> dict[str, list[Loss]]:
    """Per configured target, the losses ``convert()`` reports at ``pointer`` (relative to the tool
    object ``value``), placed as the TC5xx findings are placed; a target that refuses the whole tool
    is missing (the checks report why)."""
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
            lines = []
            for target in config.targets:
                n = len([f for f in findings if f.tool_index == tool.index and target in f.targets
                         and changes_meaning(f.code)])
                lines.append(f"{DISPLAY_NAMES[target]}: {'kept' if n == 0 else f'{n} loss(es)'}")
            text = render(tool.name or "", lines, markdown)
            if costs is not None:
                value = jp.resolve(parsed.value, tool.pointer, None)
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
    fates = keyword_fates(value, under.shape, loc.pointer[len(under.pointer):], config)
    lines = []
    for target in config.targets:
        losses = fates.get(target)
        fate = "not converted" if losses is None else "; ".join(loss_fate(x) for x in losses) or "kept"
        lines.append(f"{DISPLAY_NAMES[target]}: {fate}")
    return render(jp.unescape(key), lines, markdown, code=True), span
