"""The rule registry is the single source of codes, names, severities and documentation."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from toolcast.adapters.checks import RULES, Severity, rule_url
from toolcast.adapters.checks.docs import render

ROOT = Path(__file__).resolve().parents[2]


def test_codes_names_and_docs_are_well_formed() -> None:
    names = set()
    for code, rule in RULES.items():
        assert rule.code == code
        assert re.fullmatch(r"TC\d{3}", code), code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name
        assert rule.name not in names
        names.add(rule.name)
        assert isinstance(rule.severity, Severity)
        assert rule.summary and "\n" not in rule.summary
        assert "Bad:" in rule.doc and "Fixed:" in rule.doc, code


def test_families_are_grouped_in_code_order() -> None:
    assert list(RULES) == sorted(RULES)
    for family in ("TC0", "TC1", "TC2", "TC3", "TC4", "TC5", "TC6", "TC7", "TC8"):
        assert any(code.startswith(family) for code in RULES), family


def test_rule_url_points_at_the_generated_reference() -> None:
    assert rule_url("TC101") == "https://github.com/toolcast/toolcast/blob/main/docs/rules.md#tc101"


def test_committed_rules_reference_matches_the_registry() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/rules.md drifted: python -m toolcast.adapters.checks.docs > docs/rules.md"
    )
    for code in RULES:
        assert f"### {code}" in committed


def _toolcast(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "toolcast"
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=120)


def test_explain_prints_the_rule_documentation() -> None:
    done = _toolcast("explain", "TC401")
    assert done.returncode == 0
    assert done.stdout.startswith("TC401 legacy-parameter-map (warning)")
    assert RULES["TC401"].doc.strip().splitlines()[0] in done.stdout
    assert "docs/rules.md#tc401" in done.stdout
    by_name = _toolcast("explain", "legacy-parameter-map")
    assert by_name.stdout == done.stdout


def test_explain_list_and_unknown_code() -> None:
    listing = _toolcast("explain", "--list")
    assert listing.returncode == 0
    assert len(listing.stdout.strip().splitlines()) == len(RULES)
    unknown = _toolcast("explain", "TC999")
    assert unknown.returncode == 2
    assert "unknown rule" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_pre_commit_hook_runs_toolcast_check() -> None:
    import re as _re

    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: toolcast-check" in text
    assert "entry: toolcast check" in text
    files = _re.search(r"files: '([^']+)'", text)
    assert files is not None
    pattern = _re.compile(files.group(1))
    for path in ("a.tool.json", "x/b.tools.jsonc", "tools/c.json", "pkg/tools/d.jsonc"):
        assert pattern.search(path), path
    for path in ("package.json", "tools/sub/e.json", "a.tool.json.bak"):
        assert not pattern.search(path), path
