"""Tools discovered the way seed 000's agents discover them: run the tool executable with ``--schema``
and read the one tool definition it prints as JSON.

The program is started directly (never through a shell), with no standard input, in its own process
group, and every wait is bounded by one deadline: a program that hangs, or leaves children that keep
its output open, is killed with its whole group, and any descendant that left the group is ended
too. What it prints is read up to ``MAX_OUTPUT`` bytes, so
a program that prints without end cannot fill the memory. Every way discovery fails is one
``ExecSourceError`` whose message is one line for the user: no such program, not executable, a
non-zero exit (with the last line it wrote on stderr), a time-out, output that is not UTF-8 or not
JSON, and JSON that is not a tool. A tool that *is* recognised but breaks discovery rules (no
description, parameters that are not an object schema, …) is not an error here: the checks report it
like any tool file's.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import stat
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolcast.adapters.document import numbers_out_of_range, special_file
from toolcast.adapters.loading import iter_tool_objects

from .descendants import ending_descendants

DEFAULT_TIMEOUT = 10.0
#: Standard output read from one program at most (a tool definition is a few KB).
MAX_OUTPUT = 8 * 1024 * 1024
#: What is kept of the program's standard error, for the last line in an error message.
_STDERR_KEEP = 4096
SCHEMA_FLAG = "--schema"


class ExecSourceError(Exception):
    """A tool executable whose definition could not be read; the message is one line for the user."""


@dataclass(frozen=True)
class ExecTool:
    """One executable's tool: ``program`` as the user named it (the label in ``exec:`` locations)."""

    program: str
    tool: dict[str, Any]


