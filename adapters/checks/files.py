"""Which files are tool files by name: the one rule that ``toolcast check`` (folders), the server
(``is_candidate``) and the workspace index all use, so a file counts in all three or in none.

Rule (relative to the folder searched, or the workspace folder holding the file):
- a glob without ``/`` (``*.tool.json``) matches the file name;
- a glob with ``/`` (``tools/*.json``) matches the relative path or any tail of it that starts at a
  folder, and ``*`` crosses ``/`` (``fnmatch``): ``tools/a.json``, ``tools/sub/e.json`` and
  ``a/tools/b.json`` all match, ``mytools/a.json`` does not;
- nothing under a skipped folder (``SKIP_DIRS`` or a name starting with ``.``) between the root and the
  file counts; the root itself may be such a folder (``toolcast check node_modules/pkg``).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePath

#: Vendor, VCS and build folders never searched for tool files (dot-folders are skipped too).
SKIP_DIRS: frozenset[str] = frozenset({
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".tox",
    "build",
    "dist",
})


def skipped_dir(name: str) -> bool:
    return name in SKIP_DIRS or name.startswith(".")


def is_tool_file_name(path: PurePath, root: PurePath | None, globs: Sequence[str]) -> bool:
    """Whether ``path`` is a tool file by name under ``root`` (see the module's rule). Without a root,
    or outside it, the file's own folder is its only folder (``tools/a.json`` still matches)."""
    if root is not None and path.is_relative_to(root) and path != root:
        parts = path.relative_to(root).parts
        if any(skipped_dir(d) for d in parts[:-1]):
            return False
    else:
        parts = path.parts[-2:] if len(path.parts) > 1 and path.parent.name else path.parts[-1:]
    rel = "/".join(parts)
    name = parts[-1]
    for g in globs:
        if "/" in g:
            if fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(rel, "*/" + g):
                return True
        elif fnmatch.fnmatch(name, g):
            return True
    return False


def walk_files(root: Path) -> Iterator[Path]:
    """Every file under ``root``, folders and names sorted, skipped folders not entered."""
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not skipped_dir(d))
        base = Path(folder)
        for name in sorted(names):
            yield base / name


def tool_files_under(root: Path, globs: Sequence[str]) -> Iterator[Path]:
    """The files under ``root`` that are tool files by name."""
    return (p for p in walk_files(root) if is_tool_file_name(p, root, globs))
