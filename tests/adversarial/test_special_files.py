"""Files that are not files: a committed link to a device, a FIFO, a socket, or a file over the size limit,
where toolcast expects a tool file or its configuration. Each is skipped and named (or, over the size
limit, an error finding), never read without bound, never opened so that toolcast blocks."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

import pytest
from toolcast.adapters.document import MAX_FILE_BYTES

from tests.adversarial.bounded import run, toolcast
from tests.adversarial.samples import TOOL, checkout, not_regular


def _repo(tmp_path: Path) -> Path:
    checkout(tmp_path)
    return tmp_path


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "/dev/stdin"])
def test_a_tool_file_linked_to_a_device_is_skipped_and_named(tmp_path: Path, target: str) -> None:
    repo = _repo(tmp_path)
    (repo / "tools" / "x.json").symlink_to(target)
    out = toolcast("check", str(repo), timeout=30)
    assert not out.timed_out, out
    assert "Traceback" not in out.stderr
    assert out.returncode == 0, out
    # /dev/stdin is the probe's pipe: a FIFO
    kind = "a FIFO" if target == "/dev/stdin" else "a character device"
    assert f"{repo / 'tools' / 'x.json'}: not a regular file ({kind}); skipped" in out.stderr
    assert "1 file(s) checked" in out.stderr


def test_a_fifo_tool_file_is_skipped_without_blocking(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    os.mkfifo(repo / "tools" / "f.json")
    (repo / "tools" / "link.json").symlink_to(repo / "tools" / "f.json")
    out = toolcast("check", str(repo), timeout=30)
    assert not out.timed_out, out
    assert f"{repo / 'tools' / 'f.json'}: not a regular file (a FIFO); skipped" in out.stderr
    assert f"{repo / 'tools' / 'link.json'}: not a regular file (a FIFO); skipped" in out.stderr
    assert out.returncode == 0, out


def test_a_socket_tool_file_is_skipped(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(repo / "tools" / "s.json"))
        out = toolcast("check", str(repo), timeout=30)
    assert not out.timed_out, out
    assert f"{repo / 'tools' / 's.json'}: not a regular file (a socket); skipped" in out.stderr


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_named_file_that_is_not_regular_is_refused(tmp_path: Path, kind: str) -> None:
    path = not_regular(tmp_path / "x.tool.json", kind)
    for command in (("check", str(path)), ("convert", "--to", "openai", str(path))):
        out = toolcast(*command, timeout=30)
        assert not out.timed_out, (command, out)
        assert out.returncode == 2, (command, out)
        assert "Traceback" not in out.stderr
        assert f"{path}: not a regular file" in out.stderr, (command, out)


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_configuration_file_that_is_not_regular_is_a_finding(tmp_path: Path, kind: str) -> None:
    repo = _repo(tmp_path)
    config = not_regular(repo / "toolcast.toml", kind)
    out = toolcast("check", "--format", "json", str(repo), timeout=30)
    assert not out.timed_out, out
    findings = json.loads(out.stdout)
    assert any(f["path"] == str(config) and "not a regular file" in f["message"] for f in findings), findings


def test_a_configuration_file_over_its_limit_is_a_finding(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    config = repo / "toolcast.toml"
    with config.open("w", encoding="utf-8") as fh:
        fh.write("# padding\n" * 200_000)  # 2 MB of comments
    out = toolcast("check", "--format", "json", str(repo), timeout=30)
    assert not out.timed_out, out
    findings = json.loads(out.stdout)
    assert any(f["path"] == str(config) and "larger than" in f["message"] for f in findings), findings


@pytest.mark.parametrize("named", [True, False])
def test_a_tool_file_over_the_size_limit_is_an_error(tmp_path: Path, named: bool) -> None:
    repo = _repo(tmp_path)
    big = repo / "tools" / "big.tool.json"
    with big.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps(TOOL))
        fh.write(" " * (MAX_FILE_BYTES + 1 - len(json.dumps(TOOL))))
    out = toolcast("check", "--format", "json", str(big if named else repo), timeout=60)
    assert not out.timed_out, out
    assert out.returncode == 1, out
    (finding,) = [f for f in json.loads(out.stdout) if f["path"] == str(big)]
    assert (finding["code"], finding["severity"]) == ("TC003", "error")
    assert f"toolcast reads at most {MAX_FILE_BYTES:,}" in finding["message"]


def test_a_device_or_fifo_in_an_exec_dir_is_named_and_never_run(tmp_path: Path) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "ok"
    program.write_text(f"#!{sys.executable}\nimport json\nprint(json.dumps({TOOL!r}))\n", encoding="utf-8")
    program.chmod(0o755)
    (folder / "zero").symlink_to("/dev/zero")
    os.mkfifo(folder / "fifo")
    out = toolcast("check", "--exec-dir", str(folder), timeout=60)
    assert not out.timed_out, out
    assert f"{folder / 'zero'}: not a regular file (a character device); skipped" in out.stderr, out
    assert f"{folder / 'fifo'}: not a regular file (a FIFO); skipped" in out.stderr, out


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_the_library_refuses_a_file_that_is_not_regular(tmp_path: Path, target: str) -> None:
    path = not_regular(tmp_path / "x.tool.json", target)
    code = ("import sys, toolcast\n"
            "try:\n    toolcast.check(sys.argv[1])\n"
            "except toolcast.ToolcastError as exc:\n    print(exc)\n")
    out = run([sys.executable, "-c", code, str(path)], timeout=30)
    assert not out.timed_out, out
    assert out.returncode == 0, out
    assert f"{path}: not a regular file" in out.stdout, out
