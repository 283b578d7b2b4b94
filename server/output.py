"""What toolcast writes, for the command line and the editor alike: converted JSON's exact text, and a file
written atomically, only over a regular file or as a new name in a real folder (never over the input it was
made from, never through a link)."""

from __future__ import annotations

import json
import os
import re
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


#: What a file name toolcast makes from a name it was given keeps; anything else becomes ``_``.
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def plain_file_stem(name: str) -> str:
    """``name`` (a tool's or a server's: any text a file can hold) as the stem of a file name in one folder:
    no separator, nothing a file system or shell treats specially, not hidden (a leading dot becomes
    ``_``), never empty (``../x`` -> ``___x``, ``/abs/x`` -> ``_abs_x``)."""
    stem = _UNSAFE.sub("_", name) or "_"
    return "_" + stem[1:] if stem.startswith(".") else stem


def refusal(path: Path) -> str | None:
    """Why toolcast does not write ``path``, or None. Only a regular file is replaced, or a new name made in
    a folder that exists: a symbolic link is refused whatever it points to (writing through it would change
    a file the user did not name, and a link a repository carries can point anywhere), and so is a device,
    a FIFO, a socket or a folder (replacing one with a regular file would break whatever uses it)."""
    try:
        mode: int | None = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:
        return f"cannot be inspected: {exc.strerror or exc}"
    if mode is not None:
        if stat.S_ISLNK(mode):
            return "is a symbolic link; toolcast does not write through a link (it could lead anywhere)"
        if not stat.S_ISREG(mode):
            return f"is {_KINDS.get(stat.S_IFMT(mode), 'a special file')}, not a regular file"
        return None
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"its folder {folder} {'is not a folder' if folder.exists() else 'does not exist'}"
    return None


_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFIFO: "a FIFO",
          stat.S_IFSOCK: "a socket"}


def write_atomic(path: Path, text: str, source: Path | None) -> None:
    """Write via a temporary file in the destination's folder and a rename; never over the input file, and
    never anywhere ``refusal`` names a reason for (the message says it; nothing is written).

    An existing file keeps its mode; a new one gets the mode any new file gets (0666 less the umask: 0644
    under 022), because the temporary file is created that way instead of with ``mkstemp``'s 0600. The
    rename replaces whatever is at ``path`` then: a link planted after the check is replaced, not followed."""
    why = refusal(path)
    if why is not None:
        raise ToolcastError(f"{path}: {why}; nothing written")
    if source is not None and path.exists() and source.exists() and os.path.samefile(path, source):
        raise ToolcastError(f"{path}: refusing to overwrite the input file")
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
