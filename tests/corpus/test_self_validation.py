"""Every (corpus tool, target) output passes the corpus harness (the independent oracle: SDK types and rules
written from providers.md) or is refused with a message, and no output toolcast writes fails its own judge
(``convert.accept``). The refusals, by rule, are printed (``-s``) for the record."""

from __future__ import annotations

import warnings

from .harness import all_outcomes
from .self_validation import lines, measure


def test_every_pair_passes_the_oracle_or_is_refused_with_a_message() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outcomes = all_outcomes()
    bad = {k: o for k, o in outcomes.items() if o.kind in ("invalid", "crash")}
    assert not bad, sorted(bad.items())[:20]
    refused = [o for o in outcomes.values() if o.kind == "refused"]
    assert all(o.reason.strip() for o in refused)


def test_no_written_output_fails_self_validation() -> None:
    figures = measure()
    print("\n".join(lines(figures)))
    assert figures.written > 10_000
    assert not figures.failing, figures.failing
    # every refusal names what refused it
    assert all(rule and rule != "(schema)" for rule, _ in figures.refusals)
