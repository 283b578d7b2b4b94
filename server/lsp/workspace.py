"""The workspace index: every tool file under the workspace folders, checked once at start and kept
current through watched-file events, so duplicate names across files are found in closed files too."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from pathlib import Path

from toolcast.adapters.checks import CheckConfig, DocumentReport, summarize_document

SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".tox", "dist", "build"}
MAX_FILES = 20_000
MAX_BYTES = 20_000_000


def tool_files(root: Path, config: CheckConfig) -> Iterator[Path]:
    """Files under ``root`` whose name matches the configured globs (bounded, hidden/vendor folders skipped)."""
    seen = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        base = Path(folder)
        for name in sorted(names):
            rel = f"{base.name}/{name}"
            if any(fnmatch.fnmatch(name, g) or fnmatch.fnmatch(rel, g) for g in config.globs):
                seen += 1
                if seen > MAX_FILES:
                    return
                yield base / name


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
