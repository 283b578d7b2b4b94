"""``toolcast request`` and ``toolcast response`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXE = Path(sys.executable).parent / "toolcast"
REQUEST = {"model": "gpt-5", "system": "Be brief", "thinking": "high", "messages": [
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": [{"type": "thinking", "text": "hm"}, {"type": "text", "text": "Hello"}]}]}


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, input=stdin, timeout=60)


def test_request_to_openai_reports_what_it_leaves_out(tmp_path: Path) -> None:
    path = tmp_path / "chat.request.json"
    path.write_text(json.dumps(REQUEST), encoding="utf-8")
    run = _run("request", str(path), "--to", "openai")
    assert run.returncode == 0, run.stderr
    body = json.loads(run.stdout)
    assert body["messages"] == [{"role": "system", "content": "Be brief"}, {"role": "user", "content": "Hi"},
                                {"role": "assistant", "content": "Hello"}]
    assert body["reasoning_effort"] == "high"
    assert "/messages/1/content/0" in run.stderr and "thinking" in run.stderr
    as_json = json.loads(_run("request", str(path), "--to", "openai", "--format", "json").stdout)
    assert as_json["losses"][0]["kind"] == "thinking"


def test_response_from_gemini_and_clear_errors(tmp_path: Path) -> None:
    wire = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}
    run = _run("response", "-", "--from", "gemini", stdin=json.dumps(wire))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"content": [{"type": "text", "text": "Hi"}], "finish_reason": "stop",
                                      "usage": {"input_tokens": 3, "output_tokens": 2, "thinking_tokens": 0,
                                                "total_tokens": 5}}
    bad = _run("response", "-", "--from", "openai", stdin='{"choices": []}')
    assert bad.returncode == 2 and "OpenAI Chat Completions response: no choices" in bad.stderr
    assert "Traceback" not in bad.stderr
    broken = _run("request", "-", "--to", "anthropic", stdin='{"model": ')
    assert broken.returncode == 2 and "not JSON" in broken.stderr
