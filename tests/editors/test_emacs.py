"""A real Emacs with Eglot (Debian's emacs-nox 28 and elpa-eglot 1.9 in CI) loads
editors/emacs/toolcast-eglot.el unchanged: tool files open in its mode, Eglot starts `toolcast serve`,
diagnostics reach Flymake, a quick fix is applied, settings come from .dir-locals.el and change at run
time, and "Export to Anthropic" writes the file and says so."""

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
DRIVE = Path(__file__).resolve().parent / "emacs" / "drive.el"
SETUP = ROOT / "editors" / "emacs" / "toolcast-eglot.el"
EMACS = shutil.which("emacs")

TOOL = SETTINGS_TOOL


def _emacs_with_eglot() -> str:
    """The emacs binary, if it has Eglot; else a skip (a developer's machine) or a failure (CI=true,
    where .ci/run installs emacs-nox and elpa-eglot from Debian)."""
    problem = None
    if EMACS is None:
        problem = "no emacs on PATH (Debian: apt-get install emacs-nox elpa-eglot)"
    else:
        probe = subprocess.run([EMACS, "--batch", "-q", "--eval", "(progn (package-activate-all) (require 'eglot))"],
                               capture_output=True, text=True, timeout=60)
        if probe.returncode != 0:
            problem = f"emacs has no eglot (Debian: apt-get install elpa-eglot): {probe.stderr.strip()[-200:]}"
    if problem is None:
        assert EMACS is not None
        return EMACS
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true: {problem}")
    pytest.skip(problem)


def _drive(tmp_path: Path, src: Path, **extra: str) -> dict[str, object]:
    emacs = _emacs_with_eglot()
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "toolcast").is_file()  # the set-up's default command, `toolcast serve`, from PATH
    env = {**os.environ, "HOME": str(tmp_path), "TOOLCAST_EL": str(SETUP), "TOOLCAST_FILE": str(src),
           "TOOLCAST_NAMES": "a.tool.json,b.tools.jsonc,tools/c.json,x/tools/d/e.jsonc,f.request.json,"
                             "plain.json,g.jsonc,mytools/h.json",
           "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", **extra}
    env["TOOLCAST_EVENTS"] = str(tmp_path / "eglot-events.txt")  # Eglot's log of the session, kept to read
    done = subprocess.run([emacs, "--batch", "-q", "-l", str(DRIVE)], capture_output=True, text=True,
                          timeout=180, env=env, cwd=src.parent)
    assert done.returncode == 0, done.stderr
    seen: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(seen))  # shown with -s: what Emacs saw
    assert "error" not in seen, (seen, done.stderr[-3000:])
    return seen


def test_emacs_eglot_attaches_checks_fixes_exports_and_takes_settings(tmp_path: Path) -> None:
    src = tmp_path / "weather.tool.json"
    src.write_text(TOOL, encoding="utf-8")
    # Settings as the README says: eglot-workspace-configuration in the project's .dir-locals.el.
    (tmp_path / ".dir-locals.el").write_text(
        '((nil . ((eglot-workspace-configuration . (:toolcast (:targets ["gemini" "anthropic"]))))))\n',
        encoding="utf-8")
    seen = _drive(tmp_path, src)
    # The files toolcast checks (its default globs) open in toolcast-json-mode, no other file does.
    modes = seen["modes"]
    assert isinstance(modes, dict)
    assert {n for n, m in modes.items() if m == "toolcast-json-mode"} == {
        "a.tool.json", "b.tools.jsonc", "tools/c.json", "x/tools/d/e.jsonc", "f.request.json"}
    assert seen["mode"] == "toolcast-json-mode"
    assert seen["command"] == ["toolcast", "serve"]  # the set-up file's own command
    # The undefined `ghost` (TC302 at its column, 1-based line), and only it: what toolcast's repair of it (an
    # any-type property) costs Gemini is part of that finding, not a diagnostic of its own.
    col = TOOL.splitlines()[4].index('"ghost"')
    codes = sorted(d[0] for d in seen["diagnostics"])  # type: ignore[union-attr,index]
    assert ["TC302", 5, col] in seen["diagnostics"]  # type: ignore[operator]
    assert codes == ["TC302"], codes
    assert seen["titles"] == ["Export to Anthropic", "Export to Gemini (parameters)"]  # targets from .dir-locals.el
    # The settings change (eglot-signal-didChangeConfiguration): only Anthropic's rules and export.
    assert seen["changed_diagnostics"] == [["TC302", 5, col]]
    assert seen["changed_titles"] == ["Export to Anthropic"]
    # The quick fix, applied by Eglot.
    assert seen["fixes"] == ["Remove `ghost` from `required`", "Define property `ghost` (as a string)"]
    assert seen["fixed_text"] == TOOL.replace('["city", "ghost"]', '["city"]')
    # The export: eglot 1.9 has no resource operations, so the server writes the file (the command) and,
    # as eglot cannot show documents, says where in a message.
    created = tmp_path / "weather.anthropic.json"
    expected = subprocess.run([sys.executable, "-m", "toolcast.server.cli", "convert", str(src), "--to", "anthropic"],
                              capture_output=True, text=True, timeout=60, check=True).stdout
    assert created.read_text(encoding="utf-8") == expected
    messages = seen["export_messages"]
    assert isinstance(messages, list)
    assert f"[eglot] Server reports (type=3): toolcast: exported {created}" in messages, messages
    assert seen["titles_after_export"] == []  # the file exists: the export is no longer offered
    print(f"emacs: first diagnostics {seen['first_diagnostics_s']:.2f} s after opening the file")


def test_emacs_jsonc_tool_file_gets_diagnostics(tmp_path: Path) -> None:
    """A .jsonc tool file (fundamental-mode in a plain Emacs 28) opens in toolcast-json-mode and is
    checked as JSONC: its comment is no finding."""
    src = tmp_path / "weather.tool.jsonc"
    src.write_text(TOOL.replace('"description": "Weather",', '"description": "Weather",  // shown to the model'),
                   encoding="utf-8")
    seen = _drive(tmp_path, src, TOOLCAST_STEPS="attach")
    assert seen["mode"] == "toolcast-json-mode"
    codes = sorted(d[0] for d in seen["diagnostics"])  # type: ignore[union-attr,index]
    assert "TC302" in codes and "TC001" not in codes, codes
