"""Hover on the real server: it says what the diagnostics say, and in the format the client asked for.

- A keyword's fate per target is the loss ``toolcast convert`` reports at that keyword (the CLI, run as
  a user runs it, is the oracle): hover on ``"format": "uri"`` once said "kept" for every target while
  the TC502 on the same key said it is folded into the description for OpenAI and Gemini.
- ``contentFormat``: real Emacs (eglot 1.9 without markdown-mode; its initialize capabilities, recorded,
  are in clients/) asks for plaintext only and once got markdown; VS Code asks for markdown first.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lsprotocol import types as t
from pytest_lsp import LanguageClient
from session import EGLOT, client_fixture, open_document, recorded_capabilities
from toolcast.adapters.providers import DISPLAY_NAMES
from toolcast.adapters.targets import TARGETS

TOOL = {
    "name": "fetch_page",
    "description": "Fetch a page.",
    "parameters": {
        "type": "object",
        "required": ["url"],
        "additionalProperties": False,
        "properties": {
            "url": {"type": "string", "format": "uri", "pattern": "^https?://", "minLength": 8, "maxLength": 2048},
            "retries": {"type": "integer", "default": 2, "minimum": 0, "maximum": 5, "multipleOf": 1},
            "mode": {"const": "fast"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "minItems": 1},
            "when": {"type": "string", "format": "date-time", "examples": ["2024-01-01T00:00:00Z"]},
            "meta": {"type": "object", "additionalProperties": {"type": "string"}},
            "pick": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        },
    },
}
#: Keywords to hover: (JSON pointer of the keyword, the text that starts its key on its line).
KEYWORDS = [
    "/parameters/properties/url/format", "/parameters/properties/url/pattern",
    "/parameters/properties/url/minLength", "/parameters/properties/url/maxLength",
    "/parameters/additionalProperties", "/parameters/properties/meta/additionalProperties",
    "/parameters/properties/retries/default", "/parameters/properties/retries/minimum",
    "/parameters/properties/retries/multipleOf", "/parameters/properties/mode/const",
    "/parameters/properties/tags/uniqueItems", "/parameters/properties/tags/minItems",
    "/parameters/properties/when/format", "/parameters/properties/when/examples",
    "/parameters/properties/pick/oneOf",
]
#: The hover's words for a loss's action (the diagnostics say "(folded, widening)").
ACTION_WORDS = {"folded into the description": "folded", "dropped": "dropped", "lowered": "lowered",
                "rejected": "rejected"}


eglot = client_fixture(recorded_capabilities(EGLOT))
vscode = client_fixture("visual-studio-code")


def _layout(client: LanguageClient, tmp_path: Path) -> tuple[str, str, dict[str, tuple[int, int]]]:
    """The tool written one key a line and opened, every target named (each judged as named, as ``toolcast
    convert --to`` converts it); (uri, text, pointer -> position in the key)."""
    (tmp_path / "toolcast.toml").write_text(f"targets = {json.dumps(list(TARGETS))}\n", encoding="utf-8")
    text = json.dumps(TOOL, indent=2)
    uri = open_document(client, tmp_path / "fetch.tool.json", text)
    lines = text.splitlines()
    where: dict[str, tuple[int, int]] = {}
    for ptr in KEYWORDS:
        parts = ptr.strip("/").split("/")
        # Walk the indented layout: each part is the first line after the previous part's line,
        # indented one level deeper, that holds the key.
        line = 0
        for depth, part in enumerate(parts, start=1):
            prefix = " " * (2 * depth) + json.dumps(part) + ":"
            line = next(i for i in range(line, len(lines)) if lines[i].startswith(prefix))
        where[ptr] = (line, 2 * len(parts) + 1)
    return uri, text, where


def _convert_losses(path: Path) -> dict[str, dict[str, set[tuple[str, str]]]]:
    """pointer -> target -> {(action, effect)} from ``toolcast convert --format json`` for every target."""
    exe = Path(sys.executable).parent / "toolcast"
    out: dict[str, dict[str, set[tuple[str, str]]]] = {}
    for target in TARGETS:
        run = subprocess.run([str(exe), "convert", str(path), "--to", target, "--format", "json"],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        for loss in json.loads(run.stdout)["losses"]:
            out.setdefault(loss["document_pointer"], {}).setdefault(target, set()).add(
                (loss["action"], loss["effect"]))
    return out


def _hover_fates(value: str) -> dict[str, set[tuple[str, str]]]:
    """target -> {(action, effect)} read from the hover's lines ("- Label: fate (effect); ...")."""
    by_label = {label: target for target, label in DISPLAY_NAMES.items()}
    fates: dict[str, set[tuple[str, str]]] = {}
    for line in value.splitlines()[1:]:
        label, _, said = line.removeprefix("- ").partition(": ")
        got: set[tuple[str, str]] = set()
        for part in said.split("; ") if said != "kept" else ():
            words, _, effect = part.rstrip(")").rpartition(" (")
            got.add((ACTION_WORDS[words], effect))
        fates[by_label[label]] = got
    return fates


