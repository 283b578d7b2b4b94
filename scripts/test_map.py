"""Rebuild the module → tests map in tests/README.md.

``--measure`` runs the quick suite once under coverage with one context per test (a few minutes) and keeps, for
each module of adapters/, api/ and server/, the test files that run it most specifically (a test that runs few
modules counts more than one that runs many). Modules driven only through a process (the language server, the
CLI, MCP servers) are not seen by an in-process run: their test files are listed by hand in ``BY_HAND``.
Without ``--measure`` the last measurement (``.test-map.json``, not committed) is used.

    python scripts/test_map.py --measure
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "tests" / "README.md"
MEASURED = ROOT / ".test-map.json"
BEGIN, END = "<!-- test-map: begin -->", "<!-- test-map: end -->"
PER_MODULE = 3

#: Test files listed by hand: those that drive a module through a real process (server over stdio, CLI, MCP
#: servers, editors), and the tests of modules newer than the last measurement.
BY_HAND: dict[str, tuple[str, ...]] = {
    "adapters/host_config.py": ("tests/mcp/test_host_config.py", "tests/mcp/test_mcp_config.py"),
    "adapters/checks/servers.py": ("tests/mcp/test_mcp_config.py", "tests/checks/test_consumers.py"),
    "adapters/mapped_call.py": ("tests/mcp/test_proxy_plan.py", "tests/api/test_api.py"),
    "adapters/convert/forms.py": ("tests/checks/test_chosen_forms.py", "tests/server/test_hover.py"),
    "adapters/checks/judged.py": ("tests/checks/test_chosen_forms.py", "tests/server/test_hover.py"),
    "server/exec_source.py": ("tests/cli/test_exec_tools.py",),
    "server/mcp_source.py": ("tests/mcp/test_real_servers.py", "tests/mcp/test_failures.py",
                             "tests/mcp/test_sdk_server.py"),
    "server/output.py": ("tests/cli/test_convert_cli.py", "tests/checks/test_cli.py",
                         "tests/adversarial/test_out_destinations.py"),
    "server/cli/check_cmd.py": ("tests/checks/test_cli.py", "tests/cli/test_check_parallel.py",
                                "tests/cli/test_consumers_cli.py"),
    "server/cli/convert_cmd.py": ("tests/cli/test_convert_cli.py", "tests/convert/test_accept.py"),
    "server/cli/explain_cmd.py": ("tests/checks/test_registry.py",),
    "server/cli/mcp_common.py": ("tests/mcp/test_real_servers.py", "tests/mcp/test_failures.py"),
    "server/cli/host_config_check.py": ("tests/mcp/test_mcp_config.py",),
    "server/cli/messages_cmd.py": ("tests/messages/test_cli.py",),
    "server/cli/providers_cmd.py": ("tests/cli/test_providers_cli.py", "tests/cli/test_convert_cli.py"),
    "server/cli/serve_cmd.py": ("tests/server/test_launch.py", "tests/server/test_lifecycle.py"),
    "server/cli/snapshot_cmd.py": ("tests/mcp/test_real_servers.py",),
    "server/lsp/actions.py": ("tests/server/test_quick_fixes.py", "tests/server/test_export_notice.py",
                              "tests/server/test_lsp.py"),
    "server/lsp/app.py": ("tests/server/test_lsp.py", "tests/server/test_lifecycle.py",
                          "tests/server/test_protocol.py"),
    "server/lsp/completion.py": ("tests/server/test_lsp.py",),
    "server/lsp/cost_lens.py": ("tests/server/test_cost_lens.py", "tests/server/test_cost_mcp.py"),
    "server/lsp/diagnostics.py": ("tests/server/test_lsp.py", "tests/server/test_limits.py"),
    "server/lsp/framing.py": ("tests/server/test_framing.py",),
    "server/lsp/hover.py": ("tests/server/test_hover.py", "tests/server/test_loss_summaries.py"),
    "server/lsp/export_place.py": ("tests/server/test_export_places.py",),
    "server/lsp/mcp_config.py": ("tests/mcp/test_editor.py", "tests/server/test_cost_mcp.py",
                                 "tests/server/test_mcp_snapshot_place.py"),
    "server/lsp/allocator.py": ("tests/server/test_memory.py",),
    "server/lsp/protocol.py": ("tests/server/test_protocol.py", "tests/server/test_limits.py"),
    "server/lsp/quick_fixes.py": ("tests/server/test_quick_fixes.py",),
    "server/lsp/session.py": ("tests/server/test_settings.py", "tests/server/test_consumer_settings.py"),
    "server/lsp/state.py": ("tests/server/test_lifecycle.py", "tests/server/test_settings.py"),
    "server/lsp/views.py": ("tests/server/test_hover.py", "tests/server/test_lsp.py"),
    "server/lsp/workspace.py": ("tests/server/test_workspace.py",),
    "server/lsp/documents.py": ("tests/server/test_text_sync.py", "tests/server/test_sync_fuzz.py"),
    "server/lsp/message_json.py": ("tests/server/test_message_json.py",),
    "adapters/document/dialect.py": ("tests/checks/test_tool_files.py", "tests/checks/test_engine_summaries.py"),
    "adapters/document/limits.py": ("tests/adversarial/test_numbers.py", "tests/checks/test_limits_doc.py"),
    "adapters/document/file_reading.py": ("tests/adversarial/test_special_files.py",
                                     "tests/adversarial/test_server_workspace.py"),
    "server/descendants.py": ("tests/adversarial/test_children.py",),
    "server/stderr_tail.py": ("tests/adversarial/test_children.py",),
    "adapters/schema/bounded.py": ("tests/checks/test_bounded_validator.py", "tests/adversarial/test_patterns.py",
                                   "tests/messages/test_arguments.py"),
    "adapters/schema/patterns.py": ("tests/checks/test_bounded_validator.py", "tests/adversarial/test_patterns.py"),
    "adapters/schema/dialects.py": ("tests/checks/test_pattern_dialects.py", "tests/cli/test_pattern_dialects_cli.py"),
    "adapters/openai_prompt.py": ("tests/checks/test_token_pairs.py", "tests/checks/test_token_budgets.py"),
    "adapters/tool_prompt.py": ("tests/checks/test_token_pairs.py", "tests/server/test_cost_lens.py"),
    "adapters/compiled_tokens.py": ("tests/checks/test_compiled_tokens.py", "tests/checks/test_token_pairs.py"),
    "adapters/token_ranks.py": ("tests/checks/test_compiled_tokens.py",),
    "adapters/cost.py": ("tests/checks/test_token_budgets.py", "tests/checks/test_token_cost_conversions.py",
                         "tests/checks/test_compiled_tokens.py"),
    "adapters/proxy_plan.py": ("tests/mcp/test_proxy_plan.py", "tests/mcp/test_proxy.py"),
    "server/cli/proxy_cmd.py": ("tests/mcp/test_proxy.py", "tests/mcp/test_proxy_everything.py"),
    "server/proxy/bridge.py": ("tests/mcp/test_proxy.py", "tests/mcp/test_proxy_everything.py",
                               "tests/mcp/test_proxy_git.py"),
    "server/proxy/host_pipes.py": ("tests/mcp/test_proxy.py",),
    "server/proxy/change_log.py": ("tests/mcp/test_proxy.py", "tests/mcp/test_proxy_plan.py"),
    "server/proxy/stderr_relay.py": ("tests/mcp/test_proxy.py",),
    "adapters/listing.py": ("tests/checks/test_names.py", "tests/adversarial/test_output_costs.py"),
    # Tables read at import: every test of their package runs them.
    "adapters/checks/target_rules.py": ("tests/checks/test_limits.py", "tests/checks/test_rules.py"),
    "adapters/schema_keywords.py": ("tests/test_schema_keywords.py", "tests/convert/test_walker_modes.py"),
    "adapters/provider_limits.py": ("tests/checks/test_provider_limits.py", "tests/checks/test_limits.py"),
    "adapters/rules/quoted.py": ("tests/checks/test_provider_limits.py", "tests/checks/test_limits_doc.py"),
    "adapters/convert/keywords.py": ("tests/convert/test_walker_modes.py", "tests/convert/test_shared_lowering.py"),
    "adapters/convert/lowered.py": ("tests/convert/test_walker_modes.py", "tests/convert/test_shared_lowering.py"),
}


def modules() -> list[str]:
    """Every module with code of its own (packages' ``__init__`` and ``__main__`` only re-export or start)."""
    found = (p for top in ("adapters", "api", "server") for p in (ROOT / top).rglob("*.py"))
    return sorted(p.relative_to(ROOT).as_posix() for p in found if p.name not in ("__init__.py", "__main__.py"))


def measure() -> dict[str, list[str]]:
    """Module → the test contexts that ran it, from one coverage run of the quick suite."""
    with tempfile.TemporaryDirectory() as tmp:
        data, rc = Path(tmp) / "coverage", Path(tmp) / "rc"
        sources = ",".join(str(ROOT / top) for top in ("adapters", "api", "server"))
        rc.write_text(f"[run]\ndynamic_context = test_function\nsource = {sources}\ndata_file = {data}\n")
        subprocess.run([sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", "-m", "pytest", "-q",
                        "-p", "no:cacheprovider", "-m", "not slow"], cwd=ROOT, check=False)
        db = sqlite3.connect(data)
        files = dict(db.execute("select id, path from file"))
        contexts = dict(db.execute("select id, context from context"))
        ran: dict[str, set[str]] = defaultdict(set)
        for file_id, context_id in db.execute("select distinct file_id, context_id from line_bits"):
            if contexts[context_id]:
                ran[Path(files[file_id]).relative_to(ROOT).as_posix()].add(contexts[context_id])
        db.close()
    return {module: sorted(tests) for module, tests in ran.items()}


def _test_file(context: str) -> str:
    """``tests.checks.test_rules.test_x`` (or ``…test_rules.TestClass.test_x``) → ``tests/checks/test_rules.py``."""
    parts = context.split(".")
    last = max(i for i, part in enumerate(parts[:-1]) if part.startswith("test_") or i == 0)
    return "/".join(parts[: last + 1]) + ".py"


def ranked(ran: dict[str, list[str]]) -> dict[str, list[str]]:
    """Per module, its most specific test files: each test weighs 1 / the number of modules it runs."""
    ran = {module: [c for c in tests if c.startswith("tests.")] for module, tests in ran.items()}
    width: Counter[str] = Counter(context for tests in ran.values() for context in tests)
    score: dict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
    for module, tests in ran.items():
        for context in tests:
            score[module][_test_file(context)] += 1 / width[context]
    # A file that tests many modules (the engine's end-to-end tests) would lead every row: weigh each file's score
    # for a module by the share of the file's whole weight it is, so a file focused on the module comes first.
    total: defaultdict[str, float] = defaultdict(float)
    for counts in score.values():
        for test_file, weight in counts.items():
            total[test_file] += weight
    return {module: sorted(counts, key=lambda f: -counts[f] * counts[f] / total[f])[:PER_MODULE]
            for module, counts in score.items()}


def table(in_process: dict[str, list[str]]) -> str:
    rows = ["| module | tests |", "|---|---|"]
    for module in modules():
        files = list(dict.fromkeys([*BY_HAND.get(module, ()), *in_process.get(module, [])]))[:4]
        rows.append(f"| `{module}` | {', '.join(f'`{f}`' for f in files) or '**none**'} |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--measure", action="store_true", help="run the quick suite under coverage first")
    args = parser.parse_args()
    if args.measure:
        MEASURED.write_text(json.dumps(ranked(measure()), indent=1, sort_keys=True))
    in_process = json.loads(MEASURED.read_text()) if MEASURED.is_file() else {}
    text = README.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    README.write_text(text[:start] + "\n" + table(in_process) + "\n" + text[end:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
