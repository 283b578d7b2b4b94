"""The workspace index: every tool file under the workspace folders, checked once at start and kept
current through watched-file events, so duplicate names across files are found in closed files too."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

from toolcast.adapters.checks import CheckConfig, DocumentReport, summarize_document, tool_files_under

MAX_FILES = 20_000
MAX_BYTES = 20_000_000


def tool_files(root: Path, config: CheckConfig) -> Iterator[Path]:
    """Files under ``root`` that are tool files by name (``tool_files_under``: the rule ``toolcast check``
    uses too), at most MAX_FILES of them."""
    return itertools.islice(tool_files_under(root, config.globs), MAX_FILES)


def index_file(path: Path) -> tuple[str, DocumentReport] | None:
    """(text, tools and names) of a file on disk; None when it cannot be read or is too large. Closed
    files are not checked, only read for their tool names (duplicates across files)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    return text, summarize_document(text, str(path))
