"""``--out`` of ``convert`` and ``snapshot`` pointed at what is not a file to replace: a FIFO, a device, a
socket, a link (to a file or to nothing), a name under a file. Each is refused with one line on stderr and
exit status 2, and left as it was; a regular file or a new name in a real folder is written."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from adversarial.bounded import Outcome, toolcast

TOOL = {"name": "get_weather", "description": "Weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
KEEP = "keep me\n"


def _convert(tmp_path: Path, out: Path) -> Outcome:
    src = tmp_path / "w.tool.json"
    src.write_text(json.dumps(TOOL), encoding="utf-8")
    return toolcast("convert", str(src), "--to", "anthropic", "--out", str(out), cwd=tmp_path)


def _snapshot(tmp_path: Path, out: Path) -> Outcome:
    """A snapshot of one tool executable (a Python one-liner that prints its tool for ``--schema``)."""
    return toolcast("snapshot", "--out", str(out), "--exec", "--", sys.executable, "-c",
                    f"print({json.dumps(json.dumps(TOOL))})", cwd=tmp_path)


WRITERS: dict[str, Callable[[Path, Path], Outcome]] = {"convert": _convert, "snapshot": _snapshot}


@contextlib.contextmanager
def _fifo(path: Path) -> Iterator[Callable[[], bool]]:
    os.mkfifo(path)
    yield lambda: stat.S_ISFIFO(path.lstat().st_mode)


@contextlib.contextmanager
def _device(path: Path) -> Iterator[Callable[[], bool]]:
    """A character device like /dev/null (only root may make one: skipped otherwise)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    yield lambda: stat.S_ISCHR(path.lstat().st_mode)


@contextlib.contextmanager
def _socket(path: Path) -> Iterator[Callable[[], bool]]:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        yield lambda: stat.S_ISSOCK(path.lstat().st_mode)


@contextlib.contextmanager
def _link(path: Path) -> Iterator[Callable[[], bool]]:
    target = path.with_name("target.json")
    target.write_text(KEEP, encoding="utf-8")
    path.symlink_to(target.name)
    yield lambda: path.is_symlink() and target.read_text(encoding="utf-8") == KEEP


@contextlib.contextmanager
def _dangling_link(path: Path) -> Iterator[Callable[[], bool]]:
    path.symlink_to("made-through-the-link.json")
    yield lambda: path.is_symlink() and not path.with_name("made-through-the-link.json").exists()


PLANTED = {"fifo": (_fifo, "FIFO"), "device": (_device, "device"), "socket": (_socket, "socket"),
           "link": (_link, "symbolic link"), "dangling link": (_dangling_link, "symbolic link")}


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("kind", PLANTED)
def test_out_onto_what_is_not_a_file_is_refused(tmp_path: Path, command: str, kind: str) -> None:
    make, said = PLANTED[kind]
    out = tmp_path / "o"  # short: a socket's path has a length limit
    with make(out) as untouched:
        done = WRITERS[command](tmp_path, out)
        assert done.returncode == 2, done
        assert done.stdout == ""
        assert len(done.stderr.splitlines()) == 1 and said in done.stderr and str(out) in done.stderr, done.stderr
        assert untouched()
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("command", WRITERS)
def test_out_under_a_file_or_a_missing_folder_is_refused(tmp_path: Path, command: str) -> None:
    (tmp_path / "plain").write_text(KEEP, encoding="utf-8")
    for out in (tmp_path / "plain" / "x.json", tmp_path / "missing" / "x.json"):
        done = WRITERS[command](tmp_path, out)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done
        assert "folder" in done.stderr and str(out.parent) in done.stderr, done.stderr
    assert (tmp_path / "plain").read_text(encoding="utf-8") == KEEP and not (tmp_path / "missing").exists()


@pytest.mark.parametrize("command", WRITERS)
def test_out_replaces_a_regular_file_and_makes_a_new_one(tmp_path: Path, command: str) -> None:
    existing, new = tmp_path / "existing.json", tmp_path / "new.json"
    existing.write_text(KEEP, encoding="utf-8")
    existing.chmod(0o640)
    for out in (existing, new):
        done = WRITERS[command](tmp_path, out)
        assert done.returncode == 0, done
        assert "get_weather" in out.read_text(encoding="utf-8")
    assert stat.S_IMODE(existing.stat().st_mode) == 0o640  # an existing file keeps its mode
