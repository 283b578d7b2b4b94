"""Open documents as toolcast sees them: text, version, line index and the latest check report.

toolcast keeps its own store and applies incremental changes with its own ``LineIndex`` (LSP line
breaks only), so positions stay right in files holding U+2028 and similar characters, and a change
costs the same on a file of megabytes as on a small one (the text is joined once per analysis).
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from toolcast.adapters.document import Encoding, LineIndex

if TYPE_CHECKING:  # the engine and the parser load with the first document, not to answer `initialize`
    from toolcast.adapters.checks import DocumentReport
    from toolcast.adapters.document import ParsedDocument

from .diagnostics import FragmentCache


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


@dataclass
class Document:
    """One open document: the text (held by its line index, see ``LineIndex``), its version, and the
    analysis of that version — the parse (``parsed``) and the check report — computed once per version
    and dropped by every change. Handlers take the analysis from here; nothing re-parses the text."""

    uri: str
    initial_text: InitVar[str]
    version: int
    language_id: str = "json"
    index: LineIndex = field(init=False)
    report: DocumentReport | None = None
    report_version: int | None = None
    fragments: FragmentCache = field(default_factory=FragmentCache)
    settled: bool = False  # analysed once (see ToolcastServer.report)
    checked: bool = False  # a check of it has begun (its first, for a large one, frees the opening's memory)
    changed_at: float = 0.0  # monotonic time of the last change (bursts are published once)
    published_names: tuple[str | None, ...] = ()  # tool names as last published
    _parsed: ParsedDocument | None = field(default=None, init=False, repr=False)
    _parsed_version: int | None = field(default=None, init=False, repr=False)
    #: (parse of the version before, (start, end, new text)) when the current version is that one with
    #: one ranged change: the parse takes the edit from here instead of comparing the two texts.
    _edit: tuple[ParsedDocument, tuple[int, int, str]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self, initial_text: str) -> None:
        self.index = LineIndex(initial_text)

    @property
    def text(self) -> str:
        return self.index.text

    @property
    def path(self) -> Path | None:
        return uri_to_path(self.uri)

    @property
    def jsonc(self) -> bool:
        """Comments and trailing commas allowed (a `.jsonc` file), as ``toolcast check`` reads it."""
        from toolcast.adapters.document import is_jsonc

        path = self.path
        return is_jsonc(str(path) if path is not None else None)

    @property
    def parsed(self) -> ParsedDocument:
        """The parse of the current version (re-parsed incrementally from the previous version's)."""
        if self._parsed is None or self._parsed_version != self.version or self._parsed.text is not self.text:
            from toolcast.adapters.document import parse, reparse

            known, self._edit = self._edit, None
            if known is not None and known[0] is self._parsed:
                start, end, new_text = known[1]
                self._parsed = reparse(known[0], start, end, new_text, text=self.text)
            else:
                self._parsed = parse(self.text, jsonc=self.jsonc, previous=self._parsed)
            self._parsed_version = self.version
        return self._parsed

    def _changed(self, version: int) -> None:
        self.version = version
        self.report = None
        self.report_version = None

    def set_text(self, text: str, version: int) -> None:
        self.index = LineIndex(text)
        self._edit = None
        self._changed(version)

    def apply(self, changes: list[Any], version: int, encoding: Encoding) -> None:
        """Apply ``didChange`` content changes in order (whole-document or ranged)."""
        index = self.index
        current = self._parsed if self._parsed_version == self.version else None
        edit: tuple[int, int, str] | None = None
        for change in changes:
            rng = getattr(change, "range", None)
            if rng is None:
                index = LineIndex(change.text)
            else:
                index, start, end = index.apply_change((rng.start.line, rng.start.character),
                                                       (rng.end.line, rng.end.character), change.text, encoding)
                edit = (start, end, change.text)
        self.index = index
        self._edit = (current, edit) if current is not None and edit is not None and len(changes) == 1 else None
        self._changed(version)
