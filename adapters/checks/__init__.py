"""Checks: every problem in a tool file, with a stable code and an exact position."""

from . import rules as _rules  # noqa: F401  (registers every rule in RULES)
from .analyzer import Analyzer
from .api import DocumentReport, FindingBlock, ToolSummary, check_document, check_names_across, summarize_document
from .config import DEFAULT_GLOBS, CheckConfig, ConfigProblem, config_from_mapping, load_config
from .findings import Finding, Fix, Related, Severity, TextEdit
from .registry import RULES, Rule, rule_url

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
