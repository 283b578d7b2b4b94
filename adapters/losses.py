"""What a conversion could not carry over intact.

The same ``Loss`` objects feed ``toolcast convert`` output and the editor's feature-loss warnings,
so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Action(StrEnum):
    LOWERED = "lowered"    # rewritten into an equivalent form the target accepts (meaning kept)
    FOLDED = "folded"      # removed from the schema, stated in the description instead
    DROPPED = "dropped"    # removed, nothing left of it
    REJECTED = "rejected"  # toolcast refuses: no output for this target would keep the tool's meaning


class Effect(StrEnum):
    NEUTRAL = "neutral"              # the converted schema accepts exactly the same instances
    WIDENING = "widening"            # it accepts more (a constraint is no longer enforced)
    NARROWING = "narrowing"          # it accepts less (valid calls become impossible)
    UNSATISFIABLE = "unsatisfiable"  # it accepts nothing


@dataclass(frozen=True, slots=True)
class Loss:
    """One keyword or value not carried over intact to ``target``.

    ``pointer`` is a JSON pointer into the canonical tool's dict form (``/parameters/properties/x/const``),
    ``keyword`` the schema keyword or tool field concerned, ``value`` its original value.
    """

    target: str
    pointer: str
    keyword: str
    value: Any
    action: Action
    effect: Effect
    message: str
    #: The id of the profile rule behind the loss, when one is (a provider's ``pattern_dialect`` or ``enum_type`` rule).
    rule: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "target": self.target, "pointer": self.pointer, "keyword": self.keyword,
            "value": self.value, "action": self.action.value, "effect": self.effect.value,
            "message": self.message,
        }
        if self.rule is not None:
            out["rule"] = self.rule
        return out


def is_strict_closure(loss: Loss) -> bool:
    """Strict mode adding ``additionalProperties: false`` to an object that never said (the walker's and
    the scan's ``_closed_said``: no value, since the keyword is not in the source). A map the source
    declares (``additionalProperties`` with a schema or ``true``) carries its value and is a real loss."""
    return (loss.keyword == "additionalProperties" and loss.value is None and loss.action == Action.LOWERED
            and loss.effect == Effect.NARROWING)
