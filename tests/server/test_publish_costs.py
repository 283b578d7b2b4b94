"""What opening, editing and closing documents costs in publishes: a document's own diagnostics, plus those
of the other documents whose findings across files (TC202) changed, and nothing else. Publishing every open
document again on each `didOpen` made opening N files cost N²/2 publishes, and a burst of
opens left most documents without diagnostics for minutes."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from adversarial.costly import project_files, tool
from publishes import Client


def _codes(diagnostics: list[dict[str, Any]]) -> set[str]:
    return {str(d.get("code")) for d in diagnostics}


def test_opening_files_one_by_one_publishes_each_once(tmp_path: Path) -> None:
    """Files of the workspace (indexed while closed) opened one by one: one publish each, the TC202 of the
    pair sharing a name there from the start (the index knew both). A rename in one of them republishes the
    other; closing files publishes their empty diagnostics and nothing else."""
    count = 40
    paths = project_files(tmp_path, count)
    client = Client()
    try:
        client.raw.initialize(tmp_path)
        rid = client.raw.request("workspace/executeCommand", {"command": "toolcast.test.indexed", "arguments": []})
        while len(client.response(rid) or []) < count:  # the index is built in the background
            time.sleep(0.1)
            rid = client.raw.request("workspace/executeCommand", {"command": "toolcast.test.indexed",
                                                                  "arguments": []})
        uris = []
        for path in paths:
            uri = client.open(path)
            uris.append(uri)
            client.until(lambda c, uri=uri: bool(c.publishes_of(uri)))
        client.quiet()
        assert [p["uri"] for p in client.published] == uris  # each once, in the order opened
        first, last = uris[0], uris[-1]
        assert "TC202" in _codes(client.last(first)) and "TC202" in _codes(client.last(last))
        assert not any("TC202" in _codes(client.last(u)) for u in uris[1:-1])

        # The last file's tool renamed: it and the first file (whose TC202 goes) are published again.
        client.forget()
        renamed = json.dumps(tool("renamed"))
        client.raw.notify("textDocument/didChange", {"textDocument": {"uri": last, "version": 2},
                                                     "contentChanges": [{"text": renamed}]})
        client.until(lambda c: bool(c.publishes_of(first)) and bool(c.publishes_of(last)))
        client.quiet()
        assert sorted(p["uri"] for p in client.published) == sorted([first, last])
        assert "TC202" not in _codes(client.last(first)) and "TC202" not in _codes(client.last(last))

        # Closed: each closed file's diagnostics are emptied, no other file is published.
        client.forget()
        for uri in uris[1:11]:
            client.raw.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        client.quiet()
        assert [(p["uri"], p["diagnostics"]) for p in client.published] == [(u, []) for u in uris[1:11]]
    finally:
        client.raw.close()


def test_a_burst_of_opens_gives_every_document_its_diagnostics(tmp_path: Path) -> None:
    """Files outside the workspace opened all at once: every one gets its diagnostics (the first and the
    last with the TC202 they share), one publish each, and one more at most for the first of the pair."""
    count = 300
    paths = project_files(tmp_path / "elsewhere", count)
    (tmp_path / "ws").mkdir()
    client = Client()
    try:
        client.raw.initialize(tmp_path / "ws")
        uris = [client.open(path) for path in paths]
        first, last = uris[0], uris[-1]

        def done(c: Client) -> bool:
            return all(c.publishes_of(u) for u in uris) and "TC202" in _codes(c.last(first))

        client.until(done, timeout=120)  # a limit far above what it takes (6 s), so that a hang fails
        client.quiet()
        assert {p["uri"] for p in client.published} == set(uris)
        assert count <= len(client.published) <= count + 1
        assert all(p["uri"] == first for p in client.published[count:])
        assert "TC202" in _codes(client.last(last))
        assert all(_codes(client.last(u)) == _codes(client.last(uris[1])) for u in uris[1:-1])
    finally:
        client.raw.close()


def test_pull_clients_are_asked_to_pull_again_only_when_another_document_changed(tmp_path: Path) -> None:
    """Pull diagnostics: opening files with names of their own asks for no refresh; a rename that ends a
    duplicate across files does (the other file's TC202 is gone)."""
    count = 20
    paths = project_files(tmp_path / "elsewhere", count)
    (tmp_path / "ws").mkdir()
    client = Client()
    try:
        client.raw.initialize(tmp_path / "ws", pull=True, workspace={"diagnostics": {"refreshSupport": True}})

        def pull(uri: str) -> list[dict[str, Any]]:
            rid = client.raw.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            items: list[dict[str, Any]] = client.response(rid)["items"]
            return items

        uris = []
        for path in paths:
            uris.append(client.open(path))
            pull(uris[-1])
        client.quiet()
        refreshes = [m for m in client.requests if m == "workspace/diagnostic/refresh"]
        assert len(refreshes) <= 1  # at most once: the last file made the first one's TC202 appear
        assert "TC202" in _codes(pull(uris[0]))
        client.requests.clear()
        client.raw.notify("textDocument/didChange", {"textDocument": {"uri": uris[-1], "version": 2},
                                                     "contentChanges": [{"text": json.dumps(tool("renamed"))}]})
        assert "TC202" not in _codes(pull(uris[-1]))
        client.quiet()
        assert client.requests == ["workspace/diagnostic/refresh"]
        assert "TC202" not in _codes(pull(uris[0]))
    finally:
        client.raw.close()
