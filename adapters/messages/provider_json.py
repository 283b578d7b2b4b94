"""Reading provider JSON (responses and requests) with clear errors."""

from __future__ import annotations

import json
from typing import Any

from .conversation import MessageFormatError


def _excerpt(text: str, limit: int = 200) -> str:
    if len(text) <= limit:
        return json.dumps(text, ensure_ascii=False)
    return f"{json.dumps(text[:limit], ensure_ascii=False)}… ({len(text)} characters)"


class WireReader:
    """Typed access to a provider's JSON that fails with ``MessageFormatError`` naming the provider
    and the pointer (``where``: e.g. \"Gemini response\", \"anthropic request\")."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, pointer: str, message: str) -> MessageFormatError:
        return MessageFormatError(self.where, pointer, message)

    def obj(self, value: Any, pointer: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(pointer, "expected an object")
        return value

    def arr(self, value: Any, pointer: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(pointer, "expected a list")
        return value

    def text(self, value: Any, pointer: str) -> str:
        if not isinstance(value, str):
            raise self.fail(pointer, "expected a string")
        return value

    def maybe_count(self, usage: dict[str, Any], key: str, pointer: str) -> int | None:
        """A count the provider may leave out: None when it does."""
        return None if usage.get(key) is None else self.count(usage, key, pointer)

    def count(self, usage: dict[str, Any], key: str, pointer: str) -> int:
        value = usage.get(key, 0)
        if value is None:
            return 0
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(f"{pointer}/{key}", "expected a token count")
        return value

    def arguments(self, raw: Any, pointer: str) -> dict[str, Any]:
        """OpenAI sends arguments as a JSON string; it must hold an object."""
        if isinstance(raw, dict):
            return raw
        try:
            value = json.loads(self.text(raw, pointer)) if raw != "" else {}
        except json.JSONDecodeError as exc:
            # json's own message ends with "starting at" and leaves the place to lineno/colno: say it all.
            what = exc.msg.removesuffix(" at")
            raise self.fail(pointer, f"tool-call arguments are not JSON: {what} at character {exc.pos + 1} "
                            f"of {_excerpt(str(raw))}") from None
        if not isinstance(value, dict):
            raise self.fail(pointer, "tool-call arguments must be a JSON object")
        return value
