"""The toolcast language server: LSP wiring in one place; every answer comes from the pure core.

Diagnostics are pushed (debounced per document, never for a stale version) unless the client declares
pull diagnostics, in which case only ``textDocument/diagnostic`` answers. Positions are converted with
toolcast's ``LineIndex`` in the encoding negotiated at ``initialize``.
"""

from __future__ import annotations

import asyncio
import fnmatch
import gc
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from toolcast.adapters.checks import (
    CheckConfig,
    DocumentReport,
    Finding,
    check_document,
    check_names_across,
    config_from_mapping,
    load_config,
)
from toolcast.adapters.checks.request_checks import is_request as is_request_value
from toolcast.adapters.document import Encoding, LineIndex

from .diagnostics import RawJson, diagnostics_json
from .documents import Document, uri_to_path
from .protocol import ErrorReply, ToolcastProtocol, run_io

log = logging.getLogger("toolcast.server")


DEFAULT_DEBOUNCE = 0.0
#: Changes closer together than this are a burst (a paste of many edits, a replayed macro, a flood):
#: their diagnostics wait until the burst pauses for BURST_DELAY.
BURST_GAP = 0.002
BURST_DELAY = 0.02
#: Diagnostics sent per document: a file of thousands of tools can have tens of thousands of
#: findings, more than anyone reads in an editor and slow for every client to take in.
DEFAULT_MAX_DIAGNOSTICS = 1000
SETTLE_SIZE = 1_000_000
#: Up to this many tools, export code actions carry the file to create (computed with the action list).
EAGER_EXPORT_TOOLS = 50
FIRST_BUDGET = 0.25  # seconds of checking before the first diagnostics of a large file are sent
EDIT_BUDGET = 0.05  # the same after an edit while that first check is still going on
SLICE = 0.05  # background checking between two looks at the incoming messages


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class ToolcastServer(LanguageServer):
    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            ver = version("toolcast")
        except PackageNotFoundError:
            ver = "0"
        super().__init__("toolcast", ver, text_document_sync_kind=t.TextDocumentSyncKind.Incremental,
                         protocol_cls=ToolcastProtocol)
        self.documents: dict[str, Document] = {}
        self.client_settings: dict[str, Any] = {}
        self.pull = False
        self.debounce = DEFAULT_DEBOUNCE
        self.max_diagnostics = DEFAULT_MAX_DIAGNOSTICS
        self.pending: dict[str, asyncio.Task[None]] = {}  # publishes waiting to run
        self.completing: dict[str, asyncio.Future[None]] = {}  # background completion of checks
        self.capabilities: t.ClientCapabilities | None = None
        self.watchdog: asyncio.Future[None] | None = None
        self.roots: list[Path] = []
        self.indexed: dict[str, tuple[str, DocumentReport]] = {}  # path -> (text, report) of closed files
        self.indexed_lines: dict[str, LineIndex] = {}  # path -> line index of an indexed file, on demand
        self.configs: dict[Path | None, CheckConfig] = {}  # folder -> effective configuration
        self.exit_code = 0  # of the process, once the message loop ends (see ToolcastProtocol)

    def _start_io_async(self, stdin: Any = None, stdout: Any = None) -> None:
        """toolcast's own message loop (``protocol.run_io``): framing that never wedges."""
        self.exit_code = run_io(self, stdin, stdout)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A body that is not JSON gets the JSON-RPC ``ParseError`` answer (id null) and a log line,
        not an error popup in the user's editor."""
        if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)):
            protocol = self.protocol
            if isinstance(protocol, ToolcastProtocol):
                protocol.send_error(None, -32700, f"Parse error: {error}")
            return
        super().report_server_error(error, source)

    # -- configuration --------------------------------------------------------------------------
    def config_for(self, doc: Document) -> CheckConfig:
        """Project configuration (toolcast.toml / pyproject.toml) with the client's settings on top, key
        by key. Cached per folder (this runs on every keystroke); watched-file and configuration changes
        clear the cache."""
        return self.config_in(doc.path.parent if doc.path is not None else None)

    def config_in(self, folder: Path | None) -> CheckConfig:
        cached = self.configs.get(folder)
        if cached is None:
            cached = self.configs[folder] = self._load_config(folder)
        return cached

    def _load_config(self, folder: Path | None) -> CheckConfig:
        from toolcast.adapters.checks.config import ConfigReadError, find_config_file

        data: dict[str, Any] = {}
        source = "client settings"
        if folder is not None:
            try:
                found = find_config_file(folder)
            except ConfigReadError:
                found = None  # `toolcast check` reports the unreadable file; the editor keeps defaults
            if found is not None:
                data, source = dict(found[1]), str(found[0])
        data.update(self.client_settings)
        if not data:
            return CheckConfig()
        config, problems = config_from_mapping(data, source)
        if problems and folder is not None:
            return load_config(folder)[0]  # a bad mix: fall back to the project file alone
        return config

    def set_client_settings(self, settings: Any) -> None:
        raw = settings.get("toolcast", settings) if isinstance(settings, dict) else {}
        # A copy (keys are taken out below). `null` means "not set in the editor": the project's
        # toolcast.toml or the defaults decide (VS Code sends every declared setting, set or not).
        data = {k: v for k, v in raw.items() if v is not None} if isinstance(raw, dict) else {}
        debounce = data.pop("debounce_ms", None) if "debounce_ms" in data else None
        if isinstance(debounce, (int, float)) and 0 <= debounce <= 5000:
            self.debounce = debounce / 1000
        for client_only in ("server", "trace"):  # the editor extension's own settings (how to start us)
            data.pop(client_only, None)
        limit = data.pop("max_diagnostics", None) if "max_diagnostics" in data else None
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
            self.max_diagnostics = limit
        _, problems = config_from_mapping(data, "client settings") if data else (None, [])
        if problems:
            text = "; ".join(f"{p.key}: {p.message}" for p in problems)
            self.window_show_message(t.ShowMessageParams(
                t.MessageType.Warning, f"toolcast: invalid settings ({text}); using the defaults"))
            self.window_log_message(t.LogMessageParams(t.MessageType.Warning, f"invalid settings: {text}"))
            self.client_settings = {}
        else:
            self.client_settings = data
        self.configs.clear()
        for doc in self.documents.values():  # reports depend on the settings
            doc.report = None

    @property
    def encoding(self) -> Encoding:
        value = str(getattr(self.workspace, "position_encoding", "utf-16") or "utf-16")
        return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"  # type: ignore[return-value]

    # -- analysis -------------------------------------------------------------------------------
    def is_candidate(self, doc: Document, config: CheckConfig) -> bool:
        path = doc.path
        name = path.name if path is not None else doc.uri.rsplit("/", 1)[-1]
        rel = f"{path.parent.name}/{name}" if path is not None else name
        return any(fnmatch.fnmatch(name, g) or fnmatch.fnmatch(rel, g) for g in config.globs)

    def report(self, doc: Document) -> DocumentReport | None:
        """The check report for the document's current version (computed once per version). A large
        file's first check stops after FIRST_BUDGET seconds, so its first diagnostics come at once;
        an edit's after EDIT_BUDGET. The rest is finished in the background (``_complete``)."""
        if doc.report is not None and doc.report_version == doc.version:
            return doc.report
        config = self.config_for(doc)
        budget = EDIT_BUDGET if doc.settled else FIRST_BUDGET
        report = check_document(doc.text, path=str(doc.path) if doc.path else None, config=config, budget=budget)
        if not report.is_tool_file and not self.is_candidate(doc, config):
            report = DocumentReport((), (), False)
        doc.report, doc.report_version = report, doc.version
        if report.pending:
            if doc.uri not in self.completing and _in_event_loop():
                self.completing[doc.uri] = asyncio.ensure_future(self._complete(doc))
        elif not doc.settled:
            doc.settled = True
            if len(doc.text) > SETTLE_SIZE:
                # A large document's first analysis leaves millions of long-lived objects (tree,
                # values, findings). Freezing them keeps the cycle collector from walking them all
                # on later keystrokes (a pause of 100 ms and more); reference counting still frees
                # them when the document goes.
                gc.freeze()
        return report

    async def _complete(self, doc: Document) -> None:
        """Finish the pending checks of a document in slices, letting edits and requests in between,
        then publish (push) or ask the client to pull again (pull)."""
        try:
            while self.documents.get(doc.uri) is doc:
                await asyncio.sleep(0)
                report = self.report(doc)
                if report is None or not report.pending:
                    break
                if report.resume is None or report.resume(SLICE) == 0:
                    doc.report = None  # everything is checked and cached: the next report is complete
            if self.documents.get(doc.uri) is doc:
                if self.pull:
                    refresh(self)
                else:
                    self.schedule(doc.uri)
        finally:
            self.completing.pop(doc.uri, None)

    def diagnostics(self, doc: Document) -> str:
        """The JSON array of the document's diagnostics."""
        report = self.report(doc)
        if report is None:
            return "[]"
        extra: tuple[Finding, ...] = ()
        # Registration checks across files (open ones and the workspace index): duplicate names.
        others = {path: report for path, (_, report) in self.indexed.items() if report.tools}
        others.update({self.key(d): r for d in self.documents.values()
                       if (r := self.report(d)) is not None and r.tools})
        if len(others) > 1 and self.key(doc) in others:
            across = check_names_across(others, self.config_for(doc))
            extra = across.get(self.key(doc), ())
        return diagnostics_json(doc.uri, doc.index, report, extra, self.encoding, doc.fragments, self.locate,
                                self.max_diagnostics)

    def locate(self, path: str) -> tuple[str, LineIndex] | None:
        """(uri, line index) of another file named in a finding: open, else as indexed from disk."""
        for d in self.documents.values():
            if self.key(d) == path:
                return d.uri, d.index
        if path in self.indexed:
            text = self.indexed[path][0]
            known = self.indexed_lines.get(path)
            if known is None or known.text is not text:
                known = self.indexed_lines[path] = LineIndex(text)
            return Path(path).as_uri(), known
        return None

    @staticmethod
    def key(doc: Document) -> str:
        """How a document is named in cross-file findings: its path, else its URI."""
        return str(doc.path) if doc.path is not None else doc.uri

    def publish(self, uri: str, version: int | None, diagnostics: str) -> None:
        ver = "" if version is None else f',"version":{version}'
        self.protocol._send_data(RawJson(
            '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":'
            f'{{"uri":{json.dumps(uri, ensure_ascii=False)}{ver},"diagnostics":{diagnostics}}}}}'))

    @staticmethod
    def range(doc: Document, span: tuple[int, int], enc: Encoding) -> t.Range:
        sl, sc = doc.index.position(span[0], enc)
        el, ec = doc.index.position(span[1], enc)
        return t.Range(t.Position(sl, sc), t.Position(el, ec))

    # -- push -----------------------------------------------------------------------------------
    def schedule(self, uri: str, burst: bool = False) -> None:
        """Publish the document's diagnostics soon: at once (after the messages already read), or,
        while changes arrive faster than ``BURST_GAP`` apart, once the burst pauses for
        ``BURST_DELAY``, so a flood of changes costs one analysis instead of one each."""
        if self.pull:
            return
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        delay = max(self.debounce, BURST_DELAY) if burst else self.debounce
        self.pending[uri] = asyncio.ensure_future(self._publish_later(uri, delay))

    async def _publish_later(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        doc = self.documents.get(uri)
        if doc is None:
            return
        version = doc.version
        diags = self.diagnostics(doc)
        if self.documents.get(uri) is doc and doc.version == version:  # never publish for a stale version
            self.publish(uri, version, diags)
        self.pending.pop(uri, None)
        report = doc.report
        if report is not None and report.pending:
            return  # `_complete` publishes again when the checks are done
        names = tuple(tool.name for tool in report.tools) if report is not None else ()
        if names != doc.published_names:
            # Duplicate names in other open files may have appeared or gone.
            doc.published_names = names
            for other in self.documents.values():
                if other is not doc and other.report is not None and other.report.tools:
                    self.schedule(other.uri)


server = ToolcastServer()


@server.feature(t.INITIALIZE)
def initialize(ls: ToolcastServer, params: t.InitializeParams) -> None:
    ls.capabilities = params.capabilities
    td = params.capabilities.text_document
    ls.pull = bool(td is not None and td.diagnostic is not None)
    if ls.pull:
        ls.feature(t.TEXT_DOCUMENT_DIAGNOSTIC, t.DiagnosticOptions(
            identifier="toolcast", inter_file_dependencies=True, workspace_diagnostics=False))(pull_diagnostics)
    if params.initialization_options:
        ls.set_client_settings(params.initialization_options)
    folders = [f.uri for f in params.workspace_folders or []] or ([params.root_uri] if params.root_uri else [])
    ls.roots = [p for p in (uri_to_path(u) for u in folders) if p is not None and p.is_dir()]
    if params.process_id:
        ls.watchdog = asyncio.ensure_future(_exit_with_client(params.process_id))


@server.feature(t.INITIALIZED)
async def initialized(ls: ToolcastServer, params: t.InitializedParams) -> None:
    caps = ls.capabilities.workspace if ls.capabilities else None
    watch = caps.did_change_watched_files if caps else None
    registrations = []
    if watch is not None and watch.dynamic_registration:
        registrations.append(t.Registration(
            "toolcast-watch", t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            t.DidChangeWatchedFilesRegistrationOptions([t.FileSystemWatcher("**/*.{json,jsonc}"),
                                                        t.FileSystemWatcher("**/{toolcast,pyproject}.toml")])))
    conf = caps.did_change_configuration if caps else None
    if conf is not None and conf.dynamic_registration:
        registrations.append(t.Registration(
            "toolcast-config", t.WORKSPACE_DID_CHANGE_CONFIGURATION,
            t.DidChangeConfigurationRegistrationOptions(section="toolcast")))
    if registrations:
        try:
            await asyncio.wait_for(ls.client_register_capability_async(t.RegistrationParams(registrations)), 5)
        except Exception as exc:  # the client declared it but cannot do it: carry on without
            log.info("client/registerCapability failed: %s", exc)
    if caps is not None and caps.configuration:
        await pull_configuration(ls)
    await index_workspace(ls)


async def pull_configuration(ls: ToolcastServer) -> None:
    try:
        answer = await asyncio.wait_for(ls.workspace_configuration_async(
            t.ConfigurationParams([t.ConfigurationItem(section="toolcast")])), 5)
    except Exception as exc:  # a client that cannot answer: keep what we have
        log.info("workspace/configuration failed: %r", exc)
        return
    settings = answer[0] if isinstance(answer, (list, tuple)) and answer else None
    if isinstance(settings, dict):
        ls.set_client_settings(settings)


async def index_workspace(ls: ToolcastServer) -> None:
    """Check every tool file of the workspace once, with `$/progress` where the client supports it."""
    from .workspace import index_file, tool_files

    window = ls.capabilities.window if ls.capabilities else None
    token = "toolcast-index"
    progress = bool(window and window.work_done_progress)
    if progress:
        try:
            await ls.work_done_progress.create_async(token)
            ls.work_done_progress.begin(token, t.WorkDoneProgressBegin("toolcast: indexing tool files",
                                                                       percentage=0))
        except Exception:
            progress = False
    paths = [p for root in ls.roots for p in tool_files(root, ls.config_in(root))]
    for i, path in enumerate(paths):
        checked = index_file(path)
        if checked is not None:
            ls.indexed[str(path)] = checked
        if progress and i % 20 == 0:
            ls.work_done_progress.report(token, t.WorkDoneProgressReport(
                message=f"{i + 1}/{len(paths)}", percentage=int(100 * (i + 1) / max(1, len(paths)))))
        await asyncio.sleep(0)  # let requests through while indexing
    if progress:
        ls.work_done_progress.end(token, t.WorkDoneProgressEnd(message=f"{len(ls.indexed)} tool files"))
    for doc in ls.documents.values():
        ls.schedule(doc.uri)


@server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: ToolcastServer, params: t.DidChangeWatchedFilesParams) -> None:
    from .workspace import index_file

    if any(c.uri.endswith(("/toolcast.toml", "/pyproject.toml")) for c in params.changes):
        ls.configs.clear()
        for doc in ls.documents.values():
            doc.report = None
    for change in params.changes:
        path = uri_to_path(change.uri)
        if path is None:
            continue
        if change.type == t.FileChangeType.Deleted:
            ls.indexed.pop(str(path), None)
            ls.indexed_lines.pop(str(path), None)
        else:
            checked = index_file(path)
            if checked is not None and (checked[1].is_tool_file or str(path) in ls.indexed):
                ls.indexed[str(path)] = checked
    for doc in ls.documents.values():
        ls.schedule(doc.uri)
    refresh(ls)


