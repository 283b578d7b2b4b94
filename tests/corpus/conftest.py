"""Print the corpus figures (valid / repaired / refused / invalid / crash per target) after a run that used them."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from .harness import all_outcomes

    if not all_outcomes.cache_info().currsize:
        return
    from .report import table

    terminalreporter.section("real-world corpus: outcome per target (tool count)")
    for line in table(all_outcomes()):
        terminalreporter.write_line(line)
