"""Golden outputs per target and mode (`UPDATE_GOLDEN=1 pytest tests/convert/test_golden.py` rewrites them
after an intended change and then fails, naming the files it rewrote: a person reviews `git diff tests/golden`
and reruns without UPDATE_GOLDEN). The SDK validators check every golden output in test_sdk_golden.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from toolcast.adapters.convert import convert
from toolcast.adapters.loading import load_tools
from toolcast.adapters.targets import TARGETS, TargetOptions

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"
GOLDEN = HERE.parent / "golden"
CASES = ["kitchen_sink.tool.json", "mcp.json", "gemini.json", "legacy.tool.json"]
MODES = [(t, s) for t in TARGETS for s in ((True, False) if t in ("openai", "openai-responses", "anthropic",
                                                                 "bedrock") else (None,))]


def _folder(target: str, strict: bool | None) -> Path:
    suffix = "" if strict is None else ("-strict" if strict else "-nonstrict")
    return GOLDEN / f"{target}{suffix}"


@pytest.mark.parametrize("target,strict", MODES)
def test_golden(target: str, strict: bool | None) -> None:
    rewritten = []
    for case in CASES:
        loaded = load_tools(json.loads((FIXTURES / case).read_text(encoding="utf-8")))
        result = []
        for lt in loaded:
            conv = convert(lt.tool, target, TargetOptions(strict=strict))
            result.append({"output": conv.output, "losses": [loss.to_dict() for loss in conv.losses],
                           "roundtrip": conv.roundtrip})
        text = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
        path = _folder(target, strict) / case
        if os.environ.get("UPDATE_GOLDEN"):
            old = path.read_text(encoding="utf-8") if path.exists() else None
            if old != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                rewritten.append(str(path.relative_to(GOLDEN.parent.parent)))
            continue
        assert path.read_text(encoding="utf-8") == text, f"{path} differs; UPDATE_GOLDEN=1 after review"
    if os.environ.get("UPDATE_GOLDEN"):
        # Never a silent pass: a rewrite is reviewed by a person, then the suite runs without the variable.
        pytest.fail(f"UPDATE_GOLDEN is set: rewrote {rewritten or 'nothing (all equal)'}; review `git diff "
                    "tests/golden`, then rerun without UPDATE_GOLDEN", pytrace=False)
