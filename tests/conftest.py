"""Shared test helpers live in this folder (``cold_oracle``, ``loss_oracle``): make them importable from
every test folder (the suite runs with ``--import-mode=importlib``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
