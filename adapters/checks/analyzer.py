"""``Analyzer``: everything the checks remember between two calls, in one object; the checks themselves are
``check_document`` and ``summarize_document`` (``entry.py``), which take it as ``analyzer=``.

The CLI makes one per run, the language server one per session (``ToolcastServer.analyzer``); both pass
it to every check (``Analyzer.parse`` is for a parse a later check should find again). A call without
one gets a fresh analyzer and is cold: nothing in ``adapters/`` is remembered at module level
(``tests/test_module_state.py``). Who owns what: docs/design.md, "Who owns the caches".

Each table is bounded, least recently used out first. Reused values (parsed documents, tool results,
findings) are shared between the calls that reuse them: treat them as read-only. One analyzer may be
used from one thread at a time; its document memory alone is safe to share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..document.recent import DocumentMemory
from ..lru import Table
from .workspace_files import WorkspaceFiles

if TYPE_CHECKING:
    from ..cost import TokenCosts
    from ..document.parsed import ParsedDocument
    from .raw import ToolFacts, ToolResult, Unplaced
    from .runs import Placed, PlacedKey, Run, Seen

#: Tool results by content (``check_tool``): more than the tools of a large file and its edits.
TOOL_RESULTS_SIZE = 20_000
#: Placed tool findings, tools by parsed object, shapes by parsed object: more than the tools of a
#: large file, few enough to bound memory.
PLACED_SIZE = 12_000
DOCUMENT_CHECKS_SIZE = 8
#: Files whose last run is kept for the next (an edit inside one tool reuses the rest of it).
RUNS_SIZE = 8
CONTEXTS_SIZE = 64
RECENT_DOCUMENTS = 3


class Analyzer:
    """The owner of every cache of the analysis (see the module's text); ``Analyzer`` adds the checks."""

    def __init__(self) -> None:
        #: The last few parsed documents: ``parse`` re-parses a small edit of one incrementally.
        self.documents: DocumentMemory[ParsedDocument] = DocumentMemory(RECENT_DOCUMENTS)
        #: ``check_tool`` results by (tool text digest, shape, field pointers, configuration, folder).
        self.tool_results: Table[tuple[Any, ...], ToolResult] = Table(TOOL_RESULTS_SIZE)
        #: One tool's placed findings by its text's digest, place and context (``PlacedKey``).
        self.placed: Table[PlacedKey, Placed] = Table(PLACED_SIZE)
        #: Tools as last checked, by ``id`` of the parsed object (reused while the parser keeps it).
        self.seen: Table[int, Seen] = Table(PLACED_SIZE)
        #: ``detect_shape`` by ``id`` of the parsed object (the object is kept, so the id stays its own).
        self.shapes: Table[int, tuple[Any, str | None]] = Table(PLACED_SIZE)
        #: File-level checks by (configuration, tool pointers and shapes), valid while the facts are equal.
        self.document_checks: Table[tuple[tuple[Any, ...], tuple[tuple[str, str | None], ...]],
                                    tuple[list[ToolFacts], list[Unplaced]]] = Table(DOCUMENT_CHECKS_SIZE)
        #: The last run of each file by (path, JSONC): its parse, tools and their findings.
        self.runs: Table[tuple[str | None, bool], Run] = Table(RUNS_SIZE)
        #: How many runs reused the last run of their file for every tool but the edited one.
        self.edited_runs = 0
        #: One object per distinct check context, so the engine compares contexts by identity.
        self.contexts: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        #: Files `$ref`s point at.
        self.workspace_files = WorkspaceFiles()
        #: Token estimates (``adapters/cost.py``), made when a budget is first checked.
        self._token_costs: TokenCosts | None = None

    @property
    def token_costs(self) -> TokenCosts:
        """The token estimates of this analyzer's checks (``max_tokens``), with their own bounded cache."""
        if self._token_costs is None:
            from ..cost import TokenCosts

            self._token_costs = TokenCosts()
        return self._token_costs

    def parse(self, text: str, *, jsonc: bool = False, previous: ParsedDocument | None = None) -> ParsedDocument:
        """``document.parse`` with this analyzer's document memory: the document the last check of
        ``text`` used, or an incremental re-parse of a remembered one."""
        from ..document.parsed import parse

        return parse(text, jsonc=jsonc, previous=previous, memory=self.documents)

    def remember(self, doc: ParsedDocument) -> None:
        self.documents.remember(doc)

    def reparse(self, previous: ParsedDocument, start: int, end: int, new_text: str, *,
                text: str | None = None) -> ParsedDocument:
        """``document.reparse``, and the result remembered (the next check of its text starts from it)."""
        from ..document.parsed import reparse

        doc = reparse(previous, start, end, new_text, text=text)
        self.documents.remember(doc)
        return doc

    # -- the tables ---------------------------------------------------------------------------------
    def sizes(self) -> dict[str, int]:
        """How many entries each table holds (tests and diagnostics)."""
        return {"documents": len(self.documents), "tool_results": len(self.tool_results),
                "placed": len(self.placed), "seen": len(self.seen), "shapes": len(self.shapes),
                "document_checks": len(self.document_checks), "runs": len(self.runs),
                "contexts": len(self.contexts),
                "workspace_files": len(self.workspace_files)}

    def clear(self) -> None:
        """Forget everything (the next check is cold)."""
        self.documents.clear()
        for table in (self.tool_results, self.placed, self.seen, self.shapes, self.document_checks, self.runs,
                      self.contexts):
            table.clear()
        self.workspace_files.clear()
        self._token_costs = None

    def interned(self, context: tuple[Any, ...]) -> tuple[Any, ...]:
        """One object per distinct context, so comparing it with a cached one is an identity check."""
        if len(self.contexts) > CONTEXTS_SIZE:
            self.contexts.clear()
        return self.contexts.setdefault(context, context)

    def shape_of(self, obj: Any) -> str | None:
        """``detect_shape`` remembered by object identity: an incremental re-parse keeps the objects of
        the tools an edit did not touch, and parsed values are never mutated."""
        from ..loading.shapes import detect_shape

        hit = self.shapes.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        shape = detect_shape(obj)
        self.shapes.keep(id(obj), (obj, shape))
        return shape


__all__ = ["Analyzer"]
