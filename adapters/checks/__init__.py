"""Checks: every problem in a tool file, with a stable code and an exact position.

The rule registry is filled at import (``adapters/rules``); the rest is imported on first use (PEP 562), so
that the language server answers ``initialize`` before it has loaded the checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import rules as _rules  # noqa: F401  (registers every rule in RULES)
from ..lazy import exports

if TYPE_CHECKING:
    from ..rules.findings import Finding, Fix, Related, Severity, TextEdit
    from ..rules.registry import RULES, Rule, rule_url
    from .analyzer import Analyzer
    from .api import check_document, check_names_across, summarize_document
    from .config import DEFAULT_GLOBS, CheckConfig, ConfigProblem, config_from_mapping, load_config
    from .report import DocumentReport, FindingBlock, ToolSummary

_WHERE = {
    "Analyzer": "analyzer",
    "DocumentReport": "report", "FindingBlock": "report", "ToolSummary": "report", "check_document": "api",
    "check_names_across": "api", "summarize_document": "api",
    "DEFAULT_GLOBS": "config", "CheckConfig": "config", "ConfigProblem": "config", "config_from_mapping": "config",
    "load_config": "config",
    "Finding": "..rules.findings", "Fix": "..rules.findings", "Related": "..rules.findings",
    "Severity": "..rules.findings", "TextEdit": "..rules.findings",
    "RULES": "..rules.registry", "Rule": "..rules.registry", "rule_url": "..rules.registry",
}

__all__ = [
    "DEFAULT_GLOBS",
    "RULES",
    "Analyzer",
    "CheckConfig",
    "ConfigProblem",
    "DocumentReport",
    "Finding",
    "FindingBlock",
    "Fix",
    "Related",
    "Rule",
    "Severity",
    "TextEdit",
    "ToolSummary",
    "check_document",
    "check_names_across",
    "config_from_mapping",
    "load_config",
    "rule_url",
    "summarize_document",
]


__getattr__, __dir__ = exports(__name__, _WHERE, globals(), __all__)
