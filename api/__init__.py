"""toolcast as a library: one tool definition adapted for every provider, tool calls mapped back, checks.

The public API is ``__all__`` below, described in docs/api.md with its versioning policy. Everything under
``toolcast.adapters`` and ``toolcast.server`` is internal and may change in any release.

Names are imported on first use (PEP 562): the command line and the language server import this package
first (``toolcast.server`` is inside it) and must not pay for the converters to start."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolcast.adapters.lazy import exports

if TYPE_CHECKING:
    from toolcast.adapters.errors import ConversionError, ToolcastError
    from toolcast.adapters.losses import Loss

    from ._adapt import Adapted, AdaptedList, adapt, adapt_all, to_canonical
    from ._calls import CallProblem, MappedCall, map_call_back
    from ._check import Finding, check
    from ._providers import Provider, providers, targets

_WHERE = {
    "adapt": "_adapt", "adapt_all": "_adapt", "to_canonical": "_adapt", "Adapted": "_adapt", "AdaptedList": "_adapt",
    "map_call_back": "_calls", "MappedCall": "_calls", "CallProblem": "_calls",
    "check": "_check", "Finding": "_check",
    "targets": "_providers", "providers": "_providers", "Provider": "_providers",
    "ConversionError": "adapters.errors", "ToolcastError": "adapters.errors", "Loss": "adapters.losses",
}

__all__ = [
    "Adapted",
    "AdaptedList",
    "CallProblem",
    "ConversionError",
    "Finding",
    "Loss",
    "MappedCall",
    "Provider",
    "ToolcastError",
    "adapt",
    "adapt_all",
    "check",
    "map_call_back",
    "providers",
    "targets",
    "to_canonical",
]

__getattr__, __dir__ = exports(__name__, _WHERE, globals(), __all__)
