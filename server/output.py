"""What toolcast writes, for the command line and the editor alike: converted JSON's exact text, and a file
written atomically (never over the input it was made from)."""

from __future__ import annotations

import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any

from toolcast.adapters.document import numbers_out_of_range
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.jsonvalue import escape_lone_surrogates


def render(value: Any) -> str:
    """The exact text toolcast writes for converted JSON (the editor's export uses it too). A lone
    surrogate (valid in a JSON string as ``\\udXXX``, not encodable as UTF-8) stays an escape, so the
    text is always valid UTF-8 JSON meaning the same string. A number beyond a double (which would come
    out as ``Infinity``, not JSON, or as digits no provider's parser reads) is refused with its pointer."""
    bad = numbers_out_of_range(value, 1)
    if bad:
        raise ToolcastError(f"{bad[0] or '/'}: number beyond the range of a double; toolcast does not write it "
                            "(JSON has no Infinity, and providers' parsers refuse or misread it) (TC005)")
    text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    return escape_lone_surrogates(text) + "\n"


def write_atomic(path: Path, text: str, source: Path | None) -> None:
    """Write via a temporary file in the destination's folder and a rename; never over the input file.

    A symlink is written through: its target gets the new text and the link stays a link. An existing
    file keeps its mode; a new one gets the mode any new file gets (0666 less the umask: 0644 under
    022), because the temporary file is created that way instead of with ``mkstemp``'s 0600."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if source is not None and path.exists() and source.exists() and path.resolve() == source.resolve():
        raise ToolcastError(f"{path}: refusing to overwrite the input file")
    if path.is_dir():
        raise ToolcastError(f"{path}: is a folder")
    try:
        mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = None
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = _create_temporary(path, folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ToolcastError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _create_temporary(path: Path, folder: Path) -> tuple[int, Path]:
    for _ in range(100):
        tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as exc:
            raise ToolcastError(f"{path}: cannot write: {exc.strerror or exc}") from None
    raise ToolcastError(f"{path}: cannot write: no free temporary name in {folder}")
