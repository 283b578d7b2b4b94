"""The consumer profiles (schemas/consumers): every rule cites its source and says how sure it is, the loader
rejects a profile it cannot trust, names resolve or fail with the known names, and unclear rules never
make errors."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import toolcast.schemas
from toolcast.adapters import consumers as c
from toolcast.adapters.checks.config import config_from_mapping
from toolcast.adapters.checks.consumer_checks import severity
from toolcast.adapters.rules.codes import CONFIG_UNKNOWN_CONSUMER
from toolcast.adapters.rules.findings import Severity
from toolcast.adapters.targets import TARGETS

#: The profiles the imported toolcast reads (the checkout's schemas/ in a development install, the staged copy
#: in a mutation run: scripts/mutation.py does not lay out the repository's root).
SCHEMAS = Path(toolcast.schemas.__file__).parent
#: The forms a source may take, written out here (not the loader's pattern): a docs URL, owner/repo#N,
#: owner/repo@commit path.
_URL = re.compile(r"https?://[^\s]+")
_ISSUE = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+#[0-9]+")
_AT_COMMIT = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+@[0-9a-f]{7,40} [^\s]+")


def _raw_rules() -> list[tuple[str, dict[str, Any]]]:
    """Every rule in the profile files as JSON, read without the loader."""
    out: list[tuple[str, dict[str, Any]]] = []
    for path in sorted((SCHEMAS / "consumers").glob("*.json")):
        out += [(path.name, r) for r in json.loads(path.read_text())["rules"]]
    for path in sorted((SCHEMAS / "consumers" / "models").glob("*.json")):
        for fam in json.loads(path.read_text())["families"]:
            out += [(f"{path.name}:{fam['family']}", r) for r in fam["rules"]]
    for path in sorted((SCHEMAS / "providers").glob("*.json")):
        data = json.loads(path.read_text())
        limit = data.get("limits", {}).get("max_tools")
        if limit is not None:
            out.append((f"{path.name}:limits.max_tools", limit))
        out += [(f"{path.name}:rules", r) for r in data.get("rules", [])]
    return out


def test_every_rule_has_a_source_and_a_confidence() -> None:
    rules = _raw_rules()
    hosts = {p.stem for p in (SCHEMAS / "consumers").glob("*.json")}
    assert {"vscode", "claude-code", "claude-desktop", "cursor", "gemini-cli", "codex-cli"} <= hosts
    assert {"xai", "deepseek", "groq"} <= hosts
    assert {"copilot-cli", "copilot-jetbrains", "antigravity", "opencode", "cline", "librechat"} <= hosts
    assert len(rules) >= 25
    assert {"gemini.json:rules", "bedrock.json:rules"} <= {where for where, _ in rules}  # provider-wide rules
    for where, rule in rules:
        sources = rule.get("source")
        assert isinstance(sources, list) and sources, f"{where}: {rule.get('id')} has no source"
        for s in sources:
            assert any(p.fullmatch(s) for p in (_URL, _ISSUE, _AT_COMMIT)), f"{where}: source {s!r}"
        assert rule.get("confidence") in ("documented", "observed", "unclear"), f"{where}: {rule.get('id')}"


def test_every_profile_loads_and_every_family_is_reachable_by_its_examples() -> None:
    for name in c.consumer_names():
        assert c.consumer(name).rules
    families = c.model_families()
    assert {"gemini-2", "gemini-3", "vertex-gemini-2", "vertex-gemini-3"} <= {f.name for f in families}
    for fam in families:
        for example in fam.examples:
            assert c.model_family(example) is fam
        assert c.model_family(fam.name) is fam
    assert c.provider_tool_limit("openai") is not None
    assert c.provider_tool_limit("anthropic") is None


def test_unclear_rules_are_never_errors() -> None:
    unclear = [r for n in c.consumer_names() for r in c.consumer(n).rules if r.confidence == "unclear"]
    unclear += [r for f in c.model_families() for r in f.rules if r.confidence == "unclear"]
    assert len(unclear) >= 3  # Cursor, Windsurf, Vertex's declaration count, DeepSeek strict
    assert all(severity(r) == Severity.WARNING for r in unclear if r.effect in ("rejected", "dropped"))


def _vscode() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS / "consumers" / "vscode.json").read_text())
    return data


@pytest.mark.parametrize(("change", "said"), [
    (lambda r: r.pop("source"), "missing settings ['source']"),
    (lambda r: r.pop("confidence"), "missing settings ['confidence']"),
    (lambda r: r.__setitem__("source", ["a forum post"]), "`source` must list"),
    (lambda r: r.__setitem__("confidence", "likely"), "`confidence` must be one of"),
    (lambda r: r.__setitem__("maxx", 12), "unknown settings ['maxx']"),
    (lambda r: r.__setitem__("max", "128"), "bad `max`"),
    (lambda r: r.__setitem__("rule", "tool_count"), "`rule` must be one of"),
    (lambda r: r.__setitem__("effect", "ignored"), "`effect` must be one of"),
])
def test_the_loader_rejects_a_rule_it_cannot_trust(change: Any, said: str) -> None:
    data = _vscode()
    c.validate_consumer("vscode", data)  # the committed profile is fine
    bad = copy.deepcopy(data)
    change(bad["rules"][0])
    with pytest.raises(c.ConsumerProfileError, match=re.escape(said)):
        c.validate_consumer("vscode", bad)


def _rule_of(host: str, rule_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    data: dict[str, Any] = json.loads((SCHEMAS / "consumers" / f"{host}.json").read_text())
    return data, next(r for r in data["rules"] if r["id"] == rule_id)


@pytest.mark.parametrize(("host", "rule_id", "change", "said"), [
    ("roo-code", "prefixed-name-chars", lambda r: r.pop("pattern"), "missing settings ['pattern']"),
    ("roo-code", "prefixed-name-chars", lambda r: r.__setitem__("pattern", "[a-z"), "`pattern` must be a regular"),
    ("roo-code", "prefixed-name-chars", lambda r: r.__setitem__("format", "mcp--{server}"), "`format` uses"),
    ("roo-code", "prefixed-name-chars", lambda r: r.pop("source"), "missing settings ['source']"),
    ("copilot-cli", "gemini-nullable-items", lambda r: r.__setitem__("containing", []), "`containing` must list"),
    ("copilot-cli", "gemini-nullable-items", lambda r: r.pop("confidence"), "missing settings ['confidence']"),
    ("vscode", "gpt4-keywords", lambda r: r.__setitem__("models", "gpt-4("), "`models` must be a regular"),
    ("vscode", "gpt4-keywords", lambda r: r.__setitem__("effect", "deleted"), "`effect` must be one of"),
    ("gemini-cli", "duplicate-names", lambda r: r.__setitem__("renamed", "first"), "`renamed` must be one of"),
    ("gemini-cli", "duplicate-names", lambda r: r.pop("renamed"), "missing settings ['renamed']"),
    ("gemini-cli", "duplicate-names", lambda r: r.__setitem__("format", "mcp_{tool}"), "`format` names the server"),
    ("gemini-cli", "duplicate-names", lambda r: r.pop("source"), "missing settings ['source']"),
])
def test_the_loader_rejects_a_host_rule_it_cannot_trust(host: str, rule_id: str, change: Any, said: str) -> None:
    data, rule = _rule_of(host, rule_id)
    c.validate_consumer(host, data)  # the committed profile is fine
    change(rule)
    with pytest.raises(c.ConsumerProfileError, match=re.escape(said)):
        c.validate_consumer(host, data)


def test_the_loader_rejects_a_model_picker_naming_no_target() -> None:
    data, _ = _rule_of("copilot-cli", "prefixed-name")
    data["sends_to"].append("grok")
    with pytest.raises(c.ConsumerProfileError, match="`sends_to` must list targets"):
        c.validate_consumer("copilot-cli", data)


def test_every_host_has_a_proxy_dialect() -> None:
    """`toolcast proxy --for HOST` lowers the tools for the host's default provider: every host has one."""
    from toolcast.adapters.proxy_plan import HOST_DIALECTS

    hosts = {n for n in c.consumer_names() if c.consumer(n).kind == "host"}
    assert hosts == set(HOST_DIALECTS)
    assert set(HOST_DIALECTS.values()) <= set(TARGETS)


