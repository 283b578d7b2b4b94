"""The forms a tool is judged in under a configuration: ``convert.forms.choose`` asked with the checks'
conversion. With no targets named, each tool is checked in its providers' chosen forms (``judged_config``),
hover says which and why (``choices``), and the token estimates count the form sent (``sent_options``)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..convert import convert
from ..convert.forms import choose, named_strict, sent_strict
from ..convert.shared import SharedLowering
from ..errors import ToolcastError
from ..loading import load_tools
from ..providers import has_strict
from ..targets import TargetOptions
from .config import CheckConfig


def _loaded(value: Any, shape: str | None) -> Any:
    try:
        loaded = load_tools(value, shape if shape not in (None, "canonical") else None)
    except (ToolcastError, ValueError, TypeError, KeyError):
        return None
    return loaded[0].tool if loaded else None


def _converter() -> Any:
    shared = SharedLowering()  # each distinct mode walked once; only the losses are read

    def converted(tool: Any, target: str, options: TargetOptions) -> Any:
        return convert(tool, target, options, lowering=shared)

    return converted


def choices(value: Any, shape: str | None, config: CheckConfig) -> tuple[Any, ...] | None:
    """``convert.forms.Choice`` per provider (or per named target) for the tool object ``value``; None when it
    does not load (discovery findings say why)."""
    tool = _loaded(value, shape)
    if tool is None:
        return None
    try:
        return choose(tool, config.targets if config.exact_targets else None, config.options_for, _converter())
    except ToolcastError:
        return None


def judged_config(value: Any, shape: str | None, config: CheckConfig) -> CheckConfig:
    """``config`` with its targets the forms the tool is judged in, each with its strictness: unchanged when
    the user named the targets or the tool does not load."""
    if config.exact_targets:
        return config
    found = choices(value, shape, config)
    if found is None:
        return config
    options = {t: c.options[t] for c in found for t in c.targets}
    targets = tuple(t for c in found for t in c.targets)
    return replace(config, targets=targets, target_options=MappingProxyType(options), targets_named=True)


def sent_options(value: Any, shape: str | None, target: str, config: CheckConfig) -> TargetOptions:
    """The options ``target`` is sent with for this tool: the configured ones, with the strictness the user
    or the tool states, else the named target's default, else the chooser's (``convert.forms``)."""
    options = config.options_for(target)
    if options.strict is not None or not has_strict(target):
        return options
    tool = _loaded(value, shape)
    if tool is None:
        return options
    try:
        strict = (named_strict(target, tool.overrides, tool.source_format, options) if config.exact_targets
                  else sent_strict(tool, target, options, _converter()))
    except ToolcastError:
        return options
    return replace(options, strict=strict)
