"""``check``: the findings of one tool document, as ``toolcast check FILE --format json`` reports them (the same
checks, configuration and records)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.targets import check_target

from ._inputs import plain_json


@dataclass(frozen=True)
class Finding:
    """One problem, at 1-based ``line``/``column`` (code points; the end is exclusive) and at ``pointer`` (a JSON
    pointer into the checked document). ``code`` is the stable rule code (``TC…``, see docs/rules.md), ``target``
    the provider it concerns (None: every provider), ``tool_name`` the tool it is in (None: the file)."""

    code: str
    severity: str
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    pointer: str
    target: str | None
    tool_name: str | None
    _record: dict[str, Any] = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The record ``toolcast check --format json`` prints (rule name, fixes and related places included)."""
        copied: dict[str, Any] = json.loads(json.dumps(self._record))  # a deep copy: the record stays frozen
        return copied


def check(source: Any, *, targets: Sequence[str] | None = None, select: Sequence[str] = (),
          ignore: Sequence[str] = ()) -> tuple[Finding, ...]:
    """Every finding in ``source``: a ``pathlib.Path`` (or other path object) of a tool file, checked with the
    configuration of its folder (``toolcast.toml`` / ``pyproject.toml``); a ``str``, which is the document's
    JSON/JSONC text when it starts with ``{``, ``[`` or a comment and a file's path otherwise; or a tool value
    (dict, list or SDK object). ``targets`` narrows the providers checked, ``select``/``ignore`` the rule codes
    or code prefixes, as ``toolcast check --target/--select/--ignore`` do."""
    from toolcast.adapters.checks import CheckConfig, check_document, load_config, located_config, located_in, record

    shown, text, path = _document(source)
    config, problems = load_config(path.parent) if path is not None else (CheckConfig(), [])
    config = _narrowed(config, targets, select, ignore)
    report = check_document(text, path=None if path is None else str(path), config=config)
    located = located_config(problems) + located_in(shown, text, report.findings)
    return tuple(_public(record(item)) for item in located)


def _document(source: Any) -> tuple[str, str, Path | None]:
    """(the name findings give the document, its text, its path when it is a file)."""
    if isinstance(source, str) and _is_text(source):
        return "<text>", source, None
    if isinstance(source, (str, os.PathLike)):
        from toolcast.adapters.document import UnreadableFile, read_text

        path = Path(source)
        try:
            return str(path), read_text(path), path
        except UnicodeDecodeError as exc:
            raise ToolcastError(f"{path}: not UTF-8 (byte {exc.start})") from None
        except UnreadableFile as exc:  # a device, FIFO or socket, or a file over the size limit
            raise ToolcastError(str(exc)) from None
        except OSError as exc:
            raise ToolcastError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return "<value>", json.dumps(plain_json(source, "auto"), indent=2, ensure_ascii=False), None


def _is_text(value: str) -> bool:
    head = value.lstrip("\ufeff \t\r\n")
    return not head or head[0] in "{[" or head.startswith(("//", "/*"))


def _narrowed(config: Any, targets: Sequence[str] | None, select: Sequence[str], ignore: Sequence[str]) -> Any:
    from toolcast.adapters.checks import is_code_like

    select, ignore = _listed(select), _listed(ignore)
    for code in (*select, *ignore):
        if not is_code_like(code):
            raise ValueError(f"not a rule code or prefix: {code!r}")
    wanted = tuple(check_target(t) for t in _listed(targets)) if targets is not None else ()
    return config.narrowed(wanted, select, ignore)


def _listed(values: Sequence[str]) -> tuple[str, ...]:
    """One name or several (a lone string is one name, not its characters)."""
    return (values,) if isinstance(values, str) else tuple(values)


def _public(rec: dict[str, Any]) -> Finding:
    return Finding(rec["code"], rec["severity"], rec["message"], rec["path"], rec["line"], rec["column"],
                   rec["end_line"], rec["end_column"], rec["pointer"], rec["target"], rec["tool_name"], rec)
