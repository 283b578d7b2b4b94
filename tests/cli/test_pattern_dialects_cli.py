"""`toolcast check` and `toolcast convert` on the patterns of public reports, one case per engine a profile uses,
as users run them (a real subprocess): OpenAI's Python `re` (BerriAI/litellm#40485) and strict mode's refusal of
lookaround (anomalyco/opencode#32073), llama.cpp's anchors (fitchmultz/pi-oracle#5), DeepSeek's engine
(Dokploy/mcp#43, unclear)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

ARTIFACT = r'^(?!__.*__$)[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}"\\./[\]]{1,200}$'


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


def _file(tmp_path: Path, prop: str, pattern: str, strict: bool | None = None) -> Path:
    function: dict[str, Any] = {"name": "tool", "description": "A tool.", "parameters": {
        "type": "object", "properties": {prop: {"type": "string", "pattern": pattern}}, "required": [prop],
        "additionalProperties": False}}
    if strict is not None:
        function["strict"] = strict
    path = tmp_path / "t.tool.json"
    path.write_text(json.dumps({"type": "function", "function": function}, indent=2))
    return path


def _found(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    assert done.returncode in (0, 1), done.stderr
    return [r for r in json.loads(done.stdout) if r["code"] == "TC511"]


def test_openai_python_re_the_artifact_pattern_is_folded_by_convert_and_reported_by_check(tmp_path: Path) -> None:
    path = _file(tmp_path, "field", ARTIFACT, strict=False)
    done = run("convert", str(path), "--to", "openai")
    assert done.returncode == 0, done.stderr
    sent = json.loads(done.stdout)["function"]["parameters"]["properties"]["field"]
    assert "pattern" not in sent and json.loads(sent["description"].removeprefix("(constraints: ")[:-1]) == {
        "pattern": ARTIFACT}
    assert "Python's re, which refuses this one (bad escape \\p at position 14)" in done.stderr
    [found] = _found(run("check", "--format", "json", "--target", "openai", str(path)))
    assert found["pointer"] == "/function/parameters/properties/field/pattern" and found["severity"] == "warning"
    assert "BerriAI/litellm#40485" in found["message"] and "(observed)" in found["message"]


def test_openai_strict_lookaround_is_refused_in_strict_mode_only(tmp_path: Path) -> None:
    path = _file(tmp_path, "fileKey", r"^(?!undefined$|null$)", strict=True)
    [found] = _found(run("check", "--format", "json", "--target", "openai-responses", str(path)))
    assert "regex lookaround is not supported" in found["message"]
    assert "tombii/better-ccflare#357" in found["message"]
    lenient = _file(tmp_path, "fileKey", r"^(?!undefined$|null$)", strict=False)
    assert not _found(run("check", "--format", "json", "--target", "openai-responses", str(lenient)))
    done = run("convert", str(lenient), "--to", "openai-responses")
    assert done.returncode == 0 and '"pattern": "^(?!undefined$|null$)"' in done.stdout


def test_llama_cpp_an_unanchored_pattern_is_an_error_and_convert_for_it_writes_nothing(tmp_path: Path) -> None:
    path = _file(tmp_path, "files", r".*\S.*")
    done = run("check", "--format", "json", "--target", "openai", "--for", "llama-cpp", str(path))
    assert done.returncode == 1
    [found] = _found(done)
    assert found["severity"] == "error" and found["pointer"] == "/function/parameters/properties/files/pattern"
    assert "Pattern must start with '^' and end with '$'" in found["message"] and "(documented)" in found["message"]
    out = tmp_path / "out.json"
    done = run("convert", str(path), "--to", "openai", "--for", "llama-cpp", "--out", str(out))
    assert done.returncode == 2 and not out.exists()
    assert "llama-cpp rejects these tools as converted for openai; nothing written" in done.stderr
    anchored = _file(tmp_path, "files", r"^.*\S.*$")
    done = run("convert", str(anchored), "--to", "openai", "--for", "llama-cpp", "--out", str(out))
    assert done.returncode == 0 and out.exists()


@pytest.mark.skipif(find_spec("paula") is None, reason="toolcast[dialects] not installed")
def test_deepseek_its_unclear_engine_warns_and_never_stops_convert(tmp_path: Path) -> None:
    path = _file(tmp_path, "databasePassword", r"^[a-zA-Z0-9@#%^&*()_+\-=[\]{}|;:,.<>?~`]*$")
    done = run("check", "--format", "json", "--target", "openai", "--for", "deepseek", str(path))
    [found] = _found(done)
    assert found["severity"] == "warning" and "unclosed character class" in found["message"]
    assert "Dokploy/mcp#43" in found["message"] and "(unclear)" in found["message"]
    done = run("convert", str(path), "--to", "openai", "--for", "deepseek")
    assert done.returncode == 0 and "warning: TC511" in done.stderr


def test_convert_for_an_unknown_consumer_is_one_line(tmp_path: Path) -> None:
    done = run("convert", str(_file(tmp_path, "f", "^a$")), "--to", "openai", "--for", "llama")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("toolcast convert: unknown consumer 'llama'") and "llama-cpp" in done.stderr
