"""Errors raised by the core. Every failure a user can cause is one of these, never a traceback."""

from __future__ import annotations

from typing import Literal

Direction = Literal["to_canonical", "from_canonical"]


class ToolcastError(Exception):
    """Base class: a clean, user-facing failure."""


class ConversionError(ToolcastError):
    """A tool could not be read from, or written to, a shape (seed 003's ConversionError).

    ``adapter`` (also ``target``) is the shape or target name (``openai``, ``legacy`` ...), ``direction``
    says which way the conversion went, ``pointer`` is where in the input the problem is (JSON pointer,
    "" = root), ``cause`` the underlying error when another one led to this (also ``__cause__``).
    """

    def __init__(self, adapter: str, direction: Direction, message: str, pointer: str = "", *,
                 cause: BaseException | None = None) -> None:
        self.adapter = adapter
        self.direction = direction
        self.message = message
        self.pointer = pointer
        self.cause = cause
        where = f" at {pointer}" if pointer else ""
        super().__init__(f"{adapter} ({direction}){where}: {message}")
        if cause is not None:
            self.__cause__ = cause

    @property
    def target(self) -> str:
        """The shape or target concerned: the library API's name for ``adapter``."""
        return self.adapter
