"""The real language server, started as ``toolcast serve`` starts it, plus one test-only command,
``toolcast.test.documentText``: the text the server holds for a URI, so that a test can assert the exact
result of the edits it sent (not only what the diagnostics happen to show), and ``toolcast.test.indexed``:
the files its workspace index holds."""

from __future__ import annotations

import sys
from typing import Any

from toolcast.server.cli import main
from toolcast.server.lsp.app import ToolcastServer, server


@server.command("toolcast.test.documentText")
def document_text(ls: ToolcastServer, *args: Any) -> str | None:
    doc = ls.documents.get(args[0]) if args else None
    return None if doc is None else doc.text


@server.command("toolcast.test.indexed")
def indexed(ls: ToolcastServer, *args: Any) -> list[str]:
    """The paths the workspace index holds (closed tool files)."""
    return sorted(ls.indexed)


if __name__ == "__main__":
    import os

    from toolcast.adapters.document import line_index

    # Small text blocks, so that a test's edits of small files cross block borders.
    line_index.BLOCK = int(os.environ.get("TOOLCAST_TEST_LINE_BLOCK") or line_index.BLOCK)
    sys.exit(main(["serve", *sys.argv[1:]]))
