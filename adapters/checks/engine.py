"""``run_document``: parse once, find the tools, check each one (or reuse what the last run of the file
found for it, or leave it for later when a time budget runs out), run the file-level rules, then place
every finding on its span (``placing.py``) and sort by position.

The steps: ``_check_tools`` finds the tools (``_find_tools``) and checks or defers each
(``_DocumentCheck.check_or_defer``), or, after an edit inside one tool (``_edited_tool``), checks that one and
carries the last run's records of the others over (``_DocumentCheck.reuse_edited_run``); the run is kept for the
next one (``runs.Run``); the file-level rules (``file_rules.py``) and budgets run over the tools' facts;
``_DocumentCheck.report`` places what is left and sorts."""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Sequence
from typing import Any

from .. import pointer as jp
from ..document.dialect import is_jsonc
from ..document.limits import MAX_TEXT, numbers_out_of_range
from ..document.parsed import ParsedDocument
from ..document.parser import DuplicateKey, SyntaxIssue
from ..loading import ToolObject, iter_tool_objects
from ..rules.codes import (
    CONFIG_BAD_VALUE,
    DOCUMENT_TOO_LARGE,
    DUPLICATE_KEY,
    INVALID_JSON,
    NOT_A_TOOL_FILE,
    NUMBER_OUT_OF_RANGE,
)
from ..rules.findings import Finding
from ..rules.registry import RULES
from ..schema.subschemas import MAX_DEPTH
from .analyzer import Analyzer
from .collector import collector_paused
from .config import CheckConfig, ConfigProblem
from .document_report import DocumentReport, FindingBlock, ToolSummary
from .edits import Renderer
from .file_rules import FileTools, file_raws
from .placing import DocView, in_order, place_findings, syntax_filter
from .raw import ToolFacts, Unplaced
from .request_checks import is_request, request_raws
from .runs import Pending, Placed, PlacedKey, Record, Run, Seen, Span
from .tool_checks import check_tool

_TOOL_KEYS = ("name", "description", "parameters", "input_schema", "inputSchema", "function", "toolSpec")


def _toolish(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in _TOOL_KEYS)


def _is_toolcast_schema(value: Any) -> bool:
    schema = value.get("$schema") if isinstance(value, dict) else None
    return isinstance(schema, str) and "toolcast" in schema and schema.endswith("tool.schema.json")


def run_document(text: str, *, path: str | None, config: CheckConfig, budget: float | None = None,
                 parsed: ParsedDocument | None = None, analyzer: Analyzer) -> DocumentReport:
    """The report of one file: its tools checked (or left pending when ``budget`` seconds run out), the
    file-level rules run, every finding placed. ``parsed`` is used when it is the parse of ``text``."""
    if len(text) > MAX_TEXT:
        return too_large_report(f"document is {len(text):,} characters; toolcast checks at most {MAX_TEXT:,}",
                                config, text)
    if parsed is None or parsed.text is not text or parsed.jsonc != is_jsonc(path):
        parsed = analyzer.parse(text, jsonc=is_jsonc(path))
    syntax = [_syntax_finding(err, text) for err in parsed.errors]
    raws = [_duplicate_key(dup) for dup in parsed.duplicate_keys]
    raws.extend(_numbers_out_of_range(text, parsed.value))
    check = _DocumentCheck(text, parsed, config, _workspace(path, config), budget, analyzer)
    run_key = (path, parsed.jsonc)
    found, objects = _check_tools(check, analyzer.runs.get(run_key), analyzer)
    is_tool_file, kind_raws = _file_kind(check.value, found, objects, bool(syntax))
    raws.extend(kind_raws)
    if check.records is not None and objects:  # kept for the next run of this file
        analyzer.runs.keep(run_key, Run(parsed, check.context, tuple(objects), check.records, check.waiting))
    else:
        analyzer.runs.pop(run_key, None)
    raws.extend(_document_checks_cached(check.facts, config, analyzer))
    if config.max_tools is not None or config.max_tokens is not None:
        from .budgets import budget_raws

        raws.extend(budget_raws(objects, config, analyzer.token_costs))
    return check.report(syntax, raws, is_tool_file)


#: A number that may be beyond a double: a run of 309 digits or more, or an exponent of 100 or more. The
#: look-behind starts a match only where a run of digits starts, so the search stays linear.
_BIG_NUMBER = re.compile(r"(?<![0-9])[0-9]{309}|[eE]\+?0*[1-9][0-9]{2}")


