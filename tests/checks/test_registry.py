"""The rule registry is the single source of codes, names, severities and documentation."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from toolcast.adapters.checks import RULES, Severity, rule_url
from toolcast.adapters.rules.docs import render

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


def test_rule_url_points_at_the_installed_reference() -> None:
    """A file: URI of this checkout's docs/rules.md (the editable install), at the rule's own heading."""
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    root = Path(__file__).resolve().parents[2]
    for code in RULES:
        url = rule_url(code)
        assert url is not None
        parts = urlsplit(url)
        assert parts.scheme == "file" and parts.fragment == code.lower()
        doc = Path(url2pathname(parts.path))
        assert doc == root / "docs" / "rules.md"
        assert f"\n### {code}\n" in doc.read_text(encoding="utf-8")


def test_committed_rules_reference_matches_the_registry() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/rules.md drifted: python -m toolcast.adapters.rules.docs > docs/rules.md"
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


def test_rule_registers_its_documentation_and_returns_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rules._rule`` itself, called with a registry of its own (importing ``rules`` ran it for every real
    rule before any test, so a test must call it to see it work): the doc is the reason, then the bad and
    the fixed example as JSON blocks, each stripped; ``fix`` and ``opt_in`` default to False."""
    from toolcast.adapters.rules import codes as rules
    from toolcast.adapters.rules import registry
    from toolcast.adapters.rules.registry import Rule

    monkeypatch.setattr(registry, "_RULES", {})
    doc = 'Why.\n\nBad:\n\n```json\n{"a": 1}\n```\n\nFixed:\n\n```json\n{"a": 2}\n```\n'
    assert rules._rule("TC990", "plain-rule", Severity.WARNING, "Sum.", "  Why.\n", ' {"a": 1} ',
                       '\n{"a": 2}\n') == "TC990"
    assert rules._rule("TC991", "fixable-rule", Severity.INFO, "Fix.", "Why.", '{"a": 1}', '{"a": 2}', fix=True,
                       opt_in=True) == "TC991"
    assert rules._rule("TC992", "opt-in-rule", Severity.ERROR, "Opt.", "Why.", '{"a": 1}', '{"a": 2}',
                       opt_in=True) == "TC992"
    # `selected`: the severity a rule quiet by default takes when `select` names its code.
    assert rules._rule("TC993", "selected-rule", Severity.INFO, "Sel.", "Why.", '{"a": 1}', '{"a": 2}',
                       selected=Severity.ERROR) == "TC993"
    registered = dict(registry._RULES)
    assert registered == {
        "TC990": Rule("TC990", "plain-rule", Severity.WARNING, "Sum.", doc, False, False),
        "TC991": Rule("TC991", "fixable-rule", Severity.INFO, "Fix.", doc, True, True),
        "TC992": Rule("TC992", "opt-in-rule", Severity.ERROR, "Opt.", doc, False, True),
        "TC993": Rule("TC993", "selected-rule", Severity.INFO, "Sel.", doc, False, False, Severity.ERROR),
    }
    assert registered["TC990"].selected is None
    with pytest.raises(ValueError, match="duplicate rule code TC990"):
        rules._rule("TC990", "again", Severity.WARNING, "S.", "W.", "{}", "{}")


def test_registered_rules_keep_their_flags() -> None:
    """A few rules' flags as docs/rules.md lists them (fix available, opt-in)."""
    assert (RULES["TC401"].fix_available, RULES["TC401"].opt_in) == (True, False)
    assert (RULES["TC501"].fix_available, RULES["TC501"].opt_in) == (True, True)
    assert (RULES["TC502"].fix_available, RULES["TC502"].opt_in) == (False, False)
    assert RULES["TC001"].doc.startswith("The parser recovers what it can")
    assert RULES["TC001"].doc.endswith('```json\n{"name": "get_weather", "description": "Current weather."}\n```\n')
