"""JSON Schema's keyword families have one owner (``adapters/schema_keywords.py``): every walk of a schema and
the shape detection descend into each keyword it lists, in the form it says. A reader with a table of its own
that misses a keyword fails here."""

from __future__ import annotations

from typing import Any

import pytest
from toolcast.adapters.convert.accept import schema_violation
from toolcast.adapters.convert.facts import scan
from toolcast.adapters.loading import detect_shape
from toolcast.adapters.schema.fast_meta import certainly_valid
from toolcast.adapters.schema.subschemas import subschemas
from toolcast.adapters.schema_keywords import (
    DRAFT7_ONE_SCHEMA,
    DRAFT7_SCHEMA_LIST,
    DRAFT7_SCHEMA_MAP,
    JSON_TYPE_NAMES,
    JSON_TYPES,
    ONE_SCHEMA,
    SCHEMA_LIST,
    SCHEMA_MAP,
)

#: (keyword, how its value holds a subschema, the pointer from the keyword to that subschema)
_PLACES = [(k, "one", "") for k in ONE_SCHEMA] + [(k, "map", "/m") for k in SCHEMA_MAP] + [
    (k, "list", "/0") for k in SCHEMA_LIST]
_DRAFT7 = [(k, "one", "") for k in DRAFT7_ONE_SCHEMA] + [(k, "list", "/0") for k in DRAFT7_SCHEMA_LIST]


def _holding(keyword: str, form: str, sub: Any) -> dict[str, Any]:
    """An object schema whose ``keyword`` holds ``sub`` in ``form``."""
    value = {"one": sub, "map": {"m": sub}, "list": [sub]}[form]
    return {"type": "object", "properties": {"p": {"type": "string"}}, keyword: value}


@pytest.mark.parametrize(("keyword", "form", "inner"), _PLACES + _DRAFT7)
def test_the_budgeted_walk_and_the_judge_descend_into_every_family(keyword: str, form: str, inner: str) -> None:
    marker = {"$ref": "#/nowhere"}
    schema = _holding(keyword, form, marker)
    assert any(ptr == f"/{keyword}{inner}" for ptr, _node, _depth in subschemas(schema)), keyword
    # Judged as Mistral reads it (draft-07's meta-schema), where `items` may be a list.
    found = schema_violation("mistral", False, schema)
    assert found is not None and found.rule == "ref-unresolved", keyword
    assert found.pointer == f"/{keyword}{inner}/$ref"


@pytest.mark.parametrize(("keyword", "form", "inner"), _PLACES)
def test_the_fast_meta_check_and_the_scan_descend_into_every_family(keyword: str, form: str, inner: str) -> None:
    assert certainly_valid(_holding(keyword, form, {"type": "string"})), keyword
    assert not certainly_valid(_holding(keyword, form, {"type": 5})), keyword
    assert not scan(_holding(keyword, form, {"type": "string"})).unknown, keyword
    assert scan(_holding(keyword, form, {"type": "string", "no-such-keyword": 1})).unknown, keyword


@pytest.mark.parametrize("keyword", [*ONE_SCHEMA, *SCHEMA_MAP, *SCHEMA_LIST, *DRAFT7_ONE_SCHEMA, *DRAFT7_SCHEMA_MAP])
def test_a_schema_keyword_is_never_read_as_a_legacy_parameter(keyword: str) -> None:
    if keyword == "properties" or keyword.startswith("$"):
        pytest.skip("a JSON Schema object by its own key")
    params = {keyword: {"type": "string"}, "city": {"type": "string"}}
    assert detect_shape({"name": "t", "parameters": params}) != "legacy", keyword
    assert detect_shape({"name": "t", "parameters": {"city": {"type": "string"}}}) == "legacy"


def test_the_type_names_are_json_schemas() -> None:
    assert JSON_TYPES == frozenset(JSON_TYPE_NAMES) == {"string", "number", "integer", "boolean", "object", "array",
                                                         "null"}
    for name in JSON_TYPE_NAMES:
        assert not scan({"type": "object", "properties": {"p": {"type": name}}}).dirty_type, name