def discover(command: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> ExecTool:
    """Run ``command --schema`` and return the tool it printed. Raises ``ExecSourceError``."""
    if not command:
        raise ExecSourceError("no tool command given (toolcast ... --exec -- COMMAND [ARGS...])")
    shown = " ".join(command)
    out, err, status = _run([*command, SCHEMA_FLAG], timeout, shown)
    if status != 0:
        if status < 0:
            raise ExecSourceError(f"`{shown} {SCHEMA_FLAG}` was stopped by {_signal_name(-status)}{_last_line(err)}")
        raise ExecSourceError(f"`{shown} {SCHEMA_FLAG}` exited with status {status}{_last_line(err)}")
    return ExecTool(command[0], _tool_from(out, f"`{shown} {SCHEMA_FLAG}`"))


def executables(folder: Path, special: list[str] | None = None) -> list[Path]:
    """The tool executables in ``folder``: regular files with an execute bit, not hidden, by name
    (not recursive: seed 000's tools directory is flat). Devices, FIFOs and sockets (or links to them)
    are never run; each is named in ``special`` when given."""
    found = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith("."):
            continue
        try:
            mode = entry.stat().st_mode
        except OSError:
            continue
        if stat.S_ISREG(mode) and mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
            found.append(entry)
        elif special is not None and (reason := special_file(entry)) is not None:
            special.append(f"{entry}: {reason}")
    return found


def discover_folder(folder: Path, timeout: float = DEFAULT_TIMEOUT) -> tuple[list[ExecTool], list[str]]:
    """Every executable's tool in ``folder``, and one error line per executable that failed (seed 000:
    a tool that fails discovery is skipped and its error logged; the others are still checked)."""
    if not folder.is_dir():
        raise ExecSourceError(f"{folder}: not a folder")
    tools: list[ExecTool] = []
    errors: list[str] = []
    programs = executables(folder, errors)
    if not programs:
        raise ExecSourceError(f"{folder}: no executable files (a tool executable needs its execute bit: chmod +x)")
    for program in programs:
        try:
            tools.append(discover([str(program)], timeout))
        except ExecSourceError as exc:
            errors.append(str(exc))
    return tools, errors


def tools_document(found: Sequence[ExecTool]) -> dict[str, Any]:
    """The tool list toolcast checks and snapshots: each tool exactly as its program printed it, in
    the order of the programs."""
    return {"tools": [t.tool for t in found]}


def render_document(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _tool_from(out: bytes, shown: str) -> dict[str, Any]:
    try:
        text = out.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExecSourceError(f"{shown} printed output that is not UTF-8 (byte {exc.start})") from None
    if not text.strip():
        raise ExecSourceError(f"{shown} printed nothing; a tool prints its definition as JSON")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExecSourceError(f"{shown} printed output that is not JSON: {exc.msg} at line {exc.lineno} "
                              f"column {exc.colno}") from None
    except RecursionError:
        raise ExecSourceError(f"{shown} printed JSON nested too deeply") from None
    if not isinstance(value, dict):
        raise ExecSourceError(f"{shown} printed a JSON {type(value).__name__}, not a tool object")
    too_large = numbers_out_of_range(value, 1)
    if too_large:  # read as infinity: it would be written back as Infinity, which is not JSON
        raise ExecSourceError(f"{shown} printed a number beyond the range of a double at {too_large[0]}")
    objects = iter_tool_objects(value)
    if len(objects) != 1 or objects[0].pointer != "" or objects[0].shape is None:
        keys = ", ".join(sorted(map(str, value))[:8]) or "none"
        raise ExecSourceError(f"{shown} printed JSON that is not one tool (keys: {keys}); expected an object with "
                              "`name`, `description` and `parameters`")
    return value


def _run(argv: list[str], timeout: float, shown: str) -> tuple[bytes, bytes, int]:
    """``(stdout, the tail of stderr, exit status)``; a negative status is the signal that ended it. Every
    process the program started, in its group or detached from it (``setsid``), is ended before this
    returns (``descendants.py``)."""
    with ending_descendants():
        return _run_program(argv, timeout, shown)


def _run_program(argv: list[str], timeout: float, shown: str) -> tuple[bytes, bytes, int]:
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, close_fds=True)
    except FileNotFoundError:
        raise ExecSourceError(f"`{shown}`: no such program") from None
    except PermissionError:
        raise ExecSourceError(f"`{shown}`: not executable (it needs its execute bit: chmod +x)") from None
    except OSError as exc:
        raise ExecSourceError(f"`{shown}`: cannot be run: {exc.strerror or exc}") from None
    try:
        deadline = time.monotonic() + timeout
        out, err = _read_bounded(proc, deadline, shown, timeout)
        try:
            status = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise ExecSourceError(f"`{shown} {SCHEMA_FLAG}` closed its output but did not exit within "
                                  f"{timeout:g} s") from None
        return out, err, status
    finally:
        _kill_group(proc)


def _read_bounded(proc: subprocess.Popen[bytes], deadline: float, shown: str,
                  timeout: float) -> tuple[bytes, bytes]:
    assert proc.stdout is not None and proc.stderr is not None
    out, err = bytearray(), bytearray()
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ, out)
        sel.register(proc.stderr, selectors.EVENT_READ, err)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                raise ExecSourceError(f"`{shown} {SCHEMA_FLAG}` did not finish within {timeout:g} s")
            for key, _ in sel.select(left):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                buf: bytearray = key.data
                buf += chunk
                if buf is out and len(out) > MAX_OUTPUT:
                    raise ExecSourceError(f"`{shown} {SCHEMA_FLAG}` printed more than {MAX_OUTPUT // (1024 * 1024)} MB")
                if buf is err and len(err) > 2 * _STDERR_KEEP:
                    del err[:-_STDERR_KEEP]
    return bytes(out), bytes(err)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop the program and anything it started (its own process group), and close the pipes."""
    # Also when it has exited: children it left behind still hold the group.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def _last_line(err: bytes) -> str:
    lines = [ln.strip() for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()]
    if not lines:
        return ""
    last = " ".join(lines[-1].split())
    return ": " + (last if len(last) <= 200 else last[:197] + "...")


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
