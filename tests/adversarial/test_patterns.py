"""Catastrophic regular expressions: a ``pattern`` such as ``^(a|aa)+$`` and a value of forty ``a``s and a ``!``
backtrack for ever in ``re``. Each way such a pair reaches toolcast (a file's defaults, examples, enum and const
beside the pattern, nested defaults, ``patternProperties``, ``propertyNames``, a tool executable's schema, a
model's argument mapped back by the CLI or the library, an editor holding the file) is probed under a time and
memory limit: the pattern is reported (TC309, at the pattern) or the argument named, never a hang.

Each probe prints its time and peak memory (``pytest -s``)."""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from tests.adversarial.bounded import Outcome, run, toolcast

EVIL = "^(a|aa)+$"  # exponential in re and in regex
VALUE = "a" * 40 + "!"
TIMEOUT = 30.0


def _tool(parameters: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": "probe", "description": "A hostile tool.", "parameters": parameters, **extra}


def _object(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


#: (tool, the pointer of the pattern TC309 must be placed at)
VECTORS: dict[str, tuple[dict[str, Any], str]] = {
    "default": (_tool(_object(a={"type": "string", "pattern": EVIL, "default": VALUE})),
                "/parameters/properties/a/pattern"),
    "examples": (_tool(_object(a={"type": "string", "pattern": EVIL}), examples=[{"a": VALUE}]),
                 "/parameters/properties/a/pattern"),
    "enum": (_tool(_object(a={"enum": [VALUE, "aa"], "pattern": EVIL, "default": VALUE})),
             "/parameters/properties/a/pattern"),
    "const": (_tool(_object(a={"const": VALUE, "pattern": EVIL, "default": VALUE})),
              "/parameters/properties/a/pattern"),
    "nested-default": (_tool(_object(o={**_object(a={"type": "string", "pattern": EVIL}), "default": {"a": VALUE}})),
                       "/parameters/properties/o/properties/a/pattern"),
    "patternProperties": (_tool(_object(m={"type": "object", "patternProperties": {EVIL: {"type": "integer"}},
                                           "additionalProperties": False, "default": {VALUE: 1}})),
                          f"/parameters/properties/m/patternProperties/{EVIL}"),
    "propertyNames": (_tool(_object(m={"type": "object", "propertyNames": {"pattern": EVIL},
                                       "default": {VALUE: 1}})),
                      "/parameters/properties/m/propertyNames/pattern"),
}


def _report(probe: str, out: Outcome) -> None:
    print(f"\n{probe}: {'killed at the limit' if out.timed_out else f'exit {out.returncode}'}, "
          f"{out.seconds:.2f} s, peak {out.peak_rss_mb:.0f} MB")


def _costly(out: Outcome) -> list[dict[str, Any]]:
    assert not out.timed_out, f"still running after {out.seconds:.1f} s"
    assert out.returncode in (0, 1) and "Traceback" not in out.stderr, out.stderr[-2000:]
    return [r for r in json.loads(out.stdout) if r["code"] == "TC309"]


@pytest.mark.parametrize("vector", list(VECTORS))
def test_a_catastrophic_pattern_in_a_file_is_reported_at_the_pattern(vector: str, tmp_path: Path) -> None:
    tool, pointer = VECTORS[vector]
    path = tmp_path / "hostile.tool.json"
    path.write_text(json.dumps(tool, indent=2))
    out = toolcast("check", "--format", "json", str(path), timeout=TIMEOUT)
    _report(f"check ({vector})", out)
    assert [r["pointer"] for r in _costly(out)] == [pointer]


def test_the_pattern_of_the_first_report_is_judged(tmp_path: Path) -> None:
    """``^(a+)+$`` hangs ``re`` but not the engine toolcast uses, which answers: the default is refused."""
    path = tmp_path / "hostile.tool.json"
    path.write_text(json.dumps(_tool(_object(a={"type": "string", "pattern": "^(a+)+$", "default": VALUE}))))
    out = toolcast("check", "--format", "json", str(path), timeout=TIMEOUT)
    _report("check (^(a+)+$)", out)
    assert not _costly(out)
    refused = [r["pointer"] for r in json.loads(out.stdout) if r["code"] == "TC305"]
    assert refused == ["/parameters/properties/a/default"]


def test_many_hostile_patterns_in_one_tool_cost_one_allowance(tmp_path: Path) -> None:
    """Two hundred distinct costly patterns: each would take the whole time of one match; together they take
    the tool's allowance, and every one is still reported."""
    props = {f"p{i}": {"type": "string", "pattern": f"^(a|aa)+{'b' * i}$", "default": VALUE} for i in range(200)}
    path = tmp_path / "many.tool.json"
    path.write_text(json.dumps(_tool(_object(**props))))
    out = toolcast("check", "--format", "json", str(path), timeout=TIMEOUT)
    _report("check (200 patterns in one tool)", out)
    assert sorted(r["pointer"] for r in _costly(out)) == sorted(f"/parameters/properties/p{i}/pattern"
                                                                 for i in range(200))


def test_a_tool_executable_printing_a_catastrophic_pattern(tmp_path: Path) -> None:
    prog = tmp_path / "hostile_tool"
    tool, pointer = VECTORS["default"]
    prog.write_text(f"#!{sys.executable}\n" + textwrap.dedent(f"""
        import json, sys
        if sys.argv[1:] != ["--schema"]:
            sys.exit(64)
        print(json.dumps({tool!r}))
    """))
    prog.chmod(prog.stat().st_mode | stat.S_IXUSR)
    out = toolcast("check", "--format", "json", "--exec", "--", str(prog), cwd=tmp_path, timeout=TIMEOUT)
    _report("check --exec", out)
    assert [r["pointer"] for r in _costly(out)] == ["/tools/0" + pointer]  # the executable's tools, as a list


def _chat_call(arguments: dict[str, Any]) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-5", "choices": [
        {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "probe", "arguments": json.dumps(arguments)}}]}}]}


