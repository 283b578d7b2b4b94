"""``toolcast providers``: what each target keeps, lowers, folds, drops or rejects (from the profiles)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from toolcast.adapters.convert import load_profile
from toolcast.adapters.targets import TARGETS

_SPECIAL = ("$ref", "oneOf", "allOf", "const", "type arrays", "additionalProperties", "recursion", "formats")


def register(sub: Any) -> None:
    p = sub.add_parser("providers", help="print the capability matrix of every target")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def matrix() -> dict[str, dict[str, dict[str, str]]]:
    """target → mode → keyword → what happens to it."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for target in TARGETS:
        profile = load_profile(target)
        for name, mode in profile["modes"].items():
            row = {k: {"fold": "folded", "drop": "dropped", "reject": "rejected"}.get(v, v)
                   for k, v in mode.get("keywords", {}).items()}
            row["$ref"] = "inlined" if mode.get("refs") == "inline" or not mode.get("recursion") else "kept"
            row["recursion"] = "kept" if mode.get("recursion") and mode.get("refs") != "inline" else "cut"
            row["oneOf"] = "as anyOf" if mode.get("oneOf") == "anyOf" else "kept"
            row["allOf"] = "merged" if mode.get("allOf") == "merge" else "kept"
            row["const"] = "as enum" if mode.get("const") == "enum" else "kept"
            row["type arrays"] = "as nullable" if mode.get("type_arrays") == "nullable" else "kept"
            row["additionalProperties"] = ("dropped" if mode.get("additionalProperties") == "drop"
                                           else "false only" if mode.get("closed_objects") else "kept")
            formats = mode.get("formats")
            row["formats"] = "all" if formats is None else ", ".join(
                sorted(formats) if isinstance(formats, list) else sorted(f for v in formats.values() for f in v))
            out.setdefault(target, {})[name] = row
    return out


def run(args: argparse.Namespace) -> int:
    data = matrix()
    if args.format == "json":
        print(json.dumps(data, indent=2))
        return 0
    for target, modes in data.items():
        for mode, row in modes.items():
            print(f"{target} ({mode})")
            special = [f"  {k}: {row[k]}" for k in _SPECIAL]
            others = sorted(k for k in row if k not in _SPECIAL)
            print("\n".join(special))
            if others:
                print("  not kept: " + ", ".join(f"{k} ({row[k]})" for k in others))
    return 0
