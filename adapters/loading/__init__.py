"""Loading tool files of every shape into canonical tools (and back: reverse conversion)."""

from .read import LoadedTool, ToolObject, apply_roundtrip, iter_tool_objects, load_tools, to_canonical
from .shapes import FIELDS, detect_shape, is_name_only

__all__ = [
    "FIELDS", "LoadedTool", "ToolObject", "apply_roundtrip", "detect_shape", "is_name_only", "iter_tool_objects",
    "load_tools", "to_canonical",
]
