"""A pytest-lsp client fixture for the real server, with an editor's capability preset and settings."""

from __future__ import annotations

import sys
from typing import Any

import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities


def client_fixture(preset: str, initialization_options: dict[str, Any] | None = None,
                   server_command: list[str] | None = None) -> Any:
    command = server_command or [sys.executable, "-m", "toolcast.server"]

    @pytest_lsp.fixture(config=ClientServerConfig(server_command=command))
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
