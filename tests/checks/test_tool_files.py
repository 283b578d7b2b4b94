"""One tool-file matcher: `toolcast check` on a folder, the server's `is_candidate` and the workspace
index pick exactly the same files (issue 13: `tools/sub/e.json` counted for the CLI only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from toolcast.adapters.checks import DEFAULT_GLOBS, CheckConfig
from toolcast.adapters.checks.files import is_tool_file_name
from toolcast.server.lsp.documents import Document
from toolcast.server.lsp.state import ToolcastServer
from toolcast.server.lsp.workspace import tool_files

# (path relative to the folder searched, a tool file by name under the default globs)
CASES: list[tuple[str, bool]] = [
    ("tools/a.json", True),
    ("tools/sub/e.json", True),  # `tools/*.json` reaches below `tools/`
    ("a/tools/b.json", True),  # a `tools` folder at any depth
    ("tools/a.jsonc", True),
    ("x.tool.json", True),
    ("deep/er/x.tool.json", True),
    ("x.tools.jsonc", True),
    ("y.request.json", True),
    ("package.json", False),
    ("tools.json", False),
    ("mytools/c.json", False),  # `tools` must be a whole folder name
    ("tools/readme.md", False),
    ("node_modules/a.tool.json", False),  # skipped folders
    ("a/node_modules/tools/b.json", False),
    ("build/x.tool.json", False),
    (".github/x.tool.json", False),
]

# A tool with no parameters schema: TC105 whenever it is checked, and never taken for a tool file by
# content, so the CLI reports exactly the files it selected by name.
NO_SCHEMA = {"name": "t", "description": "d"}


@pytest.mark.parametrize(("rel", "expected"), CASES)
def test_matcher(tmp_path: Path, rel: str, expected: bool) -> None:
    assert is_tool_file_name(tmp_path / rel, tmp_path, DEFAULT_GLOBS) is expected


def test_root_may_be_a_skipped_folder(tmp_path: Path) -> None:
    # `toolcast check node_modules/pkg` searches that folder; only folders below the root are skipped.
    root = tmp_path / "node_modules" / "pkg"
    assert is_tool_file_name(root / "tools" / "a.json", root, DEFAULT_GLOBS)


def test_without_a_root_the_files_folder_counts() -> None:
    # An editor file outside every workspace folder: `tools/a.json` still matches by its own folder.
    assert is_tool_file_name(Path("/elsewhere/tools/a.json"), None, DEFAULT_GLOBS)
    assert not is_tool_file_name(Path("/elsewhere/tools/sub/a.json"), None, DEFAULT_GLOBS)


def test_cli_server_and_workspace_index_select_the_same_files(tmp_path: Path) -> None:
    for rel, _ in CASES:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(NO_SCHEMA), encoding="utf-8")
    expected = sorted(rel for rel, match in CASES if match)

    exe = Path(sys.executable).parent / "toolcast"
    done = subprocess.run([str(exe), "check", "--format", "json", "--no-progress", "."], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 1, done.stderr
    cli = sorted({r["path"] for r in json.loads(done.stdout)})
    assert cli == expected

    index = sorted(p.relative_to(tmp_path).as_posix() for p in tool_files(tmp_path, CheckConfig()))
    assert index == expected

    server = ToolcastServer()
    server.roots = [tmp_path]
    editor = sorted(rel for rel, _ in CASES
                    if server.is_candidate(Document((tmp_path / rel).as_uri(), "", 1), CheckConfig()))
    assert editor == expected
