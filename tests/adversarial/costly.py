"""Inputs whose cost grew faster than their size: many files defining one tool name, and tool files written
on one line. Shared by the probes here and by bench/bench_costs.py (which prints their figures)."""

from __future__ import annotations

import json
from pathlib import Path


def tool(name: str) -> dict[str, object]:
    """A small tool with one finding by default (strict mode closing its parameters, TC510)."""
    prop = {"type": "string", "description": "what to look for"}
    return {"name": name, "description": "Search the documents.",
            "parameters": {"type": "object", "properties": {"q": prop}, "required": ["q"]}}


def same_name_files(folder: Path, count: int, name: str = "search") -> list[Path]:
    """``count`` tool files each defining a tool called ``name`` (TC202 in every one of them)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"t{i:06d}.tool.json"
        path.write_text(json.dumps(tool(name)), encoding="utf-8")
        paths.append(path)
    return paths


def project_files(folder: Path, count: int, shared: str = "shared") -> list[Path]:
    """``count`` tool files with a tool name each of its own, but the first and the last share ``shared``
    (a TC202 in each of the two)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"f{i:06d}.tool.json"
        path.write_text(json.dumps(tool(shared if i in (0, count - 1) else f"tool_{i}")), encoding="utf-8")
        paths.append(path)
    return paths


def minified_tools(path: Path, count: int) -> Path:
    """``count`` tools on one line, as a minifier writes them."""
    tools = [tool(f"t{i}") for i in range(count)]
    path.write_text(json.dumps(tools, separators=(",", ":")), encoding="utf-8")
    return path


def duplicate_keys_line(path: Path, count: int) -> Path:
    """One tool on one line with ``count`` repeated keys (TC002 for each repetition)."""
    keys = ",".join('"x":1' for _ in range(count))
    path.write_text('{"name":"a","description":"d",' + keys + ',"parameters":{"type":"object"}}', encoding="utf-8")
    return path
