"""Token cost in the editor: a code lens on each tool (``≈ 312 tokens (OpenAI, o200k, non-strict, mean error
0.4% on 42 published pairs)``) and one at the top of the file with the total per request (with the tool-use
system prompt where the provider adds one), for the first configured target in the form it is sent (with no
target named, the form toolcast chose, named with why: ``convert.forms``); the tool name's hover lists every
form (``hover.py``). The lenses are sent without their title and resolved (``codeLens/resolve``) when the
editor shows them, so a large file pays only for the tools in view; the total is counted in slices
between which the server answers other messages. The counts are the session analyzer's ``TokenCosts``
(``adapters/cost.py``), remembered per tool."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from lsprotocol import types as t
from toolcast.adapters.cost import UNAVAILABLE, Cost, method_for, model_for
from toolcast.adapters.pointer import resolve

if TYPE_CHECKING:
    from toolcast.adapters.checks import DocumentReport
    from toolcast.adapters.targets import TargetOptions

    from .documents import Document
    from .state import ToolcastServer

#: Seconds of counting between two yields to the message loop while a file's total is resolved, and how long
#: each yield waits: a timer, not ``sleep(0)``, so the loop reads what came meanwhile (an edit's diagnostics
#: wait for one slice at most; docs/design.md, "The server's slices").
SLICE = 0.01
YIELD = 0.0005
_KIND = "toolcast.cost"


def cost_lenses(ls: ToolcastServer, doc: Document, report: DocumentReport) -> list[t.CodeLens]:
    """Unresolved lenses: the file's total at its first tool, and one per tool (none without tools)."""
    if not report.tools or not ls.config_for(doc).targets:
        return []
    top = ls.range(doc, (report.tools[0].span[0], report.tools[0].span[0]), ls.encoding)
    lenses = [t.CodeLens(top, data={"kind": _KIND, "uri": doc.uri, "tool": None})]
    if not ls.analyzer.token_costs.available:
        return lenses  # one lens says what to install; not one per tool
    for tool in report.tools:
        pos = ls.range(doc, (tool.span[0], tool.span[0]), ls.encoding)
        lenses.append(t.CodeLens(pos, data={"kind": _KIND, "uri": doc.uri, "tool": tool.index}))
    return lenses


def is_cost_lens(lens: t.CodeLens) -> bool:
    return isinstance(lens.data, dict) and lens.data.get("kind") == _KIND


async def resolve_cost_lens(ls: ToolcastServer, lens: t.CodeLens) -> t.CodeLens:
    """The lens with its title: one tool's estimate, or the file's total per request."""
    from toolcast.adapters.checks import sent_options

    data: dict[str, Any] = lens.data if isinstance(lens.data, dict) else {}
    doc = ls.documents.get(str(data.get("uri")))
    report = ls.report(doc) if doc is not None else None
    title = "toolcast: tokens not available (the file changed)"
    if doc is not None and report is not None and report.tools:
        config = ls.config_for(doc)
        target = config.targets[0]
        costs = ls.analyzer.token_costs
        value = doc.parsed.value
        index = data.get("tool")
        model = model_for(target, config.models)
        # The encoding's first load takes a few tenths of a second: in a thread, so diagnostics go on meanwhile.
        await asyncio.to_thread(costs.counter, method_for(target, model).encoding)
        if index is None:
            if not costs.available:
                title = f"toolcast: tokens {UNAVAILABLE}"
            else:
                tools = [(resolve(value, tool.pointer, None), tool.shape) for tool in report.tools]
                shown = Cost(target, 0, method_for(target, model))
                pause = time.monotonic() + SLICE

                def sent(obj: Any, shape: str | None) -> TargetOptions:
                    return sent_options(obj, shape, target, config)

                for running in costs.running(tools, target, sent, model):
                    shown = running
                    if time.monotonic() > pause:
                        await asyncio.sleep(YIELD)  # let edits and other requests in
                        pause = time.monotonic() + SLICE
                skipped = f", {shown.uncounted} tool(s) not counted" if shown.uncounted else ""
                title = (f"toolcast: ≈ {shown.figure} tokens for {len(report.tools)} tool(s) per request "
                         f"({shown.method.provider}, {shown.qualifiers}, estimate{skipped})")
        else:
            found = next((x for x in report.tools if x.index == index), None)
            if found is not None:
                obj = resolve(value, found.pointer, None)
                title = f"toolcast: {_tool_title(obj, found.shape, target, config, model, costs)}"
    return t.CodeLens(lens.range, t.Command(title, ""), lens.data)


def _tool_title(value: Any, shape: str | None, target: str, config: Any, model: str | None, costs: Any) -> str:
    """One tool's estimate in the form it is sent, and, when toolcast chose that form, which and why
    (``≈ 312 tokens (OpenAI, o200k, strict, …) · OpenAI Chat Completions (strict): strict mode loses nothing``)."""
    from toolcast.adapters.checks import choices, sent_options

    cost = costs.tool(value, shape, target, sent_options(value, shape, target, config), model)
    found = choices(value, shape, config) or ()
    choice = next((c for c in found if target in c.targets and not c.named), None)
    return cost.label() if choice is None else f"{cost.label()} · {choice.form(target)}: {choice.why}"
