r"""Whether a regular-expression engine accepts a ``pattern``, found by compiling it with that engine.

JSON Schema says a ``pattern`` is an ECMA-262 regular expression, but the program that reads a tool's schema
compiles it with its own engine, and a pattern one engine takes another refuses: ``\p{L}`` is ECMAScript's and
not Python's, ``(?<name>…)`` is Python's ``(?P<name>…)``, a lookahead is neither RE2's nor OpenAI strict mode's.
Which engine a provider, host or API uses is data (the profiles' ``pattern_dialect`` rules, with sources); this
module only compiles:

- ``python-re``: Python's ``re``, what ``jsonschema``'s ``regex`` format check uses.
- ``python-re-no-lookaround``: ``re``, and no lookahead or lookbehind in the parsed pattern (OpenAI strict mode's
  "regex lookaround is not supported"); the check reads ``re``'s own parse of the pattern.
- ``ecmascript``, ``ecmascript-u``: ``new RegExp(pattern, flags)`` without a flag or with ``u`` (Ajv's default,
  ``unicodeRegExp``), compiled by ``regress``, a Rust implementation of ECMAScript's syntax, which accepts and
  refuses as V8 does on every pattern of bench/bench_dialects.py (its ``v`` mode does not: 17 of 84 part, so
  ``v`` is not offered).
- ``re2``: Google's RE2 (``google-re2``), the linear-time engine Go's ``regexp`` and many gateways follow.
- ``rust-regex``: Rust's ``regex`` crate (``paula``), RE2's syntax with nested classes (a ``[`` inside a class
  opens one), what Rust JSON Schema validators compile with.
- ``anchored``: llama.cpp's own test before it turns a pattern into a grammar: it starts with ``^`` and ends with
  ``$``.

``regress`` and ``paula`` are the optional extra ``toolcast[dialects]`` (``google-re2``, whose wheels miss some
platforms, is installed by hand): without one, its engines answer `Unavailable`, never a guess. A pattern longer
than ``patterns.MAX_PATTERN`` is not compiled (compiling is not under a time limit): `Unavailable` too."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from re import _constants as c  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from types import MappingProxyType
from typing import Any

from .patterns import MAX_PATTERN

#: The extra that brings the engines toolcast does not always install.
EXTRA = "toolcast[dialects]"


@dataclass(frozen=True, slots=True)
class Refused:
    """The engine does not compile the pattern: its own message."""

    error: str


@dataclass(frozen=True, slots=True)
class Unavailable:
    """The pattern was not compiled: why (an engine not installed, a pattern too long to compile)."""

    why: str


Verdict = Refused | Unavailable | None


class _TooDeep(Exception):
    """``re``'s parser ran out of stack: where that happens depends on the caller's own depth, so it is no verdict."""


def _python_re(pattern: str) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "possible nested set" and the like: still compiled
            re.compile(pattern)
    except re.error as exc:
        return str(exc)
    except RecursionError:
        raise _TooDeep from None
    except (OverflowError, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _walk_parsed(parsed: Any) -> bool:
    """Whether ``re``'s parse of a pattern holds a lookahead or lookbehind at any depth."""
    for op, arg in parsed:
        if op in (c.ASSERT, c.ASSERT_NOT):
            return True
        for item in arg if isinstance(arg, (tuple, list)) else ():
            if hasattr(item, "data") and _walk_parsed(item):
                return True
            if isinstance(item, (tuple, list)):
                for sub in item:
                    if hasattr(sub, "data") and _walk_parsed(sub):
                        return True
    return False


def _python_re_no_lookaround(pattern: str) -> str | None:
    error = _python_re(pattern)
    if error is not None:
        return error
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = _parser.parse(pattern)
    return "regex lookaround is not supported" if _walk_parsed(parsed) else None


def _ecmascript(flags: str) -> Callable[[str], str | None]:
    def compile_(pattern: str) -> str | None:
        import regress

        try:
            regress.Regex(pattern, flags)
        except regress.RegressError as exc:
            return str(exc)
        return None

    return compile_


def _re2(pattern: str) -> str | None:
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 writes every refusal to stderr otherwise
    try:
        re2.compile(pattern, options)
    except re2.error as exc:
        text = exc.args[0] if exc.args else exc
        return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return None


def _rust_regex(pattern: str) -> str | None:
    import paula

    try:
        paula.Regex(pattern)
    except ValueError as exc:
        # "regex parse error:\n    <pattern>\n    ^^^\nerror: <what>": the last line says what
        return str(exc).strip().splitlines()[-1].removeprefix("error: ")
    return None


def _anchored(pattern: str) -> str | None:
    if pattern.startswith("^") and pattern.endswith("$"):
        return None
    return "Pattern must start with '^' and end with '$'"


#: Each engine: how it compiles, what it is called in messages, and the module it needs (None: always there).
_ENGINES: Mapping[str, tuple[Callable[[str], str | None], str, str | None]] = MappingProxyType({
    "python-re": (_python_re, "Python's re", None),
    "python-re-no-lookaround": (_python_re_no_lookaround, "Python's re without lookaround", None),
    "ecmascript": (_ecmascript(""), "ECMAScript (no flag)", "regress"),
    "ecmascript-u": (_ecmascript("u"), "ECMAScript with the `u` flag", "regress"),
    "re2": (_re2, "RE2", "re2"),
    "rust-regex": (_rust_regex, "Rust's regex crate", "paula"),
    "anchored": (_anchored, "llama.cpp's anchor test", None),
})


def engine_label(engine: str) -> str:
    """The engine as messages name it."""
    return _ENGINES[engine][1]


def _installed(module: str) -> bool:
    return find_spec(module) is not None


def compiled(pattern: str, engine: str) -> Verdict:
    """None when ``engine`` compiles ``pattern``; `Refused` with the engine's message when it does not;
    `Unavailable` when it was not tried. An engine name this module does not know is a ``KeyError`` (the
    profiles' loader allows only ``ENGINES``)."""
    compile_, label, module = _ENGINES[engine]
    if len(pattern) > MAX_PATTERN:
        return Unavailable(f"the pattern is longer than {MAX_PATTERN:,} characters and is not compiled")
    if module is not None and not _installed(module):
        return Unavailable(f"{label} is not installed (pip install '{EXTRA}')")
    try:
        error = compile_(pattern)
    except (_TooDeep, RecursionError):
        return Unavailable(f"the pattern is nested too deeply for {label} to compile here")
    return None if error is None else Refused(error)


def first_refusal(pattern: str, rules: tuple[tuple[str, str], ...]) -> tuple[str, str, str] | None:
    """The first of ``rules`` ((rule id, engine) pairs) whose engine refuses ``pattern``, as (rule id, engine,
    the engine's message); None when every engine compiles it or was not tried."""
    for rule, engine in rules:
        verdict = compiled(pattern, engine)
        if isinstance(verdict, Refused):
            return rule, engine, verdict.error
    return None
