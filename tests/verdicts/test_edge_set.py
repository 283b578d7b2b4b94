"""The tuning part of the edge-schema set is well formed and holds only the cases its split rule puts here
(README.md beside it). The held-out part is never read by a test."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import toolcast

SET = Path(__file__).with_name("edge_schemas.json")
SOURCE = re.compile(r"^(https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/\S+#L\d+|[\w.-]+/[\w.-]+#\d+)$")


def cases() -> list[dict[str, Any]]:
    data = json.loads(SET.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and isinstance(data["cases"], list)
    return data["cases"]


def held_out(case_id: str) -> bool:
    """The split rule: SHA-256 of the id as an integer, modulo 3; remainder 0 is held out."""
    return int(hashlib.sha256(case_id.encode("utf-8")).hexdigest(), 16) % 3 == 0


def test_ids_are_unique_and_belong_to_the_tuning_part() -> None:
    ids = [c["id"] for c in cases()]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if held_out(i)] == []


def test_every_case_names_its_source_and_edge() -> None:
    for case in cases():
        assert SOURCE.match(case["source"]), case["id"]
        assert case["edge"] in case["edges"], case["id"]
        tool = case["tool"]
        assert isinstance(tool["name"], str) and tool["name"], case["id"]
        assert isinstance(tool["parameters"], dict), case["id"]


def test_what_a_provider_said_names_a_toolcast_target() -> None:
    targets = set(toolcast.targets())
    said = [c["provider_says"] for c in cases() if c.get("provider_says")]
    assert said, "the issue reports' cases carry what the provider said"
    for says in said:
        assert says["target"] in targets and says["verdict"] in ("accepted", "rejected") and says["message"]


@pytest.mark.parametrize("case", cases(), ids=lambda c: str(c["id"]))
def test_no_case_crashes_toolcast(case: dict[str, Any]) -> None:
    """Every case converts or is refused with toolcast's own error, for every target (a verdict, not a crash)."""
    for target in toolcast.targets():
        with contextlib.suppress(toolcast.ToolcastError):
            toolcast.adapt(case["tool"], target, source=case.get("shape"))
