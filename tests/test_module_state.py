"""No module in ``adapters/`` keeps mutable state: every cache of the analysis belongs to an ``Analyzer``
(one per CLI run, one per language-server session), so a call without one is cold and two sessions
cannot see each other's memory.

The scan flags every module attribute (and every class attribute of a class defined in ``adapters/``)
that is a mutable container, a ``functools`` cache, a lock, or an object of an ``adapters/`` class that
holds a mutable container. The exceptions are listed in ``ALLOWED``, each with its reason: tables
written once at import (or, for the package-data loaders, a pure function of a file shipped in the
package) and never changed after. The last test runs the analysis and proves those tables unchanged."""

from __future__ import annotations

import collections
import copy
import functools
import importlib
import json
import pkgutil
import threading
import types
import weakref
from collections.abc import Iterator
from typing import Any

import toolcast.adapters
from toolcast.adapters import providers
from toolcast.adapters.messages import thinking

_MUTABLE = (dict, list, set, bytearray, collections.deque, weakref.WeakValueDictionary, weakref.WeakKeyDictionary,
            weakref.WeakSet)
_LOCKS = (type(threading.Lock()), type(threading.RLock()), threading.Condition, threading.Semaphore,
          threading.Event)

_CONST = "a constant table, written once at import and only read"
#: ``module.name`` (module relative to ``toolcast.adapters``) → why it may stay at module level.
ALLOWED: dict[str, str] = {
    # Filled at import, never written after.
    "rules.registry._RULES": "the rule registry: filled by the `rule(...)` declarations when codes.py is "
                              "imported, read-only after (RULES is a read-only view of it)",
    "checks._WHERE": "the lazy exports' table (public name → submodule, adapters/lazy.py), written at import",
    "document._WHERE": "the lazy exports' table (public name → submodule, adapters/lazy.py), written at import",
    "schema._WHERE": "the lazy exports' table (public name → submodule, adapters/lazy.py), written at import",
    "checks.loss_findings._EFFECT_CODES": _CONST,
    "rules.codes.FAMILIES": _CONST,
    "checks.schema_checks._TYPE_FIXES": _CONST,
    "schema.fast_meta._VALUE_OK": _CONST,
    "schema.fast_meta._HOLDS": _CONST,
    "convert.convert_tool._ENVELOPES": _CONST,
    "convert.convert_tool._RETURNS_KEY": _CONST,
    "convert.convert_tool._SOURCE_ONLY": _CONST,
    "convert.walker._TYPE_ALIASES": _CONST,
    "convert.walker._KEYS_OF_TYPE": _CONST,
    "mode_settings._JSON_NAMES": _CONST,
    "mode_settings._CHOICES": _CONST + " (read from the annotations of Mode)",
    "mode_settings._BY_JSON": _CONST,
    "convert.wording._ENUM_KINDS": _CONST,
    "convert.walker._NEVER": "the marker of a branch `_distribute` leaves out (recognised by identity); only read",
    "document.parsed.CLOSE": _CONST,
    "document.parser._ESCAPES": _CONST,
    "document.parser.CLOSE": _CONST,
    "loading.FIELDS": _CONST + " (re-exported from loading.read)",
    "loading.read.EMPTY_PARAMETERS": _CONST + " (the same object as model.EMPTY_PARAMETERS)",
    "loading.read.FIELDS": _CONST,
    "loading.read._KNOWN_FIELDS": _CONST,
    "loading.shapes.FIELDS": _CONST + " (the same object as loading.read.FIELDS)",
    "loading.shapes._GEMINI_TYPES": _CONST,
    "messages.requests.DEFAULT_MODELS": _CONST + " (the same object as messages.thinking.DEFAULT_MODELS)",
    "messages.requests._OWNERS": _CONST,
    "messages.responses.SOURCE_LABELS": _CONST,
    "messages.streams.SOURCE_LABELS": _CONST + " (the same object as messages.responses.SOURCE_LABELS)",
    "messages.thinking.DEFAULT_MODELS": _CONST,
    "canonical.EMPTY_PARAMETERS": _CONST + " (copied before use)",
    "providers._SHAPE_NAMES": _CONST,
    # Package data read on first use: a pure function of a file shipped in the package (never of what
    # a user wrote), keyed by a closed set (the targets; one file), holding immutable values. It is a
    # constant loaded lazily so that start-up reads no file, not a memo of the analysis.
    "providers.profile_text": "package data: schemas/providers/<target>.json as text (str), per target",
    "providers.profile": "package data: the validated profile per target (frozen dataclass, read-only mappings)",
    "convert.profile_mode.profile_mode": "package data: each profile mode as a Mode, built once (frozen dataclass, "
                                 "read-only mappings and tuples)",
    "messages.thinking._table": "package data: schemas/models.json, frozen (read-only mappings and tuples)",
    "consumers._catalogue": "package data: schemas/consumers/**.json, validated once, frozen (frozen dataclasses, "
                            "read-only mappings and tuples)",
    "consumers._provider_rules": "package data: the `rules` of schemas/providers/<target>.json, validated once per "
                                 "target (frozen dataclasses, read-only mappings and tuples)",
}


