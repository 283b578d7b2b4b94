"""`toolcast convert` as a user runs it: a real subprocess, stdout, stderr, exit codes, files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def run(*args: str, cwd: Path | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          cwd=cwd, input=stdin, timeout=60)


def test_converts_and_reports_each_loss_with_its_position(tmp_path: Path) -> None:
    src = tmp_path / "t.tool.json"
    src.write_text('{\n  "name": "t",\n  "title": "T",\n  "parameters": {"type": "object", "properties": {\n'
                   '    "k": {"const": 1}\n  }}\n}\n', encoding="utf-8")
    done = run("convert", str(src), "--to", "gemini")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["name"] == "t" and out["parameters"]["type"] == "OBJECT"
    lines = done.stderr.splitlines()
    assert f"{src}:5:11: gemini: gemini cannot express this constant; stated in the description instead " \
           "(folded, widening)" in lines
    assert f"{src}:3:3: gemini: gemini tools have no `title`; not sent (dropped, neutral)" in lines


def test_json_format_has_output_losses_and_roundtrip() -> None:
    done = run("convert", str(FIXTURES / "openai_list.json"), "--to", "anthropic", "--format", "json")
    payload = json.loads(done.stdout)
    assert [t["name"] for t in payload["output"]] == ["get_weather", "get_time"]
    assert payload["losses"] == [] and done.returncode == 0


def test_list_wrapper_and_single_tool_selection() -> None:
    gem = json.loads(run("convert", str(FIXTURES / "mcp.json"), "--to", "gemini-json").stdout)
    assert set(gem[0]) == {"functionDeclarations"}
    one = json.loads(run("convert", str(FIXTURES / "openai_list.json"), "--to", "mcp", "--tool", "get_time").stdout)
    assert one["name"] == "get_time"


def test_stdin_strict_flags_and_from() -> None:
    tool = '{"type": "function", "function": {"name": "a", "parameters": {"type": "object", "properties": {}}}}'
    done = run("convert", "-", "--to", "openai", "--no-strict", "--from", "mistral", stdin=tool)
    assert json.loads(done.stdout)["function"]["strict"] is False


def test_impossible_conversion_exits_2_and_prints_nothing(tmp_path: Path) -> None:
    src = tmp_path / "x.json"
    src.write_text(json.dumps({"name": "x", "parameters": {"type": "object", "properties": {
        "a": {"allOf": [{"type": "string"}, {"type": "integer"}]}}}}), encoding="utf-8")
    done = run("convert", str(src), "--to", "openai")
    assert done.returncode == 2 and done.stdout == ""
    assert "rejected, unsatisfiable" in done.stderr


def test_bad_input_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    cases = {"missing": None, "broken.json": '{"name": ', "binary.json": b"\xff\xfe{", "notool.json": '{"a": 1}'}
    for name, content in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            path.write_text(content, encoding="utf-8")
        done = run("convert", str(path), "--to", "openai")
        assert done.returncode == 2, name
        assert done.stderr.startswith("toolcast: ") and "Traceback" not in done.stderr, done.stderr
    assert run("convert", str(FIXTURES / "mcp.json"), "--to", "nope").returncode == 2


def test_out_writes_atomically_and_never_over_the_input(tmp_path: Path) -> None:
    src = tmp_path / "t.tool.json"
    src.write_text((FIXTURES / "legacy.tool.json").read_text(encoding="utf-8"), encoding="utf-8")
    before = src.read_text(encoding="utf-8")
    refused = run("convert", str(src), "--to", "mcp", "--out", str(src))
    assert refused.returncode == 2 and "refusing to overwrite the input" in refused.stderr
    assert src.read_text(encoding="utf-8") == before
    target = tmp_path / "t.mcp.json"
    assert run("convert", str(src), "--to", "mcp", "--out", str(target)).returncode == 0
    assert json.loads(target.read_text(encoding="utf-8"))["inputSchema"]["required"] == ["file_path"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.mcp.json", "t.tool.json"]  # no temporary left


def test_providers_matrix() -> None:
    data = json.loads(run("providers", "--format", "json").stdout)
    assert data["gemini"]["default"]["const"] == "as enum"
    assert data["openai"]["strict"]["minLength"] == "folded"


def _mcp_out(src: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(src), "--to", "mcp", "--out",
                           str(out)], capture_output=True, text=True, timeout=60, umask=0o022)


def test_out_keeps_modes_and_never_writes_through_symlinks(tmp_path: Path) -> None:
    src = tmp_path / "t.tool.json"
    src.write_text((FIXTURES / "legacy.tool.json").read_text(encoding="utf-8"), encoding="utf-8")
    new = tmp_path / "new.mcp.json"
    assert _mcp_out(src, new).returncode == 0
    assert new.stat().st_mode & 0o777 == 0o644  # a new file: 0666 less the umask 022 (mkstemp gave 0600)
    kept = tmp_path / "kept.mcp.json"
    kept.write_text("old")
    kept.chmod(0o640)
    assert _mcp_out(src, kept).returncode == 0
    assert kept.stat().st_mode & 0o777 == 0o640 and "inputSchema" in kept.read_text()
    real = tmp_path / "real" / "target.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.mcp.json"
    link.symlink_to(real)
    done = _mcp_out(src, link)
    assert done.returncode == 2 and "symbolic link" in done.stderr, done.stderr  # the link names another file
    assert link.is_symlink() and real.read_text() == "old"
    assert sorted(p.name for p in real.parent.iterdir()) == ["target.json"]


def test_lone_surrogate_is_escaped_not_a_crash(tmp_path: Path) -> None:
    src = tmp_path / "s.json"
    src.write_text('{"name": "t", "description": "a\\udc00b", "parameters": {"type": "object", "properties": {}}}',
                   encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(src), "--to", "mcp"],
                          capture_output=True, timeout=60, env={"PATH": "", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.decode("utf-8"))["description"] == "a\udc00b"


def test_every_refusal_says_why_on_stderr(tmp_path: Path) -> None:
    src = tmp_path / "x.json"
    src.write_text(json.dumps({"name": "x", "parameters": {"type": "object", "properties": {
        "a": {"type": "Widget"}}}}), encoding="utf-8")
    for fmt in ("text", "json"):
        done = run("convert", str(src), "--to", "gemini", "--format", fmt)
        assert done.returncode == 2 and "cannot express" in done.stderr, fmt


def test_from_mismatch_is_an_error(tmp_path: Path) -> None:
    src = tmp_path / "c.json"
    src.write_text(json.dumps({"name": "x", "parameters": {"type": "object", "properties": {"a": {}}}}),
                   encoding="utf-8")
    done = run("convert", str(src), "--to", "openai", "--from", "anthropic")
    assert done.returncode == 2 and "--from anthropic" in done.stderr and done.stdout == ""


def test_from_gemini_reads_the_sdks_parameters_json_schema() -> None:
    """google-genai's Python spelling: the schema is the tool's parameters, not an unknown field dropped."""
    tool = json.dumps({"name": "get_weather", "description": "Current weather.", "parameters_json_schema": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}})
    done = run("convert", "-", "--to", "anthropic", "--from", "gemini", stdin=tool)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["input_schema"]["required"] == ["city"]
    assert "unknown" not in done.stderr and "dropped" not in done.stderr


def test_the_strict_closure_is_listed_by_convert(tmp_path: Path) -> None:
    src = tmp_path / "t.tool.json"
    src.write_text(json.dumps({"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "string"}},
                                                           "required": ["a"]}}), encoding="utf-8")
    done = run("convert", str(src), "--to", "openai")
    assert done.returncode == 0 and "keys not listed in `properties` can no longer be sent" in done.stderr