def refresh(ls: ToolcastServer) -> None:
    """Ask a pull client to re-pull, when it says it can."""
    caps = ls.capabilities.workspace if ls.capabilities else None
    diag = caps.diagnostics if caps else None
    if ls.pull and diag is not None and diag.refresh_support:
        ls.workspace_diagnostic_refresh(None)


async def _exit_with_client(pid: int) -> None:
    """Stop when the editor that started us is gone (it can die without sending shutdown/exit)."""
    while True:
        await asyncio.sleep(3)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:
            pass


@server.feature(t.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: ToolcastServer, params: t.DidChangeConfigurationParams) -> None:
    caps = ls.capabilities.workspace if ls.capabilities else None
    if isinstance(params.settings, dict) and params.settings:
        ls.set_client_settings(params.settings)
    elif caps is not None and caps.configuration:
        await pull_configuration(ls)
    for doc in ls.documents.values():
        doc.report = None
        ls.schedule(doc.uri)
    refresh(ls)


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: ToolcastServer, params: t.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.documents[item.uri] = Document(item.uri, item.text, item.version, item.language_id)
    ls.schedule(item.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ToolcastServer, params: t.DidChangeTextDocumentParams) -> None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return  # an edit to a document that was never opened: nothing to apply it to
    if params.text_document.version is not None and params.text_document.version < doc.version:
        return  # out of order: keep the newer text
    doc.apply(list(params.content_changes), params.text_document.version, ls.encoding)
    now = time.monotonic()
    burst, doc.changed_at = now - doc.changed_at < BURST_GAP, now
    ls.schedule(doc.uri, burst)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ToolcastServer, params: t.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    closed = ls.documents.pop(uri, None)
    path = closed.path if closed is not None else None
    was_tool_file = closed is not None and closed.report is not None and bool(closed.report.tools)
    if path is not None and (str(path) in ls.indexed or was_tool_file):
        from .workspace import index_file

        checked = index_file(path)
        if checked is not None:
            ls.indexed[str(path)] = checked  # the text on disk again, for names across files
    for tasks in (ls.pending, ls.completing):
        task = tasks.pop(uri, None)
        if task is not None:
            task.cancel()
    if not ls.pull:
        ls.publish(uri, None, "[]")


