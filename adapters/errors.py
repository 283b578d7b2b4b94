"""Errors raised by the core. Every failure a user can cause is one of these, never a traceback."""

from __future__ import annotations

from typing import Literal

Direction = Literal["to_canonical", "from_canonical"]


class ToolcastError(Exception):
    """Base class: a clean, user-facing failure."""


class ConversionError(ToolcastError):
    """A tool could not be read from, or written to, a shape (seed 003's ConversionError).

    ``adapter`` is the shape or target name (``openai``, ``legacy`` ...), ``direction`` says which way
    the conversion went, ``pointer`` is where in the input the problem is (JSON pointer, "" = root).
    """

    def __init__(self, adapter: str, direction: Direction, message: str, pointer: str = "") -> None:
        self.adapter = adapter
        self.direction = direction
        self.message = message
        self.pointer = pointer
        where = f" at {pointer}" if pointer else ""
        super().__init__(f"{adapter} ({direction}){where}: {message}")
