"""jsonschema's 2020-12 validator with every pattern matched under a time limit (``patterns.search``).

jsonschema matches ``pattern``, ``patternProperties`` (and so ``additionalProperties`` and
``unevaluatedProperties``, which ask which keys a pattern took) with ``re``, which can run for ever on a
hostile pattern. `BoundedValidator` replaces those four keywords (``propertyNames`` reaches ``pattern``
through its subschema); the others are jsonschema's own. A match that runs out of time raises
`PatternTooCostly` out of the whole validation: an error inside ``not`` or an ``anyOf`` branch would
otherwise turn "unknown" into a pass or a failure.

`instance_problems` is the one entry point for a value against a schema outside the checks (a tool call's
arguments, a proxy's requests): problems as (pointer, message), never an exception, never a hang."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import referencing
import referencing.exceptions
import regex
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import UnknownType, ValidationError
from referencing.jsonschema import DRAFT202012

from .. import pointer as jp
from .patterns import TOOL_SECONDS, PatternTooCostly, pattern_time, search
from .subschemas import BudgetExceeded, subschemas

__all__ = ["BoundedValidator", "PatternTooCostly", "instance_problems", "located", "pattern_place"]


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and isinstance(pattern, str) and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object") or not isinstance(patterns, dict):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key, key=True):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _by_pattern(schema: Any, key: str) -> bool:
    """Whether one of ``schema``'s ``patternProperties`` takes ``key``."""
    patterns = schema.get("patternProperties")
    return isinstance(patterns, dict) and any(search(p, key, key=True) for p in patterns)


