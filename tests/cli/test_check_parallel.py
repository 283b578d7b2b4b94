"""``toolcast check`` with worker processes: the same output, order and exit status as one process, on
real tool files (split from the real-world corpus), and clear errors for bad input in a parallel run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from toolcast.server.cli import check_cmd, main

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "toolcast"
    return subprocess.run([str(exe), "check", *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_COLOR": "1", **(env or {})})


def _tools(name: str, count: int) -> list[Any]:
    data = json.loads((CORPUS / name).read_text(encoding="utf-8"))
    tools: list[Any] = data["tools"][:count]
    return tools


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Real tools, one per file in two folders (one with a configuration that has a problem), two files
    defining the same name (a finding across files), a list of tools, a JSON file that holds no tool, a
    tool file that is not UTF-8 and one that is not JSON."""
    root = tmp_path_factory.mktemp("parallel")
    (root / "toolcast.toml").write_text('targets = ["openai", "anthropic", "gemini"]\n', encoding="utf-8")
    mcp = root / "mcp"
    mcp.mkdir()
    (mcp / "toolcast.toml").write_text('targets = ["openai"]\nno_such_key = 1\n', encoding="utf-8")
    for i, tool in enumerate(_tools("mcp-arxiv-mcp-server.json", 10) + _tools("mcp-mcp-server-git.json", 8)):
        (mcp / f"t{i:02d}.tool.json").write_text(json.dumps(tool, indent=2), encoding="utf-8")
    bfcl = root / "bfcl"
    bfcl.mkdir()
    for i, tool in enumerate(_tools("bfcl-simple-python.json", 30)):
        (bfcl / f"b{i:02d}.tool.json").write_text(json.dumps(tool, indent=2), encoding="utf-8")
    (bfcl / "dup.tool.json").write_text(json.dumps(_tools("bfcl-simple-python.json", 1)[0]), encoding="utf-8")
    (root / "list.tools.json").write_text(json.dumps(_tools("examples-openai-python-sdk.json", 12)), encoding="utf-8")
    (root / "package.json").write_text('{"name": "x", "description": "not a tool"}', encoding="utf-8")
    (root / "latin1.tool.json").write_bytes('{"name": "caf\xe9", "description": "d"}'.encode("latin-1"))
    (root / "broken.tool.json").write_text('{"name": "broken", "description": ', encoding="utf-8")
    return root


