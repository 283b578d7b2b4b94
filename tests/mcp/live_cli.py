"""Run toolcast as a user does: a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SDK_SERVER = [sys.executable, str(HERE / "sdk_server.py")]
#: Starting a Python MCP server imports the SDK: seconds on a loaded 2-core machine.
TIMEOUT = "120"


def toolcast(*args: str, cwd: Path | None = None, timeout: float = 400,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    if args[:1] == ("check",):
        # OpenAI strict closing every open object (TC510, information; TC503 for closed maps) is on nearly every
        # tool; these tests are about reading servers and the other findings, so they leave it out.
        args = ("check", "--ignore", "TC503,TC510", *args[1:])
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL, env=env)


def check_json(*source: str, cwd: Path, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    done = toolcast("check", "--format", "json", "--timeout", TIMEOUT, *extra, *source, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def key(record: dict[str, Any]) -> tuple[Any, ...]:
    """What must agree between a live check and a check of the snapshot (everything but the file)."""
    return (record["code"], record["target"], record["tool_name"], record["pointer"], record["line"],
            record["column"], record["message"])


def where(records: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(r["code"], r.get("location") or "") for r in records}
