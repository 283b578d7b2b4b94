"""No dead code in the package: vulture finds nothing unused but the names scripts/vulture_allowlist.py keeps,
each with its reason (.ci/run runs the same command)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_vulture_finds_no_dead_code() -> None:
    done = subprocess.run([sys.executable, "-m", "vulture", "adapters", "api", "server",
                           "scripts/vulture_allowlist.py", "--min-confidence", "60"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