def _numbers_out_of_range(text: str, value: Any) -> list[Unplaced]:
    """TC005 for each number beyond a double (read as infinity), found only when the text holds one that
    may be (the value is not walked otherwise)."""
    if value is None or _BIG_NUMBER.search(text) is None:
        return []
    return [Unplaced(NUMBER_OUT_OF_RANGE, "number beyond the range of a double: JSON parsers read it as infinity or "
                "refuse it, and toolcast does not convert it", ptr) for ptr in numbers_out_of_range(value)]


def too_large_report(message: str, config: CheckConfig, text: str = "") -> DocumentReport:
    """The report of a document too large to check: one TC003 finding, an error (nothing in it was checked,
    which must not pass as a clean file)."""
    raw = Unplaced(DOCUMENT_TOO_LARGE, message, "", "value", data={"severity": "error"})
    return DocumentReport(tuple(place_findings(text, None, [raw], config)), (), False)


def _check_tools(check: _DocumentCheck, last: Run | None,
                 analyzer: Analyzer) -> tuple[list[ToolObject], list[ToolObject]]:
    """Find the file's tools and check or defer each; after an edit inside one tool, the last run's tools
    with that one replaced (every other tool is the last run's, moved: see ``_edited_tool``). Returns
    (every tool object in the file, the ones checked)."""
    edited = None if last is None else _edited_tool(last, check.parsed, check.value, check.context, analyzer)
    if last is not None and edited is not None:
        analyzer.edited_runs += 1
        objects = list(last.objects)
        objects[edited[0]] = edited[1]
        check.reuse_edited_run(last, objects, edited[0])
        return objects, objects
    found, objects = _find_tools(check.value, analyzer)
    for i, obj in enumerate(objects):
        check.check_or_defer(i, obj)
    return found, objects


def _find_tools(value: Any, analyzer: Analyzer) -> tuple[list[ToolObject], list[ToolObject]]:
    """(every tool object in the file, the ones to check). Half-typed tools (no recognisable shape yet) are
    still checked when they hold a tool field, so that "name missing" is reported instead of "not a tool
    file"."""
    found = iter_tool_objects(value, analyzer.shape_of) if value is not None else []
    return found, [o for o in found if o.shape is not None or _toolish(o.value)]


def _file_kind(value: Any, found: Sequence[ToolObject], objects: Sequence[ToolObject],
               has_syntax_errors: bool) -> tuple[bool, list[Unplaced]]:
    """Whether the file is a tool file, and the findings that depend on what kind of file it is: a
    canonical request's (seed 004: its tools are checked as tools, plus TC8xx), or "not a tool file"."""
    is_tool_file = any(o.shape is not None for o in found) or _is_toolcast_schema(value)
    if is_request(value):
        return True, request_raws(value)
    if value is not None and not objects and not is_tool_file and not has_syntax_errors:
        return False, [Unplaced(NOT_A_TOOL_FILE, "no tool definition found (expected a tool, a list of tools, "
                                            '{"tools": [...]} or a provider\'s tool shape)', "", "value")]
    return is_tool_file, []


def _block(start: int, placed: Placed) -> FindingBlock | None:
    return FindingBlock(start, placed.origin, placed.findings) if placed.findings else None


