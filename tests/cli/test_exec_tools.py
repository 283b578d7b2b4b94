"""Tool executables discovered as seed 000's agents discover them (``tool --schema``), through the real
CLI in a subprocess, with real executables written into a temporary folder."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

FILE_EDIT = {  # seed 000's own example tool, as its --schema prints it
    "name": "file_edit",
    "description": "Edit a file by replacing exact text matches.",
    "parameters": {
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "description": "Absolute or relative path to file"},
            "old_string": {"type": "string", "description": "Exact text to find and replace"},
            "new_string": {"type": "string", "description": "Text to replace old_string with"},
            "replace_all": {"type": "boolean", "description": "Replace all occurrences (default: false)"},
        },
        "required": ["file_path", "old_string", "new_string"],
    },
}


def toolcast(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


def executable(folder: Path, name: str, body: str) -> Path:
    """A Python program that runs as ``./name`` (its own interpreter line, the execute bit set)."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def printing(folder: Path, name: str, tool: Any) -> Path:
    """A tool executable that prints ``tool`` for --schema and refuses anything else."""
    return executable(folder, name, f"""
        import json, sys
        if sys.argv[1:] != ["--schema"]:
            print("usage: {name} --schema", file=sys.stderr)
            sys.exit(64)
        print(json.dumps({tool!r}))
    """)


def one_line(done: subprocess.CompletedProcess[str], command: str = "check") -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert done.stdout == ""
    assert lines[0].startswith(f"toolcast {command}: "), lines[0]
    return lines[0]


