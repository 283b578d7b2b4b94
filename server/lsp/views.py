"""Read-only views of a document: completion, hover, document symbols and code lenses."""

from __future__ import annotations

from lsprotocol import types as t

from . import mcp_config
from .cost_lens import cost_lenses, is_cost_lens, resolve_cost_lens
from .state import ToolcastServer


def completion(ls: ToolcastServer, params: t.CompletionParams) -> t.CompletionList | None:
    from .completion import complete

    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    offset = doc.index.offset(params.position.line, params.position.character, ls.encoding)
    found = complete(doc.parsed, offset)
    if found is None:
        return None
    kind, labels = found
    item_kind = t.CompletionItemKind.Property if kind == "key" else t.CompletionItemKind.EnumMember
    return t.CompletionList(is_incomplete=False, items=[t.CompletionItem(label, kind=item_kind) for label in labels])


def hover(ls: ToolcastServer, params: t.HoverParams) -> t.Hover | None:
    from .hover import hover_text

    doc = ls.documents.get(params.text_document.uri)
    if doc is None or ls.report(doc) is None:
        return None
    offset = doc.index.offset(params.position.line, params.position.character, ls.encoding)
    kind = hover_kind(ls.client_capabilities)
    found = hover_text(doc.parsed, offset, ls.report(doc), ls.config_for(doc), ls.analyzer.token_costs,
                       kind == t.MarkupKind.Markdown)
    if found is None:
        return None
    text, span = found
    return t.Hover(t.MarkupContent(kind, text), ls.range(doc, span, ls.encoding))


def hover_kind(caps: t.ClientCapabilities | None) -> t.MarkupKind:
    """The first of the client's ``hover.contentFormat`` (its order of preference) that toolcast writes;
    markdown for a client that names neither."""
    hover = caps.text_document.hover if caps and caps.text_document else None
    for kind in (hover.content_format if hover else None) or ():
        if kind in (t.MarkupKind.Markdown, t.MarkupKind.PlainText):
            return t.MarkupKind(kind)
    return t.MarkupKind.Markdown


def document_symbol(ls: ToolcastServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
    from toolcast.adapters.loading import iter_tool_objects

    doc = ls.documents.get(params.text_document.uri)
    report = ls.report(doc) if doc else None
    if doc is None or report is None or not report.tools:
        return []
    parsed = doc.parsed
    fields = {o.index: o.field_pointers for o in iter_tool_objects(parsed.value)}
    symbols = []
    for tool in report.tools:
        children = []
        params_ptr = fields.get(tool.index, {}).get("parameters")
        props = parsed.node_at(params_ptr + "/properties") if params_ptr else None
        for prop in (props.properties or []) if props is not None else []:
            if prop.value is None:
                continue
            rng = ls.range(doc, (prop.start, prop.end), ls.encoding)
            sel = ls.range(doc, (prop.key_start, prop.key_end), ls.encoding)
            children.append(t.DocumentSymbol(prop.key, t.SymbolKind.Field, rng, sel))
        rng = ls.range(doc, tool.span, ls.encoding)
        sel = ls.range(doc, tool.name_span or tool.span, ls.encoding)
        symbols.append(t.DocumentSymbol(tool.name or f"tool {tool.index}", t.SymbolKind.Function, rng, sel,
                                        detail=tool.shape, children=children))
    return symbols


def code_lens(ls: ToolcastServer, params: t.CodeLensParams) -> list[t.CodeLens]:
    from toolcast.adapters.checks import changes_meaning

    doc = ls.documents.get(params.text_document.uri)
    if doc is not None and mcp_config.is_config(doc.path):
        return mcp_config.code_lenses(ls, doc)
    report = ls.report(doc) if doc else None
    if doc is None or report is None:
        return []
    per_tool: dict[int, dict[str, int]] = {}
    for f in report.findings:  # one pass: files with thousands of tools and findings
        if f.tool_index is not None and changes_meaning(f.code):
            counts = per_tool.setdefault(f.tool_index, {})
            for target in f.targets:
                counts[target] = counts.get(target, 0) + 1
    lenses = []
    for tool in report.tools:
        counts = per_tool.get(tool.index, {})
        summary = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) or "no losses"
        pos = ls.range(doc, (tool.span[0], tool.span[0]), ls.encoding)
        lenses.append(t.CodeLens(pos, t.Command(f"toolcast: {summary}", "toolcast.export",
                                                arguments=[doc.uri, "mcp", tool.index, True])))
    return lenses + cost_lenses(ls, doc, report)


async def resolve_code_lens(ls: ToolcastServer, lens: t.CodeLens) -> t.CodeLens:
    """Token cost lenses get their title when shown (``cost_lens``); every other lens has one already."""
    return await resolve_cost_lens(ls, lens) if is_cost_lens(lens) else lens
