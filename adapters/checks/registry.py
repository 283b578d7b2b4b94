"""The rule registry: the single source of every check code, its name, default severity, summary and
documentation. ``toolcast explain``, ``docs/rules.md``, SARIF rule metadata and the language server's
code descriptions all read from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .findings import Severity

#: Where the generated rules reference lives; ``rule_url`` appends the code's anchor.
RULES_DOC_URL = "https://github.com/toolcast/toolcast/blob/main/docs/rules.md"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    doc: str
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


_RULES: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    if rule.code in _RULES:
        raise ValueError(f"duplicate rule code {rule.code}")
    _RULES[rule.code] = rule
    return rule


#: code -> Rule, in code order once every family module is imported (see ``rules/__init__``).
RULES: Mapping[str, Rule] = MappingProxyType(_RULES)


def rule_url(code: str) -> str:
    """The rule's section of the generated reference (GitHub anchors are the lower-cased heading)."""
    return f"{RULES_DOC_URL}#{code.lower()}"
