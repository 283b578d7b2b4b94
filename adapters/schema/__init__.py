"""JSON Schema helpers with no opinion about providers: walking a schema's subschemas, the fast paths that
prove a schema or an instance valid without jsonschema, nesting depth, and validation with every pattern
matched under a time limit. ``convert`` (the output judge) and ``checks`` both use them.

The public names are imported on first use (PEP 562): ``instance_problems`` is the one way for a frontend
(a proxy checking a tool call's arguments, say) to validate a value against a schema without a hostile
pattern hanging it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports

if TYPE_CHECKING:
    from .bounded import BoundedValidator, instance_problems
    from .patterns import PatternTooCostly

_WHERE = {"BoundedValidator": "bounded", "instance_problems": "bounded", "PatternTooCostly": "patterns"}

__all__ = ["BoundedValidator", "PatternTooCostly", "instance_problems"]

__getattr__, __dir__ = exports(__name__, _WHERE, globals(), __all__)
