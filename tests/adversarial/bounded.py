"""Run a command as a hostile-input probe: under a wall-clock limit and an address-space cap, in its own
process group (killed whole when the time is up), reporting what it took.

Every probe in tests/adversarial/ goes through here, so the limits are the same everywhere and a hang or a
memory blow-up fails the probe instead of the suite."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

#: The address-space cap for a probed process: far above what toolcast needs for any probe here.
MEMORY_CAP = 2 * 1024**3


@dataclass(frozen=True)
class Outcome:
    returncode: int | None  # None: killed at the time limit
    stdout: str
    stderr: str
    seconds: float
    peak_rss_mb: float  # of the probed process and its waited-for children

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def _limit(cap: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run(argv: Sequence[str], *, timeout: float = 20.0, cap: int = MEMORY_CAP, cwd: str | Path | None = None,
        stdin: str | None = None, env: dict[str, str] | None = None) -> Outcome:
    """``argv`` under the limits; the whole process group is killed at ``timeout``. The peak memory is the
    probed process's own (``wait4``), not the test process's."""
    start = time.monotonic()
    proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=lambda: _limit(cap))
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}
    readers = [threading.Thread(target=_drain, args=(stream, chunks[key]), daemon=True)
               for key, stream in (("out", proc.stdout), ("err", proc.stderr))]
    for reader in readers:
        reader.start()
    assert proc.stdin is not None
    try:
        if stdin is not None:
            proc.stdin.write(stdin.encode())
        proc.stdin.close()
    except BrokenPipeError:
        pass
    timer = threading.Timer(timeout, _kill_group, args=(proc.pid,))
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    killed = not timer.is_alive() or timer.finished.is_set()
    timer.cancel()
    _kill_group(proc.pid)  # a leftover grandchild holding the pipes open would keep the readers waiting
    for reader in readers:
        reader.join(5)
    proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen does not wait again
    code: int | None = None if killed else proc.returncode
    return Outcome(code, b"".join(chunks["out"]).decode(errors="replace"),
                   b"".join(chunks["err"]).decode(errors="replace"), time.monotonic() - start, usage.ru_maxrss / 1024)


def _drain(stream: IO[bytes] | None, into: list[bytes]) -> None:
    if stream is not None:
        for chunk in iter(lambda: stream.read(65536), b""):
            into.append(chunk)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def toolcast(*args: str, **kwargs: object) -> Outcome:
    """The installed ``toolcast`` command (this interpreter's), under the limits."""
    return run([sys.executable, "-m", "toolcast.server.cli", *args], **kwargs)  # type: ignore[arg-type]
