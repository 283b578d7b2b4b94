"""What a lowering says: each loss's action, effect and message, one wording for the walker (``walker``) and
the checks' scan (``facts.scanned_lowering``)."""

from __future__ import annotations

import json
from typing import Any

from ..losses import Action, Effect
from ..schema.dialects import engine_label
from .keywords import ANNOTATIONS
from .profile_mode import Mode

#: A loss's action, effect and message (the rest of a ``Loss`` is where it is and what was there).
LossWording = tuple[Action, Effect, str]

_ENUM_KINDS = {"string": "string", "string_or_number": "string or number", "primitive": "primitive"}


def fate_said(key: str, action: str, target: str) -> LossWording:
    """A keyword the mode folds, drops or refuses by name."""
    if action == "fold":
        return (Action.FOLDED, Effect.NEUTRAL if key in ANNOTATIONS else Effect.WIDENING,
                f"`{key}` is not supported by {target}; stated in the description instead")
    if action == "drop":
        return (Action.DROPPED, Effect.NEUTRAL if key in ANNOTATIONS or key.startswith("x-") else Effect.WIDENING,
                f"`{key}` is not supported by {target}; dropped")
    return Action.REJECTED, Effect.UNSATISFIABLE, f"{target} rejects `{key}`"


def enum_said(mode: Mode, target: str) -> LossWording:
    return (Action.FOLDED, Effect.WIDENING, f"{target} only accepts {_ENUM_KINDS.get(mode.enum, 'any')} enum values; "
            "stated in the description instead")


def format_said(fmt: str, target: str) -> LossWording:
    return (Action.FOLDED, Effect.WIDENING,
            f"format `{fmt}` is not supported by {target}; stated in the description instead")


def extra_dropped_said(value: Any, target: str) -> LossWording:
    return (Action.DROPPED, Effect.NEUTRAL if value is True else Effect.WIDENING,
            f"`additionalProperties` is not supported by {target}; dropped")


def map_closed_said(target: str) -> LossWording:
    return (Action.LOWERED, Effect.NARROWING,
            f"{target} strict mode needs closed objects: extra keys (a map) can no longer be sent")


def closed_said(target: str) -> LossWording:
    return (Action.LOWERED, Effect.NARROWING,
            f"{target} strict mode needs closed objects: keys not listed in `properties` can no longer be sent")


def required_said(name: str, already: bool, target: str) -> LossWording:
    return (Action.LOWERED, Effect.NEUTRAL, f"optional `{name}` is required and nullable for {target} strict mode: "
            + ("null now also stands for \"absent\"" if already
               else "send null for \"absent\" (mapped back by toolcast)"))


def type_list_said(target: str) -> LossWording:
    return Action.LOWERED, Effect.NEUTRAL, f"type list becomes `type` + `nullable` for {target}"


def json_text_said(target: str) -> LossWording:
    return (Action.LOWERED, Effect.WIDENING,
            f"{target} cannot declare an object without properties: asked for as a JSON string (parsed back by "
            "toolcast; text that is not a JSON object is no longer refused by the schema)")


def pattern_said(engine: str, error: str, target: str) -> LossWording:
    """A ``pattern`` the target's regular-expression engine does not compile (``schema.dialects``)."""
    return (Action.FOLDED, Effect.WIDENING, f"{target} compiles `pattern` with {engine_label(engine)}, which refuses "
            f"this one ({error}); stated in the description instead")


def member_said(value: Any, why: str, target: str) -> LossWording:
    return (Action.DROPPED, Effect.NARROWING,
            f"{target} rejects {json.dumps(value)} in an `enum` ({why}); left out, so it can no longer be sent")


def members_said(target: str) -> LossWording:
    return (Action.REJECTED, Effect.UNSATISFIABLE,
            f"every member of this `enum` is a value {target} rejects: nothing is left to send")


def bound_said(key: str, value: int, why: str, target: str) -> LossWording:
    return (Action.DROPPED, Effect.WIDENING,
            f"`{key}: {value}` is beyond the integers {target} takes ({why}); dropped")


def emptied_branch_said(target: str) -> LossWording:
    return (Action.DROPPED, Effect.NARROWING,
            f"this branch only allows `enum` values {target} rejects: left out, the other branches kept")


def off_type_member_said(value: Any, type_: Any, why: str, target: str) -> LossWording:
    """An `enum` member its node's `type` refuses: it could never be sent, so leaving it out changes nothing."""
    return (Action.LOWERED, Effect.NEUTRAL,
            f"{target} rejects an `enum` member its `type` {json.dumps(type_)} refuses ({why}): "
            f"{json.dumps(value)} could never be sent, left out")


def off_type_members_said(type_: Any, why: str, target: str) -> LossWording:
    return (Action.FOLDED, Effect.WIDENING,
            f"no member of this `enum` is allowed by its `type` {json.dumps(type_)} (as written it accepts nothing), "
            f"and {target} rejects it ({why}); stated in the description instead")


def never_branch_said(type_: Any, why: str, target: str) -> LossWording:
    return (Action.LOWERED, Effect.NEUTRAL,
            f"this branch can never match (no member of its `enum` is allowed by its `type` {json.dumps(type_)}), "
            f"and {target} rejects it ({why}): left out, the other branches kept")


def untyped_enum_said(kind: str, why: str, target: str) -> LossWording:
    return (Action.LOWERED, Effect.NEUTRAL,
            f"{target} takes an `enum` only beside a `type` ({why}): `{kind}`, the type of every member, added")
