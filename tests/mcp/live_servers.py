"""Real MCP servers for the tests, installed from the package registries into a cache folder on first
use (``$TOOLCAST_TEST_CACHE``, else ``~/.cache/toolcast-tests``): PyPI ``mcp-server-git`` and
``mcp-server-fetch`` in a virtual environment of their own, npm ``@modelcontextprotocol/server-everything``
with ``npm install``. Versions are pinned so the asserted findings stay put. A registry that cannot be
reached skips the test with that reason; any other install failure fails it."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PYPI_SERVERS = ("mcp-server-git==2026.10.19", "mcp-server-fetch==2026.10.24")
NPM_EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31"
NPM_INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"
_INSTALL_TIMEOUT = 900
_UNREACHABLE = ("Max retries exceeded", "NewConnectionError", "Temporary failure in name resolution",
                "Network is unreachable", "Name or service not known", "Could not fetch URL", "ConnectTimeout",
                "ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ENETUNREACH", "ECONNRESET")


def cache_dir() -> Path:
    base = os.environ.get("TOOLCAST_TEST_CACHE") or str(Path.home() / ".cache" / "toolcast-tests")
    path = Path(base) / "mcp-servers"
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextlib.contextmanager
def _installing(name: str) -> Iterator[None]:
    """One installer at a time per cache: the suite runs in parallel workers (pytest -n), and two tests
    needing the same servers would otherwise remove and install them under each other."""
    with open(cache_dir() / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _install(what: str, argv: list[str], where: Path) -> None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=_INSTALL_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        shutil.rmtree(where, ignore_errors=True)
        pytest.skip(f"{what}: the registry did not answer within {_INSTALL_TIMEOUT} s (unreachable?)")
    if done.returncode != 0:
        shutil.rmtree(where, ignore_errors=True)
        output = done.stdout + done.stderr
        tail = " | ".join(line for line in output.splitlines()[-6:] if line.strip())
        if any(marker in output for marker in _UNREACHABLE):
            pytest.skip(f"{what}: the package registry is unreachable: {tail[-400:]}")
        pytest.fail(f"{what}: install failed (exit {done.returncode}): {tail[-800:]}")


def pypi_servers() -> Path:
    """The bin folder of a virtual environment holding the PyPI servers."""
    env = cache_dir() / "pypi"
    marker = env / (".installed-" + "-".join(PYPI_SERVERS).replace("=", ""))
    with _installing("pypi"):
        if marker.exists():
            return env / "bin"
        shutil.rmtree(env, ignore_errors=True)
        _install("python -m venv", [sys.executable, "-m", "venv", str(env)], env)
        _install("pip install " + " ".join(PYPI_SERVERS),
                 [str(env / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                  *PYPI_SERVERS], env)
        marker.touch()
    return env / "bin"


def _npm_prefix(folder: str, spec: str) -> Path:
    """A cache folder (``folder``) holding the npm package ``spec`` and its dependencies, installed once."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"npm is not installed: the tests of {spec} need Node.js and npm (as CI has)")
    prefix = cache_dir() / folder
    marker = prefix / (".installed-" + spec.replace("/", "+"))
    with _installing(folder):
        if not marker.exists():
            shutil.rmtree(prefix, ignore_errors=True)
            prefix.mkdir(parents=True)
            _install("npm install " + spec, [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                                             "--loglevel=error", spec], prefix)
            marker.touch()
    return prefix


def npm_everything() -> Path:
    """The installed package folder of @modelcontextprotocol/server-everything."""
    return _npm_prefix("npm", NPM_EVERYTHING) / "node_modules" / "@modelcontextprotocol" / "server-everything"


def npm_inspector() -> Path:
    """The MCP Inspector's command (its CLI mode: `mcp-inspector --cli COMMAND --method ...`)."""
    return _npm_prefix("inspector", NPM_INSPECTOR) / "node_modules" / ".bin" / "mcp-inspector"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def http_server(argv: list[str], port: int, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """Run an HTTP MCP server until it accepts connections on 127.0.0.1:``port``; always stopped."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                            env={**os.environ, **(env or {})}, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                log.seek(0)
                err = log.read().decode(errors="replace")
                pytest.fail(f"{argv[0]} exited ({proc.returncode}) before listening: {err[-600:]}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"{' '.join(argv)} did not listen on 127.0.0.1:{port} within 120 s")
            time.sleep(0.2)
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
        log.close()


def everything_http(port: int) -> contextlib.AbstractContextManager[subprocess.Popen[bytes]]:
    package = npm_everything()
    node = shutil.which("node") or "node"
    return http_server([node, "--require", str(HERE / "loopback.cjs"), str(package / "dist" / "index.js"),
                        "streamableHttp"], port, {"PORT": str(port)})


def sdk_http(port: int) -> contextlib.AbstractContextManager[subprocess.Popen[bytes]]:
    return http_server([sys.executable, str(HERE / "sdk_server.py"), "http", str(port)], port)