def test_the_loader_rejects_a_family_whose_examples_it_does_not_match() -> None:
    data = json.loads((SCHEMAS / "consumers" / "models" / "gemini.json").read_text())
    c.validate_models("gemini", data)
    data["families"][0]["examples"].append("gemini-1.5-pro")
    with pytest.raises(c.ConsumerProfileError, match="every example matches"):
        c.validate_models("gemini", data)


def test_unknown_names_list_the_known_ones() -> None:
    with pytest.raises(c.UnknownConsumer) as info:
        c.consumer("vs-code")
    assert "vscode" in str(info.value) and "claude-code" in str(info.value)
    with pytest.raises(c.UnknownConsumer) as info:
        c.model_family("gemini-9-ultra")
    assert "gemini-2.5-pro" in str(info.value) and "us.anthropic.claude-opus-4-7" in str(info.value)


def test_configuration_selects_consumers_and_reports_unknown_names_as_tc703() -> None:
    # a GPT model is one VS Code's picker offers (judged with VS Code's rules for it); a typo is no model
    cfg, problems = config_from_mapping({"consumers": ["vscode", "vs-code"], "models": ["gemini-2.5-pro", "gtp-4.1",
                                                                                        "gpt-4.1"],
                                         "server_name": "github"}, "toolcast.toml")
    assert cfg.consumers == ("vscode",) and cfg.models == ("gemini-2.5-pro", "gpt-4.1") and cfg.server_name == "github"
    assert [(p.code, p.key) for p in problems] == [(CONFIG_UNKNOWN_CONSUMER, "consumers"),
                                                   (CONFIG_UNKNOWN_CONSUMER, "models")]
    assert "claude-code" in problems[0].message and "gemini-3" in problems[1].message
    cfg, problems = config_from_mapping({"consumers": "cursor", "server_name": ""}, "toolcast.toml")
    assert cfg.consumers == ("cursor",) and cfg.server_name is None and len(problems) == 1
    # the selection takes part in the cache key, so cached checks of another selection are not reused
    assert config_from_mapping({"consumers": ["vscode"]}, "a")[0].cache_key() != \
        config_from_mapping({"consumers": ["cursor"]}, "a")[0].cache_key()