async def _hover(client: LanguageClient, uri: str, at: tuple[int, int]) -> t.MarkupContent:
    hover = await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri), t.Position(*at)))
    assert hover is not None and isinstance(hover.contents, t.MarkupContent)
    return hover.contents


async def test_keyword_hover_says_the_losses_convert_reports(vscode: LanguageClient, tmp_path: Path) -> None:
    uri, _, where = _layout(vscode, tmp_path)
    want = _convert_losses(tmp_path / "fetch.tool.json")
    shown = 0
    for ptr, at in where.items():
        content = await _hover(vscode, uri, at)
        assert content.value.startswith(f"`{ptr.rsplit('/', 1)[-1]}`"), content.value
        got = _hover_fates(content.value)
        assert set(got) == set(TARGETS), content.value
        expected = {target: want.get(ptr, {}).get(target, set()) for target in TARGETS}
        assert got == expected, f"{ptr}:\n{content.value}\nconvert: {expected}"
        shown += sum(1 for fates in got.values() if fates)
    assert shown >= 10  # not an all-"kept" table: most of these keywords are lost somewhere


async def test_format_uri_hover_agrees_with_its_tc502(vscode: LanguageClient, tmp_path: Path) -> None:
    uri, _, where = _layout(vscode, tmp_path)
    await vscode.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # VS Code's preset: pushed
    at = where["/parameters/properties/url/format"]
    (tc502,) = [d for d in vscode.diagnostics[uri] if d.code == "TC502" and d.range.start.line == at[0]]
    content = await _hover(vscode, uri, at)
    folded = {x for x, fates in _hover_fates(content.value).items() if ("folded", "widening") in fates}
    assert folded == set(tc502.data["targets"]) and {"openai", "gemini"} <= folded, (content.value, tc502)


async def _format_and_name_hovers(client: LanguageClient, tmp_path: Path) -> list[t.MarkupContent]:
    uri, text, where = _layout(client, tmp_path)
    name_line = text.splitlines().index('  "name": "fetch_page",')
    return [await _hover(client, uri, at) for at in (where["/parameters/properties/url/format"], (name_line, 12))]


async def test_hover_is_plain_text_for_a_client_that_asked_for_plain_text(eglot: LanguageClient,
                                                                          tmp_path: Path) -> None:
    for content in await _format_and_name_hovers(eglot, tmp_path):  # eglot: contentFormat ["plaintext"]
        assert content.kind == t.MarkupKind.PlainText
        assert "`" not in content.value and "**" not in content.value, content.value
        assert content.value.split("\n", 1)[0] in ("format", "fetch_page"), content.value
        assert "- OpenAI Chat Completions: " in content.value


async def test_hover_is_markdown_for_a_client_that_prefers_it(vscode: LanguageClient, tmp_path: Path) -> None:
    for content in await _format_and_name_hovers(vscode, tmp_path):  # VS Code: ["markdown", "plaintext"]
        assert content.kind == t.MarkupKind.Markdown
        assert content.value.split("\n", 1)[0] in ("`format`", "**fetch_page**"), content.value


#: A map: Gemini's `parametersJsonSchema` keeps it, `parameters` would drop `additionalProperties`; OpenAI
#: strict would close it (a real loss), so OpenAI is judged non-strict.
MAP_TOOL = {
    "name": "tag_note",
    "description": "Tag a note.",
    "inputSchema": {
        "type": "object",
        "required": ["note"],
        "properties": {
            "note": {"type": "string"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    },
}


async def test_with_no_target_named_hover_names_the_form_chosen_and_why(vscode: LanguageClient,
                                                                        tmp_path: Path) -> None:
    """No `targets` configured: each provider in the form that keeps the tool best. The tool name's hover
    names the chosen forms and why; a keyword's hover shows the form not chosen as information, and no
    diagnostic is made for it."""
    text = json.dumps(MAP_TOOL, indent=2)
    uri = open_document(vscode, tmp_path / "tag.tool.json", text)
    await vscode.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    lines = text.splitlines()
    name = await _hover(vscode, uri, (lines.index('  "name": "tag_note",'), 12))
    # `parameters` would also lower the map's `type` (asked for as JSON text): both named.
    assert ("- Gemini (parametersJsonSchema): kept (chosen: `parametersJsonSchema` keeps `additionalProperties`, "
            "`type`; `parameters` would lose it)") in name.value, name.value
    assert "- Anthropic (non-strict): kept\n" in name.value, name.value
    assert "- Gemini (parameters): not chosen" in name.value, name.value
    assert "- OpenAI Chat Completions (non-strict): kept (chosen: non-strict: strict mode would lose " \
           "`additionalProperties`)" in name.value, name.value
    # The map's keyword: dropped by `parameters` (not chosen: information), kept by every chosen form.
    at = (next(i for i, line in enumerate(lines) if line.strip() == '"additionalProperties": {'), 10)
    keyword = await _hover(vscode, uri, at)
    assert "- Gemini (parameters): dropped (widening) (not chosen: information)" in keyword.value, keyword.value
    assert "- Gemini (parametersJsonSchema): kept" in keyword.value, keyword.value
    assert not [d for d in vscode.diagnostics[uri] if str(d.code).startswith("TC5")], vscode.diagnostics[uri]
