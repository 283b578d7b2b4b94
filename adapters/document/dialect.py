"""Which JSON a file is read as, by its name: a rule of files, so the language server can ask it without
loading the checks."""

from __future__ import annotations


def is_jsonc(path: str | None) -> bool:
    """A `.jsonc` file may hold comments and trailing commas (what `toolcast explain TC001` promises)."""
    return path is not None and path.lower().endswith(".jsonc")


__all__ = ["is_jsonc"]