#: A tool ``check`` passes: nothing in the file meets the pattern. A model's argument does.
CLEAN = _tool({"type": "object", "required": ["code"], "properties": {"code": {"type": "string", "pattern": EVIL},
                                                                      "note": {"type": "string"}}})


def test_response_tools_names_an_argument_that_cannot_be_checked(tmp_path: Path) -> None:
    tools = tmp_path / "probe.tool.json"
    tools.write_text(json.dumps(CLEAN))
    assert not _costly(toolcast("check", "--format", "json", str(tools), timeout=TIMEOUT))
    response = tmp_path / "response.json"
    response.write_text(json.dumps(_chat_call({"code": VALUE, "note": "hi"})))
    out = toolcast("response", str(response), "--from", "openai", "--tools", str(tools), timeout=TIMEOUT)
    _report("response --tools", out)
    assert not out.timed_out, f"still running after {out.seconds:.1f} s"
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert "/code" in out.stderr and "could not be checked" in out.stderr, out.stderr


_LIBRARY = """
import json, sys
import toolcast
tool = json.loads(sys.argv[1])
call = {"id": "call_1", "type": "function", "function": {"name": "probe", "arguments": sys.argv[2]}}
mapped = toolcast.map_call_back(call, toolcast.adapt_all([tool], "openai"))
print(json.dumps(mapped.to_dict()))
"""


def test_map_call_back_returns_an_error_naming_the_argument() -> None:
    """The library as an agent uses it: a model's argument that backtracks gives a problem at that argument."""
    out = run([sys.executable, "-c", _LIBRARY, json.dumps(CLEAN), json.dumps({"code": VALUE, "note": "x"})],
              timeout=TIMEOUT)
    _report("map_call_back", out)
    assert not out.timed_out, f"still running after {out.seconds:.1f} s"
    assert out.returncode == 0, out.stderr
    mapped = json.loads(out.stdout)
    assert [p["pointer"] for p in mapped["problems"]] == ["/code"]
    assert "could not be checked" in mapped["problems"][0]["message"]


def test_the_language_server_answers_beside_a_hostile_file_and_shuts_down(tmp_path: Path) -> None:
    from tests.server.raw_rpc import Raw

    hostile = tmp_path / "hostile.tool.json"
    hostile.write_text(json.dumps(VECTORS["default"][0], indent=2))
    other = tmp_path / "other.tool.json"
    other.write_text(json.dumps(_tool(_object(n={"type": "integer", "default": "ten"})), indent=2))
    server = Raw()
    start = time.monotonic()
    try:
        server.initialize(tmp_path)
        for path in (hostile, other):
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": path.as_uri(), "languageId": "json", "version": 1, "text": path.read_text()}})

        # Each document is published once its findings are known, in either order: keep the latest of each.
        codes: dict[str, set[str]] = {}

        def both_published(m: dict[str, Any]) -> bool:
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["diagnostics"]:
                codes[m["params"]["uri"]] = {d["code"] for d in m["params"]["diagnostics"]}
            return "TC305" in codes.get(other.as_uri(), ()) and "TC309" in codes.get(hostile.as_uri(), ())

        server.wait(both_published, timeout=20)
        status = Path(f"/proc/{server.proc.pid}/status").read_text().splitlines()
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
        rid = server.request("shutdown")
        assert server.response(rid, timeout=10).get("error") is None
        server.notify("exit")
        assert server.proc.wait(10) == 0
        print(f"\nlanguage server: {time.monotonic() - start:.2f} s to both files' diagnostics and exit, "
              f"peak {peak_kb / 1024:.0f} MB")
    finally:
        if server.proc.poll() is None:
            os.kill(server.proc.pid, 9)
            server.proc.wait(10)


_PROXY = """
import json, sys
from toolcast.adapters.canonical import CanonicalTool
from toolcast.adapters.proxy_plan import validate_arguments
tool = CanonicalTool("probe", "d", json.loads(sys.argv[1]))
print(json.dumps(validate_arguments(tool, json.loads(sys.argv[2]))))
"""


def test_the_proxy_validates_arguments_under_the_time_limit() -> None:
    """The proxy checks formats in a second pass over the arguments; ``(a+)+$|!`` matches ``aaa…!`` at once in
    the bounded engine (the first pass passes it) and for ever in ``re``: the second pass must be bounded too."""
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "(a+)+$|!"},
                                               "site": {"type": "string", "format": "uri"}}}
    out = run([sys.executable, "-c", _PROXY, json.dumps(schema), json.dumps({"code": VALUE, "site": "not a uri"})],
              timeout=TIMEOUT)
    _report("proxy validate_arguments", out)
    assert not out.timed_out, f"still running after {out.seconds:.1f} s"
    assert out.returncode == 0, out.stderr
    assert [pointer for pointer, _ in json.loads(out.stdout)] == ["/site"]
