"""Every range the server sends lies inside the document and falls on character boundaries (never
inside a UTF-16 surrogate pair or a UTF-8 sequence), in all three position encodings: a property test
on random Unicode text through the server's own diagnostics builder, and the real server over stdio."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.document import LineIndex
from toolcast.server.lsp.diagnostics import FragmentCache, diagnostics_json

ENCODINGS = ("utf-8", "utf-16", "utf-32")
_BREAK = re.compile(r"\r\n|\r|\n")
WILD = st.characters() | st.sampled_from(["😋", "𝄞", "\u2028", "\u0085", "é", "\ud800", "\x00", "漢"])


def _units(ch: str, enc: str) -> int:
    if enc == "utf-32":
        return 1
    if enc == "utf-16":
        return len(ch.encode("utf-16-le", "surrogatepass")) // 2
    return len(ch.encode("utf-8", "surrogatepass"))


def _boundaries(line: str, enc: str) -> set[int]:
    out, at = {0}, 0
    for ch in line:
        at += _units(ch, enc)
        out.add(at)
    return out


def assert_ranges_are_safe(text: str, diagnostics: list[dict[str, Any]], enc: str) -> None:
    lines = _BREAK.split(text)
    for d in diagnostics:
        points = [d["range"]["start"], d["range"]["end"]]
        points += [r["location"]["range"][k] for r in d.get("relatedInformation", []) for k in ("start", "end")]
        for p in points:
            assert 0 <= p["line"] < len(lines), (p, len(lines))
            assert p["character"] in _boundaries(lines[p["line"]], enc), (p, enc, lines[p["line"]])
        start, end = d["range"]["start"], d["range"]["end"]
        assert (start["line"], start["character"]) <= (end["line"], end["character"])


def _tool_text(desc: str, key: str, sep: str, cut: int | None) -> str:
    tool = {"name": "get weather", "description": desc, "parameters": {
        "type": "object", "properties": {key: {"type": "strin", "const": desc, "pattern": "^x"}},
        "required": [key, "ghost"]}}
    text = sep.join(json.dumps(tool, indent=2, ensure_ascii=False).split("\n"))
    return text if cut is None else text[:cut] + text[cut + 1:]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(desc=st.text(alphabet=WILD, max_size=20), key=st.text(alphabet=WILD, min_size=1, max_size=6),
       sep=st.sampled_from(["\n", "\r\n", "\r"]), cut=st.none() | st.integers(0, 200))
def test_server_ranges_are_inside_and_on_boundaries(desc: str, key: str, sep: str, cut: int | None) -> None:
    text = _tool_text(desc, key, sep, cut)
    report = check_document(text, config=CheckConfig(select=("TC",)))
    index = LineIndex(text)
    for enc in ENCODINGS:
        payload = diagnostics_json("file:///t.tool.json", index, report, (), enc, FragmentCache(), lambda p: None)
        assert_ranges_are_safe(text, json.loads(payload), enc)  # type: ignore[arg-type]


def test_the_real_server_in_each_encoding(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
    from raw_rpc import Raw

    texts = [_tool_text("😋 hot 𝄞", "ciudad_é", "\r\n", None), _tool_text("a\u2028b", "漢字", "\r", 40),
             _tool_text("\ud800 lone", "k😋", "\n", 95)]
    for enc in ENCODINGS:
        raw = Raw()
        try:
            result = raw.initialize(tmp_path, pull=True, encoding=enc)
            assert result["result"]["capabilities"]["positionEncoding"] == enc
            for i, text in enumerate(texts):
                uri = (tmp_path / f"p{i}.tool.json").as_uri()
                raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json",
                                                                     "version": 1, "text": text}})
                rid = raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
                items = raw.response(rid)["result"]["items"]
                assert items
                assert_ranges_are_safe(text, items, enc)
        finally:
            raw.close()
