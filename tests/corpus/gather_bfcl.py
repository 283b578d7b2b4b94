"""Extract the function documents of the Berkeley Function Calling Leaderboard (not run by the test suite).

Usage::

    python -m tests.corpus.gather_bfcl GIT_DIR [--commit COMMIT] [--out tests/corpus]

``GIT_DIR`` is a clone of github.com/ShishirPatil/gorilla (a bare one is enough: files are read with
``git show COMMIT:PATH``). Each question line of the chosen data files carries a ``function`` list; the
distinct functions of a file (first occurrence order, compared as JSON) are recorded exactly as found,
dirty types (``"dict"``, ``"float"``, ``"tuple"``, ``"any"`` ...) included. The multi-turn API documents
(``multi_turn_func_doc/*.json``) are one function per line.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = "berkeley-function-call-leaderboard/bfcl_eval/data/"
FILES = {
    # corpus id → files (question files: "function" lists; func_doc: one function per line)
    "simple_python": ["BFCL_v4_simple_python.json"],
    "simple_java": ["BFCL_v4_simple_java.json"],
    "simple_javascript": ["BFCL_v4_simple_javascript.json"],
    "live_simple": ["BFCL_v4_live_simple.json"],
    "multi_turn_func_doc": [f"multi_turn_func_doc/{n}.json" for n in (
        "gorilla_file_system", "math_api", "memory_kv", "memory_rec_sum", "memory_vector", "message_api",
        "posting_api", "ticket_api", "trading_bot", "travel_booking", "vehicle_control", "web_search")],
}


def _show(git_dir: str, commit: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("git_dir")
    ap.add_argument("--commit", default="HEAD")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = ap.parse_args(argv)
    commit = subprocess.run(["git", "--git-dir", args.git_dir, "rev-parse", args.commit], check=True,
                            capture_output=True, text=True).stdout.strip()
    for cid, names in FILES.items():
        seen: dict[str, Any] = {}
        for name in names:
            for line in _show(args.git_dir, commit, DATA + name).splitlines():
                if not line.strip():
                    continue
                row = json.loads(line)
                functions = row.get("function", [row])
                for fn in functions:
                    seen.setdefault(json.dumps(fn, sort_keys=True), fn)
        record = {
            "source": {"kind": "BFCL function documents", "repository": "ShishirPatil/gorilla", "commit": commit,
                       "paths": [DATA + n for n in names]},
            "license": "Apache-2.0",
            "shape": "canonical",
            "tools": list(seen.values()),
        }
        path = args.out / f"bfcl-{cid.replace('_', '-')}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(seen)} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
