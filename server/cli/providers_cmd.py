"""``toolcast providers``: what each target keeps, lowers, folds, drops or rejects (from the profiles)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from toolcast.adapters.providers import capability_matrix

_SPECIAL = ("$ref", "oneOf", "allOf", "const", "type arrays", "additionalProperties", "recursion", "formats")
#: Said only where the mode has them.
_WHERE_GIVEN = ("pattern",)


def register(sub: Any) -> None:
    p = sub.add_parser("providers", help="print the capability matrix of every target")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    data = capability_matrix()
    if args.format == "json":
        print(json.dumps(data, indent=2))
        return 0
    for target, modes in data.items():
        for mode, row in modes.items():
            print(f"{target} ({mode})")
            special = [f"  {k}: {row[k]}" for k in _SPECIAL]
            given = {k: row[k] for k in _WHERE_GIVEN if k in row and row[k].startswith("compiled")}
            special += [f"  {k}: {v}" for k, v in given.items()]
            others = sorted(k for k in row if k not in _SPECIAL and k not in given)
            print("\n".join(special))
            if others:
                print("  not kept: " + ", ".join(f"{k} ({row[k]})" for k in others))
    return 0