def pull_diagnostics(ls: ToolcastServer, params: t.DocumentDiagnosticParams) -> Any:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return RawJson('{"kind":"full","items":[]}')
    result_id = json.dumps(f"{doc.uri}@{doc.version}", ensure_ascii=False)
    return RawJson(f'{{"kind":"full","resultId":{result_id},"items":{ls.diagnostics(doc)}}}')


def tool_at(ls: ToolcastServer, doc: Document, offset: int) -> Any:
    report = ls.report(doc)
    for tool in report.tools if report else ():
        if tool.span[0] <= offset <= tool.span[1]:
            return tool
    return None


def render_export(doc: Document, target: str, tool_index: int | None) -> tuple[str, str]:
    """(file name, text) of the export — exactly what ``toolcast convert`` prints for the same input."""
    from toolcast.adapters.convert import convert, convert_all
    from toolcast.adapters.document import parse
    from toolcast.adapters.loading import load_tools
    from toolcast.server.cli.convert_cmd import render

    value = parse(doc.text).value
    path = doc.path or Path(doc.uri.rsplit("/", 1)[-1])
    stem = path.name
    for suffix in (".request.json", ".tool.json", ".tools.json", ".jsonc", ".json"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    if is_request_value(value):  # a request file: the provider's request, as `toolcast request` prints it
        from toolcast.adapters.messages import request_from_json, to_wire

        return f"{stem}.{target}.json", render(to_wire(request_from_json(value), target).body)
    loaded = load_tools(value)
    if tool_index is not None:
        chosen = [lt for lt in loaded if lt.index == tool_index]
        output: Any = convert(chosen[0].tool, target).output if chosen else None
        name = f"{chosen[0].tool.name if chosen else stem}.{target}.json"
    elif len(loaded) == 1 and loaded[0].pointer == "":
        output = convert(loaded[0].tool, target).output
        name = f"{stem}.{target}.json"
    else:
        output = convert_all([lt.tool for lt in loaded], target).output
        name = f"{stem}.{target}.json"
    return name, render(output)


@server.feature(t.TEXT_DOCUMENT_CODE_ACTION, t.CodeActionOptions(code_action_kinds=[
    t.CodeActionKind.QuickFix, t.CodeActionKind.Source, t.CodeActionKind.RefactorRewrite]))
def code_action(ls: ToolcastServer, params: t.CodeActionParams) -> list[t.CodeAction]:
    from toolcast.adapters.targets import DISPLAY_NAMES, TARGETS

    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return []
    only = params.context.only
    actions: list[t.CodeAction] = []

    def wanted(kind: str) -> bool:
        return not only or any(kind == k or kind.startswith(f"{k}.") for k in only)

    report = ls.report(doc)
    # Quick fixes for the diagnostics the client sends, computed for the current text: a diagnostic
    # whose code and range no longer match a current finding (the text changed) gets none, and
    # each edit names the version it was computed for, so a client refuses it once that is stale.
    fixable = [d for d in params.context.diagnostics if isinstance(d.data, dict) and d.data.get("fixable")]
    if report is not None and fixable and wanted("quickfix"):
        enc = ls.encoding
        current = {(f.code, f.span): f for f in report.findings if f.all_fixes()}
        for diag in fixable:
            span = (doc.index.offset(diag.range.start.line, diag.range.start.character, enc),
                    doc.index.offset(diag.range.end.line, diag.range.end.character, enc))
            finding = current.get((str(diag.code), span))
            for fix in finding.all_fixes() if finding is not None else ():
                edits = [t.TextEdit(ls.range(doc, (e.start, e.end), enc), e.new_text) for e in fix.edits]
                actions.append(t.CodeAction(
                    title=fix.title, kind=t.CodeActionKind.QuickFix, diagnostics=[diag],
                    edit=t.WorkspaceEdit(document_changes=[t.TextDocumentEdit(
                        t.OptionalVersionedTextDocumentIdentifier(doc.uri, doc.version), edits)])))

    from toolcast.adapters.document import parse
    from toolcast.adapters.messages import REQUEST_TARGETS

    request = is_request_value(parse(doc.text).value)
    if report is None or not (report.tools or request):
        return actions
    offset = doc.index.offset(params.range.start.line, params.range.start.character, ls.encoding)
    under = tool_at(ls, doc, offset)
    creates = _supports_create(ls)
    for target in REQUEST_TARGETS if request else TARGETS:
        scopes: list[tuple[str, int | None]] = [("file", None)]
        if under is not None and len(report.tools) > 1 and not request:
            scopes.insert(0, ("tool", under.index))
        for scope, index in scopes:
            kind = f"source.toolcast.{'preview' if request else 'export'}.{target}"
            if not wanted(kind):
                continue
            label = DISPLAY_NAMES[target]
            what = f" ({under.name})" if scope == "tool" and under is not None else ""
            args = [doc.uri, target, index]
            title = f"Preview as {label} request" if request else f"Export to {label}{what}"
            if len(report.tools) > EAGER_EXPORT_TOOLS:
                # Code actions are asked for at every cursor move: for a large file the export is only
                # computed when chosen (the command reports a file that does not load).
                actions.append(t.CodeAction(title=title, kind=kind,
                                            command=t.Command(title, "toolcast.export", arguments=args)))
                continue
            try:
                name, text = render_export(doc, target, index)
            except Exception as exc:  # a file that does not load: no export offered
                log.info("export not offered: %s", exc)
                continue
            dest = (doc.path.parent / name) if doc.path else None
            exists = dest is not None and dest.exists()
            if creates and dest is not None:
                if exists:
                    if not _supports_overwrite(ls):
                        continue
                    title += f" (overwrite {name})"
                uri = dest.as_uri()
                edit = t.WorkspaceEdit(document_changes=[
                    t.CreateFile(uri=uri, options=t.CreateFileOptions(overwrite=True) if exists else None),
                    t.TextDocumentEdit(t.OptionalVersionedTextDocumentIdentifier(uri, None),
                                       [t.TextEdit(t.Range(t.Position(0, 0), t.Position(0, 0)), text)]),
                ])
                actions.append(t.CodeAction(title=title, kind=kind, edit=edit))
            else:
                actions.append(t.CodeAction(title=title, kind=kind,
                                            command=t.Command(title, "toolcast.export", arguments=args)))
    return actions


def _supports_create(ls: ToolcastServer) -> bool:
    ws = ls.capabilities.workspace if ls.capabilities else None
    edit = ws.workspace_edit if ws else None
    ops = edit.resource_operations if edit else None
    # Neovim declares resource operations without `documentChanges` and applies them all the same.
    return bool(ops and t.ResourceOperationKind.Create in ops)


def _supports_overwrite(ls: ToolcastServer) -> bool:
    # The LSP has no separate capability for `overwrite`; creating over a file is only offered when the
    # client also declares delete support, i.e. it handles full resource operations.
    ws = ls.capabilities.workspace if ls.capabilities else None
    ops = ws.workspace_edit.resource_operations if ws and ws.workspace_edit else None
    return bool(ops and t.ResourceOperationKind.Delete in ops)


@server.command("toolcast.export")
def export_command(ls: ToolcastServer, *args: Any) -> Any:
    """Arguments: uri, target, [tool index or null], [return the JSON instead of writing: true].
    Writes ``<stem>.<target>.json`` beside the file (never over an existing one), or returns the JSON.
    Wrong arguments or a file that cannot be exported: an error answer (``ErrorReply``), not a raise."""
    from toolcast.adapters.errors import ToolcastError
    from toolcast.adapters.targets import TARGETS

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
            doc = Document(uri, path.read_text(encoding="utf-8-sig"), 0)
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
    dest = doc.path.parent / name
    if dest.exists() or dest.is_symlink():
        return ErrorReply(f"toolcast.export: {dest.name} exists; toolcast does not overwrite it", -32603)
    from toolcast.server.cli.convert_cmd import write_atomic

    try:
        write_atomic(dest, text, source=doc.path)
    except ToolcastError as exc:
        return ErrorReply(f"toolcast.export: {exc}", -32603)
    return {"path": str(dest)}


@server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=['"']))
def completion(ls: ToolcastServer, params: t.CompletionParams) -> t.CompletionList | None:
    from .completion import complete

    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    offset = doc.index.offset(params.position.line, params.position.character, ls.encoding)
    found = complete(doc.text, offset)
    if found is None:
        return None
    kind, labels = found
    item_kind = t.CompletionItemKind.Property if kind == "key" else t.CompletionItemKind.EnumMember
    return t.CompletionList(is_incomplete=False, items=[t.CompletionItem(label, kind=item_kind) for label in labels])


