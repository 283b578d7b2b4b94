#!/usr/bin/env python3
"""Benchmark (not a test): does toolcast give one verdict per (tool, target) on a set of edge schemas?

    .venv/bin/python bench/verdicts.py                                  # the tuning set, every mode
    .venv/bin/python bench/verdicts.py --set bench/heldout/edge_schemas.json --json out.json
    .venv/bin/python bench/verdicts.py --modes default --cli-sample 0 --details

Runs the installed toolcast over every case of a set file (``{"cases": [{"id", "tool", ...}]}``, see
tests/verdicts/README.md) for every target, in three modes: ``default`` (each target's own strictness),
``strict`` and ``non-strict`` (``toolcast.toml`` ``[targets.T] strict = ...`` for check, ``strict=`` for
convert, ``--strict``/``--no-strict`` for the command line). Per target and in total it counts:

* ``refused-convertible``: convert refuses the case but converts its normalised equivalent soundly
  (tests/verdicts/normalise.py: boolean subschemas, one-branch ``anyOf``/``oneOf``/``allOf``, draft-07 tuples,
  draft-04 exclusive bounds, one-element type lists, ``definitions``);
* ``written-invalid``: convert writes an output that fails the provider's SDK type or a documented rule
  (tests/convert/sdk.py), or that carries, unchanged, a schema a public report says the provider rejected;
* ``check-error-written`` / ``refused-check-silent``: check (narrowed to the target) has an error while
  convert writes, or convert refuses while check has no error;
* ``silent-change``: a keyword of the input changed or vanished at a place no reported loss names
  (tests/loss_oracle.py, against the input and against its normalised equivalent, whichever explains more;
  a description that only grew by folded constraints is not a change);
* ``crash``: an exception other than toolcast's own errors.

The library is what is measured (``toolcast.check`` on the tool file, ``toolcast.adapt``); a sample of the
cases also goes through ``toolcast check --format json --target T`` and ``toolcast convert --to T --format
json``, and any difference from the library is counted under ``cli``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import toolcast  # noqa: E402
from toolcast.adapters import pointer as jp  # noqa: E402

from tests.convert.sdk import VALIDATORS, check_documented_rules, schema_of  # noqa: E402
from tests.loss_oracle import schema_in, unexplained  # noqa: E402
from tests.verdicts.normalise import normalise  # noqa: E402

TARGETS = tuple(toolcast.targets())
MODES: dict[str, bool | None] = {"default": None, "strict": True, "non-strict": False}
METRICS = ("refused-convertible", "written-invalid", "check-error-written", "refused-check-silent",
           "silent-change", "crash")
DEFAULT_SET = ROOT / "tests" / "verdicts" / "edge_schemas.json"
TOOLCAST = Path(sys.executable).parent / "toolcast"


# --- one verdict ---------------------------------------------------------------------------------------------

@dataclass
class Verdict:
    """What toolcast says about one (case, target, mode)."""

    refused: bool = False
    refusal: str = ""
    check_errors: list[str] = field(default_factory=list)
    output: dict[str, Any] | None = None
    losses: tuple[Any, ...] = ()
    roundtrip: dict[str, Any] = field(default_factory=dict)
    crash: str = ""


def tool_of(case: dict[str, Any]) -> Any:
    return case["tool"]


def adapt(tool: Any, target: str, strict: bool | None, shape: str | None) -> Verdict:
    v = Verdict()
    try:
        adapted = toolcast.adapt(tool, target, strict=strict, source=shape)
    except toolcast.ToolcastError as exc:  # ConversionError included: the refusal (`toolcast convert` exit 2)
        v.refused, v.refusal = True, str(exc)
    except Exception as exc:  # what is measured: toolcast must never crash
        v.crash = f"adapt: {type(exc).__name__}: {exc}"
    else:
        v.output, v.losses, v.roundtrip = adapted.output, adapted.losses, adapted.roundtrip
    return v


def check_errors(path: Path, target: str) -> tuple[list[str], str]:
    try:
        findings = toolcast.check(path, targets=[target])
    except Exception as exc:  # the same for check
        return [], f"check: {type(exc).__name__}: {exc}"
    return [f"{f.code} {f.pointer}: {f.message}" for f in findings if f.severity == "error"], ""


def output_strict(target: str, out: dict[str, Any]) -> bool:
    """Whether ``out`` is sent in strict mode (the documented rules differ)."""
    if target in ("openai", "mistral"):
        return out.get("function", {}).get("strict") is True
    if target == "bedrock":
        return out.get("toolSpec", {}).get("strict") is True
    return out.get("strict") is True


def invalid_output(case: dict[str, Any], target: str, out: dict[str, Any]) -> str:
    """Why the provider would reject ``out`` ('' when nothing says it would)."""
    for name, check in (("SDK type", VALIDATORS[target]),
                        ("documented rule", lambda o: check_documented_rules(target, output_strict(target, o), o))):
        try:
            check(out)
        except Exception as exc:  # an AssertionError or the SDK's ValidationError
            return f"{name}: {type(exc).__name__}: {str(exc)[:300]}"
    says = case.get("provider_says") or {}
    reported = says.get("verdict") == "rejected" and says.get("target") == target and (
        "strict" not in says or says["strict"] == output_strict(target, out))
    if reported and schema_of(target, out) == tool_of(case).get("parameters"):  # the wire form, not read back
        return f"sent unchanged; the provider rejected it ({case['source']}): {says.get('message', '')}"
    return ""


def silent_changes(case: dict[str, Any], target: str, v: Verdict) -> list[str]:
    params = tool_of(case).get("parameters")
    if v.output is None or not isinstance(params, dict) or case.get("shape", "canonical") != "canonical":
        return []
    converted = schema_in(target, v.output)
    least: list[str] | None = None
    # Against the input and against its exact equivalent: a rewrite into the equivalent form (draft-04 bounds,
    # draft-07 tuples, booleans) is no change of meaning, even when no loss names the keyword it replaced.
    for original in (params, normalise(params)):
        try:
            changed = unexplained(original, converted, v.losses, v.roundtrip)
        except Exception as exc:  # the oracle's own limits are reported, not fatal
            return [f"oracle failed: {type(exc).__name__}: {exc}"]
        changed = [p for p in changed if not _folded_description(p, original, converted)]
        if least is None or len(changed) < len(least):
            least = changed
    return least or []


def _folded_description(pointer: str, params: Any, converted: Any) -> bool:
    """A description that only grew: the walker folds constraints it cannot send into the description (as a
    loss at the folded keyword), which changes no meaning of the schema."""
    if not pointer.endswith("/description"):
        return False
    before, after = (jp.resolve({"parameters": doc}, pointer, None) for doc in (params, converted))
    return isinstance(before, str) and isinstance(after, str) and after.startswith(before)


# --- a set, a mode -------------------------------------------------------------------------------------------

@dataclass
class Tally:
    cases: int = 0
    written: int = 0
    refused: int = 0
    found: dict[str, list[str]] = field(default_factory=lambda: {m: [] for m in METRICS})

    def add(self, metric: str, note: str) -> None:
        self.found[metric].append(note)

    def counts(self) -> dict[str, int]:
        return {"cases": self.cases, "written": self.written, "refused": self.refused,
                **{m: len(v) for m, v in self.found.items()}}


def workspace(folder: Path, strict: bool | None, cases: list[dict[str, Any]]) -> list[Path]:
    """One tool file per case in ``folder``, beside a toolcast.toml that sets every target's strictness."""
    folder.mkdir(parents=True, exist_ok=True)
    if strict is not None:
        value = "true" if strict else "false"
        (folder / "toolcast.toml").write_text("".join(f'[targets.{t}]\nstrict = {value}\n' for t in TARGETS))
    paths = []
    for i, case in enumerate(cases):
        path = folder / f"{i:04d}.tool.json"
        path.write_text(json.dumps(tool_of(case), indent=2, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


def run_mode(cases: list[dict[str, Any]], paths: list[Path], strict: bool | None) -> dict[str, Tally]:
    tallies = {t: Tally() for t in TARGETS}
    for case, path in zip(cases, paths, strict=True):
        shape = case.get("shape")
        normal = _normal_case(case)
        for target in TARGETS:
            tally, cid = tallies[target], case["id"]
            tally.cases += 1
            v = adapt(tool_of(case), target, strict, shape)
            v.check_errors, check_crash = check_errors(path, target)
            if v.crash or check_crash:
                tally.add("crash", f"{cid}: {v.crash or check_crash}")
                continue
            if v.refused:
                tally.refused += 1
                if not v.check_errors:
                    tally.add("refused-check-silent", f"{cid}: {v.refusal}")
                if normal is not None and _sound(case, normal, target, strict, shape):
                    tally.add("refused-convertible", f"{cid}: {v.refusal}")
                continue
            tally.written += 1
            assert v.output is not None
            if v.check_errors:
                tally.add("check-error-written", f"{cid}: {v.check_errors[0]}")
            why = invalid_output(case, target, v.output)
            if why:
                tally.add("written-invalid", f"{cid}: {why}")
            changed = silent_changes(case, target, v)
            if changed:
                tally.add("silent-change", f"{cid}: {', '.join(changed[:4])}")
    return tallies


def _sound(case: dict[str, Any], normal: dict[str, Any], target: str, strict: bool | None, shape: str | None) -> bool:
    """Whether the normalised tool converts to an output no oracle faults (then refusing the original is a
    refusal of a convertible input; a normalised conversion that is itself wrong proves nothing)."""
    nv = adapt(normal, target, strict, shape)
    if nv.refused or nv.crash or nv.output is None:
        return False
    as_case = {**case, "tool": normal, "provider_says": None}
    return not invalid_output(as_case, target, nv.output) and not silent_changes(as_case, target, nv)


def _normal_case(case: dict[str, Any]) -> dict[str, Any] | None:
    """The case's tool with normalised parameters; None when normalising changes nothing."""
    tool = tool_of(case)
    if case.get("shape", "canonical") != "canonical" or not isinstance(tool.get("parameters"), dict):
        return None
    params = normalise(tool["parameters"])
    return None if params == tool["parameters"] else {**tool, "parameters": params}


# --- the command line, for a sample ----------------------------------------------------------------------------

def cli_sample(cases: list[dict[str, Any]], paths: list[Path], strict: bool | None, size: int) -> list[str]:
    """Differences between the CLI and the library on every ``len/size``-th case (every target)."""
    if size <= 0 or not cases:
        return []
    step = max(1, len(cases) // size)
    diffs = []
    flag = [] if strict is None else ["--strict" if strict else "--no-strict"]
    for i in range(0, len(cases), step)[:size]:
        case, path = cases[i], paths[i]
        for target in TARGETS:
            lib = adapt(tool_of(case), target, strict, case.get("shape"))
            errors, _ = check_errors(path, target)
            conv = _run([str(TOOLCAST), "convert", "--to", target, "--format", "json", *flag, str(path)], path.parent)
            chk = _run([str(TOOLCAST), "check", "--format", "json", "--target", target, str(path)], path.parent)
            cli_refused = conv.returncode == 2
            if cli_refused != lib.refused or conv.returncode not in (0, 2):
                diffs.append(f"{case['id']} {target}: convert exit {conv.returncode}, library "
                             f"{'refuses' if lib.refused else 'writes'}")
            elif not lib.refused and _json(conv.stdout, {}).get("output") not in (lib.output, [lib.output]):
                diffs.append(f"{case['id']} {target}: convert output differs from the library's")
            cli_errors = [f for f in _findings(chk.stdout) if f.get("severity") == "error"]
            if len(cli_errors) != len(errors):
                diffs.append(f"{case['id']} {target}: check --format json has {len(cli_errors)} errors, "
                             f"the library {len(errors)}")
    return diffs


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def _json(text: str, empty: Any) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return empty


def _findings(text: str) -> list[dict[str, Any]]:
    data = _json(text, [])
    if isinstance(data, dict):
        data = data.get("findings", [])
    return [f for f in data if isinstance(f, dict)]


# --- output ----------------------------------------------------------------------------------------------------

def table(mode: str, tallies: dict[str, Tally]) -> Iterator[str]:
    cols = ("cases", "written", "refused", *METRICS)
    yield f"mode {mode}"
    yield f"{'target':<17}" + "".join(f"{c:>{max(len(c), 7) + 2}}" for c in cols)
    total: dict[str, int] = dict.fromkeys(cols, 0)
    for target, tally in tallies.items():
        counts = tally.counts()
        for c in cols:
            total[c] += counts[c]
        yield f"{target:<17}" + "".join(f"{counts[c]:>{max(len(c), 7) + 2}}" for c in cols)
    yield f"{'total':<17}" + "".join(f"{total[c]:>{max(len(c), 7) + 2}}" for c in cols)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--set", type=Path, default=DEFAULT_SET, help="set file (default: the tuning set)")
    ap.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    ap.add_argument("--case", action="append", default=[], metavar="ID", help="only these cases (repeatable)")
    ap.add_argument("--cli-sample", type=int, default=6, help="cases also run through the CLI (0: none)")
    ap.add_argument("--json", nargs="?", const="-", metavar="PATH", help="machine-readable output (- : stdout)")
    ap.add_argument("--details", action="store_true", help="list every case counted under each metric")
    args = ap.parse_args(argv)
    data = json.loads(args.set.read_text(encoding="utf-8"))
    cases = data["cases"] if isinstance(data, dict) else data
    if args.case:
        cases = [c for c in cases if c["id"] in set(args.case)]
    result: dict[str, Any] = {"set": str(args.set), "cases": len(cases), "version": _version(), "modes": {}}
    lines: list[str] = [f"{args.set}: {len(cases)} cases x {len(TARGETS)} targets, toolcast {result['version']}"]
    with tempfile.TemporaryDirectory(prefix="toolcast-verdicts-") as tmp:
        for mode in args.modes:
            paths = workspace(Path(tmp) / mode, MODES[mode], cases)
            tallies = run_mode(cases, paths, MODES[mode])
            cli = cli_sample(cases, paths, MODES[mode], args.cli_sample)
            result["modes"][mode] = {
                "targets": {t: {**x.counts(), "cases_found": x.found} for t, x in tallies.items()},
                "total": {c: sum(x.counts()[c] for x in tallies.values()) for c in ("cases", "written", "refused",
                                                                                   *METRICS)},
                "cli": {"sampled": min(args.cli_sample, len(cases)), "differences": cli},
            }
            lines += ["", *table(mode, tallies)]
            lines.append(f"cli sample ({min(args.cli_sample, len(cases))} cases x {len(TARGETS)} targets): "
                         f"{len(cli)} differences from the library")
            lines += [f"  {d}" for d in cli]
            if args.details:
                for target, tally in tallies.items():
                    for metric, notes in tally.found.items():
                        lines += [f"  {mode} {target} {metric}: {n}" for n in notes]
    _emit(args.json, result, lines)
    return 0


def _emit(where: str | None, result: dict[str, Any], lines: list[str]) -> None:
    text = json.dumps(result, indent=1, ensure_ascii=False, default=str)
    if where == "-":
        print(text)
        return
    print("\n".join(lines))
    if where:
        Path(where).write_text(text + "\n", encoding="utf-8")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("toolcast")
    except PackageNotFoundError:
        return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())
