"""Self-validation over the corpus: ``python -m tests.corpus.self_validation``.

For every (corpus tool, target), what ``toolcast convert`` does: writes the output (exit 0) or refuses it
(exit 2). A written output is judged by toolcast's own acceptor (``convert.accept.first_violation``); one it
rejects is an output that fails self-validation (0 since convert runs the acceptor on every output). The
refusals are counted by the rule (or, for the walker's own refusals, the keyword) they name.
"""

from __future__ import annotations

import collections
import warnings
from dataclasses import dataclass, field

from toolcast.adapters.convert import convert
from toolcast.adapters.convert.accept import first_violation
from toolcast.adapters.targets import TARGETS

from .harness import corpus, load


@dataclass
class Figures:
    written: int = 0
    refused: int = 0
    not_loaded: int = 0
    failing: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)  # (target, rule)
    refusals: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)  # (rule, target)
    examples: dict[tuple[str, str], str] = field(default_factory=dict)


def measure() -> Figures:
    figures = Figures()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for entry in corpus():
            loaded = load(entry).tool
            if loaded is None:
                figures.not_loaded += len(TARGETS)
                continue
            for target in TARGETS:
                conv = convert(loaded.tool, target)
                refused = next((x for x in conv.losses if x.action.value == "rejected"), None)
                if refused is not None:
                    figures.refused += 1
                    figures.refusals[(refused.keyword or "(schema)", target)] += 1
                    figures.examples.setdefault((refused.keyword, target), f"{entry.key}: {refused.message[:140]}")
                    continue
                figures.written += 1
                found = first_violation(target, conv.output)
                if found is not None:
                    figures.failing[(target, found.rule)] += 1
                    figures.examples.setdefault((found.rule, target), f"{entry.key}: {found.message[:140]}")
    return figures


def lines(figures: Figures) -> list[str]:
    out = [f"written {figures.written}, refused {figures.refused}, not loaded {figures.not_loaded} "
           f"(tool, target) pairs; written outputs failing self-validation: {sum(figures.failing.values())}"]
    for (target, rule), n in sorted(figures.failing.items()):
        out.append(f"  failing  {n:5d}  {target:16s} {rule}")
    out.append("refusals by rule:")
    out.append("| rule | " + " | ".join(TARGETS) + " | all |")
    out.append("|---|" + "---:|" * (len(TARGETS) + 1))
    for rule in sorted({r for r, _ in figures.refusals}):
        counts = [figures.refusals[(rule, t)] for t in TARGETS]
        out.append(f"| {rule} | " + " | ".join(str(c) for c in counts) + f" | {sum(counts)} |")
    return out


if __name__ == "__main__":
    print("\n".join(lines(measure())))
