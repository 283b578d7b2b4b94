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
                                      "usage": {"input_tokens": 3, "cache_read_tokens": 0,
                                                "cache_write_tokens": 0, "output_tokens": 2,
                                                "thinking_tokens": 0, "total_tokens": 5}}
    bad = _run("response", "-", "--from", "openai", stdin='{"choices": []}')
    assert bad.returncode == 2 and "OpenAI Chat Completions response: no choices" in bad.stderr
    assert "Traceback" not in bad.stderr
    broken = _run("request", "-", "--to", "anthropic", stdin='{"model": ')
    assert broken.returncode == 2 and "not JSON" in broken.stderr


def test_the_language_server_checks_request_files_and_previews_them(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
    from raw_rpc import Raw

    path = tmp_path / "chat.request.json"
    value = dict(REQUEST, model="claude-sonnet-4-5", messages=[*REQUEST["messages"], {"role": "user", "content": [
        {"type": "tool_result", "call_id": "c9", "content": "x"}]}])
    text = json.dumps(value, indent=2)
    path.write_text(text, encoding="utf-8")
    raw = Raw()
    try:
        raw.initialize(tmp_path, pull=True)
        uri = path.as_uri()
        raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                             "text": text}})
        rid = raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        assert "TC803" in {d.get("code") for d in raw.response(rid)["result"]["items"]}
        rid = raw.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {
            "start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}, "context": {"diagnostics": []}})
        actions = raw.response(rid)["result"]
        titles = [a["title"] for a in actions]
        assert "Preview as Anthropic request" in titles and "Preview as Mistral request" in titles
        anthropic = next(a for a in actions if a["title"] == "Preview as Anthropic request")
        rid = raw.request("workspace/executeCommand", {"command": anthropic["command"]["command"],
                                                       "arguments": anthropic["command"]["arguments"]})
        written = Path(raw.response(rid)["result"]["path"])
        expected = _run("request", str(path), "--to", "anthropic")
        assert written.name == "chat.anthropic.json" and written.read_text(encoding="utf-8") == expected.stdout
    finally:
        raw.close()
