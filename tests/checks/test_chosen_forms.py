"""With no targets named, each provider is judged in the form that keeps the tool best (``convert.forms``):
the library's ``toolcast.check`` warns only for the chosen form's losses; a named target means exactly that
form. Each test names the finding the other form would have made, so a wrong choice fails it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import toolcast
from toolcast.adapters.checks import CheckConfig, choices
from toolcast.adapters.targets import TARGETS


def _tool(**properties: Any) -> dict[str, Any]:
    return {"name": "lookup", "description": "Look a record up.",
            "inputSchema": {"type": "object", "properties": properties, "required": list(properties)[:1]}}


#: Strict mode changes nothing of its meaning (an optional property becomes required and nullable: neutral).
PLAIN = _tool(key={"type": "string"}, limit={"type": "integer"})
#: OpenAI strict would fold `minLength`; Gemini's `parametersJsonSchema` would fold it, `parameters` keeps it.
BOUNDED = _tool(key={"type": "string", "minLength": 3})
#: A map: OpenAI strict would close it, Gemini's `parameters` would drop `additionalProperties`.
MAP = _tool(key={"type": "string"}, labels={"type": "object", "properties": {"a": {"type": "string"}},
                                            "additionalProperties": {"type": "string"}})


def _losses(tool: Any, targets: list[str] | None = None) -> set[tuple[str, str | None, str]]:
    """(code, target, keyword) of every loss finding (TC5xx) the library reports; the keyword is the pointer's
    last part, or ``additionalProperties`` for strict mode's closing of an object (placed on the object)."""
    found = set()
    for f in toolcast.check(tool, targets=targets, select=("TC5",)):
        keyword = "additionalProperties" if "closed objects" in f.message else f.pointer.rsplit("/", 1)[-1]
        found.add((f.code, f.target, keyword))
    return found


def _choice(tool: Any, provider: str) -> Any:
    found = choices(tool, "mcp", CheckConfig())
    assert found is not None
    return next(c for c in found if c.provider == provider)


def test_openai_is_judged_strict_where_strict_loses_nothing() -> None:
    losses = _losses(PLAIN)
    # Strict mode's closing of the object (TC510, information) is made only when strict is the form judged.
    assert ("TC510", "openai", "additionalProperties") in losses
    choice = _choice(PLAIN, "OpenAI")
    assert choice.options["openai"].strict is True and choice.options["openai-responses"].strict is True
    assert choice.why == "strict: strict mode loses nothing of this tool"


def test_openai_is_judged_non_strict_where_strict_would_lose() -> None:
    assert not {x for x in _losses(BOUNDED) if x[1] in ("openai", "openai-responses")}
    choice = _choice(BOUNDED, "OpenAI")
    assert choice.options["openai"].strict is False
    assert choice.why == "non-strict: strict mode would lose `minLength`"
    # The strict closure of a map is a real loss (TC503): non-strict keeps the map.
    assert not {x for x in _losses(MAP) if x[1] in ("openai", "openai-responses")}


def test_a_tool_in_openais_own_shape_is_judged_as_written() -> None:
    written = {"type": "function", "function": {"name": "lookup", "description": "Look a record up.",
                                                "parameters": copy.deepcopy(PLAIN["inputSchema"])}}
    assert not {x for x in _losses(written) if x[1] == "openai"}  # non-strict: no strict closure
    marked = copy.deepcopy(written)
    marked["function"]["strict"] = True
    assert ("TC510", "openai", "additionalProperties") in _losses(marked)


def test_gemini_is_judged_in_the_form_that_loses_least() -> None:
    # A map: `parametersJsonSchema` keeps it, `parameters` would drop `additionalProperties`.
    assert not {x for x in _losses(MAP) if x[1] in ("gemini", "gemini-json")}
    chosen = _choice(MAP, "Gemini")
    assert chosen.targets == ("gemini-json",) and [t for t, _ in chosen.others] == ["gemini"]
    assert chosen.why == "`parametersJsonSchema` keeps `additionalProperties`; `parameters` would lose it"
    # `minLength`: `parameters` keeps it, `parametersJsonSchema` would fold it.
    assert not {x for x in _losses(BOUNDED) if x[1] in ("gemini", "gemini-json")}
    assert _choice(BOUNDED, "Gemini").targets == ("gemini",)
    # Nothing lost either way: `parametersJsonSchema`, JSON Schema as written.
    assert _choice(PLAIN, "Gemini").targets == ("gemini-json",)


@pytest.mark.parametrize("provider,target", [("Anthropic", "anthropic"), ("Mistral", "mistral"), ("MCP", "mcp"),
                                             ("Bedrock", "bedrock")])
def test_providers_of_one_form_are_judged_in_it(provider: str, target: str) -> None:
    choice = _choice(MAP, provider)
    assert choice.targets == (target,) and choice.others == () and not choice.named
    assert choice.options[target].strict in (None, False)  # their profiles' default: non-strict


def test_a_named_target_means_exactly_that_form() -> None:
    assert ("TC502", "openai", "minLength") in _losses(BOUNDED, ["openai"])  # strict, the profile's default
    assert ("TC502", "gemini-json", "minLength") in _losses(BOUNDED, ["gemini-json"])
    assert ("TC502", "gemini", "additionalProperties") in _losses(MAP, ["gemini"])
    assert ("TC503", "openai", "additionalProperties") in _losses(MAP, ["openai"])
    named = choices(MAP, "mcp", CheckConfig(targets=("gemini",)))
    assert named is not None and [(c.targets, c.named) for c in named] == [(("gemini",), True)]


def test_a_configured_targets_list_names_the_targets_and_a_table_of_options_does_not() -> None:
    from toolcast.adapters.checks import config_from_mapping

    listed, _ = config_from_mapping({"targets": ["openai", "gemini"]}, "toolcast.toml")
    assert listed.targets_named and listed.targets == ("openai", "gemini")
    every, _ = config_from_mapping({"targets": list(TARGETS)}, "toolcast.toml")  # all eight, named: as named
    assert every.targets_named
    table, _ = config_from_mapping({"targets": {"openai": {"strict": False}}}, "toolcast.toml")
    assert not table.targets_named
    off, _ = config_from_mapping({"targets": {"gemini": False}}, "toolcast.toml")
    assert off.targets_named and "gemini" not in off.targets
    assert CheckConfig().narrowed(targets=("mcp",)).targets_named
