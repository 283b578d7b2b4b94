"""What the walker and the scan ask of one node (adapters/convert/nodes.py), seen through `convert`."""

from __future__ import annotations

from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools


def test_a_root_of_pattern_properties_only_takes_arguments() -> None:
    """A root with `patternProperties` and no `properties` accepts keys (``^x_…``), so it is not a no-argument tool:
    strict mode's closing it is a narrowing the user is told about, and Gemini's dropped parameters are reported,
    not taken for an empty parameter list."""
    (loaded,) = load_tools({"name": "t", "description": "d", "parameters": {
        "type": "object", "patternProperties": {"^x_": {"type": "string"}}}}, None)
    for target in ("openai", "openai-responses"):
        losses = {(loss.pointer, loss.action.value) for loss in convert(loaded.tool, target).losses}
        assert ("/parameters/additionalProperties", "lowered") in losses, target
    gemini = {(loss.pointer, loss.keyword) for loss in convert(loaded.tool, "gemini").losses}
    assert ("/parameters", "properties") in gemini
