"""Figures about toolcast's structure, printed for a reader and for the architecture tests.

    scripts/structure.py [--json]

Counts, over the source folders mapped into the package (api/, adapters/, server/):
- import loops: simple cycles of the module import graph, counting imports written inside functions and under
  TYPE_CHECKING (grimp, the graph import-linter checks);
- private names imported across modules (``from toolcast.x import _name``);
- imports written inside functions (each one listed, with its reason, in tests/project/test_function_imports.py);
- ``# type: ignore`` comments;
- functions longer than 60 lines, and the longest one.

The package is mapped from several folders (pyproject's package-dir), which grimp cannot follow, so it reads a
view: a temporary ``toolcast/`` of symlinks, the same one scripts/typecheck.sh gives mypy.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where each part of the package lives in the checkout.
FOLDERS = {"toolcast": ROOT / "api", "toolcast.adapters": ROOT / "adapters", "toolcast.server": ROOT / "server"}
LONG = 60


@contextlib.contextmanager
def package_view() -> Iterator[Path]:
    """A folder holding ``toolcast/`` as installed, made of symlinks to the checkout; put it first on sys.path."""
    with tempfile.TemporaryDirectory(prefix="toolcast-view-") as tmp:
        view = Path(tmp)
        pkg = view / "toolcast"
        pkg.mkdir()
        for entry in (ROOT / "api").iterdir():
            (pkg / entry.name).symlink_to(entry)
        for name in ("adapters", "server", "schemas"):
            (pkg / name).symlink_to(ROOT / name)
        yield view


def import_graph(view: Path) -> dict[str, set[str]]:
    """Module → modules it imports, inside toolcast only, from grimp over the view."""
    import grimp

    # grimp finds the package through importlib, which answers with an imported toolcast when there is one: set
    # the loaded modules aside for the build (a test process goes on using them) and put them back after.
    loaded = {m: sys.modules.pop(m) for m in list(sys.modules) if m == "toolcast" or m.startswith("toolcast.")}
    sys.path.insert(0, str(view))
    try:
        graph = grimp.build_graph("toolcast", cache_dir=None)
    finally:
        sys.path.remove(str(view))
        for name in [m for m in sys.modules if m == "toolcast" or m.startswith("toolcast.")]:
            del sys.modules[name]
        sys.modules.update(loaded)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def simple_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every elementary cycle, each once, starting at its smallest module (the graph is small)."""
    found: list[list[str]] = []
    for start in sorted(graph):
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    found.append(path)
                elif nxt > start and nxt not in path:
                    stack.append((nxt, [*path, nxt]))
    return found


def source_files() -> Iterator[tuple[str, Path]]:
    for package, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            yield ".".join([package, *parts]), path


@dataclass
class Figures:
    modules: int = 0
    loops: list[list[str]] = field(default_factory=list)
    private_imports: list[str] = field(default_factory=list)
    function_imports: int = 0
    type_ignores: int = 0
    long_functions: list[tuple[str, int]] = field(default_factory=list)
    longest: tuple[str, int] = ("-", 0)


def function_lengths(module: str, tree: ast.AST) -> Iterator[tuple[str, int]]:
    def visit(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef):
                end = child.end_lineno or child.lineno
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                yield f"{prefix}{child.name}", end - start + 1
                yield from visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from visit(child, f"{prefix}{child.name}.")
            else:
                yield from visit(child, prefix)

    yield from visit(tree, f"{module}:")


def private_imports(module: str, path: Path) -> Iterator[str]:
    """``from toolcast.x import _name`` (absolute or relative) in ``module``'s source, for another module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = _absolute(module, path, node)
        if not source.startswith("toolcast") or source == module:
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                yield f"{module} ← {source}.{alias.name}"


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from`` import names, relative levels resolved against ``module`` (at ``path``)."""
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    base = package.split(".")
    return ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))


def function_imports(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """(imported module, line) for each import written inside a function of ``module``'s source; a ``from``
    import counts as its module, relative levels resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, ast.Import):
                yield from ((alias.name, child.lineno) for alias in child.names)
            elif in_function and isinstance(child, ast.ImportFrom):
                yield _absolute(module, path, child), child.lineno
            yield from walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    yield from walk(tree, False)


def measure() -> Figures:
    figures = Figures()
    for module, path in source_files():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        figures.type_ignores += text.count("# type: ignore")
        figures.private_imports.extend(private_imports(module, path))
        figures.function_imports += sum(1 for _ in function_imports(module, path))
        for name, size in function_lengths(module, tree):
            if size > LONG:
                figures.long_functions.append((name, size))
            if size > figures.longest[1]:
                figures.longest = (name, size)
    figures.long_functions.sort(key=lambda item: -item[1])
    with package_view() as view:
        graph = import_graph(view)
    figures.modules = len(graph)
    figures.loops = simple_cycles(graph)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure()
    if args.json:
        print(json.dumps(asdict(figures), indent=2))
        return 0
    longest = figures.longest
    print(f"modules                          {figures.modules}")
    print(f"import loops (simple cycles)     {len(figures.loops)}")
    print(f"private names across modules     {len(figures.private_imports)}")
    print(f"imports inside functions         {figures.function_imports}")
    print(f"# type: ignore                   {figures.type_ignores}")
    print(f"functions over {LONG} lines          {len(figures.long_functions)}")
    print(f"longest function                 {longest[0]} ({longest[1]} lines)")
    for loop in figures.loops:
        print("  loop: " + " → ".join(m.removeprefix("toolcast.") for m in [*loop, loop[0]]))
    for line in figures.private_imports:
        print("  private: " + line.replace("toolcast.", ""))
    for name, size in figures.long_functions:
        print(f"  long: {size:4d} {name.replace('toolcast.', '')}")
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    raise SystemExit(main())
