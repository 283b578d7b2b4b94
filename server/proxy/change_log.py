"""What the proxy changed, where a user can see it: one line per fact on stderr (hosts show a server's
stderr in their logs) and, with ``--log FILE``, the same facts as JSON lines."""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import IO, Any

from toolcast.adapters.proxy_plan import Plan

PREFIX = "toolcast proxy"


class Reporter:
    def __init__(self, log: IO[str] | None = None, stream: IO[str] | None = None) -> None:
        self._log = log
        self._stream = stream or sys.stderr
        self._lock = threading.Lock()  # the plan is reported from a worker thread, beside serving
        self._ended = False

    def line(self, text: str, *, last: bool = False) -> None:
        """One line on stderr; after the ``last`` one (why the proxy stops) nothing more is written."""
        with self._lock:
            if self._ended:
                return
            self._ended = last
            try:
                self._stream.write(f"{PREFIX}: {text}\n")
                self._stream.flush()
            except (OSError, ValueError):
                pass  # a host that closed our stderr does not stop the proxy

    def event(self, kind: str, **data: Any) -> None:
        if self._log is not None:
            with self._lock:
                self._event(self._log, kind, data)

    @staticmethod
    def _event(log: IO[str], kind: str, data: dict[str, Any]) -> None:
        try:
            log.write(json.dumps({"event": kind, "time": round(time.time(), 3), **data}, ensure_ascii=False,
                                       default=str) + "\n")
            log.flush()
        except (OSError, ValueError):
            pass

    def plan(self, plan: Plan, server: str, total: int, who: str) -> None:
        """Every tool served, each of its losses and every tool left out; then the one summary line."""
        for tool in plan.served:
            renamed = f" (server's name `{tool.original_name}`)" if tool.name != tool.original_name else ""
            for loss in tool.losses:
                self.line(f"{tool.name}{renamed}: {loss.pointer or '/'}: {loss.message} [{loss.action.value}, "
                          f"{loss.effect.value}]")
                self.event("loss", tool=tool.name, server_tool=tool.original_name, **loss.to_dict())
        for out in plan.left_out:
            self.line(f"left out `{out.name}`: {out.reason}")
            self.event("left_out", tool=out.name, reason=out.reason)
        tokens = plan.tokens()
        cost = f"≈ {tokens:,} tokens" if tokens is not None else "tokens not estimated (toolcast[tokens])"
        self.line(f"serving {len(plan.served)} of {total} tools of {server} for {who} ({plan.target} dialect), "
                  f"{cost}")
        self.event("serving", server=server, target=plan.target, served=len(plan.served), total=total,
                   tokens=tokens, tools={t.name: t.original_name for t in plan.served})
