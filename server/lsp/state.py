"""The server's state: open documents, settings and configuration, check reports, and how
diagnostics are made and published (pushed, debounced per document, never for a stale version)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from toolcast.adapters.checks import Analyzer  # light: no checks, no parser until first use
from toolcast.adapters.document import UnreadableFile

from .. import __version__
from .allocator import release_free_memory
from .diagnostics import RawJson, diagnostics_json
from .protocol import ToolcastProtocol, run_io
from .session import ClientSession

if TYPE_CHECKING:  # the checks are imported when the first document needs them, not to answer `initialize`
    from toolcast.adapters.checks import CheckConfig, DocumentReport, Finding, NameIndex
    from toolcast.adapters.document import Encoding

    from .diagnostics import Positioned
    from .documents import Document
    from .workspace import IndexedFile

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
#: The same for an edit once the first check is complete (before, an edit checks its own tool and leaves
#: the rest to the background slices, under FIRST_BUDGET; after, a change of the file's layout re-checks many).
EDIT_BUDGET = 0.05
SLICE = 0.01  # background checking between two looks at the incoming messages
#: How long the first diagnostics wait for the client's settings (`workspace/configuration`) at most.
SETTINGS_WAIT = 5.0


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class ToolcastServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("toolcast", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Incremental,
                         protocol_cls=ToolcastProtocol)
        self.documents: dict[str, Document] = {}
        self.client_settings: dict[str, Any] = {}
        self.session = ClientSession()  # what the client can do, resolved once at `initialize`
        self.debounce = DEFAULT_DEBOUNCE
        self.max_diagnostics = DEFAULT_MAX_DIAGNOSTICS
        self.pending: dict[str, asyncio.Task[None]] = {}  # publishes waiting to run
        self.completing: dict[str, asyncio.Future[None]] = {}  # background completion of checks
        self.watchdog: asyncio.Future[None] | None = None
        self.indexing: asyncio.Future[None] | None = None  # a re-index of the workspace under way
        self.index_runs = 0
        self.roots: list[Path] = []
        # path -> the tools and names of a closed file, never its text (workspace.py); an open file is its
        # document, and is read from disk again when it is closed.
        self.indexed: dict[str, IndexedFile] = {}
        # Which file defines which tool name (open documents and indexed files, by ``key``), for TC202; made
        # with the first document. An open document's entry is its latest report's tools, or its summary.
        self._names: NameIndex | None = None
        self.names_behind: dict[str, None] = {}  # URIs of open documents whose entry is not their current text
        self.open_keys: dict[str, str] = {}  # key -> URI of the open documents
        self.configs: dict[Path | None, CheckConfig] = {}  # folder -> effective configuration
        # Set once the client's settings are known (pulled after `initialized`, or none to pull), so
        # the first diagnostics already use them: a client's `targets` must never apply "sometimes".
        self.settings_ready = asyncio.Event()
        self.exit_code = 0  # of the process, once the message loop ends (see ToolcastProtocol)
        # Every cache of the analysis, for this session: checks, and every parse that may reuse the
        # document the last check parsed (hover, completion, symbols, actions).
        self.analyzer = Analyzer()

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
        from toolcast.adapters.checks import (
            CheckConfig,
            ConfigReadError,
            config_from_mapping,
            find_config_file,
            load_config,
        )

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
        from toolcast.adapters.checks import config_from_mapping

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
        return self.session.encoding

    @property
    def pull(self) -> bool:
        return self.session.pull

    def refresh(self, lenses: bool = False) -> None:
        """Ask a pull client to re-pull, when it says it can; with ``lenses``, code lenses too (their loss
        counts depend on the settings, and clients only ask for them again when told)."""
        if self.session.pull and self.session.diagnostic_refresh:
            self.workspace_diagnostic_refresh(None)
        if lenses and self.session.code_lens_refresh:
            self.workspace_code_lens_refresh(None)

    # -- analysis -------------------------------------------------------------------------------
    def is_candidate(self, doc: Document, config: CheckConfig) -> bool:
        """A tool file by name: the rule ``toolcast check`` and the workspace index use, relative to the
        innermost workspace folder holding the document."""
        from toolcast.adapters.checks import is_tool_file_name

        path = doc.path
        if path is None:
            return is_tool_file_name(PurePosixPath(doc.uri.rsplit("/", 1)[-1]), None, config.globs)
        return self.is_tool_path(path, config)

    def is_tool_path(self, path: Path, config: CheckConfig | None = None) -> bool:
        """Whether a file on disk is a tool file by name (``adapters/checks/files.py``), relative to the
        innermost workspace folder holding it, with its folder's configuration (``globs``)."""
        from toolcast.adapters.checks import is_tool_file_name

        root = max((r for r in self.roots if path.is_relative_to(r)), key=lambda r: len(r.parts), default=None)
        return is_tool_file_name(path, root, (config or self.config_in(path.parent)).globs)

    def is_open(self, path: Path) -> bool:
        return str(path) in self.open_keys

    def forget_indexed(self, path: Path) -> None:
        self.indexed.pop(str(path), None)

    def index(self, path: Path) -> IndexedFile | None:
        """Read a closed tool file into the workspace index (or drop it when it cannot be read) and return
        what was kept. A device, FIFO, socket or over-large file under a tool file's name is skipped and
        named in the log."""
        from .workspace import index_file

        try:
            checked = index_file(path)
        except UnreadableFile as exc:
            checked = None
            self.window_log_message(t.LogMessageParams(t.MessageType.Warning, f"toolcast: {exc}"))
        if checked is None:
            self.indexed.pop(str(path), None)
        else:
            self.indexed[str(path)] = checked
        return checked

    def report(self, doc: Document) -> DocumentReport | None:
        """The check report for the document's current version (computed once per version). A large
        file's first check stops after FIRST_BUDGET seconds, so its first diagnostics come at once;
        an edit's after EDIT_BUDGET. The rest is finished in the background (``_complete``)."""
        if doc.report is not None and doc.report_version == doc.version:
            return doc.report
        from toolcast.adapters.checks import DocumentReport, check_document

        config = self.config_for(doc)
        budget = EDIT_BUDGET if doc.settled else FIRST_BUDGET
        large = doc.index.length > SETTLE_SIZE
        if large and not doc.checked:
            release_free_memory()  # what the opening message freed (its bytes and decoded copies)
        doc.checked = True
        report = check_document(doc.text, path=str(doc.path) if doc.path else None, config=config, budget=budget,
                                parsed=doc.parsed, analyzer=self.analyzer)
        if not report.is_tool_file and not self.is_candidate(doc, config):
            report = DocumentReport((), (), False)
        doc.report, doc.report_version = report, doc.version
        if self.documents.get(doc.uri) is doc:
            self.names_behind.pop(doc.uri, None)
            self.republish(self.update_names(self.key(doc), report))
        if report.pending:
            if doc.uri not in self.completing and _in_event_loop():
                if large:
                    gc.freeze()  # as below, for the seconds the first check goes on: edits come meanwhile
                self.completing[doc.uri] = asyncio.ensure_future(self._complete(doc))
        elif not doc.settled:
            doc.settled = True
            if large:
                release_free_memory()  # what the first check freed: the heap keeps what edits reuse from now on
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
                # A timer, not sleep(0): the loop reads stdin before waking this task, so an edit that came
                # during the last slice is handled (its publish scheduled) before the next slice starts.
                await asyncio.sleep(0.0005)
                publishing = [task for task in self.pending.values() if not task.done()]
                if publishing:  # an edit's diagnostics first: they do not wait behind the next slice
                    await asyncio.wait(publishing)
                    continue
                report = self.report(doc)
                if report is None or not report.pending:
                    break
                if report.resume is None or report.resume(SLICE) == 0:
                    doc.report = None  # everything is checked and cached: the next report is complete
            if self.documents.get(doc.uri) is doc:
                if self.pull:
                    self.refresh()
                else:
                    self.schedule(doc.uri)
        finally:
            self.completing.pop(doc.uri, None)

    def diagnostics(self, doc: Document) -> str:
        """The JSON array of the document's diagnostics."""
        return self.diagnostics_and_across(doc)[0]

    def diagnostics_and_across(self, doc: Document) -> tuple[str, tuple[Finding, ...]]:
        """The JSON array of the document's diagnostics, and its findings across files (TC202) among them."""
        report = self.report(doc)
        if report is None:
            return "[]", ()
        # Registration checks across files (open ones and the workspace index): duplicate names.
        self.catch_up_names()
        extra = self.names.findings(self.key(doc), self.config_for(doc))
        return diagnostics_json(doc.uri, doc.index, report, extra, self.encoding, doc.fragments, self.locate,
                                self.max_diagnostics), extra

    # -- names across files -----------------------------------------------------------------------
    @property
    def names(self) -> NameIndex:
        if self._names is None:
            from toolcast.adapters.checks import NameIndex

            self._names = NameIndex()
        return self._names

    def update_names(self, key: str, report: DocumentReport | None) -> set[str]:
        """``key`` now defines the tools of ``report`` (None: none): the keys of the other files whose
        findings across files changed with it."""
        changed = self.names.update(key, report)
        return self.names.sharing(changed, key, among=self.open_keys) if changed else set()

    def catch_up_names(self) -> None:
        """Bring the name entries of open documents opened or edited since their last report up to their
        text, from a summary of their parse (names and places, not a check): a document's findings across
        files must not wait for every other document's check."""
        if not self.names_behind:
            return
        from toolcast.adapters.checks import DocumentReport, summarize_document

        affected: set[str] = set()
        for uri in list(self.names_behind):
            doc = self.documents.get(uri)
            self.names_behind.pop(uri, None)
            if doc is None:
                continue
            if doc.report is not None and doc.report_version == doc.version:
                summary = doc.report
            else:
                path = str(doc.path) if doc.path is not None else None
                summary = summarize_document(doc.text, path, analyzer=self.analyzer, parsed=doc.parsed)
                if not summary.is_tool_file and not self.is_candidate(doc, self.config_for(doc)):
                    summary = DocumentReport((), (), False)
            affected |= self.update_names(self.key(doc), summary)
        self.republish(affected)

    def republish(self, keys: set[str]) -> None:
        """The open documents among ``keys`` have other findings across files: published again (push), or
        the client asked to pull again (pull)."""
        uris = [uri for key in keys if (uri := self.open_keys.get(key)) is not None]
        if not uris:
            return
        if self.pull:
            self.refresh()
            return
        for uri in uris:
            self.schedule(uri, across=True)

    def locate(self, path: str) -> tuple[str, Positioned] | None:
        """(uri, positions) of another file named in a finding: open, else as indexed from disk."""
        uri = self.open_keys.get(path)
        if uri is not None and uri in self.documents:
            return uri, self.documents[uri].index
        known = self.indexed.get(path)
        return None if known is None else (Path(path).as_uri(), known.positions)

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
    def schedule(self, uri: str, burst: bool = False, across: bool = False) -> None:
        """Publish the document's diagnostics soon: at once (after the messages already read), or,
        while changes arrive faster than ``BURST_GAP`` apart, once the burst pauses for
        ``BURST_DELAY``, so a flood of changes costs one analysis instead of one each. ``across``: only
        another file changed; published unless its findings across files are those last published (and
        a publish already waiting stays as it is)."""
        if self.pull:
            return
        old = self.pending.get(uri)
        if across and old is not None and not old.done():
            return
        self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        delay = max(self.debounce, BURST_DELAY) if burst else self.debounce
        self.pending[uri] = asyncio.ensure_future(self._publish_later(uri, delay, across))

    async def settings_known(self) -> None:
        """Wait until the client's settings are in (bounded: a client that never answers is not waited for)."""
        if not self.settings_ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.settings_ready.wait(), SETTINGS_WAIT)

    async def _publish_later(self, uri: str, delay: float, across: bool = False) -> None:
        await asyncio.sleep(delay)
        await self.settings_known()
        doc = self.documents.get(uri)
        if doc is None:
            return
        version = doc.version
        diags, extra = self.diagnostics_and_across(doc)
        unchanged = across and doc.published == (version, extra)
        if self.documents.get(uri) is doc and doc.version == version and not unchanged:
            self.publish(uri, version, diags)  # never for a stale version
            doc.published = (version, extra)
        if self.pending.get(uri) is asyncio.current_task():
            del self.pending[uri]
