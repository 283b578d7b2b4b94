"""Checks: every problem in a tool file, with a stable code and an exact position.

The rule registry is filled at import (``adapters/rules``); the rest is imported on first use (PEP 562), so
that the language server answers ``initialize`` before it has loaded the checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import rules as _rules  # noqa: F401  (registers every rule in RULES)
from ..lazy import exports

if TYPE_CHECKING:
    from ..rules.codes import PARAMETERS_MISSING
    from ..rules.findings import Finding, Fix, Related, Severity, TextEdit
    from ..rules.registry import RULES, Rule, rule_url
    from .analyzer import Analyzer
    from .config import (
        DEFAULT_GLOBS,
        CheckConfig,
        ConfigProblem,
        ConfigReadError,
        config_from_mapping,
        find_config_file,
        is_code_like,
        load_config,
    )
    from .document_report import DocumentReport, FindingBlock, ToolSummary
    from .engine import config_findings, too_large_report
    from .entry import check_document, check_names_across, summarize_document
    from .files import is_tool_file_name, tool_files_under, walk_files
    from .formats import Located, as_github, as_human, as_json, as_sarif, located_config, located_in, record
    from .judged import choices, sent_options
    from .loss_findings import changes_meaning, conversions, loss_place
    from .names import NameIndex
    from .positions import Positions
    from .request_checks import is_request
    from .servers import REQUEST_CODES, names_across_servers

_WHERE = {
    "Analyzer": "analyzer",
    "DocumentReport": "document_report", "FindingBlock": "document_report", "ToolSummary": "document_report",
    "check_document": "entry",
    "check_names_across": "entry", "summarize_document": "entry",
    "DEFAULT_GLOBS": "config", "CheckConfig": "config", "ConfigProblem": "config", "config_from_mapping": "config",
    "load_config": "config", "ConfigReadError": "config", "find_config_file": "config", "is_code_like": "config",
    "config_findings": "engine", "too_large_report": "engine",
    "is_tool_file_name": "files", "tool_files_under": "files", "walk_files": "files",
    "Located": "formats", "as_github": "formats", "as_human": "formats", "as_json": "formats",
    "as_sarif": "formats", "located_config": "formats", "located_in": "formats", "record": "formats",
    "choices": "judged", "sent_options": "judged",
    "changes_meaning": "loss_findings", "conversions": "loss_findings", "loss_place": "loss_findings",
    "NameIndex": "names",
    "Positions": "positions", "is_request": "request_checks",
    "REQUEST_CODES": "servers", "names_across_servers": "servers",
    "PARAMETERS_MISSING": "..rules.codes",
    "Finding": "..rules.findings", "Fix": "..rules.findings", "Related": "..rules.findings",
    "Severity": "..rules.findings", "TextEdit": "..rules.findings",
    "RULES": "..rules.registry", "Rule": "..rules.registry", "rule_url": "..rules.registry",
}

__all__ = [
    "DEFAULT_GLOBS",
    "PARAMETERS_MISSING",
    "REQUEST_CODES",
    "RULES",
    "Analyzer",
    "CheckConfig",
    "ConfigProblem",
    "ConfigReadError",
    "DocumentReport",
    "Finding",
    "FindingBlock",
    "Fix",
    "Located",
    "NameIndex",
    "Positions",
    "Related",
    "Rule",
    "Severity",
    "TextEdit",
    "ToolSummary",
    "as_github",
    "as_human",
    "as_json",
    "as_sarif",
    "changes_meaning",
    "check_document",
    "check_names_across",
    "choices",
    "config_findings",
    "config_from_mapping",
    "conversions",
    "find_config_file",
    "is_code_like",
    "is_request",
    "is_tool_file_name",
    "load_config",
    "located_config",
    "located_in",
    "loss_place",
    "names_across_servers",
    "record",
    "rule_url",
    "sent_options",
    "summarize_document",
    "too_large_report",
    "tool_files_under",
    "walk_files",
]


__getattr__, __dir__ = exports(__name__, _WHERE, globals(), __all__)
