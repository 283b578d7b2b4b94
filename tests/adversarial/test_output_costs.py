"""`toolcast check` output that grew with the square of the input: a tool name shared by many files (each
finding listed every other file), and tool files on one line (each finding printed the whole line and
looked for its end from the line's start). Each probe runs well within its limit once both are linear; the
output's size is bounded per finding."""

from __future__ import annotations

import json
from pathlib import Path

from adversarial.bounded import toolcast
from adversarial.costly import duplicate_keys_line, minified_tools, same_name_files

#: Places a finding names at most (the message and its related entries).
LISTED = 5


def test_a_name_shared_by_many_files_names_a_bounded_number_of_them(tmp_path: Path) -> None:
    files = 1500
    same_name_files(tmp_path / "tools", files)
    out = toolcast("check", "--format", "json", "tools", cwd=tmp_path, timeout=60)
    assert not out.timed_out, f"{out.seconds:.1f} s, {out.peak_rss_mb:.0f} MB"
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    records = [r for r in json.loads(out.stdout) if r["code"] == "TC202"]
    assert len(records) == files
    first = records[0]
    others = [f"tools/t{i:06d}.tool.json" for i in range(1, LISTED + 1)]
    assert first["path"] == "tools/t000000.tool.json"
    assert first["message"] == (f"tool name 'search' is also defined in {', '.join(others)} "
                                f"and {files - 1 - LISTED:,} more")
    assert [r["path"] for r in first["related"]] == others
    assert all(len(r["related"]) == LISTED and "more" in r["message"] for r in records)
    assert len(out.stdout) < files * 3000  # bounded per file, not per pair of files


def test_human_output_of_minified_tools_is_linear(tmp_path: Path) -> None:
    tools = 3000
    path = minified_tools(tmp_path / "min.tools.json", tools)
    out = toolcast("check", path.name, cwd=tmp_path, timeout=60)
    assert not out.timed_out, f"{out.seconds:.1f} s, {out.peak_rss_mb:.0f} MB"
    assert out.returncode == 1, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    excerpts = [line for line in lines if line.startswith("    ") and not line.startswith("    fix available")]
    findings = [line for line in lines if line.startswith("min.tools.json:1:")]
    assert len(findings) >= tools and len(excerpts) == 2 * len(findings)
    assert max(map(len, excerpts)) <= 4 + 2 + 100  # the indent, an ellipsis at each end, the clipped line
    assert len(out.stdout) < len(findings) * 600


def test_human_output_of_repeated_keys_on_one_line_is_linear(tmp_path: Path) -> None:
    keys = 12_000
    path = duplicate_keys_line(tmp_path / "dup.tool.json", keys)
    out = toolcast("check", path.name, cwd=tmp_path, timeout=60)
    assert not out.timed_out, f"{out.seconds:.1f} s, {out.peak_rss_mb:.0f} MB"
    lines = out.stdout.splitlines()
    findings = [n for n, line in enumerate(lines) if " TC002 " in line]
    assert len(findings) == keys - 1
    # A repetition in the middle: its excerpt is clipped around it and the caret stands under its key.
    at = findings[len(findings) // 2]
    column = int(lines[at].split(":")[2])
    excerpt, caret = lines[at + 1][4:], lines[at + 2][4:]
    assert len(excerpt) <= 102 and excerpt.startswith("…") and excerpt.endswith("…")
    start = len(caret) - len(caret.lstrip(" "))
    assert caret.strip() == "^^^" and excerpt[start:start + 3] == '"x"'
    text = path.read_text(encoding="utf-8")
    assert text[column - 1:column + 2] == '"x"'
    assert len(out.stdout) < keys * 600
