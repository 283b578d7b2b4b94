"""What toolcast said about one public report, judged by place and severity, never by wording.

A case (``cases.json``) expects a finding at ``expect.pointer`` (a JSON pointer into the tool file the case
writes). A finding *names the problem* when it is

* at the expected pointer or below it (a more precise place; not for a case with ``expect.below`` false, such
  as a count whose place is the first tool over the limit), or
* above it (an ancestor), but no higher than ``expect.up_to`` (the highest node that still names the problem:
  usually the keyword, sometimes the schema node that holds it);

and, when the case says so, has a code of the ``expect.family`` prefix (``TC9``: the consumers' and budgets'
family) and concerns one of ``expect.finding_target`` (``[null]``: a host's own rule, not a provider's).
Otherwise a finding must concern one of the case's targets or none.

* **solved**: an error there, or (for a case about converting) a loss there or a refusal;
* **warned only**: only a warning, info or hint there;
* **missed**: nothing there, or toolcast refused the case's selection (an unknown host or model: exit 2 on the
  command line, an error in the configuration file through the library).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

SOLVED, WARNED, MISSED = "solved", "warned only", "missed"
VERDICTS = (SOLVED, WARNED, MISSED)


@dataclass(frozen=True)
class Seen:
    """One finding, reduced to what the classifier reads."""

    pointer: str
    severity: str  # error, warning, info, hint
    code: str
    target: str | None


@dataclass(frozen=True)
class Outcome:
    """Everything toolcast said about one case, from the library or the command line."""

    findings: tuple[Seen, ...] = ()
    selection_refused: str = ""  # why toolcast would not judge with the case's hosts or models
    converted: bool = False  # convert ran (the case is about converting)
    loss_pointers: tuple[str, ...] = ()  # each loss's place in the tool file, keyword included
    refused: str = ""  # convert refused the tool (nothing written)


@dataclass(frozen=True)
class Verdict:
    verdict: str
    why: str


def _parts(pointer: str) -> tuple[str, ...]:
    return tuple(pointer.split("/")[1:]) if pointer else ()


def _under(pointer: str, top: str) -> bool:
    """``pointer`` is ``top`` or inside it."""
    p, t = _parts(pointer), _parts(top)
    return p[: len(t)] == t


def names_place(pointer: str, expect: dict[str, Any]) -> bool:
    """The finding's place names the expected one: at it, below it, or above it up to ``up_to``."""
    expected, up_to = expect["pointer"], expect.get("up_to", expect["pointer"])
    if _under(expected, pointer):  # at it or above it
        return _under(pointer, up_to)
    return expect.get("below", True) and _under(pointer, expected)


def _relevant(seen: Seen, expect: dict[str, Any], targets: Sequence[str]) -> bool:
    family = expect.get("family")
    if family and not seen.code.startswith(family):
        return False
    allowed = expect.get("finding_target", [*targets, None])
    return seen.target in allowed and names_place(seen.pointer, expect)


def loss_pointer(document_pointer: str, keyword: str | None) -> str:
    """A loss's place with its keyword: the converter reports some losses at the schema node that holds it."""
    if keyword and not document_pointer.endswith("/" + keyword.replace("~", "~0").replace("/", "~1")):
        return f"{document_pointer}/{keyword}"
    return document_pointer


def classify(case: dict[str, Any], outcome: Outcome) -> Verdict:
    if outcome.selection_refused:
        return Verdict(MISSED, f"selection refused: {outcome.selection_refused}")
    expect, targets = case["expect"], case["flags"].get("target", [])
    there = [s for s in outcome.findings if _relevant(s, expect, targets)]
    errors = [s for s in there if s.severity == "error"]
    if errors:
        return Verdict(SOLVED, "error " + ", ".join(sorted({f"{s.code}@{s.pointer}" for s in errors})))
    if outcome.converted:
        if outcome.refused:
            return Verdict(SOLVED, f"convert refused: {outcome.refused}")
        losses = [p for p in outcome.loss_pointers if names_place(p, expect)]
        if losses:
            return Verdict(SOLVED, "convert loss " + ", ".join(sorted(set(losses))))
    if there:
        return Verdict(WARNED, ", ".join(sorted({f"{s.severity} {s.code}@{s.pointer}" for s in there})))
    return Verdict(MISSED, "nothing at " + (expect["pointer"] or "the file"))


def counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    out = dict.fromkeys(VERDICTS, 0)
    for v in verdicts:
        out[v.verdict] += 1
    return out
