"""The workspace index: every tool file under the workspace folders, checked once at start and kept
current through watched-file events, so duplicate names across files are found in closed files too.

An indexed file keeps its facts only (its tools' names, pointers and spans, and the line and character of
those spans), never its text: a workspace of large closed files would otherwise be held whole."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolcast.adapters.checks import CheckConfig, DocumentReport, summarize_document, tool_files_under
from toolcast.adapters.document import FileTooLarge, LineIndex, NotRegularFile, read_text

if TYPE_CHECKING:
    from toolcast.adapters.document import Encoding

MAX_FILES = 20_000
MAX_BYTES = 20_000_000
_ENCODINGS: tuple[Encoding, ...] = ("utf-8", "utf-16", "utf-32")


def tool_files(root: Path, config: CheckConfig) -> Iterator[Path]:
    """Files under ``root`` that are tool files by name (``tool_files_under``: the rule ``toolcast check``
    uses too), at most MAX_FILES of them."""
    return itertools.islice(tool_files_under(root, config.globs), MAX_FILES)


class KnownPositions:
    """The (line, character) of the offsets a closed file's findings can point at (its tools' spans), in
    every position encoding: what related information across files needs, without the text."""

    __slots__ = ("_at",)

    def __init__(self, text: str, report: DocumentReport) -> None:
        offsets: set[int] = set()
        for tool in report.tools:
            offsets.update(tool.span)
            if tool.name_span is not None:
                offsets.update(tool.name_span)
        index = LineIndex(text)
        self._at = {offset: tuple(index.position(offset, enc) for enc in _ENCODINGS) for offset in offsets}

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        known = self._at.get(offset)
        return (0, 0) if known is None else known[_ENCODINGS.index(encoding)]


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """What the index keeps of a closed tool file: its tools and names, and where they are."""

    report: DocumentReport
    positions: KnownPositions


def index_file(path: Path) -> IndexedFile | None:
    """The tools and names of a file on disk; None when it cannot be read or is not UTF-8. Closed files
    are not checked, only read for their tool names (duplicates across files). Raises ``NotRegularFile``
    (a device, FIFO or socket: never opened so as to block) and ``FileTooLarge`` (over MAX_BYTES) so that
    the caller can say which file was skipped and why."""
    try:
        text = read_text(path, MAX_BYTES)
    except (NotRegularFile, FileTooLarge):
        raise
    except (OSError, UnicodeDecodeError):
        return None
    report = summarize_document(text, str(path))
    return IndexedFile(report, KnownPositions(text, report))