@server.feature(t.TEXT_DOCUMENT_HOVER)
def hover(ls: ToolcastServer, params: t.HoverParams) -> t.Hover | None:
    from .hover import hover_text

    doc = ls.documents.get(params.text_document.uri)
    if doc is None or ls.report(doc) is None:
        return None
    offset = doc.index.offset(params.position.line, params.position.character, ls.encoding)
    found = hover_text(doc.text, offset, ls.report(doc), ls.config_for(doc))
    if found is None:
        return None
    text, span = found
    return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, text), ls.range(doc, span, ls.encoding))


@server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: ToolcastServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
    from toolcast.adapters.document import parse
    from toolcast.adapters.loading import iter_tool_objects

    doc = ls.documents.get(params.text_document.uri)
    report = ls.report(doc) if doc else None
    if doc is None or report is None or not report.tools:
        return []
    parsed = parse(doc.text)
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


@server.feature(t.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: ToolcastServer, params: t.CodeLensParams) -> list[t.CodeLens]:
    doc = ls.documents.get(params.text_document.uri)
    report = ls.report(doc) if doc else None
    if doc is None or report is None:
        return []
    per_tool: dict[int, dict[str, int]] = {}
    for f in report.findings:  # one pass: files with thousands of tools and findings
        if f.tool_index is not None and f.code.startswith("TC5") and f.code != "TC501":
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
    return lenses


def main(argv: list[str] | None = None) -> None:
    from .memory import keep_large_blocks

    logging.basicConfig(level=logging.WARNING)
    keep_large_blocks()
    server.start_io()
    sys.exit(server.exit_code)
