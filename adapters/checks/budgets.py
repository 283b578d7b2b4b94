"""Request budgets a project sets in its configuration (TC93x): ``max_tools`` (tools per file or MCP server)
and ``max_tokens`` (their estimated tokens per target, ``adapters/cost.py``). Run only when a budget is
set, so a check without one never loads a tokenizer or converts a tool for its cost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cost import UNAVAILABLE, TokenCosts, method_for, model_for
from ..providers import DISPLAY_NAMES
from ..rules.codes import TOKEN_BUDGET, TOKEN_BUDGET_UNAVAILABLE, TOOL_COUNT_BUDGET
from .config import CheckConfig
from .raw import Unplaced


def budget_raws(objects: Sequence[Any], config: CheckConfig, costs: TokenCosts) -> list[Unplaced]:
    """The findings of the configured budgets for the tool objects of one document (sent together)."""
    raws: list[Unplaced] = []
    if config.max_tools is not None and len(objects) > config.max_tools:
        raws.append(Unplaced(TOOL_COUNT_BUDGET, f"{len(objects)} tools; the configured max_tools is {config.max_tools}",
                        objects[config.max_tools].pointer, "value"))
    if config.max_tokens is None or not objects:
        return raws
    if not costs.available:
        raws.append(Unplaced(TOKEN_BUDGET_UNAVAILABLE, f"max_tokens = {config.max_tokens:,} is not checked: token "
                        f"counts are {UNAVAILABLE}", objects[0].pointer, "value"))
        return raws
    # Targets with the same estimate at the same tool (OpenAI Chat and Responses) share one finding.
    over: dict[tuple[str, int, str], list[str]] = {}
    errors: dict[tuple[str, int, str], str] = {}  # the first target's measured error, shown with the figure
    for target in config.targets:
        model = model_for(target, config.models)
        method = method_for(target, model)
        options = config.options_for(target)
        # A range (a Claude model not named) is compared by its low end; a tool that cannot be converted is
        # left out of the total (it has findings of its own).
        total, crossed = 0, None
        for obj, running in zip(objects, costs.running([(o.value, o.shape) for o in objects], target, options, model,
                                                               named=config.exact_targets),
                                strict=False):
            total = running.tokens or 0
            if crossed is None and total > config.max_tokens:
                crossed = obj
        if crossed is not None:
            over.setdefault((crossed.pointer, total, method.label), []).append(target)
            errors.setdefault((crossed.pointer, total, method.label), method.error)
    for (pointer, total, label), targets in over.items():
        who = ", ".join(DISPLAY_NAMES.get(t, t) for t in targets)
        error = errors[(pointer, total, label)]
        raws.append(Unplaced(TOKEN_BUDGET,
                             f"{who}: the {len(objects)} tools take ≈ {total:,} tokens (estimate, {label}, "
                        f"{error}); "
                        f"the configured max_tokens is {config.max_tokens:,}", pointer, "value", target=targets[0],
                        data={"targets": targets, "tokens": total}))
    return raws
