"""Conversion of canonical tools to every target, driven by the capability profiles."""

from ..providers import load_profile
from .convert_tool import Conversion, ListConversion, convert, convert_all, mode_name, sanitize_name
from .walker import lower

__all__ = [
    "Conversion", "ListConversion", "convert", "convert_all", "load_profile", "lower", "mode_name",
    "sanitize_name",
]
