import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per tool checked from its text (``tool_checks.run_checks``): how warm or cold a check was."""
    from toolcast.adapters.checks import tool_checks

    counted: list[int] = []
    real = tool_checks.run_checks

    def run(ctx: Any) -> Any:
        counted.append(1)
        return real(ctx)

    monkeypatch.setattr(tool_checks, "run_checks", run)
    return counted
