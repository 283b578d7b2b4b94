"""Open documents as toolcast sees them: text, version, line index and the latest check report.

toolcast keeps its own store and applies incremental changes with its own ``LineIndex`` (LSP line
breaks only), so positions stay right in files holding U+2028 and similar characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from toolcast.adapters.document import Encoding, LineIndex

if TYPE_CHECKING:
    from toolcast.adapters.checks import DocumentReport

from .diagnostics import FragmentCache


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


@dataclass
class Document:
    uri: str
    text: str
    version: int
    language_id: str = "json"
    index: LineIndex = field(init=False)
    report: DocumentReport | None = None
    report_version: int | None = None
    fragments: FragmentCache = field(default_factory=FragmentCache)
    settled: bool = False  # analysed once (see ToolcastServer.report)
    changed_at: float = 0.0  # monotonic time of the last change (bursts are published once)
    published_names: tuple[str | None, ...] = ()  # tool names as last published

    def __post_init__(self) -> None:
        self.index = LineIndex(self.text)

    @property
    def path(self) -> Path | None:
        return uri_to_path(self.uri)

    def set_text(self, text: str, version: int) -> None:
        self.text = text
        self.version = version
        self.index = LineIndex(text)
        self.report = None
        self.report_version = None

    def apply(self, changes: list[Any], version: int, encoding: Encoding) -> None:
        """Apply ``didChange`` content changes in order (whole-document or ranged)."""
        text = self.text
        index = self.index
        for change in changes:
            rng = getattr(change, "range", None)
            if rng is None:
                text = change.text
                index = LineIndex(text)
            else:
                text, a, b = index.apply_change((rng.start.line, rng.start.character),
                                                (rng.end.line, rng.end.character), change.text, encoding)
                index = index.edited(a, b, change.text, text)  # recounts only the touched blocks
        self.text = text
        self.index = index
        self.version = version
        self.report = None
        self.report_version = None
