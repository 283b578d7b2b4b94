"""Code actions (quick fixes from findings, exports to every target) and the ``toolcast.export``
command. An export is exactly what ``toolcast convert`` prints for the same input."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as t
from toolcast.adapters.checks import is_request as is_request_value
from toolcast.adapters.document import read_text
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.targets import TARGETS, export_file_name, source_stem

from ..output import render, write_atomic
from .documents import Document, uri_to_path
from .export_place import destination, outside, tool_file_stem
from .protocol import ErrorReply
from .quick_fixes import quick_fixes
from .state import EAGER_EXPORT_TOOLS, ToolcastServer

if TYPE_CHECKING:
    from toolcast.adapters.checks import DocumentReport, ToolSummary

log = logging.getLogger("toolcast.server")

CODE_ACTION_OPTIONS = t.CodeActionOptions(code_action_kinds=[
    t.CodeActionKind.QuickFix, t.CodeActionKind.Source, t.CodeActionKind.RefactorRewrite],
    resolve_provider=True)


def tool_at(ls: ToolcastServer, doc: Document, offset: int) -> Any:
    report = ls.report(doc)
    return report.tool_at(offset) if report else None


def render_export(doc: Document, target: str, tool_index: int | None) -> tuple[str, str]:
    """(file name, text) of the export — exactly what ``toolcast convert`` prints for the same input."""
    from toolcast.adapters.convert import convert, convert_all
    from toolcast.adapters.loading import load_tools

    value = doc.parsed.value
    path = doc.path or Path(doc.uri.rsplit("/", 1)[-1])
    stem = source_stem(path.name)
    if is_request_value(value):  # a request file: the provider's request, as `toolcast request` prints it
        from toolcast.adapters.messages import request_from_json, to_wire

        return export_file_name(stem, target), render(to_wire(request_from_json(value), target).body)
    loaded = load_tools(value)
    if tool_index is not None:
        chosen = [lt for lt in loaded if lt.index == tool_index]
        # `sendable`: what the provider would reject (or toolcast refuses) is a ConversionError, never written
        output: Any = convert(chosen[0].tool, target).sendable() if chosen else None
        name = export_file_name(tool_file_stem(chosen[0].tool.name, target) if chosen else stem, target)
    elif len(loaded) == 1 and loaded[0].pointer == "":
        output = convert(loaded[0].tool, target).sendable()
        name = export_file_name(stem, target)
    else:
        output = convert_all([lt.tool for lt in loaded], target).sendable()
        name = export_file_name(stem, target)
    return name, render(output)


def export_name(doc: Document, target: str, tool_name: str | None) -> str:
    """The file name ``render_export`` gives, without converting anything."""
    path = doc.path or Path(doc.uri.rsplit("/", 1)[-1])
    stem = tool_file_stem(tool_name, target) if tool_name is not None else source_stem(path.name)
    return export_file_name(stem, target)


SHOW_EXPORT = "toolcast.showExport"


def tell_written(ls: ToolcastServer, path: Path) -> None:
    """Tell the user where an export went: the client opens the file (`window/showDocument`) where it
    can, else a message names the path (also when the client answers that it could not show it). Sent
    before the answer to the request that wrote the file, not after it: Emacs 28's jsonrpc leaves a
    message that follows an answer in the same read unread until the server writes again."""
    message = t.ShowMessageParams(t.MessageType.Info, f"toolcast: exported {path}")
    if not ls.session.show_document:
        ls.window_show_message(message)
        return

    def shown(answer: Any) -> None:
        try:
            ok = bool(answer.result().success)
        except Exception as exc:  # the client declared it but failed: say it in a message instead
            log.info("window/showDocument failed: %r", exc)
            ok = False
        if not ok:
            ls.window_show_message(message)

    ls.window_show_document(t.ShowDocumentParams(uri=path.as_uri(), take_focus=True)).add_done_callback(shown)


def show_export_command(ls: ToolcastServer, *args: Any) -> Any:
    """Argument: the URI of an export a code action's edit created (the action's command, which a client
    runs after applying its edit). Shows it as ``tell_written`` does."""
    path = uri_to_path(args[0]) if len(args) == 1 and isinstance(args[0], str) else None
    if path is None or not path.is_file():
        return ErrorReply(f"{SHOW_EXPORT} takes the URI of a file that exists")
    tell_written(ls, path)
    return {"path": str(path)}


def code_action(ls: ToolcastServer, params: t.CodeActionParams) -> list[t.CodeAction]:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return []
    only = params.context.only

    def wanted(kind: str) -> bool:
        return not only or any(kind == k or kind.startswith(f"{k}.") for k in only)

    report = ls.report(doc)
    actions = quick_fixes(ls, doc, report, params.context.diagnostics) if report is not None and wanted(
        "quickfix") else []
    request = is_request_value(doc.parsed.value)
    if report is None or not (report.tools or request):
        return actions
    offset = doc.index.offset(params.range.start.line, params.range.start.character, ls.encoding)
    offer = _offer(ls, doc, report, tool_at(ls, doc, offset), request)
    for target, scope, index in _export_choices(ls, doc, offer):
        kind = f"source.toolcast.{'preview' if request else 'export'}.{target}"
        if wanted(kind):
            action = _export_action(offer, kind, target, scope, index)
            if action is not None:
                actions.append(action)
    return actions


@dataclass(frozen=True, slots=True)
class _Offer:
    """How exports of one document are offered to this client (the same for every target and scope)."""

    doc: Document
    request: bool  # a request file: previews of the provider's request, for the whole file only
    under: ToolSummary | None  # the tool at the cursor
    tools: int  # how many tools the document holds
    creates: bool  # the client applies edits that create files
    overwrites: bool  # ... and that overwrite them
    lazy: bool  # the edit is computed by `codeAction/resolve` when the action is chosen
    eager: bool  # the edit is computed now (a small file, a client that does not resolve edits)
    outside: str | None  # why the document's folder is outside the workspace (`export_place.outside`)
    disabled: bool  # the client lists an action that cannot run as disabled, with the reason


def _offer(ls: ToolcastServer, doc: Document, report: DocumentReport, under: ToolSummary | None,
           request: bool) -> _Offer:
    # A client that resolves an action's edit gets export actions without it, for every file size: the
    # export is computed by `codeAction/resolve` when one is chosen (code actions are asked for at
    # every cursor move). Other clients: the edit computed here for small files, else the command that
    # writes the file.
    session = ls.session
    creates = session.create_files
    lazy = bool(session.resolve_edit and creates and doc.path is not None)
    eager = not lazy and len(report.tools) <= EAGER_EXPORT_TOOLS
    folder = outside(doc.path.parent, ls.roots) if doc.path else None
    return _Offer(doc, request, under, len(report.tools), creates, session.overwrite_files, lazy, eager, folder,
                  session.disabled_actions)


def _export_choices(ls: ToolcastServer, doc: Document, offer: _Offer) -> Iterator[tuple[str, str, int | None]]:
    """(target, scope, tool index) of every export offered: the project's or the client's ``targets``
    only; the tool at the cursor before the whole file when the file holds several."""
    from toolcast.adapters.messages import REQUEST_TARGETS

    chosen = ls.config_for(doc).targets
    for target in (t_ for t_ in (REQUEST_TARGETS if offer.request else TARGETS) if t_ in chosen):
        if offer.under is not None and offer.tools > 1 and not offer.request:
            yield target, "tool", offer.under.index
        yield target, "file", None


def _export_action(offer: _Offer, kind: str, target: str, scope: str, index: int | None) -> t.CodeAction | None:
    """One export (or request preview) action: with its edit, to be resolved, or as the command that
    writes the file; None when it cannot be offered."""
    from toolcast.adapters.providers import DISPLAY_NAMES

    doc, under = offer.doc, offer.under if scope == "tool" else None
    label = DISPLAY_NAMES[target]
    title = f"Preview as {label} request" if offer.request else f"Export to {label}" + (
        f" ({under.name})" if under is not None else "")
    name = export_name(doc, target, under.name if under is not None else None)
    dest, refused = destination(doc.path, name, offer.outside) if doc.path else (None, None)
    if refused is not None:  # never offered as an overwrite: said as the reason where the client shows one
        return t.CodeAction(title=title, kind=kind, disabled=t.CodeActionDisabled(
            f"toolcast: {refused}")) if offer.disabled else None
    exists = dest is not None and dest.exists()
    via_edit = offer.creates and dest is not None and (offer.lazy or offer.eager)
    # An export whose file exists is not offered (choosing it could only fail), except to a client
    # that can overwrite through its edit: the title says so. Not under a new name: only
    # `<stem>.<target>.json` is known as that provider's copy (no TC202), and copies would pile up.
    if exists:
        if not (via_edit and offer.overwrites):
            return None
        title += f" (overwrite {name})"
    # The client runs an action's command after its edit: the server then shows the new file.
    show = t.Command(title, SHOW_EXPORT, arguments=[dest.as_uri()]) if via_edit and dest else None
    if offer.lazy:
        return t.CodeAction(title=title, kind=kind, command=show, data={
            "uri": doc.uri, "version": doc.version, "target": target, "tool": index})
    if not via_edit or dest is None:
        # The command writes the file and shows it; a large file's export is computed only then
        # (the command reports a file that does not load).
        return t.CodeAction(title=title, kind=kind,
                            command=t.Command(title, "toolcast.export", arguments=[doc.uri, target, index]))
    try:
        _name, text = render_export(doc, target, index)
    except Exception as exc:  # a file that does not load: no export offered
        log.info("export not offered: %s", exc)
        return None
    return t.CodeAction(title=title, kind=kind, edit=create_file_edit(dest, text, exists), command=show)


def create_file_edit(dest: Path, text: str, exists: bool) -> t.WorkspaceEdit:
    """Create ``dest`` (over an existing file when ``exists``) holding ``text``."""
    uri = dest.as_uri()
    return t.WorkspaceEdit(document_changes=[
        t.CreateFile(uri=uri, options=t.CreateFileOptions(overwrite=True) if exists else None),
        t.TextDocumentEdit(t.OptionalVersionedTextDocumentIdentifier(uri, None),
                           [t.TextEdit(t.Range(t.Position(0, 0), t.Position(0, 0)), text)]),
    ])


CONTENT_MODIFIED = -32801  # LSP: the document changed since the action was listed


def resolve_code_action(ls: ToolcastServer, action: t.CodeAction) -> t.CodeAction | ErrorReply:
    """`codeAction/resolve` for an export listed without its edit: ``data`` is {uri, version, target,
    tool}. The export is rendered for the document's current text only if that is still ``version``;
    otherwise the answer is a ContentModified error (the action was listed for text the user no longer
    has: the client asks for code actions again). Without ``data`` there is nothing to resolve: the action comes
    back unchanged. Malformed ``data``: an InvalidParams error."""
    data = action.data
    if data is None:
        return action  # nothing to resolve (a quick fix listed with its edit): the action as it is
    if not (isinstance(data, dict) and isinstance(data.get("uri"), str) and data.get("target") in TARGETS
            and type(data.get("version")) is int and (data.get("tool") is None or type(data.get("tool")) is int)):
        return ErrorReply("codeAction/resolve: data must be {uri, version, target, tool} of a toolcast export")
    doc = ls.documents.get(data["uri"])
    if doc is None or doc.path is None:
        return ErrorReply(f"codeAction/resolve: {data['uri']} is not an open file")
    if doc.version != data["version"]:
        return ErrorReply(f"codeAction/resolve: {doc.uri} changed (version {data['version']} is now "
                          f"{doc.version}); ask for code actions again", CONTENT_MODIFIED)
    try:
        # `tool` may be absent: a null in `data` does not survive a Lua table (Neovim drops the key)
        name, text = render_export(doc, data["target"], data.get("tool"))
    except (ToolcastError, ValueError) as exc:  # a file that does not load
        return ErrorReply(f"codeAction/resolve: {exc}", -32603)
    dest, refused = destination(doc.path, name, outside(doc.path.parent, ls.roots))
    if refused is not None:  # the destination changed since the action was listed: a client may show no error
        ls.window_show_message(t.ShowMessageParams(t.MessageType.Error, f"toolcast: not exported: {refused}"))
        return ErrorReply(f"codeAction/resolve: {refused}", -32603)
    exists = dest.exists()
    if exists and not ls.session.overwrite_files:
        return ErrorReply(f"codeAction/resolve: {name} exists; this client cannot overwrite files", -32603)
    action.edit = create_file_edit(dest, text, exists)
    return action


def export_command(ls: ToolcastServer, *args: Any) -> Any:
    """Arguments: uri, target, [tool index or null], [return the JSON instead of writing: true].
    Writes ``<stem>.<target>.json`` beside the file (never over an existing one), or returns the JSON.
    Wrong arguments or a file that cannot be exported: an error answer (``ErrorReply``), not a raise."""
    if len(args) < 2 or not isinstance(args[0], str) or args[1] not in TARGETS:
        return ErrorReply("toolcast.export takes: uri, target[, tool index][, return json]")
    uri, target = args[0], args[1]
    tool_index = args[2] if len(args) > 2 and isinstance(args[2], int) else None
    return_json = bool(args[3]) if len(args) > 3 else False
    doc = ls.documents.get(uri)
    if doc is None:
        path = uri_to_path(uri)
        if path is None or not path.is_file():
            return ErrorReply(f"toolcast.export: unknown document {uri}")
        try:
            doc = Document(uri, read_text(path), 0)
        except (OSError, UnicodeDecodeError) as exc:
            return ErrorReply(f"toolcast.export: cannot read {path}: {exc}", -32603)
    try:
        name, text = render_export(doc, target, tool_index)
    except (ToolcastError, ValueError) as exc:  # a file that does not load
        return ErrorReply(f"toolcast.export: {exc}", -32603)
    if return_json:
        return json.loads(text)
    if doc.path is None:
        return ErrorReply("toolcast.export: export needs a file on disk", -32603)
    dest, refused = destination(doc.path, name, outside(doc.path.parent, ls.roots))
    if refused is not None:  # the caller shows the error (VS Code's "Export tool to…", eglot's echo area)
        return ErrorReply(f"toolcast.export: {refused}", -32603)
    if dest.exists():
        return ErrorReply(f"toolcast.export: {dest.name} exists; toolcast does not overwrite it", -32603)
    try:
        write_atomic(dest, text, source=doc.path)
    except ToolcastError as exc:
        return ErrorReply(f"toolcast.export: {exc}", -32603)
    tell_written(ls, dest)
    return {"path": str(dest)}
