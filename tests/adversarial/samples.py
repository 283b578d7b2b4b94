"""What the probes build on: a tool that is fine, a checkout holding it, and files that are not files."""

from __future__ import annotations

import json
import os
from pathlib import Path

TOOL = {"name": "ok", "description": "A tool that is fine.",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}


def checkout(root: Path) -> Path:
    """``root`` with ``tools/ok.tool.json`` (``TOOL``); returns the tools folder."""
    tools = root / "tools"
    tools.mkdir()
    (tools / "ok.tool.json").write_text(json.dumps(TOOL), encoding="utf-8")
    return tools


def not_regular(path: Path, kind: str) -> Path:
    """``path`` made a FIFO (``kind`` "fifo") or a link to the device ``kind`` names ("device": /dev/zero)."""
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero" if kind == "device" else kind)
    return path
