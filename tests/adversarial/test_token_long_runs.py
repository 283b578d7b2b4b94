"""A tool whose description is 100 KB without a space (a pasted blob, a minified string): counting its tokens
must take time linear in its length. BPE merges inside a pre-token in quadratic time, and such a run is one
pre-token, so before toolcast cut long runs `check --cost` took minutes on it and a hover on the tool's name
held the language server as long."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bounded import toolcast

#: Far above what linear counting needs on a loaded two-core machine; far below what the quadratic merge took.
LIMIT = 60.0


def _blob(size: int) -> str:
    letters = random.Random(7)
    return "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(size))


def test_check_cost_on_a_100_kb_description_without_spaces_is_bounded(tmp_path: Path) -> None:
    tool = {"name": "blob", "description": _blob(100_000),
            "parameters": {"type": "object", "properties": {"q": {"type": "string", "description": _blob(20_000)}}}}
    (tmp_path / "blob.tools.json").write_text(json.dumps([tool]), encoding="utf-8")
    done = toolcast("check", "--cost", "--format", "json", "--target", "openai", "--target", "anthropic",
                    "--target", "gemini", "blob.tools.json", cwd=tmp_path, timeout=LIMIT)
    assert not done.timed_out, f"check --cost did not finish within {LIMIT} s"
    assert "Traceback" not in done.stderr, done.stderr
    totals = json.loads(done.stdout)["costs"]["files"][0]["total"]
    # A count, not a refusal (OpenAI's conversion shortens the description to the API's limit first); Anthropic
    # keeps it whole: about one token per 2 to 4 random letters.
    assert all(isinstance(n, int) and n > 1_000 for n in totals.values()), totals
    assert 120_000 / 5 < totals["anthropic"] < 120_000, totals
