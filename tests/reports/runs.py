"""Run one public report's case through toolcast: in process (``toolcast.check`` on the written file, with the
case's selection in ``toolcast.toml``, and the converter the CLI uses) or as ``toolcast check --format json`` and
``toolcast convert --format json`` processes with the case's flags. Both give an ``Outcome`` for ``classify``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .classify import Outcome, Seen, loss_pointer

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases.json"
TOOLCAST = Path(sys.executable).parent / "toolcast"
TOOL_FILE = "tools.json"


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return cases


def tools_of(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The case's tools; a count case (``{"generate": N, "name": ...}``) is N small tools of one string each."""
    tools = case["tools"]
    if isinstance(tools, list):
        return tools
    return [{"name": tools["name"].format(i=i), "description": f"Tool {i} of the server.",
             "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
            for i in range(tools["generate"])]


def write_case(case: dict[str, Any], folder: Path, *, with_config: bool) -> Path:
    """The tool file in ``folder`` (and, for the library, a ``toolcast.toml`` holding the case's selection)."""
    path = folder / TOOL_FILE
    path.write_text(json.dumps(tools_of(case), indent=1, ensure_ascii=False), encoding="utf-8")
    if with_config:
        flags = case["flags"]
        lines = [f"targets = {json.dumps(flags.get('target', []))}"]
        if flags.get("for"):
            lines.append(f"consumers = {json.dumps(flags['for'])}")
        if flags.get("model"):
            lines.append(f"models = {json.dumps(flags['model'])}")
        if flags.get("server_name"):
            lines.append(f"server_name = {json.dumps(flags['server_name'])}")
        (folder / "toolcast.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- in process ------------------------------------------------------------------------------------------------

def run_library(case: dict[str, Any], folder: Path) -> Outcome:
    import toolcast

    path = write_case(case, folder, with_config=True)
    findings = toolcast.check(path)
    refused = [f for f in findings if Path(f.path).name == "toolcast.toml" and str(f.severity) == "error"]
    if refused:  # the configuration names a host or model toolcast does not know
        return Outcome(selection_refused="toolcast.toml: error " + ", ".join(f.code for f in refused))
    seen = tuple(Seen(f.pointer, str(f.severity), f.code, f.target) for f in findings if Path(f.path).name == TOOL_FILE)
    if not case.get("convert"):
        return Outcome(findings=seen)
    return _converted_in_process(case, seen)


def _converted_in_process(case: dict[str, Any], seen: tuple[Seen, ...]) -> Outcome:
    """The converter as ``toolcast convert`` calls it, its losses and refusal placed in the tool file."""
    from toolcast.adapters.convert import convert
    from toolcast.adapters.loading import load_tools
    from toolcast.adapters.targets import TargetOptions

    losses: list[str] = []
    refused = ""
    for target in case["flags"]["target"]:
        for lt in load_tools(tools_of(case)):
            conversion = convert(lt.tool, target, TargetOptions())
            losses += [loss_pointer(lt.doc_pointer(x.pointer), x.keyword) for x in conversion.losses]
            if not conversion.ok and not refused:
                r = conversion.refusal
                refused = f"{target}: `{getattr(r, 'keyword', '') or 'schema'}` at {getattr(r, 'pointer', '') or '/'}"
    return Outcome(findings=seen, converted=True, loss_pointers=tuple(losses), refused=refused)


# --- as processes ----------------------------------------------------------------------------------------------

def _flag_args(case: dict[str, Any], *, check: bool) -> list[str]:
    flags = case["flags"]
    args: list[str] = []
    for target in flags.get("target", []):
        args += ["--target", target]
    if check:
        for host in flags.get("for", []):
            args += ["--for", host]
        if flags.get("server_name"):
            args += ["--server-name", flags["server_name"]]
    for model in flags.get("model", []):
        args += ["--model", model]
    return args


def command_lines(case: dict[str, Any], path: Path) -> list[list[str]]:
    """The command lines a user would type for the case (check, then convert per target when it converts)."""
    lines = [[str(TOOLCAST), "check", "--format", "json", "--no-progress", *_flag_args(case, check=True), str(path)]]
    if case.get("convert"):
        lines += [[str(TOOLCAST), "convert", "--to", t, "--format", "json", str(path)]
                  for t in case["flags"]["target"]]
    return lines


def run_cli(case: dict[str, Any], folder: Path, timeout: float = 120) -> Outcome:
    path = write_case(case, folder, with_config=False)
    check, *converts = command_lines(case, path)
    done = subprocess.run(check, capture_output=True, text=True, timeout=timeout, cwd=folder)
    if done.returncode == 2:  # an unknown host or model: toolcast says so and judges nothing
        said = (done.stderr.strip().splitlines() or ["exit 2"])[-1]
        return Outcome(selection_refused=said.split("; known")[0])
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(check)}: exit {done.returncode}: {done.stderr}")
    seen = tuple(Seen(f["pointer"], f["severity"], f["code"], f["target"]) for f in json.loads(done.stdout)
                 if Path(f["path"]).name == TOOL_FILE)
    if not converts:
        return Outcome(findings=seen)
    losses: list[str] = []
    refused = ""
    for line in converts:
        out = subprocess.run(line, capture_output=True, text=True, timeout=timeout, cwd=folder)
        if out.returncode == 2:
            refused = refused or (out.stderr.strip().splitlines() or ["exit 2"])[-1]
        elif out.returncode != 0:
            raise RuntimeError(f"{' '.join(line)}: exit {out.returncode}: {out.stderr}")
        if out.stdout.strip():
            losses += [loss_pointer(r["document_pointer"], r.get("keyword")) for r in json.loads(out.stdout)["losses"]]
    return Outcome(findings=seen, converted=True, loss_pointers=tuple(losses), refused=refused)
