"""Where the MCP lens writes its snapshot: a private folder the server made for its session, never a
name another local user can guess and plant first. The real server, with the real SDK server of
tests/mcp behind the lens."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from raw_rpc import Raw

pytestmark = pytest.mark.slow  # the real server for every test
SDK_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "sdk_server.py"
VICTIM = "export PATH=/usr/bin\n"


def _check_lens(tmp: Path, workspace: Path) -> dict[str, object]:
    """The lens's command for the SDK server of ``workspace``'s ``.vscode/mcp.json``, in a server whose
    temporary folder is ``tmp``; its result."""
    config = workspace / ".vscode" / "mcp.json"
    text = config.read_text(encoding="utf-8")
    raw = Raw(env={**os.environ, "TMPDIR": str(tmp)})
    try:
        raw.initialize(workspace, workspace={"workspaceEdit": {"documentChanges": True}})
        raw.notify("textDocument/didOpen", {"textDocument": {"uri": config.as_uri(), "languageId": "jsonc",
                                                             "version": 1, "text": text}})
        rid = raw.request("workspace/executeCommand", {"command": "toolcast.checkMcpServer",
                                                       "arguments": [config.as_uri(), "sdk"]})
        answer = raw.response(rid, timeout=120)  # the SDK server imports for seconds on a loaded machine
        assert "result" in answer, answer
        result: dict[str, object] = answer["result"]
        return result
    finally:
        raw.close()


def test_a_planted_snapshot_folder_is_not_used(tmp_path: Path) -> None:
    workspace, tmp, home = tmp_path / "ws", tmp_path / "tmp", tmp_path / "home"
    (workspace / ".vscode").mkdir(parents=True)
    tmp.mkdir()
    home.mkdir()
    (workspace / ".vscode" / "mcp.json").write_text(json.dumps({"servers": {"sdk": {
        "type": "stdio", "command": sys.executable, "args": [str(SDK_SERVER)]}}}), encoding="utf-8")
    victim = home / ".bashrc"
    victim.write_text(VICTIM, encoding="utf-8")
    # Another user made the folder a server of this user would choose, with a link where its snapshot goes.
    planted = tmp / f"toolcast-mcp-{os.getuid()}"
    planted.mkdir(mode=0o777)
    (planted / "sdk.tools.json").symlink_to(victim)

    first = _check_lens(tmp, workspace)
    assert first.get("tools") == 4, first
    assert victim.read_text(encoding="utf-8") == VICTIM
    snapshot = Path(str(first["path"]))
    assert snapshot.parent != planted and snapshot.parent.parent == tmp
    assert json.loads(snapshot.read_text(encoding="utf-8"))["tools"][0]["name"] == "count_nodes"
    folder = snapshot.parent.lstat()
    assert stat.S_ISDIR(folder.st_mode) and stat.S_IMODE(folder.st_mode) == 0o700
    assert folder.st_uid == os.getuid()
    # Each session makes its own folder.
    second = _check_lens(tmp, workspace)
    assert Path(str(second["path"])).parent not in (planted, snapshot.parent)
