"""A real VS Code workbench (code-server) with the packaged toolcast extension, driven by Chromium.

Everything a test asserts is read from the workbench's own UI (Problems panel, notifications, status
bar, editors), never from the language server's log. Installed by editors/vscode/e2e/setup.sh.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
VSIX = ROOT / "editors" / "vscode" / "toolcast.vsix"
E2E_HOME = Path(os.environ.get("TOOLCAST_E2E_HOME", Path.home() / ".cache" / "toolcast-e2e"))
CODE_SERVER = E2E_HOME / "node_modules" / ".bin" / "code-server"
CHROMIUM = shutil.which("chromium") or "/usr/lib/chromium/chromium"

#: Quiet, deterministic workbench: no welcome page, tips, telemetry, update or marketplace look-ups.
BASE_SETTINGS: dict[str, Any] = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "extensions.ignoreRecommendations": True,
    "security.workspace.trust.enabled": False,
    "window.commandCenter": False,
    "chat.commandCenter.enabled": False,
    "workbench.colorTheme": "Default Light Modern",
    "editor.minimap.enabled": False,
    "files.autoSave": "off",
    "json.schemaDownload.enable": False,
}


def missing() -> str | None:
    """Why the workbench cannot run here, or None."""
    if not CODE_SERVER.exists():
        return f"code-server not installed in {E2E_HOME} (run editors/vscode/e2e/setup.sh)"
    if not Path(CHROMIUM).exists():
        return "Debian chromium not installed (run editors/vscode/e2e/setup.sh)"
    if not VSIX.exists():
        return f"{VSIX} not built (run editors/vscode/ci.sh)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright not installed (run editors/vscode/e2e/setup.sh)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Workbench:
    """One code-server with a fresh profile and the extension installed, and one Chromium page on it."""

    def __init__(self, base: Path, folder: Path, env_path: str, shots: Path, trust: bool = False) -> None:
        self.base, self.folder, self.shots = base, folder, shots
        #: Workspace trust on: a folder opens in Restricted Mode (no prompt) until `trust_folder()`.
        self.trust = trust
        self.user_data = base / "user-data"
        self.extensions = base / "extensions"
        self.settings_file = self.user_data / "User" / "settings.json"
        self.env = {**os.environ, "PATH": env_path}
        self.proc: subprocess.Popen[bytes] | None = None
        self.page: Any = None
        self._pw: Any = None
        self._browser: Any = None
        self.step = 0

    # -- set-up -------------------------------------------------------------------------------
    def install(self) -> None:
        self.user_data.mkdir(parents=True, exist_ok=True)
        self.write_settings({})
        done = subprocess.run([str(CODE_SERVER), "--extensions-dir", str(self.extensions), "--user-data-dir",
                               str(self.user_data), "--install-extension", str(VSIX)],
                              capture_output=True, text=True, timeout=120, env=self.env)
        assert done.returncode == 0 and "successfully installed" in done.stdout, done.stdout + done.stderr

    def write_settings(self, settings: dict[str, Any]) -> None:
        """The user's settings.json, as a person would edit it (the workbench watches the file)."""
        self.settings_file.parent.mkdir(parents=True, exist_ok=True)
        trust = {"security.workspace.trust.enabled": True, "security.workspace.trust.startupPrompt": "never",
                 "security.workspace.trust.banner": "always"} if self.trust else {}
        self.settings_file.write_text(json.dumps({**BASE_SETTINGS, **trust, **settings}, indent=2), encoding="utf-8")

    def workspace_settings(self, settings: dict[str, Any]) -> None:
        """The folder's .vscode/settings.json, as a person edits it; the workbench applies it at once.
        (An edit of the user settings file from outside the workbench is not noticed by code-server.)"""
        folder = self.folder / ".vscode"
        folder.mkdir(exist_ok=True)
        (folder / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")

    def start(self) -> None:
        port = _free_port()
        config = self.base / "code-server.yaml"
        config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n", encoding="utf-8")
        log = (self.base / "code-server.log").open("wb")
        self.proc = subprocess.Popen(
            [str(CODE_SERVER), "--config", str(config), "--user-data-dir", str(self.user_data),
             "--extensions-dir", str(self.extensions), *([] if self.trust else ["--disable-workspace-trust"]),
             "--disable-telemetry", "--disable-update-check", "--disable-getting-started-override", str(self.folder)],
            stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.2)
        else:
            raise AssertionError(f"code-server did not listen: {(self.base / 'code-server.log').read_text()[-2000:]}")
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        self.page = self._browser.new_page(viewport={"width": 1400, "height": 860})
        self.page.goto(f"http://127.0.0.1:{port}/?folder={self.folder}", wait_until="domcontentloaded")
        self.page.wait_for_selector(".monaco-workbench .part.statusbar", timeout=60_000)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            if self._browser is not None:
                self._browser.close()
        with contextlib.suppress(Exception):
            if self._pw is not None:
                self._pw.stop()
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, 15)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
                self.proc.wait(10)

    # -- actions, as a person does them ---------------------------------------------------------
    def shot(self, name: str) -> Path:
        self.step += 1
        path = self.shots / f"{self.step:02d}-{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def command(self, title: str, pick: str | None = None) -> None:
        """Run a command from the command palette (F1), optionally choosing an item in the quick pick it opens."""
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("F1")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for(state="visible", timeout=10_000)
        box.fill(">" + title)
        self._choose(title)
        if pick is not None:
            self._choose(pick)

    def action(self, menu: str, label: str) -> None:
        """Open a code-action menu from the palette (e.g. "Source Action...") and choose one entry."""
        self.command(menu)
        row = self.page.get_by_role("option", name=label).first
        try:
            row.wait_for(state="visible", timeout=15_000)
        except Exception:
            html = self.page.locator(".context-view").first.inner_html()
            raise AssertionError(f"no {label!r} in the {menu} menu: {html[:3000]}") from None
        # The menu keeps moving while it animates in; choose with the keyboard, as people do.
        focused = self.page.locator(".context-view .monaco-list-row.focused")
        for _ in range(12):
            if focused.get_attribute("aria-label") == label:
                self.page.keyboard.press("Enter")
                return
            self.page.keyboard.press("ArrowDown")
        raise AssertionError(f"could not focus {label!r} in the {menu} menu")

    def _choose(self, label: str) -> None:
        row = self.page.locator(".quick-input-list .monaco-list-row", has_text=label).first
        row.wait_for(state="visible", timeout=15_000)
        row.click()

    def open_file(self, name: str) -> None:
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("Control+P")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for(state="visible", timeout=10_000)
        box.fill(name)
        # The recently opened list shows first: wait until the filter has put this file on top.
        row = self.page.locator(".quick-input-list .monaco-list-row.focused", has_text=name).first
        row.wait_for(state="visible", timeout=15_000)
        self.page.keyboard.press("Enter")
        self.page.locator(f".tab.active[aria-label^='{name}']").first.wait_for(timeout=15_000)

    def trust_folder(self) -> None:
        """Trust the open folder as a person does: Manage Workspace Trust, then the "Trust" button."""
        self.command("Workspaces: Manage Workspace Trust")
        button = self.page.locator(".workspace-trust-editor").get_by_role("button", name="Trust", exact=True)
        button.wait_for(state="visible", timeout=15_000)
        button.click()
        self.page.locator(".workspace-trust-editor", has_text="You trust this folder").wait_for(timeout=15_000)
        self.command("View: Close Editor")  # it keeps the keyboard otherwise (Quick Open does not open)

    def problems(self) -> list[str]:
        """The rows of the Problems panel: the text shown (message, `toolcast(TC302)`, position) and the
        accessible label."""
        panel = self.page.locator(".markers-panel")
        if not panel.is_visible():
            self.page.keyboard.press("Control+Shift+M")
            panel.wait_for(state="visible", timeout=10_000)
        # One read of the whole list: rows are re-rendered while diagnostics change.
        rows: list[str] = self.page.locator(".markers-panel .monaco-list-row").evaluate_all(
            "rows => rows.map(r => r.innerText + ' | ' + (r.getAttribute('aria-label') || ''))")
        return rows

    def wait_problems(self, ok: Any, timeout: float = 60, what: str = "problems") -> list[str]:
        deadline = time.monotonic() + timeout
        rows: list[str] = []
        while time.monotonic() < deadline:
            rows = self.problems()
            if ok(rows):
                return rows
            time.sleep(0.5)
        raise AssertionError(f"{what} not seen in {timeout:.0f} s; the Problems panel shows {rows}")

    def until(self, ok: Any, what: str, timeout: float = 30) -> None:
        """Poll ``ok()`` until it is true; fail naming ``what`` was not seen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ok():
                return
            self.page.wait_for_timeout(250)
        raise AssertionError(f"{what} not seen in {timeout:.0f} s")

    def goto(self, line: int, column: int) -> None:
        """Move the cursor to line:column (1-based), with Go to Line."""
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("Control+G")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for(state="visible", timeout=10_000)
        box.fill(f":{line}:{column}")
        self.page.keyboard.press("Enter")

    def hover_at(self, line: int, column: int) -> str:
        """Show the hover at line:column (1-based); its text."""
        self.goto(line, column)
        self.command("Show or Focus Hover")
        hover = self.page.locator(".monaco-hover-content").first
        hover.wait_for(state="visible", timeout=15_000)
        return str(hover.inner_text())

    def lenses(self) -> list[str]:
        """The code lenses shown in the editor."""
        texts: list[str] = self.page.locator(".codelens-decoration").evaluate_all("ls => ls.map(l => l.innerText)")
        return texts

    def notifications(self) -> list[str]:
        toasts: list[str] = self.page.locator(".notifications-toasts .notification-list-item-message").evaluate_all(
            "items => items.map(i => i.innerText)")
        return toasts

    def status_texts(self) -> list[str]:
        items: list[str] = self.page.locator(".part.statusbar .statusbar-item").evaluate_all(
            "items => items.map(i => i.getAttribute('aria-label') || i.innerText)")
        return items


@contextlib.contextmanager
def workbench(base: Path, folder: Path, env_path: str, shots: Path, trust: bool = False) -> Iterator[Workbench]:
    wb = Workbench(base, folder, env_path, shots, trust)
    try:
        wb.install()
        yield wb
    finally:
        wb.close()
