"""Check configuration: which targets, which rules, what severity, which files are tool files.

Read from ``toolcast.toml`` (top-level keys) or ``[tool.toolcast]`` in ``pyproject.toml``, the nearest one
found walking up from the checked file; the same keys come from LSP client settings through
``config_from_mapping``. Unknown keys and bad values become ``ConfigProblem``s (reported as TC7xx
findings), never silently ignored.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..consumers import UnknownConsumer, check_model, consumer
from ..document.file_reading import UnreadableFile, read_text, special_file
from ..rules.codes import (
    CONFIG_BAD_BUDGET,
    CONFIG_BAD_VALUE,
    CONFIG_UNKNOWN_CONSUMER,
    CONFIG_UNKNOWN_KEY,
    DESCRIPTION_MISSING,
    PARAMETERS_MISSING,
    PARAMETERS_TYPE_NOT_OBJECT,
    PROPERTIES_MISSING,
)
from ..rules.findings import Severity
from ..rules.registry import RULES
from ..targets import TARGETS, TargetOptions, TypeCase

#: Files that count as tool files when a folder is checked (or a client asks).
DEFAULT_GLOBS: tuple[str, ...] = (
    "*.tool.json",
    "*.tools.json",
    "tools/*.json",
    "*.tool.jsonc",
    "*.tools.jsonc",
    "tools/*.jsonc",
    "*.request.json",
)

#: Severity names accepted in configuration; ``off`` disables the rule.
SEVERITY_NAMES: tuple[str, ...] = ("error", "warning", "info", "hint", "off")

CONFIG_FILES: tuple[str, ...] = ("toolcast.toml", "pyproject.toml")
#: A configuration file (a pyproject.toml included) is read up to this size; a larger one is a finding.
MAX_CONFIG_BYTES = 1_000_000

#: Request budgets (TC93x): positive whole numbers, unset by default.
_BUDGET_KEYS = ("max_tokens", "max_tools")

#: Who consumes the tools (schemas/consumers): hosts and APIs, model families, the MCP server's name there.
_CONSUMER_KEYS = ("consumers", "models", "server_name")

_TOP_KEYS = ("targets", "target_options", "select", "ignore", "severity", "globs", *_BUDGET_KEYS, *_CONSUMER_KEYS)
_TARGET_OPTION_KEYS = ("enabled", "strict", "gemini_type_case")


@dataclass(frozen=True)
class ConfigProblem:
    """A configuration key that is unknown or holds a bad value; ``key`` is dotted
    (``targets.openai.strict``)."""

    source: str
    key: str
    message: str
    code: str = CONFIG_BAD_VALUE  # TC701 unknown key, TC702 bad value (see ``rules``)


def _empty_severities() -> Mapping[str, Severity | None]:
    return MappingProxyType({})


def _empty_options() -> Mapping[str, TargetOptions]:
    return MappingProxyType({})


@dataclass(frozen=True)
class CheckConfig:
    """``severities`` maps a code (or prefix) to its severity; ``None`` means the rule is off."""

    targets: tuple[str, ...] = TARGETS
    #: The user named the targets (a ``targets`` list, a table turning one off, ``--target``, the library's
    #: ``targets``): each is judged exactly as named. Otherwise each provider is judged in the form that keeps
    #: a tool best (``convert.forms``; ``judged.judged_config``). Left out: named when ``targets`` is not
    #: every target.
    targets_named: bool | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severities: Mapping[str, Severity | None] = field(default_factory=_empty_severities)
    globs: tuple[str, ...] = DEFAULT_GLOBS
    target_options: Mapping[str, TargetOptions] = field(default_factory=_empty_options)
    source: str | None = None  # the file the configuration came from, if any
    max_tokens: int | None = None  # estimated tokens of a file's tools per target (TC930)
    max_tools: int | None = None  # tools per file or MCP server (TC931)
    #: Selected hosts/APIs and models (``schemas/consumers``): their rules run only when selected.
    consumers: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    #: The MCP server's name as the hosts know it (the prefix of host-prefixed tool names).
    server_name: str | None = None

    @property
    def exact_targets(self) -> bool:
        """``targets_named``, or when it was left out, whether ``targets`` is not every target: derived on each read,
        so ``replace(config, targets=...)`` names the targets it sets."""
        return self.targets != TARGETS if self.targets_named is None else self.targets_named

    def for_seed_registry(self) -> CheckConfig:
        """This configuration for tools seed 000's registry registers (tool executables): its registration rules
        (a tool without a description, `parameters`, an object `type`, `properties`) are errors there, unless the
        configuration sets their severity (or turns them off)."""
        seeded = {code: Severity.ERROR for code in (DESCRIPTION_MISSING, PARAMETERS_MISSING,
                                                    PARAMETERS_TYPE_NOT_OBJECT, PROPERTIES_MISSING)
                  if self.severity_override(code, _UNSET) is _UNSET}
        return replace(self, severities={**self.severities, **seeded}) if seeded else self

    def options_for(self, target: str) -> TargetOptions:
        return self.target_options.get(target, TargetOptions())

    def narrowed(self, targets: tuple[str, ...] = (), select: tuple[str, ...] = (),
                 ignore: tuple[str, ...] = ()) -> CheckConfig:
        """This configuration with a caller's own choice applied, as ``toolcast check --target/--select/--ignore``
        and the library's ``check`` give it: ``targets`` keeps the configured ones among them (or, when none
        is configured, takes them), ``select`` replaces the selection, ``ignore`` adds to the ignored codes."""
        out = self
        if targets:
            out = replace(out, targets=tuple(t for t in out.targets if t in targets) or targets, targets_named=True)
        if select:
            out = replace(out, select=select)
        if ignore:
            out = replace(out, ignore=out.ignore + ignore)
        return out

    def is_enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(p) for p in self.select):
            return False
        if any(code.startswith(p) for p in self.ignore):
            return False
        severity = self.severity_override(code, _UNSET)
        if severity is _UNSET and not any(code.startswith(p) for p in self.select):
            rule = RULES.get(code)
            return not (rule is not None and rule.opt_in)
        return severity is not None

    def severity_of(self, code: str, default: Severity) -> Severity | None:
        """The severity a finding of ``code`` is shown with: the configured one, else the rule's severity
        when selected by its own code (``Rule.selected``), else ``default``; None when turned off."""
        configured = self.severity_override(code, _UNSET)
        if configured is not _UNSET:
            return configured  # type: ignore[no-any-return]
        rule = RULES.get(code)
        if rule is not None and rule.selected is not None and code in self.select:
            return rule.selected
        return default

    def severity_override(self, code: str, default: Any) -> Any:
        """The configured severity for ``code`` (longest matching prefix wins), or ``default``."""
        best: str | None = None
        for key in self.severities:
            if code.startswith(key) and (best is None or len(key) > len(best)):
                best = key
        return self.severities[best] if best is not None else default

    def cache_key(self) -> tuple[Any, ...]:
        """A hashable summary, for caches keyed by configuration."""
        return (
            self.targets,
            self.exact_targets,
            self.select,
            self.ignore,
            tuple(sorted((k, v.value if v else None) for k, v in self.severities.items())),
            self.globs,
            tuple(sorted((k, v.strict, v.gemini_type_case) for k, v in self.target_options.items())),
            self.max_tokens,
            self.max_tools,
            (self.consumers, self.models, self.server_name),
        )


_UNSET = object()


def _str_list(value: Any, source: str, key: str, problems: list[ConfigProblem]) -> tuple[str, ...] | None:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(ConfigProblem(source, key, f"`{key}` must be a list of strings"))
        return None
    return tuple(value)


def is_code_like(value: str) -> bool:
    """A code or a code prefix: ``TC``, ``TC1``, ``TC10``, ``TC101``."""
    return value.startswith("TC") and len(value) <= 5 and value[2:].isdigit()


def config_from_mapping(data: Mapping[str, Any], source: str) -> tuple[CheckConfig, list[ConfigProblem]]:
    """Build a configuration from the keys of ``[tool.toolcast]``; problems are reported, good keys kept.
    Each kind of setting is read by its own step, in the order its problems are reported."""
    if not isinstance(data, Mapping):
        return CheckConfig(source=source), [ConfigProblem(source, "", "configuration must be a table")]
    problems: list[ConfigProblem] = []
    problems.extend(_unknown_keys(data, source))
    kwargs: dict[str, Any] = {"source": source}
    kwargs.update(_target_settings(data, source, problems))
    kwargs.update(_rule_selection(data, source, problems))
    kwargs.update(_severities(data, source, problems))
    kwargs.update(_globs(data, source, problems))
    kwargs.update(_budgets(data, source, problems))
    kwargs.update(consumer_settings(data, source, problems))
    return CheckConfig(**kwargs), problems


def _unknown_keys(data: Mapping[str, Any], source: str) -> list[ConfigProblem]:
    """A TC701 problem for each top-level key toolcast does not know."""
    return [
        ConfigProblem(
            source,
            str(key),
            f"unknown key `{key}`; expected one of: {', '.join(_TOP_KEYS)}",
            CONFIG_UNKNOWN_KEY,
        )
        for key in data
        if key not in _TOP_KEYS
    ]


def _known_codes(key: str, codes: tuple[str, ...], source: str, problems: list[ConfigProblem]) -> tuple[str, ...]:
    """The codes and code prefixes among ``codes`` that name rules; a problem for each other one."""
    good = []
    for c in codes:
        if is_code_like(c) and (len(c) < 5 or c in RULES):
            good.append(c)
        else:
            problems.append(ConfigProblem(source, key, f"unknown rule code or prefix `{c}` in `{key}`"))
    return tuple(good)


def _target_settings(data: Mapping[str, Any], source: str, problems: list[ConfigProblem]) -> dict[str, Any]:
    """``targets`` (a list of names, or a table of options per target) and ``target_options`` (the LSP
    settings' table of options; it wins over the ``targets`` table for a target both set)."""
    out: dict[str, Any] = {}
    options: dict[str, TargetOptions] = {}
    targets_value = data.get("targets")
    if isinstance(targets_value, Mapping):
        out["targets"] = _targets_table(targets_value, source, problems, options)
        out["targets_named"] = out["targets"] != TARGETS  # a table only setting options names no target
    elif targets_value is not None:
        listed = _str_list(targets_value, source, "targets", problems)
        if listed is not None:
            good = []
            for name in listed:
                if name in TARGETS:
                    good.append(name)
                else:
                    problems.append(ConfigProblem(source, "targets", _unknown_target(name)))
            out["targets"] = tuple(n for n in TARGETS if n in good)
            out["targets_named"] = True
    if "target_options" in data:
        # The LSP settings form: `targets` a list, options in a separate table of the same layout.
        table = data["target_options"]
        if not isinstance(table, Mapping):
            problems.append(ConfigProblem(source, "target_options", "`target_options` must be a table"))
        else:
            for name, opts in table.items():
                if name not in TARGETS:
                    problems.append(ConfigProblem(source, f"target_options.{name}", _unknown_target(name)))
                    continue
                _, parsed = _target_options(opts, source, f"target_options.{name}", problems)
                if parsed is not None:
                    options[name] = parsed
    out["target_options"] = MappingProxyType(options)
    return out


def _targets_table(
    table: Mapping[str, Any], source: str, problems: list[ConfigProblem], options: dict[str, TargetOptions]
) -> tuple[str, ...]:
    """`[tool.toolcast.targets.openai] strict = false`: options per target, added to ``options``; every
    target stays on unless its table says `enabled = false` (or `openai = false`)."""
    disabled: set[str] = set()
    for name, opts in table.items():
        if name not in TARGETS:
            problems.append(ConfigProblem(source, f"targets.{name}", _unknown_target(name)))
            continue
        enabled, parsed = _target_options(opts, source, f"targets.{name}", problems)
        if not enabled:
            disabled.add(name)
        if parsed is not None:
            options[name] = parsed
    return tuple(n for n in TARGETS if n not in disabled)


def _rule_selection(data: Mapping[str, Any], source: str, problems: list[ConfigProblem]) -> dict[str, Any]:
    """``select`` and ``ignore``: lists of rule codes or prefixes."""
    out: dict[str, Any] = {}
    for key in ("select", "ignore"):
        if key in data:
            listed = _str_list(data[key], source, key, problems)
            if listed is not None:
                out[key] = _known_codes(key, listed, source, problems)
    return out


def _severities(data: Mapping[str, Any], source: str, problems: list[ConfigProblem]) -> dict[str, Any]:
    """``severity``: a table of CODE (or prefix) = level, where ``off`` turns the rule off."""
    if "severity" not in data:
        return {}
    sev = data["severity"]
    if not isinstance(sev, Mapping):
        problems.append(ConfigProblem(source, "severity", "`severity` must be a table of CODE = level"))
        return {}
    severities: dict[str, Severity | None] = {}
    for code, level in sev.items():
        if not _known_codes(f"severity.{code}", (str(code),), source, problems):
            continue
        if not isinstance(level, str) or level.lower() not in SEVERITY_NAMES:
            problems.append(
                ConfigProblem(
                    source,
                    f"severity.{code}",
                    f"bad severity {level!r}; expected one of: {', '.join(SEVERITY_NAMES)}",
                )
            )
            continue
        severities[str(code)] = None if level.lower() == "off" else Severity(level.lower())
    return {"severities": MappingProxyType(severities)}


def _globs(data: Mapping[str, Any], source: str, problems: list[ConfigProblem]) -> dict[str, Any]:
    """``globs``: which files are tool files; an empty list is a problem (it would check nothing)."""
    if "globs" not in data:
        return {}
    listed = _str_list(data["globs"], source, "globs", problems)
    if listed is None:
        return {}
    if not listed:
        problems.append(ConfigProblem(source, "globs", "`globs` is empty: no file would be checked"))
        return {}
    return {"globs": listed}


def _budgets(data: Mapping[str, Any], source: str, problems: list[ConfigProblem]) -> dict[str, int]:
    """``max_tokens`` and ``max_tools``: a positive whole number each, else a TC706 problem and no budget."""
    found: dict[str, int] = {}
    for key in _BUDGET_KEYS:
        if key not in data:
            continue
        value = data[key]
        # TOML and JSON settings may give 8000.0 for 8000; bool is an int in Python, and never a budget.
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            problems.append(ConfigProblem(source, key, f"`{key}` must be a positive whole number, not {value!r}",
                                          CONFIG_BAD_BUDGET))
            continue
        found[key] = value
    return found


def consumer_settings(data: Mapping[str, Any], source: str, problems: list[ConfigProblem]) -> dict[str, Any]:
    """``consumers``, ``models`` and ``server_name``; an unknown host or model is a TC703 problem naming the
    known ones, and is left out."""
    out: dict[str, Any] = {}

    def model(name: str) -> None:  # a model family's, or one the selected hosts let the user pick
        check_model(name, out.get("consumers", ()))

    for key, lookup in (("consumers", consumer), ("models", model)):
        if key not in data:
            continue
        listed = _str_list(data[key], source, key, problems)
        if listed is None:
            continue
        good = []
        for name in listed:
            try:
                lookup(name)
            except UnknownConsumer as exc:
                problems.append(ConfigProblem(source, key, str(exc), CONFIG_UNKNOWN_CONSUMER))
            else:
                good.append(name)
        out[key] = tuple(dict.fromkeys(good))
    if "server_name" in data:
        name = data["server_name"]
        if isinstance(name, str) and name.strip():
            out["server_name"] = name
        else:
            problems.append(ConfigProblem(source, "server_name", "`server_name` must be a non-empty string"))
    return out


def _unknown_target(name: str) -> str:
    return f"unknown target `{name}`; expected one of: {', '.join(TARGETS)}"


def _target_options(
    opts: Any, source: str, key: str, problems: list[ConfigProblem]
) -> tuple[bool, TargetOptions | None]:
    """(enabled, options) for one target's table; ``openai = false`` disables the target."""
    if isinstance(opts, bool):
        return opts, None
    if not isinstance(opts, Mapping):
        problems.append(ConfigProblem(source, key, f"`{key}` must be a table of options or true/false"))
        return True, None
    enabled = True
    strict: bool | None = None
    case: TypeCase = "upper"
    for k, v in opts.items():
        if k not in _TARGET_OPTION_KEYS:
            problems.append(
                ConfigProblem(
                    source,
                    f"{key}.{k}",
                    f"unknown option `{k}`; expected one of: {', '.join(_TARGET_OPTION_KEYS)}",
                    CONFIG_UNKNOWN_KEY,
                )
            )
        elif k in ("strict", "enabled"):
            if not isinstance(v, bool):
                problems.append(ConfigProblem(source, f"{key}.{k}", f"`{k}` must be true or false"))
            elif k == "strict":
                strict = v
            else:
                enabled = v
        elif not key.endswith(".gemini"):
            problems.append(
                ConfigProblem(source, f"{key}.{k}", "`gemini_type_case` applies to the gemini target only")
            )
        elif v == "upper" or v == "lower":
            case = v
        else:
            problems.append(
                ConfigProblem(source, f"{key}.{k}", '`gemini_type_case` must be "upper" or "lower"')
            )
    return enabled, TargetOptions(strict=strict, gemini_type_case=case)


class ConfigReadError(Exception):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def find_config_file(start: Path) -> tuple[Path, Mapping[str, Any]] | None:
    """The nearest ``toolcast.toml``, or ``pyproject.toml`` with a ``[tool.toolcast]`` table, upward from
    ``start``; returns the file and its parsed document (raises ``tomllib.TOMLDecodeError``/``OSError``)."""
    here = start if start.is_dir() else start.parent
    for folder in (here, *here.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if not candidate.is_file():
                reason = special_file(candidate)  # a device, FIFO or socket: named, never opened
                if reason is not None:
                    raise ConfigReadError(str(candidate), reason)
                continue
            try:
                doc = tomllib.loads(read_text(candidate, MAX_CONFIG_BYTES))
            except UnreadableFile as exc:
                raise ConfigReadError(str(candidate), exc.reason) from exc
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise ConfigReadError(str(candidate), str(exc)) from exc
            if name == "toolcast.toml":
                return candidate, doc
            tool = doc.get("tool")
            if isinstance(tool, Mapping) and "toolcast" in tool:
                return candidate, tool["toolcast"]
    return None


def load_config(start: Path) -> tuple[CheckConfig, list[ConfigProblem]]:
    """Configuration for a file or folder at ``start``; defaults when no configuration file is found."""
    try:
        found = find_config_file(start.resolve())
    except ConfigReadError as exc:
        return CheckConfig(), [ConfigProblem(exc.path, "", f"cannot read configuration: {exc.reason}")]
    if found is None:
        return CheckConfig(), []
    path, data = found
    return config_from_mapping(data, str(path))
