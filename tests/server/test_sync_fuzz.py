"""Randomized consistency of incremental sync, seeded (the seed is printed; TOOLCAST_FUZZ_SEED replays it).

Real tool files (examples/, tests/fixtures/) get bursts of random incremental edits: multi-byte text,
CRLF and lone CR, raw U+2028/U+2029/NEL/VT/FF, tabs, quotes that break strings, positions past a
line's end and past the last line, several changes in one message, whole-text replacements, lone
surrogates (as JSON escapes and as code points; every message the server writes must stay UTF-8). Both
position encodings (utf-8, utf-16) and both diagnostic modes (push, pull). After every burst the
server's text must equal the client's, and its diagnostics those of a FRESH server process opened on
the client's text: the oracle is a new process that never saw an incremental change, not the code
under test. The client's text is kept by a reference implementation of the specification's rules
written here. The server under test holds its text in blocks of 64 code points, so the edits cross
block borders as they do in large files.

Bounded to about 20 s by default; ``TOOLCAST_FUZZ_EDITS=10000`` runs that many edits instead, for at
most ``TOOLCAST_FUZZ_SECONDS`` (170) seconds; ``TOOLCAST_FUZZ_BURST`` sets the mean burst size (30).
Each burst costs a fresh process (1–5 s to start on a loaded machine): the default run checks a few
to a few dozen bursts.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from raw_rpc import HOOK_SERVER, Raw

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted([*ROOT.glob("examples/*.json"), *ROOT.glob("tests/fixtures/*.json")])
SNIPPETS = ["a", "é", "😀", "日本", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\t", "\r\n", "\r", "\n", '"', "\\",
            "{", "}", "[", "]", ",", ":", " ", '"x": 1', '"name": "t_1", ', '"type": "string"', "e\u0301",
            '"description": "😀\u2028"', "\\u2028", "null"]
# Lone surrogates (a message quoting one back could not be encoded): as JSON escapes (legal JSON; the value
# holds the surrogate) and as a code point in the text (a client sends it as the escape on the wire); also
# typed inside strings by `surrogate_change`. Only a high one goes raw: a raw high and low side by side are
# one character to JSON, so no client could send them apart.
SURROGATES = ["\\ud800", "\\udfff", '"\\ud83d": 1, ', '"format": "\\udc00", ', '"enum": ["\\ud800"], ', "\ud83d"]
SEPARATORS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\r", "\r\n"]  # drawn more often: where sync goes wrong
_BREAK = re.compile(r"\r\n|\r|\n")


# -- the client's side: LSP positions by the specification, independent of toolcast's LineIndex ------
def _units(text: str, enc: str) -> int:
    # surrogatepass: a lone surrogate is one UTF-16 unit, three UTF-8 bytes (as a client's editor counts it)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2 if enc == "utf-16" \
        else len(text.encode("utf-8", "surrogatepass"))


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end before the line break) of every line; only CR, LF and CRLF break lines."""
    out, start = [], 0
    for m in _BREAK.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


def ref_offset(text: str, line: int, character: int, enc: str) -> int:
    lines = _lines(text)
    if line >= len(lines):
        return len(text)  # past the last line: the end of the document
    start, end = lines[line]
    units, at = 0, start
    while at < end:  # past the line's end: the line end
        width = _units(text[at], enc)
        if units + width > character:
            break
        units, at = units + width, at + 1
    return at


def ref_position(text: str, offset: int, enc: str) -> tuple[int, int]:
    lines = _lines(text)
    line = max(i for i, (s, _) in enumerate(lines) if s <= offset)
    return line, _units(text[lines[line][0]:offset], enc)


def random_position(rng: random.Random, text: str, enc: str) -> tuple[int, int]:
    lines = _lines(text)
    r = rng.random()
    if r < 0.05:
        return len(lines) + rng.randint(0, 3), rng.randint(0, 9)
    line = rng.randrange(len(lines))
    start, end = lines[line]
    width = _units(text[start:end], enc)
    if r < 0.15:
        return line, width + rng.randint(1, 5)
    if r < 0.18:
        return line, 2**31 - 1
    return line, _units(text[start:start + rng.randint(0, end - start)], enc)


def _snippet(rng: random.Random) -> str:
    r = rng.random()
    return rng.choice(SEPARATORS if r < 0.25 else SURROGATES if r < 0.3 else SNIPPETS)


def surrogate_change(rng: random.Random, text: str, enc: str) -> tuple[dict[str, Any], str] | None:
    """A lone surrogate typed just after a quote: half the time inside a string (a name, a key, an enum
    value, a `format`), where the document stays JSON and the findings quote it back."""
    quotes = [i for i, c in enumerate(text) if c == '"']
    if not quotes:
        return None
    at = rng.choice(quotes) + 1
    new_text = rng.choice(SURROGATES[:2] + SURROGATES[-1:])
    line, character = ref_position(text, at, enc)
    pos = {"line": line, "character": character}
    return {"range": {"start": pos, "end": pos}, "text": new_text}, text[:at] + new_text + text[at:]


