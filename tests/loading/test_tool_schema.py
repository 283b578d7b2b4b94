"""schemas/tool.schema.json describes the canonical file: what toolcast writes validates against it."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from toolcast.adapters.loading import load_tools

SCHEMA = json.loads(files("toolcast.schemas").joinpath("tool.schema.json").read_text(encoding="utf-8"))
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_the_schema_is_valid_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.json")), ids=lambda p: p.name)
def test_every_fixture_read_and_written_as_canonical_validates(path: Path) -> None:
    tools = [lt.tool.to_dict() for lt in load_tools(json.loads(path.read_text(encoding="utf-8")))]
    VALIDATOR.validate(tools)
    VALIDATOR.validate({"tools": tools})
    VALIDATOR.validate(tools[0])


def test_mistakes_are_caught() -> None:
    assert not VALIDATOR.is_valid({"description": "no name"})
    assert not VALIDATOR.is_valid({"name": "x", "parameters": {"type": "string"}})
    assert not VALIDATOR.is_valid({"name": "x", "x-toolcast": {"targets": {"openia": {}}}})