@pytest.mark.parametrize("fmt", ["human", "json", "github", "sarif"])
def test_parallel_output_equals_serial(folder: Path, fmt: str) -> None:
    serial = _run(folder, "--format", fmt, "--jobs", "1", ".")
    parallel = _run(folder, "--format", fmt, "--jobs", "2", ".")
    assert "Traceback" not in serial.stderr + parallel.stderr
    assert serial.returncode == 2  # the file that is not UTF-8
    assert (parallel.returncode, parallel.stdout, parallel.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    # The run covered what it should: findings from every folder, the configuration problem, across files.
    out = serial.stdout
    assert "bfcl" in out and "mcp" in out and "list.tools.json" in out and "broken.tool.json" in out
    if fmt == "human":
        assert "no_such_key" in out and "TC" in out
    assert "latin1.tool.json: not UTF-8 (byte" in serial.stderr


def test_spawned_workers_give_the_same_output(folder: Path) -> None:
    """The workers take only plain values: under 'spawn' (a fresh interpreter each) the result is equal."""
    serial = _run(folder, "--format", "json", "--jobs", "1", ".")
    spawned = _run(folder, "--format", "json", "--jobs", "2", ".", env={"TOOLCAST_START_METHOD": "spawn"})
    assert (spawned.returncode, spawned.stdout, spawned.stderr) == (serial.returncode, serial.stdout, serial.stderr)


def test_named_files_and_folders_keep_the_command_line_order(folder: Path) -> None:
    args = ("--format", "json", "list.tools.json", "bfcl", "mcp/t03.tool.json", "broken.tool.json")
    serial = _run(folder, "--jobs", "0", *args)
    parallel = _run(folder, "--jobs", "3", *args)
    assert serial.returncode == 1
    assert (parallel.returncode, parallel.stdout, parallel.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    files = [item["path"] for item in json.loads(parallel.stdout)]
    assert files.index("list.tools.json") < files.index(next(f for f in files if f.startswith("bfcl")))


def test_bad_input_in_a_parallel_run_is_a_clear_error(tmp_path: Path) -> None:
    for i, tool in enumerate(_tools("mcp-arxiv-mcp-server.json", 6)):
        (tmp_path / f"t{i}.tool.json").write_text(json.dumps(tool), encoding="utf-8")
    (tmp_path / "t3.tool.json").write_bytes(b'{"name": "\xff\xfe"}')
    done = _run(tmp_path, "--jobs", "2", ".")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "t3.tool.json: not UTF-8 (byte 10)" in done.stderr
    assert "5 file(s) checked" in done.stdout + done.stderr


def test_jobs_must_be_a_count(tmp_path: Path) -> None:
    for value in ("-1", "two"):
        done = _run(tmp_path, "--jobs", value, ".")
        assert done.returncode == 2
        assert "--jobs" in done.stderr and "Traceback" not in done.stderr


def test_default_uses_workers_only_for_large_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_cmd, "_cpus", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    small = [(tmp_path / f"{i}.tool.json", True) for i in range(10)]
    for path, _ in small:
        path.write_text("{}", encoding="utf-8")
    assert check_cmd._workers(None, small) == 1  # 20 bytes: not worth a process
    assert check_cmd._workers(None, small[:3]) == 1  # fewer than two files per worker
    big = tmp_path / "big.tool.json"
    big.write_text(" " * check_cmd.PARALLEL_MIN_BYTES, encoding="utf-8")
    assert check_cmd._workers(None, [*small, (big, True)]) == 2
    assert check_cmd._workers(2, small) == 2  # asked for: used whatever the size
    assert check_cmd._workers(8, small[:3]) == 3  # never more workers than files
    assert check_cmd._workers(1, [*small, (big, True)]) == 1
    assert check_cmd._workers(0, [*small, (big, True)]) == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (1.8, 1.0, 1.0))  # the cores are busy with other work
    assert check_cmd._workers(None, [*small, (big, True)]) == 1
    monkeypatch.setattr(check_cmd, "_cpus", lambda: 1)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert check_cmd._workers(None, [*small, (big, True)]) == 1


_PARENT = os.getpid()


def _dies_in_a_worker(batch: list[tuple[str, bool]], overrides: Any) -> Any:
    if os.getpid() != _PARENT:
        os._exit(9)  # a worker killed mid-batch (out of memory, a signal)
    return _real_check_batch(batch, overrides)


_real_check_batch = check_cmd.check_batch


@pytest.mark.skipif(sys.platform != "linux", reason="the stand-in crash is inherited by forked workers only")
def test_a_dead_worker_is_reported_and_its_files_still_checked(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(folder / "bfcl")
    assert main(["check", "--format", "json", "--jobs", "1", target]) == 1
    serial = capsys.readouterr()
    monkeypatch.setenv("TOOLCAST_START_METHOD", "fork")
    monkeypatch.setattr(check_cmd, "check_batch", _dies_in_a_worker)
    assert main(["check", "--format", "json", "--jobs", "2", target]) == 1
    crashed = capsys.readouterr()
    assert crashed.out == serial.out
    assert "a worker process stopped unexpectedly" in crashed.err
    assert "Traceback" not in crashed.err


@pytest.mark.skipif(sys.platform != "linux", reason="the stand-in crash is inherited by forked workers only")
def test_a_worker_dying_while_batches_are_handed_out_is_reported_too(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker can die before every batch is submitted: the pool then refuses the next `submit`, which once
    escaped as a traceback (seen in CI). The real pool and a real dying worker, with the handing out held
    after the first batch until the pool knows its worker died, so the order is not left to chance."""
    from concurrent.futures import ProcessPoolExecutor

    target = str(folder / "bfcl")
    assert main(["check", "--format", "json", "--jobs", "1", target]) == 1
    serial = capsys.readouterr()
    real_submit = ProcessPoolExecutor.submit
    submitted = []

    def submit_after_the_death(self: Any, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if submitted:
            deadline = time.monotonic() + 20
            while not self._broken and time.monotonic() < deadline:
                time.sleep(0.01)
        submitted.append(fn)
        return real_submit(self, fn, *args, **kwargs)

    monkeypatch.setenv("TOOLCAST_START_METHOD", "fork")
    monkeypatch.setattr(check_cmd, "check_batch", _dies_in_a_worker)
    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit_after_the_death)
    assert main(["check", "--format", "json", "--jobs", "2", target]) == 1
    crashed = capsys.readouterr()
    assert len(submitted) > 1 and crashed.out == serial.out
    assert "a worker process stopped unexpectedly" in crashed.err
    assert "Traceback" not in crashed.err


@pytest.mark.slow
def test_the_whole_corpus_and_examples_alike(tmp_path: Path) -> None:
    """Every real-world corpus file and the repository's examples, serial and parallel."""
    shutil.copytree(CORPUS, tmp_path / "corpus", ignore=shutil.ignore_patterns("*.py", "gather", "__pycache__"))
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    serial = _run(tmp_path, "--format", "json", "--jobs", "1", "corpus", "examples")
    parallel = _run(tmp_path, "--format", "json", "--jobs", "2", "corpus", "examples")
    assert serial.returncode == 1
    assert (parallel.returncode, parallel.stdout, parallel.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    assert len(json.loads(serial.stdout)) > 1000
