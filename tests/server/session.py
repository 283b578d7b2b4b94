"""A pytest-lsp client fixture for the real server, with an editor's capabilities (a pytest-lsp preset, or
one recorded from a real editor in clients/) and settings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Union

import pytest_lsp
from lsprotocol import types as t
from lsprotocol.converters import get_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

CLIENTS = Path(__file__).with_name("clients")


def recorded_capabilities(name: str) -> t.ClientCapabilities:
    """The capabilities a real editor sent in its ``initialize`` (clients/<name>.json)."""
    raw = json.loads((CLIENTS / f"{name}.json").read_text(encoding="utf-8"))
    return get_converter().structure(raw, t.ClientCapabilities)


#: Emacs 28.2's eglot 1.9 without markdown-mode (as Debian installs it): hover contentFormat ["plaintext"],
#: pushed diagnostics. Recorded from `emacs --batch` connecting eglot to a program that saved the request.
EGLOT = "eglot-1.9-emacs-28.2"


def open_document(client: LanguageClient, path: Path, text: str) -> str:
    """``text`` written to ``path`` and opened in the client (version 1); the document's URI."""
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "json", 1, text)))
    return uri


def client_fixture(preset: str | t.ClientCapabilities, initialization_options: dict[str, Any] | None = None,
                   server_command: list[str] | None = None) -> Any:
    command = server_command or [sys.executable, "-m", "toolcast.server"]

    @pytest_lsp.fixture(config=ClientServerConfig(server_command=command))
    async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
        await _initialize(lsp_client, client_capabilities(preset) if isinstance(preset, str) else preset,
                          initialization_options)
        yield
        await lsp_client.shutdown_session()

    return client


def editors_fixture(*presets: str) -> Any:
    """One client per pytest-lsp preset (a parametrized fixture), ``client.preset`` naming it, reading code
    actions as editors do."""

    @pytest_lsp.fixture(params=list(presets),
                        config=ClientServerConfig(server_command=[sys.executable, "-m", "toolcast.server"]))
    async def client(request: Any, lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
        lsp_client.preset = request.param  # type: ignore[attr-defined]
        read_code_actions_as_editors_do(lsp_client)
        await _initialize(lsp_client, client_capabilities(request.param), None)
        yield
        await lsp_client.shutdown_session()

    return client


async def _initialize(lsp_client: LanguageClient, capabilities: t.ClientCapabilities,
                      initialization_options: dict[str, Any] | None) -> None:
    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:  # accept the server's dynamic registrations
        return None

    @lsp_client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(params: None) -> None:  # the presets declare refreshSupport: answer as an editor does
        return None

    await lsp_client.initialize_session(t.InitializeParams(capabilities=capabilities,
                                                           initialization_options=initialization_options))


def read_code_actions_as_editors_do(client: LanguageClient) -> None:
    """lsprotocol's parser takes every item of a code action answer that has a ``command`` key for a
    Command, also a CodeAction whose ``command`` is the Command run after its edit. Editors tell them
    apart by ``command`` being a string (VS Code's ``Command.is``, Neovim, eglot): so does the test client."""
    converter = client.protocol._converter

    def structure(value: Any, _: type) -> t.Command | t.CodeAction:
        return converter.structure(value, t.Command if isinstance(value.get("command"), str) else t.CodeAction)

    converter.register_structure_hook(Union[t.Command, t.CodeAction], structure)  # noqa: UP007 (lsprotocol's key)