class _DocumentCheck:
    """One run of ``run_document`` over a file's tools: what it has found so far (the report's tools,
    blocks and facts, the records for the next run) and what it left to check later (``later``, checked
    by ``resume`` after the report is out)."""

    def __init__(self, text: str, parsed: ParsedDocument, config: CheckConfig, base_dir: str | None,
                 budget: float | None, analyzer: Analyzer) -> None:
        self.text, self.parsed, self.config, self.base_dir, self.analyzer = text, parsed, config, base_dir, analyzer
        self.deadline = time.perf_counter() + budget if budget is not None else None
        self.view = DocView(text, parsed)
        self.value = parsed.value
        self.renderer = Renderer(text, self.view.span, self.value)
        self.context = analyzer.interned((config.cache_key(), base_dir, (self.renderer.unit, self.renderer.newline)))
        self.tools: list[ToolSummary] = []
        self.facts: list[tuple[ToolObject, ToolFacts]] = []
        self.blocks: list[FindingBlock] = []
        self.records: list[Record] | None = []  # for the next run (None: this one cannot serve as its base)
        self.waiting: dict[int, Pending] = {}  # records of tools left pending → their entry in `later`
        self.later: list[Pending] = []

    # -- what a tool leaves in the report and for the next run ----------------------------------------
    def keep(self, obj: ToolObject, record: Record) -> None:
        """A checked tool (``record.placed`` is set): its findings, facts and summary, and its record for
        the next run."""
        assert record.placed is not None
        if record.block is not None:
            self.blocks.append(record.block)
        self.facts.append((obj, record.placed.facts))
        self.tools.append(record.summary)
        if self.records is not None:
            self.records.append(record)

    def defer(self, i: int, entry: Pending, summary: ToolSummary) -> None:
        """A tool left for ``resume`` or a later call: listed with its name only; the next run, after an
        edit elsewhere, carries it over as waiting."""
        self.later.append(entry)
        self.tools.append(summary)
        if self.records is not None:
            self.waiting[i] = entry
            self.records.append(Record(summary.span, None, summary.name_span, summary, None))

    # -- checking ----------------------------------------------------------------------------------
    def place(self, key: PlacedKey, obj: ToolObject, fields: dict[str, str], start: int,
              source: str | None = None) -> Placed:
        """Check one tool and place its findings (remembered by ``key`` for the next check)."""
        if source is None:
            source = self.text[start : start + key.length]
        result = check_tool(obj.value, obj.shape, fields, self.config, self.base_dir, content=source,
                            analyzer=self.analyzer)
        owner = (obj.index, result.facts.name)
        rebased = [r.rebased(obj.pointer, owner) for r in result.raws]
        found_here = place_findings(self.text, self.view, rebased, self.config, self.value, renderer=self.renderer)
        self.parsed.release(obj.pointer)  # its findings are placed: the nodes built for them can go
        placed = Placed(start, tuple(found_here), result.facts)
        self.analyzer.placed.keep(key, placed)
        return placed

    def resume(self, budget: float) -> int:
        """Check pending tools for up to ``budget`` seconds (their results are cached for the next
        ``check_document`` of this text); the number still pending."""
        end = time.perf_counter() + budget
        with collector_paused():  # as in the check itself: the collector's full passes cost more than the slice
            while self.later and time.perf_counter() <= end:
                entry = self.later.pop(0)
                self.place(entry.key, entry.tool, entry.fields, entry.start)
        return len(self.later)

    def check_or_defer(self, i: int, obj: ToolObject) -> None:
        """A tool found in the text: the same parsed object as last time, or the same text (``PlacedKey``),
        reuses its findings; otherwise it is checked, or left pending when the time budget ran out."""
        found_span = self.view.span(obj.pointer, "value")
        if found_span is None or (found_span == (0, 0) and obj.pointer):
            self.records = None  # no place to move it from next time
        tspan = found_span or (0, 0)
        reused = self._as_seen(obj, tspan)
        if reused is not None:
            placed, name_span = reused
        else:
            key, fields, source = self._key(obj, tspan)
            hit = self.analyzer.placed.hit(key)
            if hit is None and self.deadline is not None and time.perf_counter() > self.deadline:
                self.defer(i, Pending(key, obj, fields, tspan[0]), self._unchecked(obj, fields, tspan))
                return
            placed = hit if hit is not None else self.place(key, obj, fields, tspan[0], source)
            name_span = self._name_span(obj, fields, placed)
            self.analyzer.seen.keep(id(obj.value), Seen(
                obj.value, obj.pointer, obj.index, obj.shape, self.context, tspan[1] - tspan[0], placed,
                None if name_span is None else (name_span[0] - tspan[0], name_span[1] - tspan[0])))
        summary = ToolSummary(obj.index, placed.facts.name, obj.pointer, tspan, name_span, obj.shape)
        self.keep(obj, Record(tspan, placed, name_span, summary, _block(tspan[0], placed)))

    def _as_seen(self, obj: ToolObject, tspan: Span) -> tuple[Placed, Span | None] | None:
        """The same parsed object as last checked: an incremental re-parse kept it, so its text is unchanged
        and only its place moved. No slicing, hashing or checking."""
        seen = self.analyzer.seen.get(id(obj.value))
        if seen is None:
            return None
        self.analyzer.seen.move_to_end(id(obj.value))  # tools of open documents stay; old versions of edited ones go
        if (seen.value is obj.value and seen.pointer == obj.pointer and seen.index == obj.index
                and seen.shape == obj.shape and seen.context is self.context and seen.length == tspan[1] - tspan[0]):
            at = seen.name_at
            return seen.placed, None if at is None else (tspan[0] + at[0], tspan[0] + at[1])
        return None

    def _key(self, obj: ToolObject, tspan: Span) -> tuple[PlacedKey, dict[str, str], str]:
        """The tool's key, its field pointers relative to it, and its text."""
        cut = len(obj.pointer)  # field pointers are the tool's pointer + a relative one
        fields = {k: v[cut:] if v.startswith(obj.pointer) else v for k, v in obj.field_pointers.items()}
        source = self.text[tspan[0] : tspan[1]]
        # A digest, not the text: the cache would otherwise keep a copy of every tool's text.
        digest = hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        key = PlacedKey(digest, len(source), self.renderer.line_indent(tspan[0]), obj.pointer, obj.index, obj.shape,
                        tuple(sorted(fields.items())), self.context)
        return key, fields, source

    def _name_span(self, obj: ToolObject, fields: dict[str, str], placed: Placed) -> Span | None:
        if placed.facts.name is None:
            return None
        return self.view.span(obj.pointer + fields.get("name", "/name"), "value")

    def _unchecked(self, obj: ToolObject, fields: dict[str, str], tspan: Span) -> ToolSummary:
        """The summary of a tool left pending: its name as the text has it."""
        name_ptr = obj.pointer + fields.get("name", "/name")
        raw_name = jp.resolve(self.value, name_ptr, None)
        named = isinstance(raw_name, str)
        return ToolSummary(obj.index, raw_name if named else None, obj.pointer, tspan,
                           self.view.span(name_ptr, "value") if named else None, obj.shape)

    # -- after an edit inside one tool ----------------------------------------------------------------
    def reuse_edited_run(self, last: Run, objects: Sequence[ToolObject], edited: int) -> None:
        """Check the edited tool; every other one is the last run's: its text is unchanged, so is
        everything found in it. The tools before the edit are kept as they were (the hot loop of an edit:
        one call per tool); the ones after it moved by the edit's ``delta``."""
        edited_end, delta, records = last.records[edited].span[1], self.parsed.delta, last.records
        for i, obj in enumerate(objects):
            if i == edited:
                self.check_or_defer(i, obj)
                continue
            record = records[i]
            if record.placed is None or (delta and record.span[0] >= edited_end):
                carried = self.carry_over(last, i, obj, delta if record.span[0] >= edited_end else 0)
                if carried is None:
                    continue  # still pending
                record = carried
            self.keep(obj, record)

    def carry_over(self, last: Run, i: int, obj: ToolObject, delta: int) -> Record | None:
        """The record of a tool the edit moved by ``delta`` or that the last run left pending; a pending
        one is checked now (no budget), or stays pending (None)."""
        record = last.records[i]
        placed, summary = record.placed, record.summary
        tspan, name_span = summary.span, summary.name_span
        if delta:
            tspan = (tspan[0] + delta, tspan[1] + delta)
            name_span = None if name_span is None else (name_span[0] + delta, name_span[1] + delta)
        waited = last.waiting.get(i) if placed is None else None
        if waited is not None:
            placed = self.analyzer.placed.hit(waited.key)  # checked in the background since the last run?
            if placed is None and self.deadline is None:  # no budget: the report is complete
                placed = self.place(waited.key, obj, waited.fields, tspan[0])
            if placed is None:
                # Still waiting: carried over as it was, moved. Under a budget an edit checks its
                # own tool only, so that its diagnostics come at once; the rest is `resume`'s.
                if delta:
                    summary = ToolSummary(obj.index, summary.name, obj.pointer, tspan, name_span, obj.shape)
                self.defer(i, waited.moved(tspan[0]), summary)
                return None
            name_span = self._name_span(obj, waited.fields, placed)
        assert placed is not None  # a record left pending always has its entry in `waiting`
        summary = ToolSummary(obj.index, placed.facts.name, obj.pointer, tspan, name_span, obj.shape)
        return Record(tspan, placed, name_span, summary, _block(tspan[0], placed))

    # -- the report ----------------------------------------------------------------------------------
    def report(self, syntax: list[Finding], raws: list[Unplaced], is_tool_file: bool) -> DocumentReport:
        owners = {t.pointer: (t.index, t.name) for t in self.tools}
        findings = place_findings(self.text, self.view, raws, self.config, self.value, owners, renderer=self.renderer)
        loose = in_order(syntax_filter(syntax, self.config) + findings)
        pending = len(self.later)
        return DocumentReport(tuple(loose), tuple(self.tools), is_tool_file, tuple(self.blocks), pending=pending,
                              resume=self.resume if pending else None, is_request=is_request(self.value))