def test_a_seed_tool_is_asked_with_schema_and_passes(tmp_path: Path) -> None:
    prog = printing(tmp_path, "file_edit", FILE_EDIT)
    done = toolcast("check", "--target", "anthropic", "--exec", "--", str(prog), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 tool(s) of tool executable" in done.stdout and str(prog) in done.stdout


def test_findings_are_placed_at_the_program_and_pointer(tmp_path: Path) -> None:
    tool = {"name": "file edit", "parameters": {"type": "object", "properties": {"path": {"type": "strin"}}}}
    prog = printing(tmp_path, "bad_tool", tool)
    done = toolcast("check", "--format", "json", "--exec", "--", str(prog), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    found = {(r["code"], r["location"]) for r in json.loads(done.stdout)}
    # Seed 000's discovery rules: a description is needed; a property's type must be valid; and its
    # registration rule: the name's characters.
    assert ("TC103", f"exec:{prog}#/description") in found, found
    assert ("TC110", f"exec:{prog}#/parameters/properties/path/type") in found, found
    assert ("TC203", f"exec:{prog}#/name") in found, found


def test_a_folder_of_tools_checks_every_executable_and_reports_each_failure(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    printing(tools, "file_edit", FILE_EDIT)
    printing(tools, "list_dir", {"name": "list_dir", "description": "List a folder.",
                                 "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                                "required": ["path"]}})
    executable(tools, "broken", "import sys\nprint('config not found', file=sys.stderr)\nsys.exit(3)\n")
    (tools / "README.md").write_text("not a tool: no execute bit, never run\n")
    (tools / ".hidden").write_text("#!/bin/sh\nexit 1\n")
    (tools / ".hidden").chmod(0o755)
    done = toolcast("check", "--format", "json", "--target", "anthropic", "--exec-dir", str(tools), cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [
        f"toolcast check: `{tools / 'broken'} --schema` exited with status 3: config not found"]
    assert json.loads(done.stdout) == []  # the two good tools were checked and passed


def test_snapshot_and_convert_read_executables_as_check_does(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    printing(tools, "file_edit", FILE_EDIT)
    printing(tools, "shout", {"name": "shout", "description": "Say it louder.",
                              "parameters": {"type": "object", "properties": {"text": {"type": "string",
                                                                                       "maxLength": 80}}}})
    snap = toolcast("snapshot", "--exec-dir", str(tools), "--out", "tools.json", cwd=tmp_path)
    assert snap.returncode == 0, snap.stderr
    assert json.loads((tmp_path / "tools.json").read_text()) == {"tools": [FILE_EDIT, json.loads(
        subprocess.run([str(tools / "shout"), "--schema"], capture_output=True, text=True).stdout)]}
    live = toolcast("check", "--format", "json", "--exec-dir", str(tools), cwd=tmp_path)
    saved = toolcast("check", "--format", "json", "tools.json", cwd=tmp_path)
    assert live.returncode == saved.returncode
    strip = ("path", "location", "line_text")
    assert [{k: v for k, v in r.items() if k not in strip} for r in json.loads(live.stdout)] == \
           [{k: v for k, v in r.items() if k not in strip} for r in json.loads(saved.stdout)]
    out = toolcast("convert", "--to", "anthropic", "--no-strict", "--exec", "--", str(tools / "shout"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["input_schema"]["properties"]["text"] == {"type": "string", "maxLength": 80}
    gem = toolcast("convert", "--to", "openai", "--strict", "--exec", "--", str(tools / "shout"), cwd=tmp_path)
    assert gem.returncode == 0, gem.stderr
    assert f"exec:{tools / 'shout'}#/parameters/properties/text/maxLength" in gem.stderr


def test_arguments_reach_the_program_as_they_are_never_through_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    prog = executable(tmp_path, "echo_args", """
        import json, sys
        print(json.dumps({"name": "echo", "description": repr(sys.argv[1:]),
                          "parameters": {"type": "object", "properties": {}}}))
    """)
    odd = f"a; touch {marker}"
    done = toolcast("snapshot", "--exec", "--", str(prog), odd, "$(touch x)", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tools"][0]["description"] == repr([odd, "$(touch x)", "--schema"])
    assert not marker.exists() and not (tmp_path / "x").exists()


@pytest.mark.parametrize(("body", "expected"), [
    ("import sys\nprint('usage: tool [--run]', file=sys.stderr)\nsys.exit(2)\n",
     "exited with status 2: usage: tool [--run]"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "was stopped by SIGSEGV"),
    ("print('name: file_edit')\n", "printed output that is not JSON: Expecting value at line 1 column 1"),
    ("print('')\n", "printed nothing; a tool prints its definition as JSON"),
    ("print('[1, 2]')\n", "printed a JSON list, not a tool object"),
    ("print('{\"version\": 3, \"commands\": []}')\n",
     "printed JSON that is not one tool (keys: commands, version); expected an object with `name`"),
    ("print('{\"tools\": [{\"name\": \"a\", \"inputSchema\": {}}, {\"name\": \"b\", \"inputSchema\": {}}]}')\n",
     "printed JSON that is not one tool (keys: tools)"),
    ("import sys\nsys.stdout.buffer.write(b'{\"name\": \"\\xff\"}')\n", "printed output that is not UTF-8 (byte 10)"),
])
def test_each_way_discovery_fails_is_one_line_and_exit_2(tmp_path: Path, body: str, expected: str) -> None:
    prog = executable(tmp_path, "tool", body)
    line = one_line(toolcast("check", "--exec", "--", str(prog), cwd=tmp_path))
    assert line.startswith(f"toolcast check: `{prog}"), line
    assert expected in line, line


def test_a_program_that_is_missing_or_not_executable(tmp_path: Path) -> None:
    line = one_line(toolcast("check", "--exec", "--", "no-such-tool-xyz", cwd=tmp_path))
    assert line == "toolcast check: `no-such-tool-xyz`: no such program"
    plain = tmp_path / "plain"
    plain.write_text("#!/bin/sh\necho {}\n")
    line = one_line(toolcast("convert", "--to", "openai", "--exec", "--", str(plain), cwd=tmp_path), "convert")
    assert line == f"toolcast convert: `{plain}`: not executable (it needs its execute bit: chmod +x)"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert one_line(toolcast("check", "--exec-dir", str(empty), cwd=tmp_path)) == (
        f"toolcast check: {empty}: no executable files (a tool executable needs its execute bit: chmod +x)")
    assert one_line(toolcast("check", "--exec-dir", str(tmp_path / "nope"), cwd=tmp_path)) == (
        f"toolcast check: {tmp_path / 'nope'}: not a folder")


def test_a_hanging_tool_and_the_children_it_left_are_stopped(tmp_path: Path) -> None:
    """The program forks a child that keeps standard output open and exits: the wait is bounded, and
    the child (in the program's process group) is gone afterwards."""
    pidfile = tmp_path / "child.pid"
    prog = executable(tmp_path, "hangs", f"""
        import os, sys, time
        pid = os.fork()
        if pid == 0:
            time.sleep(300)
            sys.exit(0)
        open({str(pidfile)!r}, "w").write(str(pid))
    """)
    started = time.monotonic()
    line = one_line(toolcast("check", "--timeout", "2", "--exec", "--", str(prog), cwd=tmp_path))
    assert line == f"toolcast check: `{prog} --schema` did not finish within 2 s"
    assert time.monotonic() - started < 60  # bounded (generous: a loaded machine), not the child's 300 s
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and Path(f"/proc/{child}").exists() and \
            Path(f"/proc/{child}/stat").read_text().split(")")[-1].split()[0] != "Z":
        time.sleep(0.1)
    alive = Path(f"/proc/{child}").exists() and Path(f"/proc/{child}/stat").read_text().split(")")[-1].split()[0] != "Z"
    assert not alive, "the tool's child process was left running"


def test_output_without_end_is_cut(tmp_path: Path) -> None:
    prog = executable(tmp_path, "floods", "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    line = one_line(toolcast("check", "--exec", "--", str(prog), cwd=tmp_path))
    assert line == f"toolcast check: `{prog} --schema` printed more than 8 MB"


@pytest.mark.parametrize(("args", "expected"), [
    (("--exec",), "--exec needs the tool command after `--`: toolcast check --exec -- COMMAND [ARGS...]"),
    (("--exec", "--mcp-url", "http://127.0.0.1:9/mcp", "--", "x"),
     "give one source of tools, not --mcp-url and --exec"),
    (("--exec-dir", ".", "--exec", "--", "x"), "give one source of tools, not --exec and --exec-dir"),
    (("--exec", "--timeout", "0", "--", "x"), "--timeout must be a positive number of seconds"),
])
def test_usage_errors(tmp_path: Path, args: tuple[str, ...], expected: str) -> None:
    assert one_line(toolcast("check", *args, cwd=tmp_path)) == f"toolcast check: {expected}"


def test_files_and_executables_are_not_mixed(tmp_path: Path) -> None:
    (tmp_path / "a.tool.json").write_text(json.dumps(FILE_EDIT))
    done = toolcast("check", "a.tool.json", "--exec-dir", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "not more than one" in done.stderr
