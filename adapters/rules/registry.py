"""The rule registry: the single source of every check code, its name, default severity, summary and
documentation. ``toolcast explain``, ``docs/rules.md``, SARIF rule metadata and the language server's
code descriptions all read from here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from .findings import Severity

#: A rule's text, or the function that writes it when it is read: a text that quotes a provider profile (or
#: another module too costly to load with the rules) reads it only when shown, so answering ``initialize``
#: reads no profile.
Text = str | Callable[[], str]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary_text: Text
    doc_text: Text
    fix_available: bool = False
    #: Off unless ``select`` or ``severity`` names it (by code or prefix): rules whose findings are
    #: informative but would bury the real ones in an editor when every tool has several.
    opt_in: bool = False
    #: The severity when ``select`` names this code itself: a rule quiet by default (information) that a
    #: user who asks for it wants to see as loudly as the rest of the family.
    selected: Severity | None = None

    @property
    def family(self) -> str:
        return self.code[:3] + "xx"

    @property
    def summary(self) -> str:
        return self.summary_text if isinstance(self.summary_text, str) else self.summary_text()

    @property
    def doc(self) -> str:
        return self.doc_text if isinstance(self.doc_text, str) else self.doc_text()


_RULES: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    if rule.code in _RULES:
        raise ValueError(f"duplicate rule code {rule.code}")
    _RULES[rule.code] = rule
    return rule


#: code -> Rule, in code order once every family module is imported (see ``rules/__init__``).
RULES: Mapping[str, Rule] = MappingProxyType(_RULES)


def _rules_doc() -> Path | None:
    path = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    return path if path.is_file() else None


#: The generated reference this installation holds: the wheel ships ``docs/rules.md`` as
#: ``toolcast/docs/rules.md`` (pyproject's package data), a checkout has it at ``docs/rules.md``; both
#: are two folders above this module's package. None when neither is there (links are then left out).
RULES_DOC: Path | None = _rules_doc()
_RULES_DOC_URI = RULES_DOC.as_uri() if RULES_DOC is not None else None


def rule_url(code: str) -> str | None:
    """A ``file:`` URI of the rule's section in the installed reference (the anchor is the lower-cased
    heading, as Markdown renderers make it), or None without one: toolcast has no web site, and a link
    must open offline on the machine that shows it."""
    return f"{_RULES_DOC_URI}#{code.lower()}" if _RULES_DOC_URI is not None else None