def _edited_tool(last: Run, parsed: ParsedDocument, value: Any, context: tuple[Any, ...],
                 analyzer: Analyzer) -> tuple[int, ToolObject] | None:
    """(index in ``last.objects``, new tool object) when ``parsed`` is an incremental re-parse of the
    last run's document whose re-parsed container lies inside one tool, so that every other tool's
    text, pointer and findings are the last run's; None when the run must find its tools again."""
    base = parsed.base
    if (base is None or base() is not last.parsed or not parsed.value_patched or context is not last.context
            or parsed.changed_pointer is None):
        return None
    parts = jp.parts(parsed.changed_pointer)
    while parts:  # the innermost tool enclosing the re-parsed container (never the root: "" is excluded)
        index = last.pointers.get(jp.from_parts(parts))
        if index is not None:
            break
        parts.pop()
    else:
        return None
    old = last.objects[index]
    new = jp.resolve(value, old.pointer, None)
    in_declarations = parts[-2:-1] in (["functionDeclarations"], ["function_declarations"])
    if not isinstance(new, dict) or (not in_declarations and any(isinstance(new.get(k), list)
                                                                 for k in ("functionDeclarations",
                                                                           "function_declarations"))):
        return None  # no longer one tool object (the file's layout of tools changed)
    shape = analyzer.shape_of(new)
    if in_declarations and shape in (None, "canonical") and "name" in new:
        shape = "gemini"
    if shape is None and not _toolish(new):
        return None
    return index, ToolObject(old.index, old.pointer, new, shape)