def _additional_properties(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    extras = [k for k in instance if k not in props and not _by_pattern(schema, k)]
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif extra is False and extras:
        names = ", ".join(repr(k) for k in sorted(extras))
        if "patternProperties" in schema:
            regexes = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            yield ValidationError(f"{names} {'does' if len(extras) == 1 else 'do'} not match any of the regexes: "
                                  f"{regexes}")
        else:
            yield ValidationError(f"Additional properties are not allowed ({names} "
                                  f"{'was' if len(extras) == 1 else 'were'} unexpected)")


def _evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The keys of ``instance`` that ``schema`` evaluates (2020-12's annotations for
    ``unevaluatedProperties``): by ``properties``, a pattern, ``additionalProperties``,
    ``unevaluatedProperties``, and the subschemas that apply (references, valid branches, ``if``/``then``/
    ``else``, ``dependentSchemas`` of present keys)."""
    if not isinstance(schema, dict):
        return set()
    keys: set[str] = set()
    for ref_key in ("$ref", "$dynamicRef"):
        ref = schema.get(ref_key)
        if isinstance(ref, str):
            resolved = validator._resolver.lookup(ref)
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys |= _evaluated_keys(inner, instance, resolved.contents)
    props = schema.get("properties")
    if isinstance(props, dict):
        keys |= props.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        sub = schema.get(keyword)
        if sub is not None:
            keys |= {k for k, v in instance.items() if validator.evolve(schema=sub).is_valid(v)}
    keys |= {k for k in instance if _by_pattern(schema, k)}
    dependent = schema.get("dependentSchemas")
    if isinstance(dependent, dict):
        for name, sub in dependent.items():
            if name in instance:
                keys |= _evaluated_keys(validator, instance, sub)
    for keyword in ("allOf", "oneOf", "anyOf"):
        branches = schema.get(keyword)
        for sub in branches if isinstance(branches, list) else []:
            if validator.evolve(schema=sub).is_valid(instance):
                keys |= _evaluated_keys(validator, instance, sub)
    if "if" in schema:
        branch = "then" if validator.evolve(schema=schema["if"]).is_valid(instance) else "else"
        if branch == "then":
            keys |= _evaluated_keys(validator, instance, schema["if"])
        if branch in schema:
            keys |= _evaluated_keys(validator, instance, schema[branch])
    return keys


def _unevaluated_properties(validator: Any, unevaluated: Any, instance: Any,
                            schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    bad = [k for k in instance if k not in evaluated
           and any(True for _ in validator.descend(instance[k], unevaluated, path=k, schema_path=k))]
    if bad:
        names = ", ".join(repr(k) for k in (sorted(bad) if unevaluated is False else bad))  # as jsonschema says it
        verb = "was" if len(bad) == 1 else "were"
        yield ValidationError(f"Unevaluated properties are not allowed ({names} {verb} unexpected)"
                              if unevaluated is False else
                              f"Unevaluated properties are not valid under the given schema ({names} {verb} "
                              "unevaluated and invalid)")


BoundedValidator: Any = validators.extend(Draft202012Validator, {  # type: ignore[no-untyped-call]  # untyped in the stubs
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "unevaluatedProperties": _unevaluated_properties,
})


def located(instance: Any, exc: PatternTooCostly) -> tuple[str, str] | None:
    """The pointer of the first value (or key) in ``instance`` that ``exc`` could not match in time, in walk
    order, and which it is (``"value"``, ``"key"``): the matcher does not know where in the instance it was. A
    key checked by ``propertyNames`` reaches ``pattern`` as a string, so a text not found where ``exc`` says is
    looked for as the other kind."""
    for key in (exc.key, not exc.key):
        where = _find(instance, exc.text, key, 0)
        if where is not None:
            return where, "key" if key else "value"
    return None


def _find(instance: Any, text: str, key: bool, depth: int) -> str | None:
    if not key and isinstance(instance, str) and instance == text:
        return ""
    if depth > 100:
        return None
    children = instance.items() if isinstance(instance, dict) else enumerate(instance) \
        if isinstance(instance, list) else ()
    for name, child in children:
        if key and isinstance(instance, dict) and name == text:
            return jp.join("", name)
        below = _find(child, text, key, depth + 1)
        if below is not None:
            return jp.join("", name) + below
    return None


def pattern_place(root: Any, exc: PatternTooCostly) -> str | None:
    """The pointer (in ``root``) of the first ``pattern`` or ``patternProperties`` key that is ``exc``'s
    pattern, in walk order; None when ``root`` does not hold it (it came through a reference to another file)."""
    try:
        for ptr, node, _depth in subschemas(root):
            if node.get("pattern") == exc.pattern:
                return jp.join(ptr, "pattern")
            keyed = node.get("patternProperties")
            if isinstance(keyed, dict) and exc.pattern in keyed:
                return jp.join(ptr, "patternProperties", exc.pattern)
    except BudgetExceeded:
        pass
    return None


def _no_retrieval(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]  # never the network


def instance_problems(schema: Any, instance: Any) -> list[tuple[str, str]]:
    """(pointer into ``instance``, message) for each way ``instance`` breaks ``schema`` (2020-12, local
    ``$ref``s only, nothing fetched). A schema that cannot be applied is one problem at ``""``; a value a
    pattern could not be checked against in time is one problem at that value (or key): neither a pass nor
    a hang."""
    registry: referencing.Registry[Any] = referencing.Registry(retrieve=_no_retrieval)  # type: ignore[call-arg]
    resource = referencing.Resource.from_contents(schema, default_specification=DRAFT202012)
    validator = BoundedValidator(schema, registry=registry.with_resource("urn:toolcast:instance", resource))
    try:
        with pattern_time(TOOL_SECONDS):
            errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    except PatternTooCostly as exc:
        shown = exc.pattern if len(exc.pattern) <= 80 else exc.pattern[:77] + "..."
        where, what = located(instance, exc) or ("", "key" if exc.key else "value")
        return [(where, f"the {what} could not be checked against the pattern {shown!r}: {exc.why}")]
    except UnknownType as exc:  # a misspelt type in the schema (the tool checks report it as TC110)
        return [("", f"the schema cannot be applied: {exc.type!r} is not a JSON Schema type")]
    except regex.error as exc:
        return [("", f"the schema cannot be applied: a pattern is not a regular expression ({exc})")]
    except (referencing.exceptions.Unresolvable, RecursionError) as exc:
        return [("", f"the schema cannot be applied: {type(exc).__name__}")]
    return [(jp.from_parts(list(e.absolute_path)), e.message) for e in errors]
