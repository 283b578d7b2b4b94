#!/usr/bin/env python3
"""The import contracts (pyproject's [tool.importlinter]) checked by import-linter over the installed layout.

    scripts/lint_imports.py [lint-imports options]

The package is mapped from several folders (pyproject's package-dir), which import-linter's graph builder
(grimp) cannot follow, so it reads the symlinked view scripts/structure.py makes. Exit status: lint-imports'.
"""

from __future__ import annotations

import os
import subprocess
import sys

from structure import ROOT, package_view


def main(argv: list[str]) -> int:
    with package_view() as view:
        env = {**os.environ, "PYTHONPATH": str(view)}
        command = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
                   str(ROOT / "pyproject.toml"), "--no-cache", *argv]
        return subprocess.run(command, cwd=view, env=env, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
