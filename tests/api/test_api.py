"""The public API (``import toolcast``, docs/api.md): the same answers as the command line over the same core,
inputs as dicts or as the official SDKs' objects, outputs the SDKs' own types accept, typed errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import toolcast
from toolcast.adapters.errors import ConversionError as CoreConversionError
from toolcast.adapters.errors import ToolcastError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "convert"))
from sdk import VALIDATORS, check_documented_rules

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PUBLIC = {"Adapted", "AdaptedList", "CallProblem", "ConversionError", "Finding", "Loss", "MappedCall", "Provider",
          "ToolcastError", "adapt", "adapt_all", "check", "map_call_back", "providers", "targets", "to_canonical"}
WEATHER = {"name": "weather.get", "description": "Weather for a city.", "parameters": {
    "type": "object", "required": ["city"], "properties": {
        "city": {"type": "string", "minLength": 2},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "unit": {"type": "string", "enum": ["c", "f"]}}}}


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolcast.server.cli", *args], capture_output=True, text=True,
                          input=stdin, timeout=120)


def test_all_is_exactly_the_documented_surface_and_every_name_resolves() -> None:
    assert set(toolcast.__all__) == PUBLIC and len(toolcast.__all__) == len(PUBLIC)
    assert all(getattr(toolcast, name) is not None for name in PUBLIC)
    assert toolcast.ConversionError is CoreConversionError and toolcast.ToolcastError is ToolcastError
    with pytest.raises(AttributeError):
        toolcast.convert  # noqa: B018  (the core's names are not the API)
    assert (Path(toolcast.__file__).parent / "py.typed").is_file()


def test_importing_toolcast_loads_no_sdk_and_no_converter() -> None:
    code = ("import sys, toolcast\nimport json\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('mcp', 'google', 'anthropic', 'openai', 'mistralai', 'pydantic', 'jsonschema') or m.startswith("
            "'toolcast.adapters.') and m != 'toolcast.adapters.lazy')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == []


@pytest.mark.parametrize("target", toolcast.targets())
def test_adapt_gives_what_toolcast_convert_gives(tmp_path: Path, target: str) -> None:
    src = FIXTURES / "kitchen_sink.tool.json"
    done = cli("convert", str(src), "--to", target, "--format", "json")
    adapted = toolcast.adapt(json.loads(src.read_text(encoding="utf-8")), target)
    if done.returncode == 2:  # the CLI refuses a rejected conversion; the API raises
        pytest.fail(f"{target}: {done.stderr}")
    payload = json.loads(done.stdout)
    assert adapted.output == payload["output"] and adapted.roundtrip == payload["roundtrip"]
    fields = ("target", "pointer", "keyword", "value", "action", "effect", "message")
    assert [x.to_dict() for x in adapted.losses] == [{k: r[k] for k in fields} for r in payload["losses"]]
    assert adapted.to_dict()["losses"] == [{k: r[k] for k in fields} for r in payload["losses"]]
    VALIDATORS[target](adapted.output)


def test_adapt_takes_an_mcp_tool_object_as_its_json() -> None:
    from mcp.types import Tool, ToolAnnotations

    tool = Tool(name="weather.get", title="Weather", description="Weather for a city.",
                inputSchema=WEATHER["parameters"], annotations=ToolAnnotations(readOnlyHint=True))
    as_json = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    for target in ("anthropic", "gemini", "openai"):
        from_object, from_dict = toolcast.adapt(tool, target), toolcast.adapt(as_json, target)
        assert from_object.output == from_dict.output and from_object.losses == from_dict.losses
    anthropic = toolcast.adapt(tool, "anthropic")
    assert anthropic.output == {"name": "weather_get", "description": "Weather for a city.",
                                "input_schema": WEATHER["parameters"]}
    assert anthropic.name == "weather.get" and anthropic.roundtrip == {"name": "weather.get"}
    assert {x.keyword for x in anthropic.losses} == {"name", "title", "annotations"}
    VALIDATORS["anthropic"](anthropic.output)


def test_adapt_takes_a_gemini_function_declaration_object() -> None:
    from google.genai import types

    declaration = types.FunctionDeclaration(
        name="set_light", description="Turn a light on or off.",
        parameters=types.Schema(type=types.Type.OBJECT, required=["on"], properties={
            "on": types.Schema(type=types.Type.BOOLEAN),
            "level": types.Schema(type=types.Type.INTEGER, minimum=0, maximum=100, nullable=True)}))
    out = toolcast.adapt(declaration, "anthropic").output
    assert out["input_schema"] == {"type": "object", "required": ["on"], "properties": {
        "on": {"type": "boolean"}, "level": {"type": ["integer", "null"], "minimum": 0, "maximum": 100}}}
    VALIDATORS["anthropic"](out)
    back = toolcast.adapt(out, "gemini").output  # and to Gemini again: the SDK reads it as it was
    assert types.FunctionDeclaration.model_validate(back).parameters == declaration.parameters


def test_adapt_takes_openai_and_anthropic_tool_params() -> None:
    from anthropic.types import ToolParam
    from openai.types.chat import ChatCompletionFunctionToolParam

    openai_tool: ChatCompletionFunctionToolParam = {"type": "function", "function": {
        "name": "weather_get", "description": "Weather.", "parameters": WEATHER["parameters"], "strict": False}}
    anthropic_tool: ToolParam = {"name": "weather_get", "description": "Weather.",
                                 "input_schema": WEATHER["parameters"]}  # type: ignore[typeddict-item]
    assert toolcast.adapt(openai_tool, "anthropic").output == anthropic_tool
    assert toolcast.adapt(anthropic_tool, "openai", strict=False).output == openai_tool


def test_strict_none_keeps_the_tools_own_setting_and_a_value_beats_it() -> None:
    own = {"type": "function", "function": {"name": "f", "parameters": WEATHER["parameters"], "strict": False}}
    assert toolcast.adapt(own, "openai").output["function"]["strict"] is False
    assert toolcast.adapt(WEATHER, "openai").output["function"]["strict"] is True  # the target's default
    forced = toolcast.adapt(own, "openai", strict=True)
    assert forced.output["function"]["strict"] is True
    assert forced.roundtrip["optional"] == ["/parameters/properties/days", "/parameters/properties/unit"]
    check_documented_rules("openai", True, forced.output)


def test_results_are_frozen_and_do_not_share_the_core_s_values() -> None:
    adapted = toolcast.adapt(WEATHER, "gemini")
    with pytest.raises(AttributeError):
        adapted.output = {}  # type: ignore[misc]
    adapted.output["name"] = "changed"  # the caller's copy: the calls still map with what was sent
    call = toolcast.map_call_back({"functionCall": {"name": "weather.get", "args": {"city": "Paris"}}}, [adapted])
    assert call.name == "weather.get" and call.ok


def test_adapt_all_output_is_what_the_sdks_take() -> None:
    from google.genai import types

    tools = json.loads((FIXTURES / "mcp.json").read_text(encoding="utf-8"))
    gemini = toolcast.adapt_all(tools, "gemini")
    assert types.Tool.model_validate(gemini.output[0]).function_declarations
    assert [d["name"] for d in gemini.output[0]["functionDeclarations"]] == [t.name for t in gemini.tools]
    anthropic = toolcast.adapt_all(tools["tools"], "anthropic")
    assert anthropic.output == [t.output for t in anthropic.tools]
    for out in anthropic.output:
        VALIDATORS["anthropic"](out)
    declarations = [types.FunctionDeclaration.model_validate(d) for d in gemini.output[0]["functionDeclarations"]]
    for sdk_tools in ([types.Tool(function_declarations=declarations)], types.Tool(function_declarations=declarations)):
        assert toolcast.adapt_all(sdk_tools, "gemini").output == gemini.output  # the SDK's Tool, alone or listed
    bedrock = toolcast.adapt_all(iter(tools["tools"]), "bedrock")  # any iterable of tools
    assert bedrock.output == {"tools": [t.output for t in bedrock.tools]}
    assert bedrock.to_dict()["roundtrip"] == [t.roundtrip for t in bedrock.tools]


def test_to_canonical_reads_any_shape_and_undoes_an_export() -> None:
    sent = toolcast.adapt(WEATHER, "openai", strict=True)
    assert toolcast.to_canonical(sent.output)["parameters"] != WEATHER["parameters"]  # strict mode's form
    back = toolcast.to_canonical(sent.output, roundtrip=sent.roundtrip)
    assert back["name"] == "weather.get" and back["parameters"] == WEATHER["parameters"]
    assert toolcast.to_canonical(WEATHER) == WEATHER  # canonical in, the same out
    forced = toolcast.to_canonical({"name": "n", "input_schema": {"type": "object"}}, "anthropic")
    assert forced["x-toolcast"] == {"source": {"format": "anthropic"}}


def test_map_call_back_reads_each_provider_s_call_and_sdk_objects() -> None:
    from anthropic.types import ToolUseBlock
    from google.genai import types
    from openai.types.chat import ChatCompletionMessageFunctionToolCall

    args = {"city": "Paris", "days": 2}
    anthropic = toolcast.adapt_all([WEATHER], "anthropic")
    gemini = toolcast.adapt_all([WEATHER], "gemini")
    openai = toolcast.adapt_all([WEATHER], "openai", strict=True)
    responses = toolcast.adapt_all([WEATHER], "openai-responses")
    calls: list[tuple[Any, Any]] = [
        (ToolUseBlock(type="tool_use", id="toolu_1", name="weather_get", input=args), anthropic),
        (types.FunctionCall(id="g1", name="weather.get", args=args), gemini),
        (types.Part(function_call=types.FunctionCall(id="g1", name="weather.get", args=args)), gemini),
        (ChatCompletionMessageFunctionToolCall(id="call_1", type="function", function={
            "name": "weather_get", "arguments": json.dumps({**args, "unit": None})}), openai),
        ({"type": "function_call", "call_id": "fc_1", "name": "weather_get", "arguments": json.dumps(args)},
         responses),
    ]
    for call, tools in calls:
        mapped = toolcast.map_call_back(call, tools)
        assert (mapped.name, mapped.arguments, mapped.ok) == ("weather.get", args, True), call
    mistral = toolcast.map_call_back({"id": "m1", "function": {"name": "weather_get", "arguments": args}},
                                     toolcast.adapt_all([WEATHER], "mistral"), source="mistral")
    assert mistral.to_dict() == {"id": "m1", "name": "weather.get", "arguments": args, "problems": []}


def test_map_call_back_gives_what_toolcast_response_gives(tmp_path: Path) -> None:
    """The same call through ``toolcast response --tools`` (its export with the round-trip record)."""
    sent = toolcast.adapt_all([WEATHER], "openai", strict=True)
    call = {"id": "call_9", "type": "function", "function": {"name": "weather_get", "arguments": json.dumps(
        {"city": "P", "days": 9, "unit": None})}}
    (tmp_path / "tools.json").write_text(json.dumps(sent.to_dict()), encoding="utf-8")
    (tmp_path / "response.json").write_text(json.dumps({"id": "r", "object": "chat.completion", "model": "m",
                                                        "choices": [{"index": 0, "finish_reason": "tool_calls",
                                                                     "message": {"role": "assistant",
                                                                                 "tool_calls": [call]}}]}))
    done = cli("response", str(tmp_path / "response.json"), "--from", "openai", "--tools", str(tmp_path / "tools.json"))
    assert done.returncode == 1
    wanted = json.loads(done.stdout)["content"][0]
    mapped = toolcast.map_call_back(call, sent)
    assert (mapped.id, mapped.name, mapped.arguments) == (wanted["id"], wanted["name"], wanted["arguments"])
    assert mapped.arguments == {"city": "P", "days": 9} and not mapped.ok
    shown = [f"{args_file}: tool call 'call_9' (weather.get): {p.pointer or '/'}: {p.message}"
             for args_file in [str(tmp_path / "response.json")] for p in mapped.problems]
    assert done.stderr.splitlines() == shown
    assert [(p.pointer, p.message) for p in mapped.problems] == [
        ("/city", "'P' is too short"), ("/days", "9 is greater than the maximum of 7")]


def test_map_call_back_takes_one_adapted_tool_and_refuses_other_tools() -> None:
    one = toolcast.adapt(WEATHER, "anthropic")
    call = {"type": "tool_use", "id": "t", "name": "weather_get", "input": {"city": "Paris"}}
    assert toolcast.map_call_back(call, one).name == "weather.get"
    with pytest.raises(TypeError, match="tools: expected what adapt or adapt_all returned, found dict"):
        toolcast.map_call_back(call, [WEATHER])  # type: ignore[list-item]


def test_a_call_of_a_tool_not_sent_is_a_problem_not_an_error() -> None:
    mapped = toolcast.map_call_back({"type": "tool_use", "id": "t", "name": "other", "input": {}},
                                    toolcast.adapt_all([WEATHER], "anthropic"))
    assert mapped.name == "other" and [p.message for p in mapped.problems] == [
        "calls 'other', which the tools file does not define"]


@pytest.mark.parametrize("call, source, target, pointer, message", [
    ({"id": "c", "type": "function", "function": {"name": "f", "arguments": "[1]"}}, None, "openai",
     "/function/arguments", "tool call: tool-call arguments must be a JSON object"),
    ({"type": "tool_use", "id": 3, "name": "f", "input": {}}, None, "anthropic", "/id", "tool call:"),
    ({"name": "f", "args": {}}, "bedrock", "bedrock", "", "unknown source"),
    ({"toolUse": {"name": "f"}}, None, "auto", "", "not a tool call toolcast recognises"),
    ({"type": "text", "text": "hi"}, "anthropic", "anthropic", "", "not a tool call of a anthropic response"),
])
def test_a_call_that_cannot_be_read_is_a_conversion_error(call: Any, source: str | None, target: str,
                                                          pointer: str, message: str) -> None:
    with pytest.raises(toolcast.ConversionError) as caught:
        toolcast.map_call_back(call, [], source=source)
    err = caught.value
    assert (err.target, err.direction, err.pointer) == (target, "to_canonical", pointer)
    assert message in err.message and isinstance(err, ToolcastError)
    if target in ("openai", "anthropic") and pointer:  # the reader's own error is the cause
        assert type(err.cause).__name__ == "MessageFormatError" and err.__cause__ is err.cause


@pytest.mark.parametrize("tool, target, direction, pointer, message", [
    (WEATHER, "cohere", "from_canonical", "", "unknown target; expected one of: openai,"),
    (42, "gemini", "to_canonical", "", "no tool found: expected a tool object, a list of tools"),
    ({"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "nonsense"}}}}, "gemini",
     "from_canonical", "/parameters/properties/x/type", "tool 'f': gemini cannot express it without changing its "
     "meaning: /parameters/properties/x/type: type `nonsense` is not a JSON Schema type"),
    ([WEATHER, WEATHER], "openai", "to_canonical", "", "expected one tool, found 2 (adapt_all takes several)"),
    ({"name": "f", "parameters": {"type": "object", "default": {1, 2}}}, "openai", "to_canonical",
     "/parameters/default", "expected a JSON value or an SDK model with `model_dump`, found set"),
    ({"name": "f", "parameters": {1: {}}}, "openai", "to_canonical", "/parameters", "object key 1 is not a string"),
    ({"name": "f", "parameters": {"type": "object"}}, "gemini", "to_canonical", "",
     "--from anthropic: the tool has no `input_schema` but has `parameters`"),
])
def test_bad_input_is_a_conversion_error_with_target_direction_and_place(
        tool: Any, target: str, direction: str, pointer: str, message: str) -> None:
    source = "anthropic" if "--from" in message else None
    with pytest.raises(toolcast.ConversionError) as caught:
        toolcast.adapt(tool, target, source=source)
    err = caught.value
    assert err.direction == direction and err.pointer == pointer and message in err.message, err
    assert err.target == err.adapter


def test_conversion_error_keeps_its_old_signature_and_adds_a_cause() -> None:
    old = CoreConversionError("openai", "to_canonical", "bad", "/x")
    assert (str(old), old.target, old.cause, old.__cause__) == ("openai (to_canonical) at /x: bad", "openai",
                                                                 None, None)
    inner = ValueError("inner")
    new = CoreConversionError("gemini", "from_canonical", "outer", cause=inner)
    assert new.cause is inner and new.__cause__ is inner and str(new) == "gemini (from_canonical): outer"


def test_targets_and_providers_say_what_toolcast_providers_prints() -> None:
    done = cli("providers", "--format", "json")
    table = json.loads(done.stdout)
    assert toolcast.targets() == tuple(table)
    providers = toolcast.providers()
    assert list(providers) == list(table)
    for target, provider in providers.items():
        rows = {m: {k: v for k, v in row.items() if k != "rules"} for m, row in table[target].items()}
        assert provider.target == target and {m: dict(r) for m, r in provider.modes.items()} == rows
        assert {m: list(held) for m, held in provider.rules.items()} == {m: row["rules"]
                                                                          for m, row in table[target].items()}
        assert provider.default_mode in provider.modes
        json.dumps(provider.to_dict())  # JSON-ready
    anthropic = providers["anthropic"]  # providers.md: Anthropic's name rule and no description limit
    assert (anthropic.name_pattern, anthropic.name_max_length, anthropic.description_max_length) == (
        "^[a-zA-Z0-9_-]{1,128}$", 128, None)
    assert providers["openai"].description_max_length == 1024 and providers["openai"].default_mode == "strict"


def test_check_gives_what_toolcast_check_gives(tmp_path: Path) -> None:
    src = FIXTURES / "kitchen_sink.tool.json"
    done = cli("check", str(src), "--format", "json")
    records = json.loads(done.stdout)
    findings = toolcast.check(src)  # a Path: the file, with its folder's configuration
    assert records and [f.to_dict() for f in findings] == records
    first = findings[0]
    assert (first.code, first.severity, first.line, first.column, first.pointer) == (
        records[0]["code"], records[0]["severity"], records[0]["line"], records[0]["column"], records[0]["pointer"])
    text = src.read_text(encoding="utf-8")
    assert [f.to_dict() for f in toolcast.check(str(src))] == records  # a str that is a path
    from_text = toolcast.check(text)  # the same document as text: the same findings, named <text>
    assert [(f.code, f.line, f.column, f.message) for f in from_text] == [
        (r["code"], r["line"], r["column"], r["message"]) for r in records]
    assert {f.path for f in from_text} == {"<text>"}


def test_check_narrows_targets_and_codes_as_the_cli_does(tmp_path: Path) -> None:
    src = FIXTURES / "kitchen_sink.tool.json"
    for args, kwargs in [(("--target", "gemini"), {"targets": ["gemini"]}),
                         (("--select", "TC5"), {"select": "TC5"}),
                         (("--ignore", "TC5", "--target", "openai"), {"ignore": ["TC5"], "targets": "openai"})]:
        records = json.loads(cli("check", str(src), "--format", "json", *args).stdout)
        assert [f.to_dict() for f in toolcast.check(src, **kwargs)] == records, args
    assert {f.target for f in toolcast.check(src, targets=["gemini"]) if f.target} == {"gemini"}


def test_check_takes_tool_values_and_sdk_objects() -> None:
    from mcp.types import Tool

    tool = Tool(name="bad name", inputSchema={"type": "object", "properties": {"x": {"type": "string"}}})
    codes = {f.code for f in toolcast.check(tool)}
    assert {"TC103", "TC204"} <= codes  # no description; a name no provider accepts
    assert {f.code for f in toolcast.check([tool.model_dump(by_alias=True, exclude_none=True)])} == codes


def test_check_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(ToolcastError, match=r"missing\.json: cannot read"):
        toolcast.check(tmp_path / "missing.json")
    (tmp_path / "latin1.json").write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(ToolcastError, match=r"not UTF-8 \(byte 13\)"):
        toolcast.check(str(tmp_path / "latin1.json"))
    with pytest.raises(ValueError, match=r"not a rule code or prefix: 'E501'"):
        toolcast.check("{}", select=["E501"])
    with pytest.raises(ValueError, match="unknown target 'cohere'"):
        toolcast.check("{}", targets=["cohere"])
