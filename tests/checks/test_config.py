"""Configuration: found upward, every key honoured, unknown keys and bad values reported."""

from __future__ import annotations

from pathlib import Path

from toolcast.adapters.checks import DEFAULT_GLOBS, CheckConfig, Severity, config_from_mapping, load_config
from toolcast.adapters.checks.engine import config_findings
from toolcast.adapters.targets import TARGETS, TargetOptions


def test_defaults_without_a_configuration_file(tmp_path: Path) -> None:
    config, problems = load_config(tmp_path)
    assert problems == []
    assert config.targets == TARGETS
    assert "*.tool.json" in config.globs and "tools/*.jsonc" in config.globs


def test_pyproject_found_upward(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.toolcast]\ntargets = ["openai", "gemini"]\nselect = ["TC1", "TC204"]\n'
        'ignore = ["TC109"]\nglobs = ["defs/*.json"]\n\n[tool.toolcast.severity]\nTC203 = "off"\nTC1 = "warning"\n',
        encoding="utf-8",
    )
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    config, problems = load_config(deep / "x.tool.json")
    assert problems == []
    assert config.source == str((tmp_path / "pyproject.toml").resolve())
    assert config.targets == ("openai", "gemini")
    assert config.globs == ("defs/*.json",)
    assert config.is_enabled("TC101") and config.is_enabled("TC204")
    assert not config.is_enabled("TC109")  # ignored
    assert not config.is_enabled("TC203")  # not selected (and off)
    assert config.severity_override("TC101", None) == Severity.WARNING


def test_pyproject_without_a_toolcast_table_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "toolcast.toml").write_text('targets = ["mcp"]\n', encoding="utf-8")
    inner = tmp_path / "pkg"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    config, problems = load_config(inner)
    assert problems == [] and config.targets == ("mcp",)


def test_toolcast_toml_beats_pyproject_in_the_same_folder(tmp_path: Path) -> None:
    (tmp_path / "toolcast.toml").write_text('targets = ["anthropic"]\n', encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.toolcast]\ntargets = ["openai"]\n', encoding="utf-8")
    assert load_config(tmp_path)[0].targets == ("anthropic",)


def test_per_target_tables_set_options_and_keep_every_target() -> None:
    config, problems = config_from_mapping(
        {"targets": {"openai": {"strict": False}, "gemini": {"gemini_type_case": "lower"}, "mcp": False}}, "t"
    )
    assert problems == []
    assert "mcp" not in config.targets and "anthropic" in config.targets
    assert config.options_for("openai") == TargetOptions(strict=False)
    assert config.options_for("gemini").gemini_type_case == "lower"
    assert config.options_for("bedrock") == TargetOptions()


def test_unknown_keys_and_bad_values_are_reported() -> None:
    config, problems = config_from_mapping(
        {
            "target": ["openai"],  # typo of `targets`
            "targets": ["openai", "openia"],  # unknown target
            "select": ["TC1", "XY9"],  # unknown code
            "severity": {"TC501": "loud", "TC999": "error"},
            "globs": 3,
        },
        "cfg.toml",
    )
    keys = {(p.code, p.key) for p in problems}
    assert ("TC701", "target") in keys
    assert ("TC702", "targets") in keys
    assert ("TC702", "select") in keys
    assert ("TC702", "severity.TC501") in keys
    assert ("TC702", "severity.TC999") in keys
    assert ("TC702", "globs") in keys
    # The good parts are kept.
    assert config.targets == ("openai",) and config.select == ("TC1",)
    findings = config_findings(problems)
    assert {f.code for f in findings} == {"TC701", "TC702"}
    assert all(f.data["source"] == "cfg.toml" for f in findings)


def test_option_problems() -> None:
    _, problems = config_from_mapping(
        {"targets": {"openai": {"strict": "yes", "colour": 1}, "anthropic": {"gemini_type_case": "upper"}}},
        "s",
    )
    assert {(p.code, p.key) for p in problems} == {
        ("TC702", "targets.openai.strict"),
        ("TC701", "targets.openai.colour"),
        ("TC702", "targets.anthropic.gemini_type_case"),
    }


def test_broken_toml_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "toolcast.toml").write_text("targets = [\n", encoding="utf-8")
    config, problems = load_config(tmp_path)
    assert config == CheckConfig()
    assert len(problems) == 1 and "cannot read configuration" in problems[0].message
    assert "toolcast.toml" in problems[0].source


def test_an_empty_globs_list_is_a_problem_and_the_default_globs_stay() -> None:
    """An empty `globs` would make `toolcast check DIR` and the workspace index check nothing, silently."""
    config, problems = config_from_mapping({"globs": []}, "cfg.toml")
    assert [(p.code, p.key) for p in problems] == [("TC702", "globs")]
    assert "no file would be checked" in problems[0].message
    assert config.globs == DEFAULT_GLOBS
