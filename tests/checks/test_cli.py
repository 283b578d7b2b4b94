"""``toolcast check`` end to end in a subprocess: formats, exit codes, folders, cross-file names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolcast.adapters.checks import RULES

GOOD = {
    "name": "get_weather",
    "description": "Current weather.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City"}},
        "required": ["city"],
        "additionalProperties": False,
    },
}


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "toolcast"
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [str(exe), "check", *args], cwd=cwd, capture_output=True, text=True, timeout=120, env=env
    )


def _write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) if not isinstance(value, str) else value, encoding="utf-8")


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    (tmp_path / "toolcast.toml").write_text('targets = ["openai", "anthropic"]\n', encoding="utf-8")
    _write(tmp_path / "ok.tool.json", GOOD)
    # A name and a root toolcast repairs (warnings), and a `required` no provider accepts (an error)
    _write(tmp_path / "bad.tool.json", {**GOOD, "name": "get weather", "parameters": {"type": "object",
                                                                                      "required": "city"}})
    return tmp_path


def test_clean_file_exits_0(ws: Path) -> None:
    done = _run(ws, "ok.tool.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "1 file(s) checked: 0 error(s), 0 other finding(s)"


def test_human_output_shows_line_and_caret(ws: Path) -> None:
    done = _run(ws, "bad.tool.json")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    i = lines.index(
        "bad.tool.json:2:11: TC203 name 'get weather' should use only letters, digits, `_` and `-` "
        "[get weather]"
    )
    assert lines[i + 1] == '      "name": "get weather",'
    assert lines[i + 2] == "              ^^^^^^^^^^^^^"
    assert any(line.startswith("bad.tool.json:4:3: TC108 ") for line in lines)


def test_json_format(ws: Path) -> None:
    done = _run(ws, "--format", "json", "bad.tool.json", "ok.tool.json")
    assert done.returncode == 1
    records = json.loads(done.stdout)
    assert {r["code"] for r in records} >= {"TC108", "TC203", "TC204"}
    r = next(r for r in records if r["code"] == "TC203")
    assert (r["path"], r["line"], r["column"], r["end_line"], r["end_column"]) == (
        "bad.tool.json",
        2,
        11,
        2,
        24,
    )
    assert r["severity"] == "warning" and r["pointer"] == "/name" and r["target"] is None
    assert r["fix"]["edits"][0]["new_text"] == '"get_weather"'
    t = next(r for r in records if r["code"] == "TC204")
    assert t["target"] == "openai"
    for rec in records:
        assert set(rec) >= {
            "path",
            "line",
            "column",
            "end_line",
            "end_column",
            "code",
            "severity",
            "message",
            "pointer",
            "target",
            "fix",
        }


def test_sarif_format_is_structurally_valid(ws: Path) -> None:
    done = _run(ws, "--format", "sarif", "bad.tool.json")
    assert done.returncode == 1
    sarif = json.loads(done.stdout)
    assert sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(RULES)
    # No helpUri: SARIF wants an absolute URI and toolcast has no site; the rule's whole text is in `help`.
    assert all("helpUri" not in r and r["help"]["markdown"] == RULES[r["id"]].doc for r in rules)
    assert "informationUri" not in run["tool"]["driver"]
    assert run["results"]
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in ("error", "warning", "note")
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])
        assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad.tool.json"


def test_github_format(ws: Path) -> None:
    done = _run(ws, "--format", "github", "bad.tool.json")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert (
        "::warning file=bad.tool.json,line=2,col=11,endLine=2,endColumn=24,title=TC203::TC203 name "
        "'get weather' should use only letters, digits, `_` and `-`" in lines
    )
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)


def test_target_select_and_ignore(ws: Path) -> None:
    only_anthropic = json.loads(_run(ws, "--format", "json", "--target", "anthropic", "bad.tool.json").stdout)
    assert {r["target"] for r in only_anthropic if r["code"] == "TC204"} == {"anthropic"}
    selected = json.loads(_run(ws, "--format", "json", "--select", "TC203", "bad.tool.json").stdout)
    assert {r["code"] for r in selected} == {"TC203"}
    ignored = _run(ws, "--format", "json", "--ignore", "TC1,TC2", "bad.tool.json")
    assert not {r["code"][:3] for r in json.loads(ignored.stdout)} & {"TC1", "TC2"}


def test_usage_errors_and_unreadable_input_exit_2(ws: Path) -> None:
    missing = _run(ws, "missing.tool.json")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    bad_target = _run(ws, "--target", "nope", "ok.tool.json")
    assert bad_target.returncode == 2
    bad_code = _run(ws, "--select", "XX1", "ok.tool.json")
    assert bad_code.returncode == 2 and "not a rule code" in bad_code.stderr
    (ws / "binary.tool.json").write_bytes(b"\xff\xfe\x00garbage")
    unreadable = _run(ws, "binary.tool.json")
    assert unreadable.returncode == 2 and "not UTF-8" in unreadable.stderr
    for done in (missing, bad_target, bad_code, unreadable):
        assert "Traceback" not in done.stderr


def test_folder_uses_globs_and_content_and_finds_cross_file_duplicates(tmp_path: Path) -> None:
    _write(tmp_path / "a.tool.json", GOOD)
    _write(tmp_path / "tools" / "b.json", GOOD)  # glob tools/*.json
    _write(tmp_path / "nested" / "c.json", {"tools": [{**GOOD, "name": "other"}]})  # content is a tool file
    _write(tmp_path / "package.json", {"name": "x", "version": "1.0.0"})  # not a tool file: skipped
    _write(tmp_path / "node_modules" / "d.tool.json", GOOD)  # skipped folder
    done = _run(tmp_path, "--format", "json", ".")
    records = json.loads(done.stdout)
    dup = sorted((r["path"], r["code"]) for r in records if r["code"] == "TC202")
    assert dup == [("a.tool.json", "TC202"), ("tools/b.json", "TC202")]
    assert all(r["related"] for r in records if r["code"] == "TC202")
    assert not any("package.json" in r["path"] or "node_modules" in r["path"] for r in records)
    human = _run(tmp_path, ".")
    assert "3 file(s) checked; 1 other JSON file(s) skipped" in human.stdout + human.stderr  # package.json
    assert done.returncode == 1


def test_jsonc_files_may_hold_comments_and_trailing_commas(tmp_path: Path) -> None:
    """`.jsonc` is accepted as JSONC (what `toolcast explain TC001` and `check --help` say); `.json` is not."""
    text = '{\n  // the weather tool\n  "name": "get_weather", /* c */\n  "description": "Weather.",\n' \
           '  "parameters": {"type": "object", "properties": {"city": {"type": "string"}},\n' \
           '                 "required": ["city"], "additionalProperties": false,},\n}\n'
    (tmp_path / "w.tool.jsonc").write_text(text, encoding="utf-8")
    (tmp_path / "w2.tools.json").write_text(text.replace("get_weather", "other"), encoding="utf-8")
    records = json.loads(_run(tmp_path, "--format", "json", ".").stdout)
    assert not [r for r in records if r["path"] == "w.tool.jsonc" and r["code"] == "TC001"], records
    assert [r for r in records if r["path"] == "w2.tools.json" and r["code"] == "TC001"]


def test_an_export_is_not_a_second_definition(tmp_path: Path) -> None:
    """`<stem>.<target>.json` is what the editor's export writes: its tools are copies of the source's,
    so no TC202 in either file, while the export is still checked as that provider's file."""
    _write(tmp_path / "forecast.tool.json", GOOD)
    exe = str(Path(sys.executable).parent / "toolcast")
    for name, target in (("forecast.anthropic.json", "anthropic"), ("other.openai-responses.json", "openai-responses")):
        exported = subprocess.run([exe, "convert", "forecast.tool.json", "--to", target], cwd=tmp_path,
                                  capture_output=True, text=True, timeout=120)
        assert exported.returncode == 0, exported.stderr
        (tmp_path / name).write_text(exported.stdout, encoding="utf-8")
    done = _run(tmp_path, "--format", "json", ".")
    records = json.loads(done.stdout)
    assert not [r for r in records if r["code"] == "TC202"], records
    summary = _run(tmp_path, ".")  # the summary goes to stderr after findings, to stdout when there are none
    assert "3 file(s) checked" in summary.stdout + summary.stderr
    # A second source with the same name is still a duplicate, and names the source, not the export.
    _write(tmp_path / "again.tool.json", GOOD)
    dup = sorted(r["path"] for r in json.loads(_run(tmp_path, "--format", "json", ".").stdout) if r["code"] == "TC202")
    assert dup == ["again.tool.json", "forecast.tool.json"]


def test_configuration_problems_are_reported(tmp_path: Path) -> None:
    # `target` is a typo of `targets`: reported, and the default (every target) applies meanwhile.
    (tmp_path / "pyproject.toml").write_text('[tool.toolcast]\ntarget = ["openai"]\n', encoding="utf-8")
    _write(tmp_path / "ok.tool.json", GOOD)
    done = _run(tmp_path, "--format", "json", "ok.tool.json")
    records = json.loads(done.stdout)
    assert [r["code"] for r in records if not r["code"].startswith("TC5")] == ["TC701"]
    assert records[0]["path"].endswith("pyproject.toml")
    assert done.returncode == 1


def test_no_progress_bar_when_piped(tmp_path: Path) -> None:
    for i in range(30):
        _write(tmp_path / f"t{i}.tool.json", {**GOOD, "name": f"t{i}"})
    done = _run(tmp_path, ".")
    assert done.returncode == 0
    assert "\r" not in done.stderr and "[#" not in done.stderr
