"""The cold oracle is cold: a fresh ``Analyzer`` (and a call without one) checks every tool again, an
analyzer remembers only what it was given, and every table of an analyzer is used and emptied by
``clear``."""

from __future__ import annotations

import json
from pathlib import Path

from cold_oracle import cold_findings, fresh_process_findings, summary
from toolcast.adapters.checks import Analyzer, CheckConfig, check_document

CONFIG = CheckConfig(targets=("openai", "gemini"))


def _text(n: int) -> str:
    params = {"type": "object", "properties": {"n": {"type": "int"}}, "required": ["n", "ghost"]}
    return json.dumps([{"name": f"cold_{i}", "description": "d", "parameters": params} for i in range(n)], indent=2)


def test_a_fresh_analyzer_checks_every_tool_again(runs: list[int]) -> None:
    text = _text(5)
    warm = Analyzer()
    first = check_document(text, config=CONFIG, analyzer=warm).findings
    assert len(runs) == 5
    runs.clear()
    assert check_document(text, config=CONFIG, analyzer=warm).findings == first and len(runs) == 0  # warm
    assert cold_findings(text, CONFIG) == first and len(runs) == 5  # a fresh analyzer: every tool again
    runs.clear()
    # No analyzer: cold too, every time (no hidden module-level one).
    assert check_document(text, config=CONFIG).findings == first and len(runs) == 5
    assert check_document(text, config=CONFIG).findings == first and len(runs) == 10
    # The warm analyzer was not touched by the cold checks, nor they by it.
    runs.clear()
    assert check_document(text, config=CONFIG, analyzer=warm).findings == first and len(runs) == 0


def test_clear_makes_an_analyzer_cold(runs: list[int]) -> None:
    text = _text(4)
    analyzer = Analyzer()
    first = check_document(text, config=CONFIG, analyzer=analyzer).findings
    analyzer.clear()
    assert not any(analyzer.sizes().values())
    runs.clear()
    assert check_document(text, config=CONFIG, analyzer=analyzer).findings == first and len(runs) == 4


def test_every_table_of_an_analyzer_is_used(tmp_path: Path) -> None:
    """A table nothing fills would be a cache that moved somewhere else; ``clear`` empties them all."""
    (tmp_path / "defs.json").write_text('{"$defs": {"n": {"type": "integer"}}}', encoding="utf-8")
    tool = {"name": "t", "description": "d", "parameters": {"type": "object", "properties": {
        "n": {"$ref": "defs.json#/$defs/n"}}}}
    analyzer = Analyzer()
    text = json.dumps([tool], indent=2)
    check_document(text, path=str(tmp_path / "a.tool.json"), config=CONFIG, analyzer=analyzer)
    assert analyzer.parse(text) is analyzer.parse(text)  # the document the check parsed
    sizes = analyzer.sizes()
    assert all(sizes.values()), sizes
    analyzer.clear()
    assert not any(analyzer.sizes().values())


def test_a_fresh_process_agrees_with_a_fresh_analyzer() -> None:
    text = _text(3)
    here = summary(cold_findings(text, CONFIG))
    assert here == fresh_process_findings(text, {"targets": ["openai", "gemini"]})
    assert any(row[0] == "TC302" for row in here)


def test_a_check_pauses_the_cycle_collector_and_restores_it() -> None:
    import gc


    tools = ",".join(f'{{"name": "t{i}", "description": "d", "parameters": {{"type": "object", "properties": '
                     f'{{"a": {{"type": "string"}}}}}}}}' for i in range(300))
    check_document("[]")  # the checks imported
    assert gc.isenabled()
    gc.collect()
    before = gc.get_stats()[0]["collections"]
    check_document(f"[{tools}]")  # tens of thousands of allocations: passes would run
    # Unpaused, this check runs about ten passes; paused, at most the one that the allocations made meanwhile
    # start as soon as the collector is back.
    assert gc.get_stats()[0]["collections"] - before <= 1
    assert gc.isenabled()
    gc.disable()
    try:
        check_document(f"[{tools}]")
        assert not gc.isenabled()  # a caller's choice stays
    finally:
        gc.enable()


def test_background_slices_pause_the_cycle_collector_too() -> None:
    """A large file's first check goes on in ``resume`` slices (the server's background): they allocate as
    the check does, and a full pass there stalls the edits waiting behind the slice."""
    import gc

    from toolcast.adapters.checks import Analyzer

    tools = ",".join(f'{{"name": "t{i}", "description": "d", "parameters": {{"type": "object", "properties": '
                     f'{{"a": {{"type": "string"}}}}}}}}' for i in range(300))
    analyzer = Analyzer()
    check_document("[]", analyzer=analyzer)
    report = check_document(f"[{tools}]", budget=0.0, analyzer=analyzer)
    assert report.pending == 300 and report.resume is not None and gc.isenabled()
    gc.collect()
    before = gc.get_stats()[0]["collections"]
    assert report.resume(600.0) == 0
    assert gc.get_stats()[0]["collections"] - before <= 1
    assert gc.isenabled()
