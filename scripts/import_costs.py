"""What each import written inside a function keeps off toolcast's start-up paths: the modules that moving it to
the top of its module would load on each path that loads its module (nothing on every path: it can move).

    .venv/bin/python scripts/import_costs.py [--all]

The start-up paths: the language server answering ``initialize`` (``initialize``), ``toolcast check`` of a one-tool
file with no findings (``check``), ``toolcast --version`` (``version``), ``import toolcast`` and ``toolcast.Finding``
(``library``), and registering the commands (``register`` for ``toolcast --help``, ``register NAME`` for
``toolcast NAME --help``). Each path runs in a fresh interpreter; each import is then run in a fork of it.
tests/project/test_function_imports.py holds the reason of each import and measures it with this."""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import structure

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "examples" / "get_weather.tool.json"  # one tool, no findings
COMMANDS = ("serve", "check", "convert", "explain", "providers", "request", "snapshot", "proxy")
PATHS = ("initialize", "check", "version", "library", "register", *(f"register {name}" for name in COMMANDS))

#: Goes down one start-up path, then, for each statement read from stdin whose module it has loaded, runs the
#: statement in a fork and prints the modules that loaded (a statement that fails counts as loading nothing).
_PROBE = r"""
import contextlib, io, json, os, sys
path, tool = sys.argv[1], sys.argv[2]

def cli(*argv):
    from toolcast.server.cli import main
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        with contextlib.suppress(SystemExit):
            main(list(argv))

if path == "initialize":
    from toolcast.server.cli import build_parser
    build_parser("serve")
    import toolcast.server.lsp.app, toolcast.server.lsp.allocator
elif path == "check":
    cli("check", tool)
elif path == "version":
    cli("--version")
elif path == "library":
    import toolcast
    toolcast.Finding
elif path.startswith("register"):
    from toolcast.server.cli import build_parser
    build_parser(path.partition(" ")[2] or None)
loaded = set(sys.modules)
out = {}
for key, (module, statement) in json.load(sys.stdin).items():
    if module not in loaded:
        continue
    read, write = os.pipe()
    if os.fork() == 0:
        try:
            exec(statement, {})
            os.write(write, json.dumps(sorted(set(sys.modules) - loaded)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        out[key] = json.loads(answer.read() or "[]")
    os.wait()
print(json.dumps(out))
"""


def statements() -> dict[str, tuple[str, str, str]]:
    """'file:line' → (the importing module, the module it imports, the statement with relative levels resolved),
    for each import written inside a function."""
    out = {}
    for module, path in structure.source_files():
        rel = path.relative_to(ROOT).as_posix()
        found = {line: imported for imported, line in structure.function_imports(module, path)}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno in found:
                names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in node.names)
                imported = found[node.lineno]
                statement = f"from {imported} import {names}" if isinstance(node, ast.ImportFrom) else f"import {names}"
                out[f"{rel}:{node.lineno}"] = (module, imported, statement)
    return out


def added(path: str, asked: Mapping[str, tuple[str, str]]) -> dict[str, list[str]]:
    """For each asked 'file:line' → (importing module, statement) whose module ``path`` loads: the modules the
    statement loads there that the path had not."""
    done = subprocess.run([sys.executable, "-c", _PROBE, path, str(TOOL)], input=json.dumps(asked),
                          capture_output=True, text=True, timeout=300, check=True)
    answer: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="also list the modules loaded, not only how many")
    args = parser.parse_args(argv)
    found = statements()
    asked = {key: (module, statement) for key, (module, _, statement) in found.items()}
    costs: dict[str, dict[str, list[str]]] = {key: {} for key in found}
    for path in PATHS:
        for key, modules in added(path, asked).items():
            costs[key][path] = modules
    for key, (_, _, statement) in found.items():
        where = "; ".join(f"{path} +{len(mods)}" + (f" ({', '.join(mods)})" if args.all else "")
                          for path, mods in costs[key].items() if mods)
        if not costs[key]:
            where = "its module loads on no start-up path: moving it costs none (unless it is an optional extra)"
        elif not where:
            where = f"loads nothing new on the paths that load its module ({', '.join(costs[key])}): it can move"
        print(f"{key}: {statement}\n    {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
