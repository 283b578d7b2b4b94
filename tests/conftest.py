"""Shared test helpers live in this folder (``cold_oracle``, ``loss_oracle``): make them importable from
every test folder (the suite runs with ``--import-mode=importlib``).

End-to-end tests (a server, CLI or editor process) and the long property/robustness tests are marked
``slow`` here, in one list, so that ``pytest -m "not slow"`` is the developer's quick run (about a minute)
and ``pytest`` the full one."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import Phase, settings

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

# Mutation runs (scripts/mutation.py) set TOOLCAST_HYPOTHESIS=mutation: a failing property is a killed
# mutant, so there is no point in shrinking the counterexample (which can take a minute per mutant).
settings.register_profile("mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate], derandomize=True)
if os.environ.get("TOOLCAST_HYPOTHESIS"):
    settings.load_profile(os.environ["TOOLCAST_HYPOTHESIS"])

#: Test files that start a server, CLI or editor process for (nearly) every test.
SLOW_FILES = (
    "server/test_lifecycle.py", "server/test_limits.py", "server/test_lsp.py", "server/test_protocol.py",
    "server/test_settings.py", "server/test_workspace.py", "editors/test_neovim.py",
    "reliability/test_no_network.py", "reliability/test_fuzz.py", "messages/test_cli.py", "cli/test_convert_cli.py",
    "checks/test_cli.py", "server/test_launch.py", "mcp/test_sdk_server.py", "mcp/test_failures.py",
    "mcp/test_editor.py", "editors/test_vscode_workbench.py", "editors/test_emacs.py",
    "editors/test_untrusted_workbench_lsp.py", "editors/test_vscode_settings.py", "cli/test_exec_tools.py",
    "cli/test_consumers_cli.py", "checks/test_token_budgets_cli.py", "api/test_example.py", "server/test_cost_lens.py",
    "server/test_cost_mcp.py", "server/test_eglot.py", "server/test_export_notice.py", "server/test_hover.py",
    "server/test_quick_fixes.py", "server/test_rule_links.py", "server/test_surrogates.py",
    "server/test_consumer_settings.py",
)
#: Single tests that take seconds each: very large inputs, long property runs, the real server.
SLOW_TESTS = (
    "document/test_robustness.py::test_a_50_mb_document_parses",
    "document/test_robustness.py::test_huge_arrays_and_many_tools",
    "document/test_robustness.py::test_many_unterminated_strings_stay_linear",
    "document/test_reparse.py::test_reparse_equals_parse_on_random_edits",
    "reliability/test_positions.py::test_the_real_server_in_each_encoding",
    "reliability/test_positions.py::test_server_ranges_are_inside_and_on_boundaries",
    "convert/test_targets.py::test_hostile_depth_is_rejected_without_recursion_error",
    "convert/test_shared_lowering.py::test_every_corpus_tool_gets_the_walkers_losses_strict_and_not",
    "reports/test_reports.py::test_report_through_the_command_line",
    "checks/test_token_cost_conversions.py::test_every_corpus_tool_is_counted_as_convert_sends_it_strict_and_not",
    "project/test_function_imports.py::test_each_lazy_import_keeps_its_start_up_path_lighter",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        rel = Path(str(item.path)).resolve().relative_to(HERE.resolve()).as_posix() if HERE.resolve() in Path(
            str(item.path)).resolve().parents else ""
        name = f"{rel}::{item.name.split('[')[0]}"
        if rel in SLOW_FILES or name in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
        if rel.startswith("adversarial/"):
            item.add_marker(pytest.mark.adversarial)
