"""The distribution holds the public package beside the mapped ones: a plain (non-editable) install in a fresh
virtualenv and the editable install the suite runs in both import ``toolcast.adapt``, ``toolcast.adapters`` and
``toolcast.server``, and ship ``py.typed``. Built and installed offline (no index, no build isolation)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys, toolcast, toolcast.adapters.convert, toolcast.server.cli
from importlib.resources import files
out = toolcast.adapt({"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}, "gemini")
print(json.dumps({"toolcast": toolcast.__file__, "adapters": toolcast.adapters.convert.__file__,
                  "server": toolcast.server.cli.__file__, "typed": files("toolcast").joinpath("py.typed").is_file(),
                  "output": out.output, "findings": len(toolcast.check('{"name": "x"}'))}))
"""


def probe(python: str, cwd: Path, env: dict[str, str] | None = None) -> dict[str, object]:
    done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    value: dict[str, object] = json.loads(done.stdout)
    return value


def test_the_editable_install_maps_every_package(tmp_path: Path) -> None:
    seen = probe(sys.executable, tmp_path)  # outside the checkout: the installed finder, not the cwd
    assert seen["toolcast"] == str(ROOT / "api" / "__init__.py")
    assert seen["adapters"] == str(ROOT / "adapters" / "convert" / "__init__.py")
    assert seen["server"] == str(ROOT / "server" / "cli" / "__init__.py")
    assert seen["typed"] is True and seen["findings"] == 2


@pytest.mark.slow
def test_the_built_layout_in_a_fresh_virtualenv(tmp_path: Path) -> None:
    """What a wheel holds, laid out by setuptools' ``build_py`` (the step ``bdist_wheel`` copies packages
    with) from a copy of the checkout: offline, no ``wheel`` package needed. ``pip install .`` itself needs
    the index for its isolated build, which the suite does not use."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("api", "adapters", "server", "schemas", "docs"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    lib = tmp_path / "lib"
    built = subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "build_py", "--build-lib",
                            str(lib)], capture_output=True, text=True, cwd=source, timeout=300)
    assert built.returncode == 0, built.stderr
    assert (lib / "toolcast" / "py.typed").is_file() and (lib / "toolcast" / "adapters" / "py.typed").is_file()
    assert not (lib / "adapters").exists() and (lib / "toolcast" / "schemas" / "providers" / "gemini.json").is_file()
    # The data the checks read at run time: consumer profiles, model families, the rules reference links open.
    assert (lib / "toolcast" / "schemas" / "consumers" / "vscode.json").is_file()
    assert (lib / "toolcast" / "schemas" / "consumers" / "models" / "gemini.json").is_file()
    assert (lib / "toolcast" / "docs" / "rules.md").is_file()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    # The fresh interpreter sees the built packages, then the suite's site-packages for the dependencies
    # (pygls, jsonschema ...): that holds no toolcast folder (the editable install is a finder that a .pth file
    # installs, and a PYTHONPATH entry's .pth files never run), so every toolcast module is the built one.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(lib), sysconfig.get_paths()["purelib"]])}
    # Run from inside the checkout, as someone trying the library in a clone does (`python -c` puts the working
    # folder first on sys.path): no folder of the checkout may stand in for the installed package.
    seen = probe(str(env_dir / "bin" / "python"), source, env)
    assert seen["toolcast"] == str(lib / "toolcast" / "__init__.py")
    assert seen["adapters"] == str(lib / "toolcast" / "adapters" / "convert" / "__init__.py")
    assert seen["server"] == str(lib / "toolcast" / "server" / "cli" / "__init__.py")
    assert seen["typed"] is True and seen["findings"] == 2
    assert seen["output"] == {"name": "f", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}
    typed_for_users(lib, tmp_path)


USER = """
import toolcast

adapted: toolcast.Adapted = toolcast.adapt({"name": "f"}, "gemini")
output: dict[str, object] = adapted.output
call: toolcast.MappedCall = toolcast.map_call_back({"name": "f", "args": {}}, [adapted])
codes: list[str] = [f.code for f in toolcast.check("{}")]
modes: list[str] = list(toolcast.providers()["gemini"].modes)
try:
    toolcast.adapt({}, "openai")
except toolcast.ConversionError as e:
    where: str = e.target + e.direction + e.pointer
wrong: int = adapted.name
"""


def typed_for_users(lib: Path, work: Path) -> None:
    """A program using the API type-checks under mypy --strict against the built package (its py.typed), and
    a wrong type is caught: the annotations reach users."""
    (work / "user.py").write_text(USER, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent",
                           "user.py"], capture_output=True, text=True, cwd=work, timeout=300,
                          env={**os.environ, "MYPYPATH": str(lib)})
    assert done.stdout.splitlines() == [
        'user.py:13: error: Incompatible types in assignment (expression has type "str", variable has type "int")  '
        "[assignment]", "Found 1 error in 1 file (checked 1 source file)"], done.stdout + done.stderr
