"""Start-up (issue 15, part 5): what the language server imports before it can answer ``initialize``,
and what each command line entry imports. Import sets, not timings: the time is measured by
``bench/bench_startup.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

import toolcast.server

#: Loaded only once a document is checked, exported or converted, never to answer ``initialize``.
NOT_AT_INITIALIZE = (
    "toolcast.adapters.checks.engine", "toolcast.adapters.checks.tool_checks", "toolcast.adapters.checks.entry",
    "toolcast.adapters.checks.config", "toolcast.adapters.checks.loss_findings", "toolcast.adapters.document.parser",
    "toolcast.adapters.document.parsed", "toolcast.adapters.convert", "toolcast.adapters.messages",
    "toolcast.adapters.loading", "toolcast.adapters.providers", "toolcast.server.mcp_source",
    "toolcast.server.cli.convert_cmd", "toolcast.server.cli.messages_cmd", "jsonschema", "referencing", "mcp",
    "tomllib", "importlib.metadata",
)


def _modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=120, check=True)
    loaded: set[str] = set(json.loads(done.stdout.splitlines()[-1]))
    return loaded


def test_the_server_answers_initialize_without_the_checks() -> None:
    loaded = _modules_after(
        "from toolcast.server.cli import build_parser\n"
        "build_parser('serve')\n"
        "import toolcast.server.lsp.app")
    assert "toolcast.server.lsp.app" in loaded
    assert sorted(m for m in NOT_AT_INITIALIZE if m in loaded) == []


def test_the_first_check_loads_what_it_needs() -> None:
    """The lazy package attributes resolve: the same names as before, from the same modules."""
    from toolcast.adapters import checks, document
    from toolcast.adapters.checks.entry import check_document
    from toolcast.adapters.document.parsed import parse

    assert checks.check_document is check_document and document.parse is parse
    for package in (checks, document):
        for name in package.__all__:
            assert getattr(package, name) is not None
        assert set(package.__all__) <= set(dir(package))


def test_a_command_imports_only_its_own_module() -> None:
    loaded = _modules_after("from toolcast.server.cli import build_parser\nbuild_parser('check')")
    assert "toolcast.server.cli.check_cmd" in loaded
    assert not {"toolcast.server.cli.messages_cmd", "toolcast.server.cli.convert_cmd",
                "toolcast.adapters.messages", "jsonschema"} & loaded


def test_each_command_is_registered_by_the_module_named_for_it() -> None:
    """``COMMANDS`` (which module to import for a command line) agrees with what the modules register."""
    import argparse

    from toolcast.server.cli import COMMAND_MODULES, COMMANDS, build_parser

    def commands(parser: argparse.ArgumentParser) -> list[str]:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return list(sub.choices)

    assert sorted(commands(build_parser())) == sorted(COMMANDS)
    assert set(COMMANDS.values()) == set(COMMAND_MODULES)
    for name in COMMANDS:
        assert name in commands(build_parser(name))


def test_the_reported_version_is_the_installed_one() -> None:
    assert toolcast.server.__version__ == version("toolcast")


def test_the_version_imports_no_command() -> None:
    """``toolcast --version`` prints one line: it builds no parser, so it imports no command's module."""
    code = ("import contextlib, io\nfrom importlib.metadata import version\nfrom toolcast.server.cli import main\n"
            "out = io.StringIO()\nwith contextlib.redirect_stdout(out):\n    assert main(['--version']) == 0\n"
            "assert out.getvalue() == f'toolcast {version(\"toolcast\")}\\n', out.getvalue()")
    loaded = _modules_after(code)
    assert sorted(m for m in loaded if m.startswith("toolcast.server.cli.")) == []
