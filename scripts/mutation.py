#!/usr/bin/env python3
"""Mutation testing of toolcast's core with mutmut (3.x): how many deliberately broken versions of a
module the tests catch.

    scripts/mutation.py                      # every core module (slow: hours on 2 cores)
    scripts/mutation.py line_index arguments # some of them (a name, or a path under the repository)
    scripts/mutation.py rules envelopes      # the rule registry (rules/codes.py), the envelopes
                                             # (convert/convert_tool.py)
    scripts/mutation.py --budget 600 parser  # stop each module after 600 s; unchecked mutants are counted apart
    scripts/mutation.py --rerun parser       # again, in the kept staging folder, only the mutants not yet killed
    scripts/mutation.py --rerun --status survived walker   # only the survivors (then: --status "not checked")
    scripts/mutation.py --rerun --mutant x_run_document__mutmut_45 engine   # only the mutants named

Each module runs in its own staging folder (.mutation/<name>/, git-ignored) laid out as the installed
package (``src/toolcast/adapters``, ``src/toolcast/server``, ``src/toolcast/schemas``) so that mutmut's ``mutants/``
copy is what the tests import; PYTHONPATH points there too, so the server subprocesses the tests start
run the mutant as well. Only the tests that exercise the module run (TESTS below; ``-m "not slow"``).

Prints, per module, ``<module>: mutation score: KILLED/CHECKED killed (P%)`` and its surviving mutants
(``mutmut show NAME`` in its staging folder prints the diff), then the overall figure as the last line:
``mutation score: KILLED/CHECKED killed (P%)``. Exit status 0 (the figures are for reading, not a gate).

CHECKED counts the mutants whose tests ran to a result. Under ``--budget`` a module can stop before all its
mutants are checked (the budget includes mutmut's mutant generation and test mapping, a minute or two): the
line then also says ``CHECKED of ALL mutants checked, U not checked within B s``, and the score is over the
checked ones only, so it is not comparable with a complete run's. mutmut checks the mutants of the functions
with the fewest (fastest) tests first, so a partial score leans towards those functions.

``--rerun`` keeps the staging folder of an earlier run, copies the current tests into it and checks again only
the mutants that were not killed (survived, not checked, no tests...): killed mutants stay killed when tests
are only added, so this gives the figure of a full run in a fraction of its time. Changed sources or changed
existing tests need a full run."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Core module → the tests that exercise it (in-process: mutmut maps tests to the functions they call).
CORE: dict[str, tuple[str, list[str]]] = {
    "walker": ("adapters/convert/walker.py", ["tests/convert", "tests/checks/test_losses.py"]),
    "engine": ("adapters/checks/engine.py", ["tests/checks"]),
    "file_rules": ("adapters/checks/file_rules.py", ["tests/checks"]),
    "placing": ("adapters/checks/placing.py", ["tests/checks"]),
    "rules": ("adapters/rules/codes.py", ["tests/checks"]),
    "parser": ("adapters/document/parser.py", ["tests/document", "tests/reliability/test_positions.py"]),
    "line_index": ("adapters/document/line_index.py", ["tests/document/test_line_index.py",
                                                       "tests/reliability/test_positions.py",
                                                       "tests/server/test_documents.py"]),
    "arguments": ("adapters/messages/arguments.py", ["tests/messages"]),
    "documents": ("server/lsp/documents.py", ["tests/server/test_documents.py"]),  # the rest runs it in a subprocess
    "facts": ("adapters/convert/facts.py", ["tests/convert/test_shared_lowering.py"]),
    # What the walker and the scan share (moved out of walker.py): held by the walker's tests as before.
    "modes": ("adapters/mode_settings.py", ["tests/convert", "tests/checks/test_losses.py"]),
    "mode": ("adapters/convert/profile_mode.py", ["tests/convert", "tests/checks/test_losses.py"]),
    "wording": ("adapters/convert/wording.py", ["tests/convert", "tests/checks/test_losses.py"]),
    "nodes": ("adapters/convert/nodes.py", ["tests/convert", "tests/checks/test_losses.py"]),
    "fast_instance": ("adapters/schema/fast_instance.py", ["tests/checks/test_fast_instance.py"]),
    # tests/messages and tests/cli start processes
    "envelopes": ("adapters/convert/convert_tool.py", ["tests/convert"]),
}

#: Modules quick enough for CI (documents: 27 s; arguments: 56 s for its 115 mutants until the schema-directed
#: null mapping merged in 4558dde made them 302, about 6-8 minutes now): CI runs these (``--ci``, with a budget);
#: the others take 20 minutes to hours and run on demand.
CI_MODULES = ("arguments", "documents")

#: Tests left out of mutation runs. Those that read the repository's own files (docs/rules.md,
#: .pre-commit-hooks.yaml, the source tree at the repository's root), which the staging folder does not lay
#: out, and those that run the check in a new process (the CLI, ``fresh_process_findings``): in mutmut's
#: first, unmutated run (its "stats", which maps tests to functions) the child process imports the mutants'
#: trampolines without mutmut's configuration and fails. Either kind fails that run for every mutant, which
#: stops the module before any mutant is checked (the engine's and rules' tests/checks did).
STAGING_EXCLUDED = (
    "tests/checks/test_codes.py::test_no_rule_code_literal_outside_the_declaring_module",
    "tests/checks/test_registry.py::test_committed_rules_reference_matches_the_registry",
    "tests/checks/test_registry.py::test_rule_url_points_at_the_installed_reference",
    "tests/convert/test_accept.py::test_convert_mcp_refuses_a_live_servers_tool_the_provider_would_reject",
    "tests/checks/test_registry.py::test_pre_commit_hook_runs_toolcast_check",
    "tests/checks/test_registry.py::test_explain_prints_the_rule_documentation",
    "tests/checks/test_registry.py::test_explain_list_and_unknown_code",
    "tests/checks/test_tool_files.py::test_cli_server_and_workspace_index_select_the_same_files",
    "tests/checks/test_time_budget.py::test_budget_leaves_tools_pending_and_later_calls_finish_them",
    "tests/checks/test_incremental.py::test_warm_results_equal_a_fresh_process",
    "tests/checks/test_cold_oracle.py::test_a_fresh_process_agrees_with_a_fresh_analyzer",
)

#: Tests left out of one module's mutation runs only: the engine's slowest (its 15 s random-edits property,
#: which every surviving mutant of ``run_document`` would run in full) and the fast checks' tests, which never
#: call the engine (they only lengthen mutmut's first, mapping run). The engine's own exact tests cover them.
_ENGINE_EXCLUDED = (
    "tests/checks/test_edited_runs.py::test_edits_inside_tools_equal_a_cold_check",
    "tests/checks/test_fast_instance.py",
    "tests/checks/test_fast_meta.py",
)
MODULE_EXCLUDED: dict[str, tuple[str, ...]] = {
    # The run's parts moved out of engine.py (file-level rules, placing) are exercised the same way.
    "engine": _ENGINE_EXCLUDED, "file_rules": _ENGINE_EXCLUDED, "placing": _ENGINE_EXCLUDED,
}

KILLED = {"killed", "timeout", "caught by type check", "segfault"}
NOT_RUN = {"not checked", "skipped", "check was interrupted by user"}


def _stage(name: str, source: str, tests: list[str]) -> Path:
    stage = ROOT / ".mutation" / name
    if stage.exists():
        shutil.rmtree(stage)
    pkg = stage / "src" / "toolcast"  # src/: mutmut puts mutants/src first on sys.path and removes src
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    for part in ("adapters", "server", "schemas"):
        shutil.copytree(ROOT / part, pkg / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests", stage / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    _raise_recursion_limit(stage / "tests")
    shutil.copytree(ROOT / "examples", stage / "examples")  # tests read the repository's examples
    # PYTHONPATH names mutants/src: it must exist when Python starts, or the import system caches it as
    # missing and the editable install's original code is imported instead of the mutants.
    (stage / "mutants" / "src").mkdir(parents=True)
    pytest_options = re.search(r"\[tool\.pytest\.ini_options\].*?(?=\n\[)", (ROOT / "pyproject.toml").read_text(),
                               re.S)
    assert pytest_options is not None
    selection = ", ".join(f'"{t}"' for t in tests)
    (stage / "pyproject.toml").write_text(
        pytest_options.group(0) + "\n\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f'only_mutate = ["src/toolcast/{source}"]\n'
        f"pytest_add_cli_args_test_selection = [{selection}]\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-m", "not slow", "-x", "-q"'
        + "".join(f', "--deselect", "{t}"' for t in STAGING_EXCLUDED + MODULE_EXCLUDED.get(name, ())) + "]\n"
        # A mutant that loops forever is stopped after (its tests' time + 1 s) x multiplier x 2 of CPU time;
        # with mutmut's default multiplier of 15 one such parser mutant can take minutes of a module's budget.
        "timeout_multiplier = 3.0\n"
        'also_copy = ["examples"]\n'
        "use_git_change_detection = false\n", encoding="utf-8")
    return stage


def _results(stage: Path, env: dict[str, str]) -> dict[str, str]:
    out = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=stage, env=env,
                         capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s+(\S+): (.+)$", line)
        if m:
            found[m.group(1)] = m.group(2).strip()
    return found


#: Appended to the staged copy of tests/conftest.py only. mutmut's trampolines add stack frames to every call
#: of the mutated module, so code that recurses as designed (the parser's 200 levels, the walker's 128) hits
#: Python's default limit of 1000 frames under mutmut although it does not in use.
_RECURSION = ("\n\n# scripts/mutation.py (staging only): room for the frames of mutmut's trampolines\n"
              "sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))\n")


def _raise_recursion_limit(tests: Path) -> None:
    conftest = tests / "conftest.py"
    text = conftest.read_text(encoding="utf-8")
    if _RECURSION not in text:
        conftest.write_text(text + _RECURSION, encoding="utf-8")


def _refresh_tests(stage: Path) -> None:
    """The current tests, in the staging folder and in mutmut's copy of it (what the workers run)."""
    for dest in (stage / "tests", stage / "mutants" / "tests"):
        shutil.copytree(ROOT / "tests", dest, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
        _raise_recursion_limit(dest)


def run_module(name: str, budget: float, children: int, rerun: bool = False,
               statuses: frozenset[str] | None = None,
               only: frozenset[str] | None = None) -> tuple[int, int, list[str], int]:
    source, tests = CORE[name]
    stage = ROOT / ".mutation" / name
    # TOOLCAST_HYPOTHESIS=mutation (tests/conftest.py): a failing property kills the mutant at once,
    # without shrinking the counterexample (which took up to a minute per mutant).
    env = {**os.environ, "PYTHONPATH": str(stage / "mutants" / "src"), "PYTHONDONTWRITEBYTECODE": "1",
           "TOOLCAST_HYPOTHESIS": "mutation"}
    names: list[str] = []
    if rerun and (stage / "mutants").is_dir():
        _refresh_tests(stage)
        names = sorted(k for k, v in _results(stage, env).items()
                       if v not in KILLED and (statuses is None or v in statuses)
                       and (only is None or k in only or k.rsplit(".", 1)[-1] in only))
        print(f"{name}: re-running the {len(names)} mutants not killed in .mutation/{name}", flush=True)
    else:
        if rerun:
            print(f"{name}: no earlier run in .mutation/{name}; running all its mutants", flush=True)
        stage = _stage(name, source, tests)
    log = (stage / "mutmut.log").open("a" if names else "w", encoding="utf-8")
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "mutmut", "run", "--max-children", str(children), *names],
                            cwd=stage, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        proc.wait(timeout=budget)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)  # mutmut and the workers it forked (its own session)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    log.close()
    took = time.monotonic() - started
    status = _results(stage, env)
    done = {k: v for k, v in status.items() if v not in NOT_RUN}
    killed = sum(1 for v in done.values() if v in KILLED)
    survivors = sorted(k for k, v in done.items() if v not in KILLED)
    unchecked = len(status) - len(done)
    pct = 100.0 * killed / len(done) if done else 0.0
    print(f"{name} ({source}): mutation score: {killed}/{len(done)} killed ({pct:.1f}%)"
          + (f"; {len(done)} of {len(status)} mutants checked, {unchecked} not checked within {budget:.0f} s"
             " (the score covers the checked ones only)" if unchecked else f" of {len(status)} mutants")
          + f" [{took:.0f} s]", flush=True)
    for key in survivors:
        print(f"    survived: {key} ({done[key]})  -- `mutmut show {key}` in .mutation/{name}", flush=True)
    if not status:
        print(f"    no mutants recorded; see .mutation/{name}/mutmut.log", flush=True)
    return killed, len(done), survivors, unchecked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="*", help=f"core modules ({', '.join(CORE)}) or their paths; default all")
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds per module (default 3600)")
    parser.add_argument("--children", type=int, default=1, help="parallel mutmut workers (default 1)")
    parser.add_argument("--changed-since", metavar="REF",
                        help="only the modules whose source or tests changed since git REF")
    parser.add_argument("--ci", action="store_true", help=f"only the modules quick enough for CI: {CI_MODULES}")
    parser.add_argument("--rerun", action="store_true",
                        help="reuse each module's staging folder: re-check only its mutants not killed, with the "
                             "current tests (for added tests; changed sources need a full run)")
    parser.add_argument("--mutant", action="append", metavar="NAME",
                        help="with --rerun: only this mutant (repeatable; its full name or the part after the "
                             "module, e.g. x_run_document__mutmut_45), e.g. the survivors new tests were written for")
    parser.add_argument("--status", action="append", metavar="STATUS",
                        help="with --rerun: only the mutants of this mutmut status (survived, 'not checked'...; "
                             "repeatable; default every status but killed), e.g. the survivors first")
    args = parser.parse_args()
    names = []
    for item in args.modules or list(CORE):
        match = [n for n, (path, _) in CORE.items() if item in (n, path)]
        if not match:
            parser.error(f"not a core module: {item}")
        names.extend(match)
    if args.ci:
        names = [n for n in names if n in CI_MODULES]
    if args.changed_since:
        diff = subprocess.run(["git", "diff", "--name-only", args.changed_since, "--"], cwd=ROOT,
                              capture_output=True, text=True)
        if diff.returncode != 0:
            print(f"cannot compare with {args.changed_since}: {diff.stderr.strip()}; nothing run")
            names = []
        else:
            changed = set(diff.stdout.split())
            names = [n for n in names if CORE[n][0] in changed
                     or any(c == t or c.startswith(t.rstrip("/") + "/") for c in changed for t in CORE[n][1])]
        print(f"modules changed since {args.changed_since}: {', '.join(names) or 'none'}", flush=True)
    total_killed = total = total_unchecked = 0
    for name in names:
        killed, count, _, unchecked = run_module(name, args.budget, args.children, args.rerun,
                                                 frozenset(args.status) if args.status else None,
                                                 frozenset(args.mutant) if args.mutant else None)
        total_killed, total, total_unchecked = total_killed + killed, total + count, total_unchecked + unchecked
    pct = 100.0 * total_killed / total if total else 0.0
    print(f"mutation score: {total_killed}/{total} killed ({pct:.1f}%)"
          + (f"; {total_unchecked} more mutants not checked" if total_unchecked else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
