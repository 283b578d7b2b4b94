"""Where an export goes, decided once for the code actions, their resolution and the ``toolcast.export``
command: beside its source file, under a file name made from the name the converted tool carries (or the
source's own stem), and only where nothing is wrong with the destination.

A file a cloned repository carries can hold any tool name and any link, so neither may choose the place:
the name is reduced to a plain file name (no folder, no leading dot), and a destination that is a link,
anything but a regular file, or (through a linked folder) outside the workspace folder holding the source
is refused with the reason, which the client shows."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..output import plain_file_stem, refusal


def tool_file_stem(tool_name: str, target: str) -> str:
    """The stem of a tool's export: the name ``target``'s converted tool carries (``../../x`` is sent as
    ``______x``), as a plain file name. Every target's name rule already keeps to letters, digits, ``_``,
    ``-`` and (Gemini, MCP) ``.`` and ``:``; ``:`` and a leading dot are replaced too, so the file is
    neither hidden nor unportable."""
    from toolcast.adapters.convert import sanitize_name

    return plain_file_stem(sanitize_name(tool_name, target))


def destination(source: Path, name: str, outside: str | None) -> tuple[Path, str | None]:
    """(where the export named ``name`` of ``source`` goes, why it may not be written there or None).
    ``outside`` is ``outside(source.parent, roots)``, asked once for all the exports of a file. An
    existing regular file is not a reason: whether it may be replaced is the caller's choice."""
    dest = source.parent / name
    why = refusal(dest) or outside
    if why is None and dest.exists() and os.path.samefile(dest, source):
        why = "is the file being exported"
    return dest, None if why is None else f"{name} {why}"


def outside(folder: Path, roots: Sequence[Path]) -> str | None:
    """Why ``folder`` is outside the workspace, or None. A folder under a workspace folder by its path must
    be under it for real too (a linked folder may point anywhere). A file the user opened from outside
    every workspace folder is exported beside itself: that folder is the one the user is working in."""
    holding = [r for r in roots if folder.is_relative_to(r)]
    if not holding:
        return None
    real = Path(os.path.realpath(folder))
    if any(real.is_relative_to(os.path.realpath(r)) for r in holding):
        return None
    return f"would be written in {real}, outside the workspace (through a linked folder)"