def test_rule_targets_name_real_targets() -> None:
    for fam in c.model_families():
        for rule in fam.rules:
            assert set(rule.targets) <= set(TARGETS)


def _provider_rules(target: str) -> list[dict[str, Any]]:
    rules: list[dict[str, Any]] = json.loads((SCHEMAS / "providers" / f"{target}.json").read_text())["rules"]
    return rules


@pytest.mark.parametrize(("change", "said"), [
    (lambda r: r.pop("source"), "missing settings ['source']"),
    (lambda r: r.pop("confidence"), "missing settings ['confidence']"),
    (lambda r: r.__setitem__("source", ["a forum post"]), "`source` must list"),
    (lambda r: r.__setitem__("members", ["zero"]), "`members` must list some of"),
    (lambda r: r.__setitem__("members", []), "`members` must list some of"),
])
def test_a_provider_rule_is_held_to_the_same_form(change: Any, said: str) -> None:
    """A provider profile's `rules` go through the consumers' loader: the same source and confidence checks."""
    items = _provider_rules("gemini")
    assert c.validate_provider_rules("gemini", items) == c.provider_rules("gemini")
    bad = copy.deepcopy(items)
    change(bad[0])
    with pytest.raises(c.ConsumerProfileError, match=re.escape(said)):
        c.validate_provider_rules("gemini", bad)


@pytest.mark.parametrize(("rule", "said"), [
    ({"rule": "integer_range", "min": 5, "max": 5}, "`min` must be below `max`"),
    ({"rule": "integer_range", "min": 0}, "missing settings ['max']"),
    ({"rule": "budget", "measure": "tokens", "max": 10}, "`measure` must be one of"),
    ({"rule": "budget", "measure": "depth"}, "missing settings ['max']"),
    ({"rule": "budget", "measure": "depth", "max": True}, "bad `max`"),
    ({"rule": "type_with_composition", "keywords": ["anyOf"]}, "unknown settings ['keywords']"),
])
def test_value_rules_and_budgets_are_validated(rule: dict[str, Any], said: str) -> None:
    base = {"id": "r", "effect": "rejected", "message": "m", "source": ["o/r#1"], "confidence": "observed"}
    with pytest.raises(c.ConsumerProfileError, match=re.escape(said)):
        c.parse_rule({**base, **rule}, "here")


def test_a_host_that_keeps_the_first_servers_name_says_so_in_tc206() -> None:
    """A ``duplicate_names`` rule with ``renamed: later`` (the first server keeps the bare name): TC206 names
    that server and the form the later ones are renamed to, then quotes the rule and its sources."""
    from toolcast.adapters.checks.servers import _host_does

    rule = c.parse_rule({"id": "dup", "rule": "duplicate_names", "renamed": "later", "format": "{server}__{tool}",
                         "effect": "renamed", "message": "first registration wins", "source": ["o/r#1"],
                         "confidence": "documented"}, "here")
    assert _host_does(c.consumer("gemini-cli"), rule, "ping", "local") == (
        "Gemini CLI keeps it for 'local' and renames the others' to `<server>__ping`: first registration wins "
        "[o/r#1 (documented)]")
