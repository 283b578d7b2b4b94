"""Every process a tool executable or an MCP server starts ends when toolcast is done with it.

Killing the program's process group is not enough: a descendant that called ``setsid`` (a daemon, a
double fork) has left the group and would outlive toolcast. On Linux toolcast makes itself a child
subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``): an orphaned descendant is then re-parented to toolcast
instead of to init, so when a command ends, every child of toolcast that it did not have before is one
of the command's descendants; it is killed and reaped, and so are the orphans that killing it leaves,
until none is left. Elsewhere (no subreaper), only the process group is stopped, as before.

See prctl(2), PR_SET_CHILD_SUBREAPER: https://man7.org/linux/man-pages/man2/prctl.2.html
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

_PR_SET_CHILD_SUBREAPER = 36
#: Rounds of killing adopted orphans at most (each round's kills can orphan the next generation).
_MAX_ROUNDS = 64



class _Sweep:
    """The blocks under way, and the children this process had before the first of them."""

    lock = threading.Lock()
    subreaper: bool | None = None
    active = 0
    before: frozenset[int] = frozenset()


def _become_subreaper() -> bool:
    """Whether this process is a child subreaper (set once; False where Linux's prctl is not there)."""
    if _Sweep.subreaper is None:
        ok = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                ok = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                ok = False
        _Sweep.subreaper = ok
    return _Sweep.subreaper


def children() -> set[int]:
    """The pids whose parent is this process (from /proc; zombies included)."""
    me = os.getpid()
    found: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read(4096)
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'
        fields = stat.rpartition(b")")[2].split()
        if len(fields) >= 2 and fields[1].isdigit() and int(fields[1]) == me:
            found.add(int(entry))
    return found


def end_adopted(keep: frozenset[int] | set[int], wait: float = 2.0) -> int:
    """Kill and reap every child of this process not in ``keep``, round after round while killing one
    leaves orphans; how many were ended. A child that does not die within ``wait`` seconds in all (one
    of another user's, which cannot be killed) is left rather than waited for without end."""
    ended = 0
    deadline = time.monotonic() + wait
    for _ in range(_MAX_ROUNDS):
        extra = children() - keep
        if not extra:
            break
        for pid in extra:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        pending = set(extra)
        while pending:
            for pid in list(pending):
                try:
                    done = os.waitpid(pid, os.WNOHANG)[0] != 0
                except ChildProcessError:  # reaped elsewhere, or not a child any more
                    done = True
                if done:
                    pending.discard(pid)
            if not pending or time.monotonic() >= deadline:
                break
            time.sleep(0.01)
        ended += len(extra) - len(pending)
        if pending:
            break
    return ended


@contextlib.contextmanager
def ending_descendants() -> Iterator[None]:
    """Run a command's program inside: when the last such block ends, every process it left (however
    far it detached itself) is killed and reaped. Blocks may overlap (threads of the language server);
    the children this process had before the first of them are left alone."""
    if not _become_subreaper():
        yield
        return
    with _Sweep.lock:
        if _Sweep.active == 0:
            _Sweep.before = frozenset(children())
        _Sweep.active += 1
    try:
        yield
    finally:
        with _Sweep.lock:
            _Sweep.active -= 1
            if _Sweep.active == 0:
                end_adopted(_Sweep.before)


def end_before_exit() -> None:
    """For a process about to end at once (``os._exit``, which runs no ``finally``): what the commands of the
    blocks under way have left is ended now, as their blocks would have."""
    if _Sweep.subreaper and _Sweep.active:
        end_adopted(_Sweep.before)
