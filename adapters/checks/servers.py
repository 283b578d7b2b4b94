"""Checks across the MCP servers one host loads together (``toolcast check --mcp-config``).

Each server's tools are checked as a document of their own, with the server's name as the host knows it
(the prefix of host-prefixed names). What concerns the request the host sends with every server's tools
is checked once, on all of them: a tool name two servers list (TC206, here), and the request-level rules
(``REQUEST_CODES``: the providers' and hosts' tool limits, the project's budgets), which the command line
takes from a check of the tools of every server together."""

from __future__ import annotations

from collections.abc import Sequence

from ..consumers import Consumer, ConsumerRule, consumer
from ..listing import listed
from ..rules.codes import (
    CONSUMER_TOOL_COUNT,
    DUPLICATE_NAME_ACROSS_SERVERS,
    PROVIDER_TOOL_COUNT,
    TOKEN_BUDGET,
    TOKEN_BUDGET_UNAVAILABLE,
    TOOL_COUNT_BUDGET,
)
from ..rules.findings import Finding
from ..rules.registry import RULES
from .config import CheckConfig
from .document_report import DocumentReport

#: Rules about the tools of one request: over several servers, judged on all their tools together.
REQUEST_CODES = frozenset({PROVIDER_TOOL_COUNT, CONSUMER_TOOL_COUNT, TOKEN_BUDGET, TOOL_COUNT_BUDGET,
                           TOKEN_BUDGET_UNAVAILABLE})


def names_across_servers(servers: Sequence[tuple[str, DocumentReport]],
                         config: CheckConfig) -> list[tuple[Finding, ...]]:
    """TC206 for each server (in the order given): each of its tools whose name another server lists, the
    message naming the other servers and saying what each selected host does with the name (its profile's
    ``duplicate_names`` rule, with the rule's sources)."""
    if not config.is_enabled(DUPLICATE_NAME_ACROSS_SERVERS):
        return [() for _ in servers]
    holders: dict[str, list[int]] = {}
    for i, (_server, report) in enumerate(servers):
        for tool in report.tools:
            if tool.name is not None and i not in holders.setdefault(tool.name, []):
                holders[tool.name].append(i)
    rule = RULES[DUPLICATE_NAME_ACROSS_SERVERS]
    severity = config.severity_override(DUPLICATE_NAME_ACROSS_SERVERS, rule.severity)
    policies = [(who, r) for who in map(consumer, config.consumers) for r in who.rules if r.kind == "duplicate_names"]
    out: list[tuple[Finding, ...]] = []
    for i, (_server, report) in enumerate(servers):
        found = []
        for tool in report.tools:
            others = [servers[k][0] for k in holders.get(tool.name or "", ()) if k != i]
            if tool.name is None or not others:
                continue
            message = f"tool name {tool.name!r} is also listed by server {listed(repr(o) for o in others)}"
            first = servers[holders[tool.name][0]][0]
            message += "".join(f"; {_host_does(who, r, tool.name, first)}" for who, r in policies)
            span = tool.name_span or (tool.span[0], tool.span[0] + 1)
            hosts = [{"consumer": who.name, "consumer_rule": r.id, "sources": list(r.sources),
                      "confidence": r.confidence} for who, r in policies]
            found.append(Finding(DUPLICATE_NAME_ACROSS_SERVERS, severity, message, tool.pointer, span, None,
                                 tool.index, tool.name, data={"rule": rule.name, "servers": others,
                                                              **({"hosts": hosts} if hosts else {})}))
        out.append(tuple(found))
    return out


def _host_does(who: Consumer, rule: ConsumerRule, name: str, first: str) -> str:
    """What host ``who`` sends for a tool ``name`` several servers list, ``first`` the first of them."""
    renamed = rule.settings["format"].format(server="<server>", tool=name)
    does = (f"sends each server's as `{renamed}`" if rule.settings["renamed"] == "all"
            else f"keeps it for {first!r} and renames the others' to `{renamed}`")
    return f"{who.display_name} {does}: {rule.message} [{rule.cite()}]"


__all__ = ["REQUEST_CODES", "names_across_servers"]
