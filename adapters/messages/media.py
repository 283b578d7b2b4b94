"""Images and documents in each provider's request parts. Each function gives the part, or None after
reporting why the provider cannot take it (``lose``: pointer, kind, message)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conversation import Media, MediaKind

Lose = Callable[[str, str, str], None]
_ANTHROPIC_IMAGES = ("image/jpeg", "image/png", "image/gif", "image/webp")


def _what(m: Media) -> str:
    return f"{'base64 ' if m.data is not None else ''}{m.kind}{f' ({m.media_type})' if m.media_type else ''}"


def anthropic(m: Media, ptr: str, lose: Lose) -> dict[str, Any] | None:
    """User turns and tool results: ``image`` and ``document`` blocks, by URL or base64 (documents:
    PDF; images: JPEG, PNG, GIF, WebP)."""
    if m.url is not None:
        return {"type": m.kind, "source": {"type": "url", "url": m.url}}
    allowed = _ANTHROPIC_IMAGES if m.kind == "image" else ("application/pdf",)
    if m.media_type not in allowed:
        lose(ptr, "media", f"Anthropic takes base64 {m.kind}s as {', '.join(allowed)}; this {_what(m)} is left out")
        return None
    return {"type": m.kind, "source": {"type": "base64", "media_type": m.media_type, "data": m.data}}


def chat(m: Media, ptr: str, lose: Lose, *, mistral: bool) -> dict[str, Any] | None:
    """User turns only (tool messages hold text). Images by URL or data URL; documents: OpenAI takes
    base64 files (``file_data``), Mistral document URLs (``document_url``)."""
    if m.kind == "image":
        return {"type": "image_url", "image_url": m.data_url() if mistral else {"url": m.data_url()}}
    if mistral and m.url is not None:
        return {"type": "document_url", "document_url": m.url}
    if not mistral and m.data is not None:
        return {"type": "file", "file": {"file_data": m.data_url(), "filename": _filename(m)}}
    provider = "Mistral takes documents by URL" if mistral else "Chat Completions takes documents as base64 data"
    lose(ptr, "media", f"{provider}; this {_what(m)} is left out")
    return None


def responses(m: Media) -> dict[str, Any]:
    """User turns and function-call outputs: ``input_image`` / ``input_file``, by URL or data URL."""
    if m.kind == "image":
        return {"type": "input_image", "image_url": m.data_url(), "detail": "auto"}
    if m.url is not None:
        return {"type": "input_file", "file_url": m.url}
    return {"type": "input_file", "file_data": m.data_url(), "filename": _filename(m)}


def gemini(m: Media, ptr: str, lose: Lose) -> dict[str, Any] | None:
    """Parts (and function-response parts): ``inlineData`` for base64, ``fileData`` for a URL — which
    needs its MIME type."""
    if m.data is not None:
        return {"inlineData": {"mimeType": m.media_type, "data": m.data}}
    if m.media_type is None:
        lose(ptr, "media", f"Gemini needs the MIME type of a file by URL (`media_type`); this {m.kind} is left out")
        return None
    return {"fileData": {"mimeType": m.media_type, "fileUri": m.url}}


def _filename(m: Media) -> str:
    extension = (m.media_type or "application/octet-stream").split("/")[-1]
    return f"{m.kind}.{extension}"


def from_part(part: dict[str, Any]) -> Media | None:
    """The image or document in a provider's request part (any of the shapes above), or None."""
    kind = part.get("type")
    if kind in ("image", "document") and isinstance(part.get("source"), dict):  # Anthropic
        source = part["source"]
        media_kind: MediaKind = "image" if kind == "image" else "document"
        if source.get("type") == "url":
            return Media(media_kind, url=str(source.get("url")))
        return Media(media_kind, data=str(source.get("data")), media_type=source.get("media_type"))
    if kind == "image_url":  # Chat ({"url": …}) and Mistral (the URL itself)
        image = part.get("image_url")
        return _from_url("image", str(image.get("url") if isinstance(image, dict) else image))
    if kind == "file" and isinstance(part.get("file"), dict):
        return _from_url("document", str(part["file"].get("file_data")))
    if kind == "document_url":
        return Media("document", url=str(part.get("document_url")))
    if kind == "input_image":
        return _from_url("image", str(part.get("image_url")))
    if kind == "input_file":
        return _from_url("document", str(part.get("file_url") or part.get("file_data")))
    if isinstance(part.get("inlineData"), dict):  # Gemini
        blob = part["inlineData"]
        return Media(_kind(blob.get("mimeType")), data=str(blob.get("data")), media_type=blob.get("mimeType"))
    if isinstance(part.get("fileData"), dict):
        file = part["fileData"]
        return Media(_kind(file.get("mimeType")), url=str(file.get("fileUri")), media_type=file.get("mimeType"))
    return None


def _kind(mime_type: Any) -> MediaKind:
    return "image" if str(mime_type).startswith("image/") else "document"


def _from_url(kind: MediaKind, url: str) -> Media:
    """A ``data:`` URL back to base64 data and its media type; any other URL as it is."""
    head, sep, data = url.partition(";base64,")
    if url.startswith("data:") and sep:
        return Media(kind, data=data, media_type=head.removeprefix("data:"))
    return Media(kind, url=url)
