"""The architecture holds: the import contracts (pyproject's [tool.importlinter]) are kept, no module takes part
in an import loop (imports inside functions and under TYPE_CHECKING included), and no underscore name is
imported from another module. The graph is grimp's, the one import-linter checks, over the installed layout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import structure  # noqa: E402  (scripts/structure.py, found through the path above)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    with structure.package_view() as view:
        return structure.import_graph(view)


def test_the_graph_is_the_whole_package(graph: dict[str, set[str]]) -> None:
    # The view must hold every source file: a graph of the API's five modules alone would have no loops.
    files = {module for module, _ in structure.source_files()}
    assert files <= set(graph)
    assert "toolcast.adapters.checks.engine" in graph["toolcast.adapters.checks.analyzer"] or any(
        "toolcast.adapters.checks.engine" in targets for targets in graph.values())


def test_building_the_graph_leaves_the_loaded_toolcast_alone() -> None:
    # The graph is built in the test process: the modules other tests hold must still be the ones imported.
    import toolcast.adapters.checks as checks

    with structure.package_view() as view:
        structure.import_graph(view)
    assert sys.modules["toolcast.adapters.checks"] is checks


def test_no_import_loops(graph: dict[str, set[str]]) -> None:
    loops = structure.simple_cycles(graph)
    assert not loops, "import loops:\n" + "\n".join(" → ".join([*loop, loop[0]]) for loop in loops)


def test_simple_cycles_finds_every_loop_once() -> None:
    # The counter itself, on a graph whose loops are known: a→b→a, a→b→c→a, and the self-loop d→d.
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"a"}, "d": {"d"}}
    assert sorted(structure.simple_cycles(graph)) == [["a", "b"], ["a", "b", "c"], ["d"]]


def test_no_private_name_crosses_a_module_line() -> None:
    found = [line for module, path in structure.source_files()
             for line in structure.private_imports(module, path)]
    assert not found, "\n".join(found)


def test_no_function_is_longer_than_60_lines() -> None:
    """A function a reader cannot see whole is split; the counter is held on a known tree as well."""
    import ast

    found = [f"{name} ({lines} lines)" for module, path in structure.source_files()
             for name, lines in structure.function_lengths(module, ast.parse(path.read_text(encoding="utf-8")))
             if lines > 60]
    assert not found, "\n".join(found)
    tree = ast.parse("def f():\n" + "    x = 1\n" * 61 + "class C:\n    def g(self):\n        pass\n")
    assert dict(structure.function_lengths("m", tree)) == {"m:f": 62, "m:C.g": 2}


def test_the_import_contracts_are_kept() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "lint_imports.py")], capture_output=True,
                         text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "BROKEN" not in run.stdout and "Contracts: " in run.stdout
