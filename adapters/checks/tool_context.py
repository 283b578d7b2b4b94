"""What every check of one tool reads and where it adds its findings (``ToolContext``), and the small
pointer and wording helpers the per-tool check modules share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import pointer as jp
from ..providers import DISPLAY_NAMES
from .config import CheckConfig
from .raw import Unplaced
from .workspace_files import WorkspaceFiles


@dataclass(frozen=True, slots=True)
class ToolContext:
    """One tool under check: its value, its shape (``canonical`` when none was recognised), where its fields
    sit (``fields``: field name → pointer inside the tool), the configuration, the workspace folder and
    files for `$ref`s, and the findings so far (``raws``, in the order the checks add them)."""

    value: Any
    shape: str
    fields: Mapping[str, str]
    config: CheckConfig
    base_dir: str | None
    files: WorkspaceFiles | None = None
    raws: list[Unplaced] = field(default_factory=list)
    #: The configuration as given, when ``config`` is the forms the tool is judged in (``judged.judged_config``).
    asked: CheckConfig | None = None

    def add(self, raw: Unplaced) -> None:
        if self.config.is_enabled(raw.code):  # a finding the configuration turns off is not kept
            self.raws.append(raw)

    def field_ptr(self, name: str) -> str:
        return self.fields.get(name, "/" + name)


def parent_pointer(pointer: str) -> str:
    parts = jp.parts(pointer)
    return jp.from_parts(parts[:-1])


def last_token(pointer: str) -> str:
    parts = jp.parts(pointer)
    return parts[-1] if parts else ""


def exists(value: Any, ptr: str) -> bool:
    sentinel = object()
    return jp.resolve(value, ptr, sentinel) is not sentinel


def targets_text(targets: Sequence[str]) -> str:
    """The targets as a message names them: their display names, comma-separated."""
    return ", ".join(DISPLAY_NAMES.get(t, t) for t in targets)


def kind(value: Any) -> str:
    """A JSON value's kind as a message says it: ``a string``, ``an array``, ``null``."""
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)
