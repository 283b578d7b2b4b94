"""What the estimates count is what ``toolcast convert`` sends: the estimator's conversions skip the walks that
would hand the schema back unchanged (``convert.facts.unchanged``) and share the others between equal modes, but
their output is ``convert``'s own for every corpus tool and target, strict and not, and a target's own rules
(Bedrock's integer range) are never shared with its mode's twins."""

from __future__ import annotations

import json
from typing import Any

import pytest
from toolcast.adapters.convert import convert
from toolcast.adapters.cost import TokenCosts
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.loading import to_canonical
from toolcast.adapters.targets import TARGETS, TargetOptions

from ..corpus.harness import corpus

OPTIONS = (TargetOptions(strict=True), TargetOptions(strict=False))


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)  # key order included: it changes what is counted


def _same_as_convert(costs: TokenCosts, value: Any, shape: str, options_list: tuple[TargetOptions, ...]) -> int:
    """Asserts the estimator's output is ``convert``'s for every target and each of ``options_list``; the number
    compared."""
    tool = to_canonical(value, shape)
    compared = 0
    for options in options_list:
        for target in TARGETS:
            got = costs._conversions.output(value, shape, target, options, named=True)
            sent = convert(tool, target, options).output
            assert got is not None and _text(got) == _text(sent), (tool.name, target, options)
            compared += 1
    return compared


def _corpus_same_as_convert(options_list: tuple[TargetOptions, ...]) -> None:
    costs = TokenCosts()
    compared = 0
    for entry in corpus():
        shape = "canonical" if entry.shape == "schema" else entry.shape
        try:
            to_canonical(entry.document(), shape)
        except ToolcastError:  # a tool that does not load has no estimate (the checks say why)
            continue
        compared += _same_as_convert(costs, entry.document(), shape, options_list)
    assert compared > 2000 * len(TARGETS) * len(options_list), compared


def test_every_corpus_tool_is_counted_as_convert_sends_it() -> None:
    _corpus_same_as_convert((TargetOptions(),))  # each target's own default


def test_every_corpus_tool_is_counted_as_convert_sends_it_strict_and_not() -> None:
    _corpus_same_as_convert(OPTIONS)  # slow (tests/conftest.py)


BIG = 9007199254740991  # zod's Number.MAX_SAFE_INTEGER bounds; Bedrock takes 32-bit integers


@pytest.mark.parametrize("order", [TARGETS, tuple(reversed(TARGETS))])
def test_a_targets_own_rules_are_not_shared_with_its_modes_twins(order: tuple[str, ...]) -> None:
    """Anthropic and Bedrock share their non-strict mode; only Bedrock clamps the integer bounds, in either order."""
    # The draft-04 exclusive bound is rewritten in every mode: each target walks (none skips as unchanged).
    value = {"name": "page", "description": "d", "parameters": {"type": "object", "properties": {
        "n": {"type": "integer", "minimum": -BIG, "maximum": BIG},
        "x": {"type": "number", "minimum": 0, "exclusiveMinimum": True}}}}
    costs = TokenCosts()
    outputs = {t: costs._conversions.output(value, "canonical", t, TargetOptions(), named=True) for t in order}
    tool = to_canonical(value, "canonical")
    for target, got in outputs.items():
        assert _text(got) == _text(convert(tool, target, TargetOptions()).output), target
    assert _text(outputs["bedrock"]) != _text(outputs["anthropic"])  # the case is one where the rule acts
