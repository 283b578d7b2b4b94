"""``toolcast explain CODE`` / ``toolcast explain --list``: the rule registry's documentation."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("explain", help="explain a check code (e.g. TC101), or list every rule")
    p.add_argument("code", nargs="?", help="rule code such as TC101, or a rule name such as name-missing")
    p.add_argument("--list", action="store_true", help="list every rule: code, name, severity, summary")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from toolcast.adapters.checks import RULES, Rule, rule_url

    if args.list:
        for entry in RULES.values():
            fix = " (fix)" if entry.fix_available else ""
            print(f"{entry.code}  {entry.name:<34} {entry.severity.value:<8} {entry.summary}{fix}")
        return 0
    if not args.code:
        print("toolcast explain: give a rule code (e.g. TC101) or --list", file=sys.stderr)
        return 2
    wanted = args.code.strip()
    rule: Rule | None = RULES.get(wanted.upper()) or next(
        (r for r in RULES.values() if r.name == wanted.lower()), None
    )
    if rule is None:
        print(
            f"toolcast explain: unknown rule {wanted!r}; `toolcast explain --list` shows them all",
            file=sys.stderr,
        )
        return 2
    print(f"{rule.code} {rule.name} ({rule.severity.value})\n")
    print(rule.summary + "\n")
    print(rule.doc)
    print(f"Fix available: {'yes' if rule.fix_available else 'no'}")
    more = rule_url(rule.code)
    if more is not None:  # the installed docs/rules.md
        print(f"More: {more}")
    return 0
