"""``check_document``: parse once, find the tools, run every rule, place each finding on its span,
attach the tool, apply the configuration and sort by position.

Range conventions follow vscode-json-languageservice: a missing member is reported on its parent's
key (or the parent's ``{`` when the parent has no key), a wrong value on the value, an unwanted member
on its key, a feature loss on the lost keyword's key."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import pointer as jp
from ..providers import DISPLAY_NAMES
from ..rules.codes import (
    ANTHROPIC_STRICT_OPTIONAL,
    ANTHROPIC_STRICT_TOOLS,
    ANTHROPIC_STRICT_UNIONS,
    CONFIG_BAD_VALUE,
    DOCUMENT_TOO_LARGE,
    DUPLICATE_KEY,
    DUPLICATE_NAME,
    GEMINI_FUNCTION_COUNT,
    INVALID_JSON,
    NAME_COLLISION_AFTER_SANITISING,
    NOT_A_TOOL_FILE,
)
from ..rules.findings import Finding, Fix, Related, Severity
from ..rules.registry import RULES
from ..schema.walk import MAX_DEPTH
from .caches import Caches
from .collector import collector_paused
from .config import CheckConfig, ConfigProblem
from .consumer_checks import document_raws
from .edits import Renderer
from .raw import Raw, ToolFacts
from .report import DocumentReport, FindingBlock, ToolSummary
from .request_checks import is_request, request_raws
from .runs import Placed, Record, Run, Seen
from .tool_checks import check_tool

#: Larger documents are not parsed (TC003); editors and CI get a finding instead of a stall.
MAX_TEXT = 32_000_000
_ANTHROPIC_STRICT_TOOLS, _ANTHROPIC_OPTIONAL, _ANTHROPIC_UNIONS = 20, 24, 16


class DocView:
    """Span look-ups on the parsed document that never raise: None when a pointer is absent."""

    def __init__(self, text: str, parsed: Any) -> None:
        self.text = text
        self.parsed = parsed

    def span(self, pointer: str, part: str = "value") -> tuple[int, int] | None:
        try:
            s = self.parsed.span(pointer, part)
        except (KeyError, ValueError, IndexError, LookupError):
            return None
        if s is None:
            return None
        if hasattr(s, "start"):
            return (int(s.start), int(s.end))
        return (int(s[0]), int(s[1]))

    def place(self, pointer: str, place: str) -> tuple[str, tuple[int, int]]:
        """(pointer actually used, span) for a finding about ``pointer``."""
        if place == "missing":
            parent = _parent(pointer)
            return self._on_container(parent)
        if place == "key":
            s = self.span(pointer, "key") or self.span(pointer, "value")
        else:
            s = self.span(pointer, "value")
        if s is not None:
            return pointer, s
        # Absent (recovered value differs from the text): fall back to the nearest ancestor.
        parts = jp.parts(pointer)
        while parts:
            parts.pop()
            ptr = jp.from_parts(parts)
            s = self.span(ptr, "key") or self.span(ptr, "value")
            if s is not None:
                return ptr, s
        return "", (0, min(1, len(self.text)))

    def _on_container(self, pointer: str) -> tuple[str, tuple[int, int]]:
        key = self.span(pointer, "key")
        if key is not None:
            return pointer, key
        value = self.span(pointer, "value")
        if value is not None:
            return pointer, (value[0], min(value[0] + 1, value[1]))
        return self.place(pointer, "value")


def _parent(pointer: str) -> str:
    parts = jp.parts(pointer)
    return jp.from_parts(parts[:-1])


_TOOL_KEYS = ("name", "description", "parameters", "input_schema", "inputSchema", "function", "toolSpec")


def _toolish(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in _TOOL_KEYS)


def _is_toolcast_schema(value: Any) -> bool:
    schema = value.get("$schema") if isinstance(value, dict) else None
    return isinstance(schema, str) and "toolcast" in schema and schema.endswith("tool.schema.json")


def is_jsonc(path: str | None) -> bool:
    """A `.jsonc` file may hold comments and trailing commas (what `toolcast explain TC001` promises)."""
    return path is not None and path.lower().endswith(".jsonc")


def run_document(text: str, *, path: str | None, config: CheckConfig, budget: float | None = None,
                 parsed: Any = None, analyzer: Caches) -> DocumentReport:
    deadline = time.perf_counter() + budget if budget is not None else None
    pending = 0
    raws: list[Raw] = []
    base_dir = _workspace(path, config)
    if len(text) > MAX_TEXT:
        raws.append(
            Raw(
                DOCUMENT_TOO_LARGE,
                f"document is {len(text):,} characters; toolcast checks at most {MAX_TEXT:,}",
                "",
                "value",
            )
        )
        return DocumentReport(tuple(_finish(text, None, raws, config)), (), False)

    from ..loading import iter_tool_objects  # type: ignore[attr-defined,unused-ignore]

    if parsed is None or parsed.text is not text or parsed.jsonc != is_jsonc(path):
        parsed = analyzer.parse(text, jsonc=is_jsonc(path))
    view = DocView(text, parsed)
    syntax: list[Finding] = []
    for err in getattr(parsed, "errors", ()):
        syntax.append(_syntax_finding(err, text))
    for dup in getattr(parsed, "duplicate_keys", ()):
        raws.append(_duplicate_key(dup))

    value = getattr(parsed, "value", None)
    renderer = Renderer(text, view.span, value)
    layout = (renderer.unit, renderer.newline)
    context = analyzer.interned((config.cache_key(), base_dir, layout))
    run_key = (path, parsed.jsonc)
    last = analyzer.runs.get(run_key)
    # An edit inside one tool: every other tool is the last run's, moved (see `_edited_tool`).
    edited = None if last is None else _edited_tool(last, parsed, value, context, analyzer)
    if edited is not None:
        analyzer.edited_runs += 1
        objects = list(last.objects)  # type: ignore[union-attr]
        objects[edited[0]] = edited[1]
        found = objects
    else:
        found = list(iter_tool_objects(value, analyzer.shape_of)) if value is not None else []
        # Half-typed tools (no recognisable shape yet) are still checked when they hold a tool field, so
        # that "name missing" is reported instead of "not a tool file".
        objects = [o for o in found if getattr(o, "shape", None) is not None or _toolish(o.value)]
    is_tool_file = any(getattr(o, "shape", None) is not None for o in found) or _is_toolcast_schema(value)
    if is_request(value):  # a canonical request (seed 004): its tools are checked as tools, plus TC8xx
        raws.extend(request_raws(value))
        is_tool_file = True
    elif value is not None and not objects and not is_tool_file and not syntax:
        raws.append(
            Raw(
                NOT_A_TOOL_FILE,
                "no tool definition found (expected a tool, a list of tools, "
                '{"tools": [...]} or a provider\'s tool shape)',
                "",
                "value",
            )
        )

    tools: list[ToolSummary] = []
    facts: list[tuple[Any, ToolFacts]] = []
    blocks: list[FindingBlock] = []
    records: list[Record] | None = []  # for the next run (None: this one cannot serve as its base)
    waiting: dict[int, tuple[Any, ...]] = {}  # records of tools left pending → their entry in `later`
    # A waiting tool's entry holds its place, not its text: a slice per tool would keep a second copy
    # of the file for as long as the first check goes on. Its text is `text[start:start + key[1]]`.
    later: list[tuple[tuple[Any, ...], Any, dict[str, str], str, int]] = []

    def place(key: tuple[Any, ...], obj: Any, fields: dict[str, str], tool_ptr: str, start: int,
              source: str | None = None) -> Placed:
        if source is None:
            source = text[start : start + key[1]]
        result = check_tool(obj.value, obj.shape, fields, config, base_dir, content=source, analyzer=analyzer)
        owner = (obj.index, result.facts.name)
        rebased = [r.rebased(tool_ptr, owner) for r in result.raws]
        found_here = _finish(text, view, rebased, config, value, renderer=renderer)
        parsed.release(tool_ptr)  # its findings are placed: the nodes built for them can go
        placed = Placed(start, tuple(found_here), result.facts)
        analyzer.placed.keep(key, placed)
        return placed

    def resume(budget: float) -> int:
        """Check pending tools for up to ``budget`` seconds (their results are cached for the next
        ``check_document`` of this text); the number still pending."""
        end = time.perf_counter() + budget
        with collector_paused():  # as in the check itself: the collector's full passes cost more than the slice
            while later and time.perf_counter() <= end:
                place(*later.pop(0))
        return len(later)

    seen_tools = analyzer.seen
    if edited is not None:
        assert last is not None
        edited_index, edited_end, delta = edited[0], last.records[edited[0]][0][1], parsed.delta
    for i, obj in enumerate(objects):
        tool_ptr: str = obj.pointer
        if edited is not None and i != edited_index:
            # Not the edited tool: its text is unchanged, so is everything found in it; after the
            # edit it moved by `delta`.
            record = last.records[i]  # type: ignore[union-attr]
            placed, summary, block = record[1], record[3], record[4]
            moved = delta and summary.span[0] >= edited_end
            tspan, name_span = summary.span, summary.name_span
            if moved:
                tspan = (tspan[0] + delta, tspan[1] + delta)
                if name_span is not None:
                    name_span = (name_span[0] + delta, name_span[1] + delta)
            waited = last.waiting.get(i) if placed is None else None  # type: ignore[union-attr]
            if waited is not None:
                placed = analyzer.placed.hit(waited[0])  # checked in the background since the last run?
                if placed is None and deadline is None:  # no budget: the report is complete
                    placed = place(waited[0], obj, waited[2], tool_ptr, tspan[0])
                if placed is None:
                    # Still waiting: carried over as it was, moved. Under a budget an edit checks its
                    # own tool only, so that its diagnostics come at once; the rest is `resume`'s.
                    pending += 1
                    entry = (*waited[:4], tspan[0])
                    later.append(entry)
                    if moved:
                        summary = ToolSummary(obj.index, summary.name, tool_ptr, tspan, name_span, obj.shape)
                    tools.append(summary)
                    if records is not None:
                        waiting[i] = entry
                        records.append((tspan, None, name_span, summary, None))
                    continue
                name_ptr = tool_ptr + waited[2].get("name", "/name")
                name_span = view.span(name_ptr, "value") if placed.facts.name is not None else None
            assert placed is not None  # a record left pending always has its entry in `waiting`
            if waited is not None or moved:
                summary = ToolSummary(obj.index, placed.facts.name, tool_ptr, tspan, name_span, obj.shape)
                block = FindingBlock(tspan[0], placed.origin, placed.findings) if placed.findings else None
                record = (tspan, placed, name_span, summary, block)
            if block is not None:
                blocks.append(block)
            facts.append((obj, placed.facts))
            tools.append(summary)
            if records is not None:
                records.append(record)
            continue
        found_span = view.span(tool_ptr, "value")
        if found_span is None or (found_span == (0, 0) and tool_ptr):
            records = None  # no place to move it from next time
        tspan = found_span or (0, 0)
        seen = seen_tools.get(id(obj.value))
        if seen is not None:
            seen_tools.move_to_end(id(obj.value))  # tools of open documents stay; old versions of edited ones go
        if (seen is not None and seen.value is obj.value and seen.pointer == tool_ptr and seen.index == obj.index
                and seen.shape == obj.shape and seen.context is context and seen.length == tspan[1] - tspan[0]):
            # The same parsed object: an incremental re-parse kept it, so its text is unchanged and
            # only its place moved. No slicing, hashing or checking.
            placed = seen.placed
            name_span = None if seen.name_at is None else (tspan[0] + seen.name_at[0], tspan[0] + seen.name_at[1])
        else:
            cut = len(tool_ptr)  # field pointers are the tool's pointer + a relative one
            fields = {k: v[cut:] if v.startswith(tool_ptr) else v for k, v in obj.field_pointers.items()}
            source = text[tspan[0] : tspan[1]]
            # A digest, not the text: the cache would otherwise keep a copy of every tool's text.
            digest = hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=16).digest()
            key = (digest, len(source), renderer.line_indent(tspan[0]), tool_ptr, obj.index, obj.shape,
                   tuple(sorted(fields.items())), context)
            cached = analyzer.placed.hit(key)
            if cached is not None:
                placed = cached
            elif deadline is not None and time.perf_counter() > deadline:
                pending += 1  # left for `resume` or a later call; listed with its name only
                entry = (key, obj, fields, tool_ptr, tspan[0])
                later.append(entry)
                name_ptr = tool_ptr + fields.get("name", "/name")
                raw_name = jp.resolve(value, name_ptr, None)
                summary = ToolSummary(obj.index, raw_name if isinstance(raw_name, str) else None, tool_ptr, tspan,
                                      view.span(name_ptr, "value") if isinstance(raw_name, str) else None,
                                      obj.shape)
                tools.append(summary)
                if records is not None:  # the next run, after an edit elsewhere, carries it over as waiting
                    waiting[i] = entry
                    records.append((tspan, None, summary.name_span, summary, None))
                continue
            else:
                placed = place(key, obj, fields, tool_ptr, tspan[0], source)
            name_ptr = tool_ptr + fields.get("name", "/name")
            name_span = view.span(name_ptr, "value") if placed.facts.name is not None else None
            seen_tools.keep(id(obj.value), Seen(
                obj.value, tool_ptr, obj.index, obj.shape, context, tspan[1] - tspan[0], placed,
                None if name_span is None else (name_span[0] - tspan[0], name_span[1] - tspan[0])))
        block = FindingBlock(tspan[0], placed.origin, placed.findings) if placed.findings else None
        if block is not None:
            blocks.append(block)
        facts.append((obj, placed.facts))
        summary = ToolSummary(obj.index, placed.facts.name, tool_ptr, tspan, name_span, obj.shape)
        tools.append(summary)
        if records is not None:
            records.append((tspan, placed, name_span, summary, block))
    if records is not None and objects:
        analyzer.runs.keep(run_key, Run(parsed, context, tuple(objects), records, waiting))
    else:
        analyzer.runs.pop(run_key, None)
    raws.extend(_document_checks_cached(facts, config, analyzer))
    if config.max_tools is not None or config.max_tokens is not None:
        from .budgets import budget_raws

        raws.extend(budget_raws(objects, config, analyzer.token_costs))
    owners = {t.pointer: (t.index, t.name) for t in tools}
    findings = _finish(text, view, raws, config, value, owners, renderer=renderer)
    loose = _sorted(syntax_filter(syntax, config) + findings)
    return DocumentReport(tuple(loose), tuple(tools), is_tool_file, tuple(blocks), pending=pending,
                          resume=resume if pending else None, is_request=is_request(value))


def _edited_tool(last: Run, parsed: Any, value: Any, context: tuple[Any, ...],
                 analyzer: Caches) -> tuple[int, Any] | None:
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
    from ..loading import ToolObject  # type: ignore[attr-defined,unused-ignore]

    old = last.objects[index]
    new = jp.resolve(value, old.pointer, None)
    in_declarations = parts[-2:-1] == ["functionDeclarations"]
    if not isinstance(new, dict) or (not in_declarations and isinstance(new.get("functionDeclarations"), list)):
        return None  # no longer one tool object (the file's layout of tools changed)
    shape = analyzer.shape_of(new)
    if in_declarations and shape in (None, "canonical") and "name" in new:
        shape = "gemini"
    if shape is None and not _toolish(new):
        return None
    return index, ToolObject(old.index, old.pointer, new, shape)


def run_summary(text: str, path: str | None = None, *, analyzer: Caches) -> DocumentReport:
    if len(text) > MAX_TEXT:
        return DocumentReport((), (), False)
    from ..loading import iter_tool_objects  # type: ignore[attr-defined,unused-ignore]

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


def _document_checks_cached(facts: list[tuple[Any, ToolFacts]], config: CheckConfig,
                            analyzer: Caches) -> list[Raw]:
    """``_document_checks`` depends only on each tool's pointers and facts: an edit inside one tool
    that leaves its facts equal (its name, target names, strict counts) reuses the last result."""
    # Field pointers follow from the pointer and the shape.
    key = (config.cache_key(), tuple((obj.pointer, obj.shape) for obj, _ in facts))
    current = [f for _, f in facts]
    hit = analyzer.document_checks.get(key)
    if hit is not None and hit[0] == current:  # list equality: identity first, then field by field
        return hit[1]
    raws = _document_checks(facts, config)
    analyzer.document_checks.keep(key, (current, raws))
    return raws


def syntax_filter(findings: list[Finding], config: CheckConfig) -> list[Finding]:
    return [f for f in (_configure(f, config) for f in findings) if f is not None]


def _workspace(path: str | None, config: CheckConfig) -> str | None:
    """Where `$ref`s to files may point: the configuration's folder, else the document's folder."""
    if config.source:
        return os.path.dirname(os.path.abspath(config.source))
    if path:
        return os.path.dirname(os.path.abspath(path))
    return None


def _relative(pointer: str, base: str) -> str:
    return pointer[len(base) :] if jp.is_prefix(base, pointer) else pointer


def _syntax_finding(err: Any, text: str) -> Finding:
    start = int(getattr(err, "start", getattr(err, "offset", 0)) or 0)
    end = int(getattr(err, "end", start) or start)
    if end <= start:
        end = min(start + 1, len(text)) if start < len(text) else start
    message = str(getattr(err, "message", err))
    rule = RULES[INVALID_JSON]
    return Finding(INVALID_JSON, rule.severity, message, getattr(err, "pointer", "") or "", (start, end))


def _duplicate_key(dup: Any) -> Raw:
    pointer = str(getattr(dup, "pointer", dup[0] if isinstance(dup, tuple) else ""))
    key = jp.parts(pointer)[-1] if pointer else ""
    first = getattr(dup, "first", None)
    data: dict[str, Any] = {}
    span = getattr(dup, "span", None) or getattr(dup, "key_span", None)
    if span is not None:
        data["span"] = (int(span[0]), int(span[1]))
    if first is not None:
        data["first"] = first
    return Raw(DUPLICATE_KEY, f"duplicate key `{key}`; only the last value counts", pointer, "key", data=data)


def _document_checks(facts: list[tuple[Any, ToolFacts]], config: CheckConfig) -> list[Raw]:
    raws: list[Raw] = []
    first_by_name: dict[str, str] = {}
    for obj, f in facts:
        if f.name is None:
            continue
        name_ptr = obj.pointer + _relative(
            dict(getattr(obj, "field_pointers", {})).get("name", obj.pointer + "/name"), obj.pointer
        )
        if f.name in first_by_name:
            raws.append(
                Raw(
                    DUPLICATE_NAME,
                    f"duplicate tool name {f.name!r}",
                    name_ptr,
                    related=((first_by_name[f.name], "first defined here"),),
                )
            )
        else:
            first_by_name[f.name] = name_ptr
    # Collisions after a target's sanitising (different names, one target name), one finding per
    # colliding tool listing every target where it collides.
    collisions: dict[tuple[str, str], tuple[str, str, str, list[str]]] = {}
    for target in config.targets:
        seen: dict[str, tuple[str, str]] = {}
        for obj, f in facts:
            tname = f.target_names.get(target)
            if f.name is None or tname is None:
                continue
            name_ptr = obj.pointer + _relative(
                dict(getattr(obj, "field_pointers", {})).get("name", obj.pointer + "/name"), obj.pointer
            )
            if tname in seen and seen[tname][0] != f.name:
                other, other_ptr = seen[tname]
                entry = collisions.setdefault((name_ptr, other_ptr), (f.name, other, tname, []))
                entry[3].append(target)
            else:
                seen.setdefault(tname, (f.name, name_ptr))
    for (name_ptr, other_ptr), (name, other, tname, targets) in collisions.items():
        who = ", ".join(DISPLAY_NAMES.get(t, t) for t in targets)
        raws.append(
            Raw(
                NAME_COLLISION_AFTER_SANITISING,
                f"{name!r} and {other!r} both become {tname!r} for {who}",
                name_ptr,
                target=targets[0],
                data={"targets": targets, "sanitised": tname},
                related=((other_ptr, f"{other!r} also becomes {tname!r}"),),
            )
        )
    # Request-level budgets: the tools of one file are sent together.
    if "anthropic" in config.targets:
        strict_tools = optional = unions = 0
        for obj, f in facts:
            if not f.anthropic_strict:
                continue
            strict_tools += 1
            params_ptr = dict(getattr(obj, "field_pointers", {})).get(
                "parameters", obj.pointer + "/parameters"
            )
            if strict_tools == _ANTHROPIC_STRICT_TOOLS + 1:
                raws.append(
                    Raw(
                        ANTHROPIC_STRICT_TOOLS,
                        f"Anthropic strict: more than {_ANTHROPIC_STRICT_TOOLS} strict tools in one request",
                        obj.pointer,
                        "value",
                        target="anthropic",
                    )
                )
            before_o, before_u = optional, unions
            optional += f.optional_params
            unions += f.union_params
            if before_o <= _ANTHROPIC_OPTIONAL < optional:
                raws.append(
                    Raw(
                        ANTHROPIC_STRICT_OPTIONAL,
                        f"Anthropic strict: {optional} optional parameters so far across strict "
                        f"tools (at most {_ANTHROPIC_OPTIONAL} per request)",
                        params_ptr,
                        "key",
                        target="anthropic",
                    )
                )
            if before_u <= _ANTHROPIC_UNIONS < unions:
                raws.append(
                    Raw(
                        ANTHROPIC_STRICT_UNIONS,
                        f"Anthropic strict: {unions} union-typed parameters so far across strict "
                        f"tools (at most {_ANTHROPIC_UNIONS} per request)",
                        params_ptr,
                        "key",
                        target="anthropic",
                    )
                )
    from .target_rules import MAX_FUNCTIONS

    for target, limit in MAX_FUNCTIONS.items():
        if target in config.targets and len(facts) > limit:
            obj = facts[limit][0]
            raws.append(
                Raw(
                    GEMINI_FUNCTION_COUNT,
                    f"{DISPLAY_NAMES.get(target, target)}: {len(facts)} function declarations "
                    f"(at most {limit} per request)",
                    obj.pointer,
                    "value",
                    target=target,
                )
            )
            break
    raws.extend(document_raws([obj.pointer for obj, _ in facts], config))
    return raws


def _finish(
    text: str,
    view: DocView | None,
    raws: Sequence[Raw],
    config: CheckConfig,
    value: Any = None,
    tools: Mapping[str, tuple[int, str | None]] | None = None,
    renderer: Renderer | None = None,
) -> list[Finding]:
    """Place, attribute (to the nearest enclosing tool), render fixes, configure."""
    if renderer is None and view is not None:
        renderer = Renderer(text, view.span, value)
    tools = tools or {}
    out: list[Finding] = []
    for raw in raws:
        rule = RULES[raw.code]
        if not config.is_enabled(raw.code):
            continue
        if view is None:
            pointer, span = raw.pointer, (0, min(1, len(text)))
        elif raw.code == DUPLICATE_KEY and "span" in raw.data:
            pointer, span = raw.pointer, raw.data["span"]
        else:
            pointer, span = view.place(raw.pointer, raw.place)
        fixes: list[Fix] = []
        if renderer is not None:
            for spec in raw.fixes:
                fx = renderer.fix(spec)
                if fx is not None:
                    fixes.append(fx)
        related = tuple(Related(None, p, m, view.span(p, "value") if view else None) for p, m in raw.related)
        index = name = None
        if raw.tool is not None:
            index, name = raw.tool
        elif raw.code not in (NOT_A_TOOL_FILE, DOCUMENT_TOO_LARGE) and tools:
            parts = jp.parts(raw.pointer)
            while True:  # nearest enclosing tool: O(depth), not O(tools)
                hit = tools.get(jp.from_parts(parts))
                if hit is not None:
                    index, name = hit
                    break
                if not parts:
                    break
                parts.pop()
        data = dict(raw.data)
        data.setdefault("rule", rule.name)
        finding = Finding(
            raw.code,
            Severity(raw.data["severity"]) if "severity" in raw.data else rule.severity,
            raw.message,
            raw.pointer if raw.place == "missing" else pointer,
            span,
            raw.target,
            index,
            name,
            fixes[0] if fixes else None,
            tuple(fixes[1:]),
            related,
            data,
        )
        configured = _configure(finding, config)
        if configured is not None:
            out.append(configured)
    return out


def _configure(f: Finding, config: CheckConfig) -> Finding | None:
    if not config.is_enabled(f.code):
        return None
    sev = config.severity_of(f.code, f.severity)
    if sev is None:
        return None
    if sev != f.severity:
        return replace(f, severity=Severity(sev))
    return f


def _sorted(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.span[0], f.span[1], f.code, f.target or ""))


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


__all__ = ["MAX_DEPTH", "DocView", "config_findings", "run_document"]