def run_summary(text: str, path: str | None = None, *, analyzer: Analyzer,
                parsed: ParsedDocument | None = None) -> DocumentReport:
    if len(text) > MAX_TEXT:
        return DocumentReport((), (), False)
    if parsed is None or parsed.text is not text or parsed.jsonc != is_jsonc(path):
        parsed = analyzer.parse(text, jsonc=is_jsonc(path))
    view = DocView(text, parsed)
    value = parsed.value
    tools = []
    for obj in iter_tool_objects(value, analyzer.shape_of) if value is not None else ():
        if obj.shape is None:
            continue
        name_ptr = obj.field_pointers.get("name", obj.pointer + "/name")
        name = jp.resolve(value, name_ptr, None)
        tools.append(ToolSummary(obj.index, name if isinstance(name, str) else None, obj.pointer,
                                 view.span(obj.pointer, "value") or (0, 0),
                                 view.span(name_ptr, "value") if isinstance(name, str) else None, obj.shape))
    return DocumentReport((), tuple(tools), bool(tools), is_request=is_request(value))


def _document_checks_cached(facts: FileTools, config: CheckConfig, analyzer: Analyzer) -> list[Unplaced]:
    """The file-level rules depend only on each tool's pointers and facts: an edit inside one tool
    that leaves its facts equal (its name, target names, strict counts) reuses the last result."""
    # Field pointers follow from the pointer and the shape.
    key = (config.cache_key(), tuple((obj.pointer, obj.shape) for obj, _ in facts))
    current = [f for _, f in facts]
    hit = analyzer.document_checks.get(key)
    if hit is not None and hit[0] == current:  # list equality: identity first, then field by field
        return hit[1]
    raws = file_raws(facts, config)
    analyzer.document_checks.keep(key, (current, raws))
    return raws


def _workspace(path: str | None, config: CheckConfig) -> str | None:
    """Where `$ref`s to files may point: the configuration's folder, else the document's folder."""
    if config.source:
        return os.path.dirname(os.path.abspath(config.source))
    if path:
        return os.path.dirname(os.path.abspath(path))
    return None


def _syntax_finding(err: SyntaxIssue, text: str) -> Finding:
    start, end = err.start, err.end
    if end <= start:
        end = min(start + 1, len(text)) if start < len(text) else start
    return Finding(INVALID_JSON, RULES[INVALID_JSON].severity, err.message, "", (start, end))


def _duplicate_key(dup: DuplicateKey) -> Unplaced:
    key = jp.parts(dup.pointer)[-1] if dup.pointer else ""
    data: dict[str, Any] = {"span": dup.span, "first": dup.first}
    return Unplaced(DUPLICATE_KEY, f"duplicate key `{key}`; only the last value counts", dup.pointer, "key", data=data)


def config_findings(problems: Sequence[ConfigProblem]) -> list[Finding]:
    """TC7xx findings for configuration problems (placed at the start of the checked document; the
    ``data`` says which configuration file and key)."""
    out = []
    for p in problems:
        rule = RULES.get(p.code, RULES[CONFIG_BAD_VALUE])
        out.append(
            Finding(
                rule.code,
                rule.severity,
                f"{p.source}: {p.message}",
                "",
                (0, 0),
                data={"source": p.source, "key": p.key, "rule": rule.name},
            )
        )
    return out


__all__ = ["MAX_DEPTH", "MAX_TEXT", "DocView", "config_findings", "run_document", "run_summary", "too_large_report"]
