"""The toolcast language server's wiring: lifecycle, workspace events and text sync here; the server's
state in ``state.py``, the protocol rules and message loop in ``protocol.py``, code actions and exports
in ``actions.py``, read-only views in ``views.py``. Every answer comes from the pure core.

Diagnostics are pushed (debounced per document, never for a stale version) unless the client declares
pull diagnostics, in which case only ``textDocument/diagnostic`` answers. Positions are converted with
toolcast's ``LineIndex`` in the encoding negotiated at ``initialize``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from typing import Any

from lsprotocol import types as t

from . import actions, mcp_config, views
from .diagnostics import RawJson
from .documents import Document, uri_to_path
from .session import ClientSession
from .state import BURST_GAP, ToolcastServer

log = logging.getLogger("toolcast.server")


server = ToolcastServer()
mcp_config.register(server)  # "Check tools of <server>" in MCP client configuration files


@server.feature(t.INITIALIZE)
def initialize(ls: ToolcastServer, params: t.InitializeParams) -> None:
    ls.session = ClientSession.resolve(params.capabilities, ls.workspace.position_encoding)
    if ls.pull:
        ls.feature(t.TEXT_DOCUMENT_DIAGNOSTIC, t.DiagnosticOptions(
            identifier="toolcast", inter_file_dependencies=True, workspace_diagnostics=False))(pull_diagnostics)
    if params.initialization_options:
        ls.set_client_settings(params.initialization_options)
    if not ls.session.configuration:
        ls.settings_ready.set()  # nothing to pull: initializationOptions (if any) are the settings
    folders = [f.uri for f in params.workspace_folders or []] or ([params.root_uri] if params.root_uri else [])
    ls.roots = [p for p in (uri_to_path(u) for u in folders) if p is not None and p.is_dir()]
    if params.process_id:
        ls.watchdog = asyncio.ensure_future(_exit_with_client(params.process_id))


@server.feature(t.INITIALIZED)
async def initialized(ls: ToolcastServer, params: t.InitializedParams) -> None:
    registrations = []
    if ls.session.watch_registration:
        registrations.append(t.Registration(
            "toolcast-watch", t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            t.DidChangeWatchedFilesRegistrationOptions([t.FileSystemWatcher("**/*.{json,jsonc}"),
                                                        t.FileSystemWatcher("**/{toolcast,pyproject}.toml")])))
    if ls.session.config_registration:
        registrations.append(t.Registration(
            "toolcast-config", t.WORKSPACE_DID_CHANGE_CONFIGURATION,
            t.DidChangeConfigurationRegistrationOptions(section="toolcast")))
    if ls.session.configuration:
        await pull_configuration(ls)  # first: the first diagnostics wait for the settings
    ls.settings_ready.set()
    if registrations:
        try:
            await asyncio.wait_for(ls.client_register_capability_async(t.RegistrationParams(registrations)), 5)
        except Exception as exc:  # the client declared it but cannot do it: carry on without
            log.info("client/registerCapability failed: %s", exc)
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
    from .workspace import tool_files

    ls.index_runs += 1
    token = f"toolcast-index-{ls.index_runs}"  # a fresh token per run: tokens must not be reused
    progress = ls.session.work_done_progress
    if progress:
        try:
            await ls.work_done_progress.create_async(token)
            ls.work_done_progress.begin(token, t.WorkDoneProgressBegin("toolcast: indexing tool files",
                                                                       percentage=0))
        except Exception:
            progress = False
    paths = [p for root in ls.roots for p in tool_files(root, ls.config_in(root))]
    affected: set[str] = set()  # open documents whose duplicates across files changed: published once, at the end
    for i, path in enumerate(paths):
        if not ls.is_open(path):
            checked = ls.index(path)
            if checked is not None:
                affected |= ls.update_names(str(path), checked.report)
        if progress and i % 20 == 0:
            ls.work_done_progress.report(token, t.WorkDoneProgressReport(
                message=f"{i + 1}/{len(paths)}", percentage=int(100 * (i + 1) / max(1, len(paths)))))
        await asyncio.sleep(0)  # let requests through while indexing
    if progress:
        ls.work_done_progress.end(token, t.WorkDoneProgressEnd(message=f"{len(ls.indexed)} tool files"))
    ls.republish(affected)


@server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: ToolcastServer, params: t.DidChangeWatchedFilesParams) -> None:
    configured = any(c.uri.endswith(("/toolcast.toml", "/pyproject.toml")) for c in params.changes)
    affected: set[str] = set()
    if configured:
        ls.configs.clear()
        for doc in ls.documents.values():
            doc.report = None
        # `globs` may have changed which files are tool files: index the workspace again.
        for known in list(ls.indexed):
            affected |= ls.update_names(known, None)
        ls.indexed.clear()
        if ls.indexing is not None:
            ls.indexing.cancel()
        ls.indexing = asyncio.ensure_future(index_workspace(ls))
    for change in params.changes:
        path = uri_to_path(change.uri)
        if path is None:
            continue
        # Which files are indexed is decided by name, with the rule `toolcast check` uses
        # (adapters/checks/files.py), never by what a file happens to hold.
        if ls.is_open(path):
            ls.forget_indexed(path)  # the open document stands for the file
            continue
        checked = None
        if change.type != t.FileChangeType.Deleted and ls.is_tool_path(path):
            checked = ls.index(path)  # a device, FIFO or socket is named in the log and skipped
        if checked is None:
            ls.forget_indexed(path)
        if checked is not None or str(path) in ls.names:
            affected |= ls.update_names(str(path), checked.report if checked is not None else None)
    if configured:  # every report depends on the configuration
        for doc in ls.documents.values():
            ls.schedule(doc.uri)
        ls.refresh(lenses=True)
    else:  # a tool file's names: the open documents sharing them
        ls.republish(affected)


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
    if isinstance(params.settings, dict) and params.settings:
        ls.set_client_settings(params.settings)
    elif ls.session.configuration:
        await pull_configuration(ls)
    for doc in ls.documents.values():
        doc.report = None
        ls.schedule(doc.uri)
    ls.refresh(lenses=True)


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: ToolcastServer, params: t.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    doc = ls.documents[item.uri] = Document(item.uri, item.text, item.version, item.language_id)
    ls.open_keys[ls.key(doc)] = item.uri
    if doc.path is not None:
        ls.forget_indexed(doc.path)  # the index holds closed files only
    # The buffer's tools stand in for the file's on disk: in the name index once it is read (before any
    # document's findings across files are made); other documents are published again only when their
    # findings across files change.
    ls.names_behind[item.uri] = None
    ls.schedule(item.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ToolcastServer, params: t.DidChangeTextDocumentParams) -> None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return  # an edit to a document that was never opened: nothing to apply it to
    if params.text_document.version is not None and params.text_document.version < doc.version:
        return  # out of order: keep the newer text
    doc.apply(list(params.content_changes), params.text_document.version, ls.encoding)
    ls.names_behind[doc.uri] = None
    now = time.monotonic()
    burst, doc.changed_at = now - doc.changed_at < BURST_GAP, now
    ls.schedule(doc.uri, burst)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ToolcastServer, params: t.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    closed = ls.documents.pop(uri, None)
    ls.names_behind.pop(uri, None)
    path = closed.path if closed is not None else None
    was_tool_file = closed is not None and closed.report is not None and bool(closed.report.tools)
    if closed is not None and ls.open_keys.get(ls.key(closed)) == uri:
        key = ls.key(closed)
        del ls.open_keys[key]
        # Indexed again from disk when the workspace index would hold it (open files are not in it).
        in_index = path is not None and any(path.is_relative_to(r) for r in ls.roots) and ls.is_tool_path(path)
        checked = None
        if path is not None and (in_index or was_tool_file):
            checked = ls.index(path)  # the file on disk again, for names across files
        # Duplicates across files with the file as it is on disk (or without it): the documents sharing a name.
        ls.republish(ls.update_names(key, checked.report if checked is not None else None))
    for tasks in (ls.pending, ls.completing):
        task = tasks.pop(uri, None)
        if task is not None:
            task.cancel()
    if not ls.pull:
        ls.publish(uri, None, "[]")


async def pull_diagnostics(ls: ToolcastServer, params: t.DocumentDiagnosticParams) -> Any:
    await ls.settings_known()
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return RawJson('{"kind":"full","items":[]}')
    result_id = json.dumps(f"{doc.uri}@{doc.version}", ensure_ascii=False)
    return RawJson(f'{{"kind":"full","resultId":{result_id},"items":{ls.diagnostics(doc)}}}')


server.feature(t.TEXT_DOCUMENT_CODE_ACTION, actions.CODE_ACTION_OPTIONS)(actions.code_action)
server.feature(t.CODE_ACTION_RESOLVE)(actions.resolve_code_action)
server.command("toolcast.export")(actions.export_command)
server.command(actions.SHOW_EXPORT)(actions.show_export_command)
server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=['"']))(views.completion)
server.feature(t.TEXT_DOCUMENT_HOVER)(views.hover)
server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(views.document_symbol)
server.feature(t.TEXT_DOCUMENT_CODE_LENS, t.CodeLensOptions(resolve_provider=True))(views.code_lens)
server.feature(t.CODE_LENS_RESOLVE)(views.resolve_code_lens)
