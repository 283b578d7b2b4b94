"""``toolcast providers``: what each target keeps, lowers, folds, drops or rejects (from the profiles), and the
provider's own rules that hold in each mode (its profile's ``rules``, with their sources and confidence)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from toolcast.adapters.consumers import ConsumerRule, provider_rules
from toolcast.adapters.providers import capability_matrix

_SPECIAL = ("$ref", "oneOf", "allOf", "const", "type arrays", "additionalProperties", "recursion", "formats")
#: Said only where the mode has them.
_WHERE_GIVEN = ("pattern",)


def register(sub: Any) -> None:
    p = sub.add_parser("providers", help="print what every target keeps and loses, and its rules in each mode")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    data = capability_matrix()
    rules = {target: provider_rules(target) for target in data}
    if args.format == "json":
        print(json.dumps({target: {mode: {**row, "rules": [r.to_dict() for r in rules[target] if r.holds_in(mode)]}
                                   for mode, row in modes.items()} for target, modes in data.items()}, indent=2))
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
            held = [r for r in rules[target] if r.holds_in(mode)]
            if held:
                print("  rules:\n" + "\n".join(_said(r) for r in held))
    return 0


def _said(rule: ConsumerRule) -> str:
    """``id (kind setting=value …; effect): message [sources (confidence)]``."""
    what = [rule.kind, *(f"{k}={','.join(map(str, v)) if isinstance(v, tuple) else v}"
                         for k, v in rule.settings.items())]
    return f"    {rule.id} ({' '.join(what)}; {rule.effect}): {rule.message} [{rule.cite()}]"