def random_change(rng: random.Random, text: str, enc: str, whole: float) -> tuple[dict[str, Any], str]:
    """One content change and the text after it (``whole``: the chance of a whole-text replacement)."""
    if rng.random() < 0.05 and (typed := surrogate_change(rng, text, enc)) is not None:
        return typed
    if rng.random() < whole:
        new = text if rng.random() < 0.5 else text[: rng.randint(0, len(text))]
        return {"text": new}, new
    start = random_position(rng, text, enc)
    a = ref_offset(text, *start, enc)
    if rng.random() < 0.4:
        b = min(len(text), a + rng.choice([0, 1, 1, 2, 3, 5, 12, 40]))
        end = ref_position(text, b, enc) if rng.random() < 0.8 else (start[0] + rng.randint(0, 2), 2**31 - 1)
    else:
        end = start
    b = ref_offset(text, *end, enc)
    new_text = "".join(_snippet(rng) for _ in range(rng.choice([0, 1, 1, 1, 2, 3])))
    rng_ = {"start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}}
    a, b = min(a, b), max(a, b)
    return {"range": rng_, "text": new_text}, text[:a] + new_text + text[b:]


# -- the servers -----------------------------------------------------------------------------------
class Oracles:
    """Fresh server processes, started ahead (each takes a second or two to start), used once each."""

    def __init__(self, root: Path, enc: str) -> None:
        self.root, self.enc = root, enc
        self.ready = [Raw()]

    def diagnostics(self, uri: str, text: str) -> list[Any]:
        fresh = self.ready.pop(0)
        self.ready.append(Raw())
        try:
            fresh.initialize(self.root, pull=True, encoding=self.enc)  # the items are the same as pushed
            fresh.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                                   "text": text}})
            return diagnostics(fresh, uri, 1, True)
        finally:
            fresh.proc.kill()
            fresh.proc.wait(10)

    def close(self) -> None:
        for raw in self.ready:
            raw.proc.kill()
            raw.proc.wait(10)


def _partial(items: list[Any]) -> bool:
    """A first answer cut by the check's time budget (a loaded machine): the complete one follows."""
    return any(str(d.get("message", "")).startswith("toolcast is still checking") for d in items)


def diagnostics(raw: Raw, uri: str, version: int, pull: bool) -> list[Any]:
    """The complete diagnostics of ``version``: pulled (again while partial), or its complete push."""
    end = time.monotonic() + 60
    while True:
        if pull:
            rid = raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            items: list[Any] = raw.response(rid, 60)["result"]["items"]
        else:
            items = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri and m["params"].get("version") == version,
                             60)["params"]["diagnostics"]
        if not _partial(items) or time.monotonic() > end:
            return items
        if pull:
            time.sleep(0.2)


@dataclass
class Figures:
    edits: int = 0
    bursts: int = 0
    divergences: list[str] = field(default_factory=list)


class Session:
    """One server under test in one mode (encoding, push or pull), editing one corpus file at a time."""

    def __init__(self, root: Path, enc: str, pull: bool) -> None:
        self.root, self.enc, self.pull = root, enc, pull
        # The server under test keeps its text in blocks of 64 code points (TOOLCAST_TEST_LINE_BLOCK, read by
        # hook_server.py), so the random edits cross block borders as they do in files of megabytes; the
        # oracle is a fresh server with the normal blocks.
        self.server = Raw(HOOK_SERVER, env={**os.environ, "TOOLCAST_TEST_LINE_BLOCK": "64"})
        self.server.initialize(root, pull=pull, encoding=enc)
        self.uri, self.text, self.version, self.bursts = "", "", 0, 0

    def open(self, source: Path) -> None:
        if self.uri:
            self.server.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})
        self.uri, self.text, self.version, self.bursts = (self.root / source.name).as_uri(), "", 1, 0
        self.text = source.read_text(encoding="utf-8")
        self.server.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "json", "version": 1, "text": self.text}})

    def burst(self, rng: random.Random, mean_burst: int, figures: Figures) -> list[Any]:
        """Random changes, then the server's diagnostics for the last version."""
        whole = 0.2 / mean_burst  # a whole-text replacement now and then (it would hide a divergence before it)
        for _ in range(max(1, int(rng.expovariate(1 / mean_burst)))):
            changes = []
            for _ in range(1 if rng.random() < 0.8 else rng.randint(2, 4)):
                change, self.text = random_change(rng, self.text, self.enc, whole)
                changes.append(change)
                figures.edits += 1
            self.version += 1
            self.server.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": self.version},
                                                          "contentChanges": changes})
        self.bursts += 1
        figures.bursts += 1
        return diagnostics(self.server, self.uri, self.version, self.pull)


