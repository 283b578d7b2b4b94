"""The workspace files a `$ref` points at, read once per modification time."""

from __future__ import annotations

import json
from typing import Any

from ..document.file_reading import read_regular
from ..lru import Table

#: Files `$ref`s point at, kept at most.
WORKSPACE_FILES = 256


class WorkspaceFiles:
    """Workspace files a `$ref` points at, read once per modification time (at most ``size`` kept).
    Their values are shared between validations: read-only."""

    def __init__(self, size: int = WORKSPACE_FILES) -> None:
        self._loaded: Table[tuple[str, float], Any] = Table(size)

    def load(self, path: str, mtime: float) -> Any:
        key = (path, mtime)
        if key in self._loaded:
            self._loaded.move_to_end(key)
            return self._loaded[key]
        contents = json.loads(read_regular(path))  # a regular file, bounded (raises OSError otherwise)
        self._loaded.keep(key, contents)
        return contents

    def clear(self) -> None:
        self._loaded.clear()

    def __len__(self) -> int:
        return len(self._loaded)
