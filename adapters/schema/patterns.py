r"""Regular expressions from users' schemas, matched against users' data under a time limit.

A ``pattern`` such as ``^(a|aa)+$`` backtracks exponentially on ``aaa…!``: matched with ``re`` it never ends,
and one such pattern in a tool file (or in the tools an agent maps a model's calls back with) would hang
toolcast. Every pattern that meets a value (``pattern``, ``patternProperties``, and through them
``propertyNames``, ``additionalProperties`` and ``unevaluatedProperties``) is matched here, with the
``regex`` engine, which takes Python's ``re`` syntax and meaning and stops a match after a time limit. A
match that runs out of time raises `PatternTooCostly`, and a caller bounds the total time of its matches
with `pattern_time`. A pattern is never judged costly once and for all: another value may match it at
once. ``regex`` answers as ``re`` does (bench/bench_regex.py) and also reads ``\p{…}``, which
ECMAScript patterns use and ``re`` refuses."""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator

import regex

#: The longest one match may run, in seconds of CPU time (what ``regex`` counts, so a loaded machine does not
#: make an ordinary pattern run out of time). An ordinary pattern answers in microseconds on a value a
#: person or a model writes; this is thousands of times that, and short enough for an editor.
MATCH_SECONDS = 0.05
#: Compiling is not under the time limit and grows with the pattern (a 700,000-character alternation takes
#: seconds and hundreds of MB): a longer pattern is not compiled, it is too costly.
MAX_PATTERN = 10_000
#: The CPU time all pattern matches of one tool may take together, in its check or in one call mapped back:
#: past it each further match is reported (TC309) without being run, so a tool of many hostile patterns, or a
#: call of ten thousand arguments each just under one match's limit, costs this much, not their number times
#: the limit of one match.
TOOL_SECONDS = 0.25

_budget: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar("toolcast_pattern_time", default=None)


class PatternTooCostly(Exception):
    """``pattern`` could not be matched against ``text`` within the time allowed; ``why`` says which limit
    stopped it, in words that follow "because"."""

    def __init__(self, pattern: str, text: str, key: bool, why: str) -> None:
        super().__init__(f"pattern {pattern!r} could not be checked in time: {why}")
        self.pattern = pattern
        self.text = text
        self.key = key  # True: ``text`` is an object's key (``patternProperties``, ``propertyNames``)
        self.why = why


_BACKTRACKS = f"it backtracks too much (more than {MATCH_SECONDS} s of matching)"
_TOO_LONG = f"it is longer than {MAX_PATTERN:,} characters"
_SPENT = "the time allowed for all the patterns checked with it ran out"


@contextlib.contextmanager
def pattern_time(seconds: float) -> Iterator[None]:
    """Within this block, patterns may take ``seconds`` of CPU time in all, compiling and matching; past that
    every further one is too costly at once. The block owns its own allowance (a nested one replaces it for its
    duration)."""
    token = _budget.set([seconds])
    try:
        yield
    finally:
        _budget.reset(token)


def search(pattern: str, text: str, *, key: bool = False) -> bool:
    """Whether ``pattern`` matches somewhere in ``text`` (``re.search``'s answer), or `PatternTooCostly`.
    A pattern that is not a regular expression raises ``regex.error``."""
    if len(pattern) > MAX_PATTERN:
        raise PatternTooCostly(pattern, text, key, _TOO_LONG)
    allowance = _budget.get()
    limit = MATCH_SECONDS if allowance is None else min(MATCH_SECONDS, allowance[0])
    if limit <= 0:
        raise PatternTooCostly(pattern, text, key, _SPENT)
    start = time.process_time()
    try:
        return regex.compile(pattern).search(text, timeout=limit) is not None  # regex keeps 500 compiled
    except TimeoutError:
        raise PatternTooCostly(pattern, text, key, _BACKTRACKS if limit >= MATCH_SECONDS else _SPENT) from None
    finally:
        if allowance is not None:
            allowance[0] -= time.process_time() - start