@pytest.mark.slow
def test_incremental_edits_give_the_diagnostics_of_a_fresh_server(tmp_path: Path) -> None:
    seed = int(os.environ.get("TOOLCAST_FUZZ_SEED") or random.randrange(1 << 32))
    total = int(os.environ.get("TOOLCAST_FUZZ_EDITS") or 0)
    mean_burst = int(os.environ.get("TOOLCAST_FUZZ_BURST") or 30)
    print(f"\nsync fuzz seed: {seed} (TOOLCAST_FUZZ_SEED={seed} replays it)")
    rng = random.Random(seed)
    figures = Figures()
    sessions = [Session(tmp_path, enc, pull) for enc in ("utf-8", "utf-16") for pull in (False, True)]
    oracles = {enc: Oracles(tmp_path, enc) for enc in ("utf-8", "utf-16")}
    started = time.monotonic()
    # Plus the start of 6 processes: about 20 s in all; the long mode stops at its edit count or time limit.
    deadline = started + (float(os.environ.get("TOOLCAST_FUZZ_SECONDS") or 170) if total else 12)
    try:
        for session in sessions:
            session.open(rng.choice(CORPUS))
        turn = 0
        while time.monotonic() < deadline and (not total or figures.edits < total):
            session = sessions[turn % len(sessions)]
            turn += 1
            got = session.burst(rng, mean_burst, figures)
            want = oracles[session.enc].diagnostics(session.uri, session.text)
            rid = session.server.request("workspace/executeCommand", {"command": "toolcast.test.documentText",
                                                                      "arguments": [session.uri]})
            held = session.server.response(rid, 60).get("result")
            diverged = held != session.text or json.dumps(got, sort_keys=True) != json.dumps(want, sort_keys=True)
            if diverged:
                mode = "pull" if session.pull else "push"
                figures.divergences.append(f"{session.uri} {session.enc} {mode} v{session.version}: text "
                                           f"{session.text!r}\n  server's text: {held!r}\n  server: {got}\n"
                                           f"  fresh: {want}")
            if diverged or session.bursts >= 6:
                session.open(rng.choice(CORPUS))  # a diverged text would only repeat the divergence
    finally:
        for session in sessions:
            session.server.close()
        for oracle in oracles.values():
            oracle.close()
    took = time.monotonic() - started
    print(f"sync fuzz: {figures.edits} edits in {figures.bursts} bursts, {len(figures.divergences)} divergences, "
          f"{took:.1f} s")
    assert figures.bursts > 0
    assert not [body for session in sessions for body in session.server.invalid_utf8], "a message not in UTF-8"
    assert not figures.divergences, f"seed {seed}:\n" + "\n".join(figures.divergences[:3])


def _typed_into_a_string(rng: random.Random, text: str, enc: str) -> tuple[dict[str, Any], str]:
    """A lone surrogate typed after a quote such that the file stays JSON: inside a name, a key, an enum
    value or a `format`, where the findings quote it back (the client's own JSON reader decides)."""
    for _ in range(200):
        typed = surrogate_change(rng, text, enc)
        if typed is None:
            break
        try:
            json.loads(typed[1])
        except ValueError:
            continue
        return typed
    raise AssertionError("no place for a surrogate in a string")


@pytest.mark.slow
def test_lone_surrogates_typed_into_strings_keep_every_answer(tmp_path: Path) -> None:
    """The randomized client's surrogate edits, each checked: a document holding a lone surrogate once made
    the server fail in `_send_data` ("UnicodeEncodeError: 'utf-8' codec can't encode character
    '\\ud800'"), so the pull got an error and the push never came. Every typed surrogate now gets its
    diagnostics, the server's text is the client's, the last typing of each file matches a fresh server,
    and every message is UTF-8."""
    seed = int(os.environ.get("TOOLCAST_FUZZ_SEED") or random.randrange(1 << 32))
    print(f"\nsurrogate typing seed: {seed} (TOOLCAST_FUZZ_SEED={seed} replays it)")
    rng = random.Random(seed)
    sessions = [Session(tmp_path, enc, pull) for enc in ("utf-8", "utf-16") for pull in (False, True)]
    oracles = {enc: Oracles(tmp_path, enc) for enc in ("utf-8", "utf-16")}
    typed = quoted = 0
    try:
        for session in sessions:
            for source in rng.sample([p for p in CORPUS if p.name != "weather.request.json"], 2):
                session.open(source)
                for _ in range(4):
                    change, session.text = _typed_into_a_string(rng, session.text, session.enc)
                    session.version += 1
                    session.server.notify("textDocument/didChange", {
                        "textDocument": {"uri": session.uri, "version": session.version}, "contentChanges": [change]})
                    got = diagnostics(session.server, session.uri, session.version, session.pull)
                    typed += 1
                    quoted += any(re.search("[\ud800-\udfff]", d["message"]) for d in got)
                rid = session.server.request("workspace/executeCommand", {
                    "command": "toolcast.test.documentText", "arguments": [session.uri]})
                assert session.server.response(rid, 60).get("result") == session.text
                want = oracles[session.enc].diagnostics(session.uri, session.text)
                assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True), \
                    f"seed {seed}, {session.enc}, pull {session.pull}: {session.text!r}\n server: {got}\n fresh: {want}"
    finally:
        for session in sessions:
            session.server.close()
        for oracle in oracles.values():
            oracle.close()
    print(f"surrogate typing: {typed} typed, {quoted} answered with diagnostics quoting a surrogate")
    assert quoted > 0  # the surrogates were quoted back, not only carried in the text
    assert not [body for session in sessions for body in session.server.invalid_utf8], "a message not in UTF-8"
