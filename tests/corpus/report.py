"""Figures of the real-world corpus: ``python -m tests.corpus.report [--write-known] [--top N] [--examples]``.

Prints, per target, how many corpus tools convert to valid output, valid with a meaning-changing loss
(repaired), clean refusals, invalid output and crashes; then the most frequent invalidity reasons (each
invalid pair counted once per distinct reason class), the sources, and how many tools toolcast's shape
detection does not recognise as the shape they were found in. ``--write-known`` rewrites
``known_invalid.json`` from this run (the strict expected-failure list of test_corpus).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys

from toolcast.adapters.targets import TARGETS

from .harness import OUTCOMES, Outcome, all_outcomes, corpus, corpus_files, load, write_known_invalid


def table(outcomes: dict[tuple[str, str], Outcome]) -> list[str]:
    """The per-target figures as a Markdown table."""
    lines = [f"| target | {' | '.join(OUTCOMES)} |", "|---|" + "---:|" * len(OUTCOMES)]
    total: collections.Counter[str] = collections.Counter()
    for t in TARGETS:
        c = collections.Counter(o.kind for (_, tt), o in outcomes.items() if tt == t)
        total.update(c)
        lines.append(f"| {t} | " + " | ".join(str(c[k]) for k in OUTCOMES) + " |")
    lines.append("| **all** | " + " | ".join(str(total[k]) for k in OUTCOMES) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write-known", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--examples", action="store_true", help="one example tool per reason")
    ap.add_argument("--source", nargs="*", help="only the corpus files whose names start with these (mcp, bfcl ...)")
    args = ap.parse_args(argv)
    prefixes = tuple(args.source or ("",))
    entries = [e for e in corpus() if e.file.startswith(prefixes)]
    outcomes = {k: o for k, o in all_outcomes().items() if k[0].startswith(prefixes)}

    by_source: collections.Counter[str] = collections.Counter()
    for path in corpus_files():
        if not path.name.startswith(prefixes):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        by_source[path.name.split("-", 1)[0]] += len(data["tools"])
    print(f"corpus: {len(entries)} tools from {len({e.file for e in entries})} files — "
          + ", ".join(f"{k}: {v}" for k, v in sorted(by_source.items())))
    mismatched = [e for e in entries if e.shape != "schema" and load(e).detected != e.shape]
    print(f"shape detection: {len(mismatched)} of {len(entries)} tools are not detected as the shape they were "
          f"found in (they need --from); by found shape: "
          + ", ".join(f"{s}→{d}: {n}" for (s, d), n in collections.Counter(
              (e.shape, load(e).detected) for e in mismatched).most_common()))
    print()
    print("\n".join(table(outcomes)))
    print()
    reasons: collections.Counter[tuple[str, str]] = collections.Counter()
    example: dict[tuple[str, str], str] = {}
    for (key, t), o in outcomes.items():
        if o.kind == "invalid":
            for cls in dict.fromkeys(c for c, _ in o.problems) or [o.reason]:
                group = "openai*" if t in ("openai", "openai-responses") else t
                reasons[(group, cls)] += 1
                example.setdefault((group, cls), f"{key} {t}: {next((d for c, d in o.problems if c == cls), '')}")
        elif o.kind == "crash":
            reasons[(t, "CRASH " + o.reason)] += 1
            example.setdefault((t, "CRASH " + o.reason), f"{key}: {o.detail}")
    print(f"top invalidity reasons (pairs; openai* = openai + openai-responses), {len(reasons)} classes:")
    for (group, cls), n in reasons.most_common(args.top):
        print(f"  {n:5d}  {group:12s} {cls}")
        if args.examples:
            print(f"         e.g. {example[(group, cls)]}")
    refusals = collections.Counter((t, o.reason[:90]) for (_, t), o in outcomes.items() if o.kind == "refused")
    if refusals:
        print("\nrefusals:")
        for (t, msg), n in refusals.most_common(args.top):
            print(f"  {n:5d}  {t:12s} {msg}")
    if args.write_known:
        n = write_known_invalid(all_outcomes())
        print(f"\nknown_invalid.json: {n} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
