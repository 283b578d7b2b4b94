"""Hover texts: for a schema keyword, what each target does with it; for a tool's name, its losses."""

from __future__ import annotations

from typing import Any

from toolcast.adapters.checks import CheckConfig, DocumentReport
from toolcast.adapters.checks.losses import changes_meaning
from toolcast.adapters.cost import TokenCosts
from toolcast.adapters.document import ParsedDocument
from toolcast.adapters.providers import DISPLAY_NAMES


def keyword_fate(keyword: str, mode: dict[str, Any]) -> str:
    action = mode.get("keywords", {}).get(keyword)
    if isinstance(action, str):
        return {"fold": "folded into the description", "drop": "dropped", "reject": "rejected"}.get(action, action)
    special = {
        "$ref": "inlined" if mode.get("refs") == "inline" or not mode.get("recursion", True) else "kept",
        "oneOf": "becomes anyOf" if mode.get("oneOf") == "anyOf" else "kept",
        "allOf": "merged" if mode.get("allOf") == "merge" else "kept",
        "const": "becomes a one-value enum" if mode.get("const") == "enum" else "kept",
        "additionalProperties": "dropped" if mode.get("additionalProperties") == "drop"
        else "forced to false" if mode.get("closed_objects") else "kept",
    }
    return special.get(keyword, "kept")


def cost_lines(costs: TokenCosts, value: Any, shape: str | None, config: CheckConfig) -> list[str]:
    """The tool's estimated tokens for each configured target, and how they were counted."""
    from toolcast.adapters.cost import UNAVAILABLE

    if not config.targets:
        return []
    if not costs.available:
        return [f"\nTokens: {UNAVAILABLE}"]
    lines = ["\nTokens (estimate: the tool as toolcast converts it for the target, counted with the model "
             "family's encoding; `≈ cl100k`: the provider's tokenizer is not public, an OpenAI encoding "
             "approximates it):"]
    for target in config.targets:
        cost = costs.tool(value, shape, target, config.options_for(target))
        shown = f"≈ {cost.tokens:,} ({cost.method.label.split(', ', 1)[1]})" if cost.tokens is not None \
            else cost.reason
        lines.append(f"- {DISPLAY_NAMES[target]}: {shown}")
    return lines


def hover_text(parsed: ParsedDocument, offset: int, report: DocumentReport | None, config: CheckConfig,
               costs: TokenCosts | None = None) -> tuple[str, tuple[int, int]] | None:
    from toolcast.adapters.convert import load_profile

    loc = parsed.location(offset)
    if not loc.pointer:
        return None
    key = loc.pointer.rsplit("/", 1)[-1]
    findings = report.findings if report else ()
    for tool in report.tools if report else ():
        if tool.name_span and tool.name_span[0] <= offset <= tool.name_span[1]:
            lines = [f"**{tool.name}**"]
            for target in config.targets:
                n = len([f for f in findings if f.tool_index == tool.index and target in f.targets
                         and changes_meaning(f.code)])
                lines.append(f"- {DISPLAY_NAMES[target]}: {'kept' if n == 0 else f'{n} loss(es)'}")
            if costs is not None:
                from toolcast.adapters.pointer import resolve

                lines.extend(cost_lines(costs, resolve(parsed.value, tool.pointer, None), tool.shape, config))
            return "\n".join(lines), tool.name_span
    span = parsed.span(loc.pointer, "key")
    if not loc.is_key or span is None or ("/parameters" not in loc.pointer and "Schema" not in loc.pointer \
            and "input_schema" not in loc.pointer):
        return None
    lines = [f"`{key}`"]
    for target in config.targets:
        profile = load_profile(target)
        fates = {name: keyword_fate(key, mode) for name, mode in profile["modes"].items()}
        shown = "; ".join(f"{name.replace('_', '-')}: {fate}" for name, fate in fates.items()) \
            if len(set(fates.values())) > 1 else next(iter(fates.values()))
        lines.append(f"- {DISPLAY_NAMES[target]}: {shown}")
    return "\n".join(lines), span
