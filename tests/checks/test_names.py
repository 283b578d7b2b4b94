"""Registration checks across files (TC202) and the ToolSummary data the language server indexes."""

from __future__ import annotations

import json

from helpers import span_of
from toolcast.adapters.checks import CheckConfig, NameIndex, check_document, check_names_across


def _tool(name: str) -> str:
    return json.dumps({"name": name, "description": "d", "parameters": {"type": "object", "properties": {}}})


def test_duplicate_names_across_files_point_at_each_other() -> None:
    a, b, c = (
        _tool("search"),
        json.dumps([json.loads(_tool("x")), json.loads(_tool("search"))]),
        _tool("other"),
    )
    reports = {
        "a.tool.json": check_document(a),
        "b.tool.json": check_document(b),
        "c.tool.json": check_document(c),
    }
    out = check_names_across(reports, CheckConfig())
    assert set(out) == set(reports)
    assert out["c.tool.json"] == ()
    (fa,) = out["a.tool.json"]
    (fb,) = out["b.tool.json"]
    assert fa.code == fb.code == "TC202"
    assert fa.span == span_of(a, '"search"')
    assert fb.span == span_of(b, '"search"') and fb.tool_index == 1 and fb.pointer == "/1"
    assert [(r.path, r.span) for r in fa.related] == [("b.tool.json", span_of(b, '"search"'))]
    assert [(r.path, r.span) for r in fb.related] == [("a.tool.json", span_of(a, '"search"'))]


def test_same_name_twice_in_one_file_is_tc201_not_tc202() -> None:
    text = json.dumps([json.loads(_tool("s")), json.loads(_tool("s"))])
    reports = {"a.tool.json": check_document(text)}
    assert check_names_across(reports, CheckConfig()) == {"a.tool.json": ()}
    (f,) = [f for f in reports["a.tool.json"].findings if f.code == "TC201"]
    assert f.span == span_of(text, '"s"', 1)
    assert f.related[0].span == span_of(text, '"s"', 0)


def test_cross_file_check_honours_configuration() -> None:
    reports = {"a": check_document(_tool("s")), "b": check_document(_tool("s"))}
    assert check_names_across(reports, CheckConfig(ignore=("TC202",))) == {"a": (), "b": ()}


def test_the_findings_of_one_file_alone_are_that_files_findings_of_all() -> None:
    """The language server asks for the file it publishes (``only``): the same findings as the full
    answer gives that file, no entry for the others, and nothing for a path that is not among the reports."""
    reports = {name: check_document(json.dumps([json.loads(_tool(n)) for n in names]))
               for name, names in {"a.tool.json": ("s", "t"), "b.tool.json": ("t", "u", "s"),
                                   "c.tool.json": ("s",), "d.tool.json": ("v",)}.items()}
    full = check_names_across(reports, CheckConfig())
    assert [len(full[p]) for p in sorted(full)] == [2, 2, 1, 0]
    for path in reports:
        assert check_names_across(reports, CheckConfig(), only=path) == {path: full[path]}
    assert check_names_across(reports, CheckConfig(), only="elsewhere.tool.json") == {}
    assert check_names_across(reports, CheckConfig(ignore=("TC202",)), only="a.tool.json") == {"a.tool.json": ()}


def test_a_finding_names_a_few_files_and_counts_the_rest() -> None:
    """A name defined in many files: each finding names the first five other files (path order) and
    counts the rest; its related entries are those files' definitions, a few per file."""
    many = json.dumps([json.loads(_tool("s")) for _ in range(8)])
    reports = {f"f{i}.tool.json": check_document(_tool("s")) for i in range(8)}
    reports["f1.tool.json"] = check_document(many)
    out = check_names_across(reports, CheckConfig())
    (first,) = out["f0.tool.json"]
    assert first.message == ("tool name 's' is also defined in f1.tool.json, f2.tool.json, f3.tool.json, "
                             "f4.tool.json, f5.tool.json and 2 more")
    assert [r.path for r in first.related] == ["f1.tool.json"] * 5 + [f"f{i}.tool.json" for i in range(2, 6)]
    assert [r.pointer for r in first.related[:5]] == [f"/{i}" for i in range(5)]
    last = out["f7.tool.json"][0]
    assert last.message.endswith("f0.tool.json, f1.tool.json, f2.tool.json, f3.tool.json, f4.tool.json and 2 more")
    assert len(out["f1.tool.json"]) == 8  # every definition in the file has its finding


def test_the_name_index_says_whose_findings_an_update_changes() -> None:
    """The language server updates one file at a time: ``update`` returns the names whose files or
    definitions changed (the other files holding them have new findings); a tool that only moved is none."""
    index = NameIndex()
    assert index.update("a", check_document(_tool("s"))) == {"s"}
    assert index.update("b", check_document(json.dumps([json.loads(_tool("t")), json.loads(_tool("s"))]))) == {"s", "t"}
    assert index.sharing({"s"}, "a") == {"b"} and index.sharing({"t"}, "b") == set()
    assert [f.message for f in index.findings("a", CheckConfig())] == ["tool name 's' is also defined in b"]
    moved = json.dumps([json.loads(_tool("t")), {"x": 1}, json.loads(_tool("s"))], indent=2)
    assert index.update("b", check_document(moved)) == set()  # same names, other places
    assert index.findings("b", CheckConfig())[0].pointer == "/2"
    assert index.update("b", None) == {"s", "t"}
    assert index.findings("a", CheckConfig()) == () and "b" not in index
    assert index.update("a.openai.json", check_document(_tool("s"))) == set()  # an export defines nothing
