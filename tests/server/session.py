"""A pytest-lsp client fixture for the real server, with an editor's capability preset and settings."""

from __future__ import annotations

import sys
from typing import Any, Union

import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities


def client_fixture(preset: str, initialization_options: dict[str, Any] | None = None) -> Any:
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "toolcast.server"]))
    async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
        @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
        def register(params: t.RegistrationParams) -> None:  # accept the server's dynamic registrations
            return None

        @lsp_client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
        def lens_refresh(params: None) -> None:  # the presets declare refreshSupport: answer as an editor does
            return None

        await lsp_client.initialize_session(t.InitializeParams(
            capabilities=client_capabilities(preset), initialization_options=initialization_options))
        yield
        await lsp_client.shutdown_session()

    return client


def read_code_actions_as_editors_do(client: LanguageClient) -> None:
    """lsprotocol's parser takes every item of a code action answer that has a ``command`` key for a
    Command, also a CodeAction whose ``command`` is the Command run after its edit. Editors tell them
    apart by ``command`` being a string (VS Code's ``Command.is``, Neovim, eglot): so does the test client."""
    converter = client.protocol._converter

    def structure(value: Any, _: type) -> t.Command | t.CodeAction:
        return converter.structure(value, t.Command if isinstance(value.get("command"), str) else t.CodeAction)

    converter.register_structure_hook(Union[t.Command, t.CodeAction], structure)  # noqa: UP007 (lsprotocol's key)