def _modules() -> Iterator[types.ModuleType]:
    yield toolcast.adapters
    for info in pkgutil.walk_packages(toolcast.adapters.__path__, "toolcast.adapters."):
        yield importlib.import_module(info.name)


def _short(module: types.ModuleType) -> str:
    return module.__name__.removeprefix("toolcast.adapters").lstrip(".") or "adapters"


def _own(value: Any, module: types.ModuleType) -> bool:
    """Defined in ``module`` (not imported into it: the defining module is scanned on its own)."""
    return getattr(value, "__module__", None) == module.__name__


def _mutable_why(value: Any, module: types.ModuleType) -> str | None:
    if isinstance(value, _MUTABLE):
        return type(value).__name__
    if isinstance(value, functools._lru_cache_wrapper) and _own(value, module):
        return "a functools cache"
    if isinstance(value, (functools.cached_property,)):
        return None  # per instance
    if isinstance(value, _LOCKS):
        return "a lock (state shared between callers)"
    cls = type(value)
    if (cls.__module__.startswith("toolcast.adapters") and not isinstance(value, type)
            and not callable(value) and not isinstance(value, types.ModuleType)):
        held = [k for k, v in getattr(value, "__dict__", {}).items() if isinstance(v, _MUTABLE)]
        if held:
            return f"a {cls.__name__} holding mutable {held}"
    return None


def scan() -> dict[str, str]:
    """``module.name`` → what is mutable about it, for every module of ``adapters/``."""
    found: dict[str, str] = {}
    for module in _modules():
        short = _short(module)
        for name, value in vars(module).items():
            if name.startswith("__") or isinstance(value, types.ModuleType):
                continue
            why = _mutable_why(value, module)
            if why is not None:
                found[f"{short}.{name}"] = why
            if isinstance(value, type) and _own(value, module):
                for attr, member in vars(value).items():
                    if attr.startswith("__") or (attr.startswith("_") and attr.endswith("_")):
                        continue  # dunders; enum's own `_member_map_` and the like
                    why = _mutable_why(member, module)
                    if why is not None:
                        found[f"{short}.{name}.{attr}"] = why
    return found


def test_no_module_in_adapters_holds_mutable_state() -> None:
    found = scan()
    unexplained = {k: v for k, v in found.items() if k not in ALLOWED}
    assert not unexplained, (
        f"mutable module-level state in adapters/: {unexplained}. Move a cache into the Analyzer "
        "(adapters/checks/analyzer.py); a constant table may be allowed in ALLOWED with its reason.")


def test_the_allow_list_names_only_what_exists() -> None:
    assert not set(ALLOWED) - set(scan()), "stale ALLOWED entries"


def test_package_data_loaders_hand_out_immutable_values() -> None:
    def walk(value: Any) -> None:
        assert not isinstance(value, (dict, list, set)), value
        if isinstance(value, types.MappingProxyType):
            for v in value.values():
                walk(v)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)

    for target in ("openai", "anthropic", "gemini"):
        assert isinstance(providers.profile_text(target), str)
        profile = providers.profile(target)
        assert isinstance(profile.modes, types.MappingProxyType)
        assert profile.limits.max_tools is None or isinstance(profile.limits.max_tools, types.MappingProxyType)
        walk(profile.modes)  # handed to every conversion as they are: read-only at every depth
    table = thinking._table()
    walk(table)
    from toolcast.adapters import consumers

    provider_rules = tuple(r for t in ("gemini", "bedrock") for r in consumers.provider_rules(t))
    assert provider_rules
    for who in (*consumers._catalogue().consumers.values(), *consumers._catalogue().families):
        for rule in (*who.rules, *provider_rules):
            assert isinstance(rule.settings, types.MappingProxyType)
            walk(rule.settings)


def test_the_allowed_tables_are_not_changed_by_the_analysis() -> None:
    """Immutable by convention, checked: the allowed containers are the same before and after checks,
    conversions and request handling of the repository's examples."""
    from pathlib import Path

    from toolcast.adapters.checks import Analyzer, CheckConfig, check_document
    from toolcast.adapters.convert import convert_all
    from toolcast.adapters.document import parse
    from toolcast.adapters.loading import load_tools
    from toolcast.adapters.targets import TARGETS

    modules = {_short(m): m for m in _modules()}

    def tables() -> dict[str, Any]:
        out = {}
        for key in ALLOWED:
            short, name = key.rsplit(".", 1)
            value = getattr(modules[short], name)
            if isinstance(value, _MUTABLE):
                out[key] = copy.deepcopy(value)
        return out

    before = tables()
    examples = Path(__file__).parents[1] / "examples"
    analyzer = Analyzer()
    config = CheckConfig(targets=TARGETS, select=("TC",))
    for path in sorted(examples.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        check_document(text, path=str(path), config=config, analyzer=analyzer)
        check_document(text.replace('"', "'", 3), config=config)  # a broken version too
        value = parse(text).value
        if path.name.endswith(".tool.json"):
            tools = [lt.tool for lt in load_tools(value)]
            for target in TARGETS:
                convert_all(tools, target)
        else:
            from toolcast.adapters.messages import request_from_json, to_wire

            for target in ("anthropic", "openai", "gemini"):
                to_wire(request_from_json(value), target)
    json.dumps(sorted(before))  # the keys are plain names
    assert tables() == before
