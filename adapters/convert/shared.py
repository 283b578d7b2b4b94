"""One tool's schemas lowered once per distinct mode, for the checks' loss findings.

Eight targets have five distinct modes by default (OpenAI Chat and Responses share strict mode; Mistral,
MCP and Bedrock share non-strict mode), and the walker's decisions depend on the mode alone: the target
only names itself in messages. So a ``SharedLowering`` walks each distinct mode once, with a placeholder
for the target's name, and hands every target of that mode the same losses under its own name. A mode
that certainly records no loss for the schema (``facts.quiet``) is not walked at all, and one whose walk
would only report keywords, enums and formats it does not take, strict mode's closed objects and required
members, or Gemini's one-type lists, dropped keywords and free-form objects gets its losses and round-trip
record from a plain scan (``facts.scanned_lowering``).

Only the losses and the round-trip record are exact: the schema handed back is the placeholder walk's, or
for a quiet or scanned mode the original itself, so this is for callers that read losses (the checks), never for
output (``toolcast convert`` and exports call ``convert`` without it).
"""

from __future__ import annotations

import json
from typing import Any

from ..losses import Loss
from .facts import SchemaFacts, provider_rules_act, quiet, scan, scanned_lowering
from .lowered import Lowered
from .profile_mode import Mode
from .walker import lower

#: Stands for the target's name in a shared walk's messages. A schema holding it anywhere (a JSON string
#: with ``\\u0000``) is walked per target instead, so replacing it afterwards can touch nothing else.
_PLACEHOLDER = "\x00"


class SharedLowering:
    """Lowerings of one tool's schemas, shared by the targets whose modes are equal (``mode_ids``)."""

    def __init__(self) -> None:
        self._walked: dict[tuple[int, str, str], Lowered] = {}
        self._facts: dict[int, tuple[Any, SchemaFacts, bool]] = {}  # the schema kept: its id stays its own
        self.walks = 0  # walks made (not shared, not skipped): what the tests count

    def __call__(self, schema: Any, base: str, target: str, mode: Mode, mode_id: str) -> Lowered:
        facts, placeholder_free = self._facts_of(schema)
        if quiet(mode, facts):
            return Lowered(schema, [], {})
        if not placeholder_free:
            return self._lowered(schema, base, target, mode, facts)
        # A mode's id is its profile settings; the provider rules it follows (``Mode.forbidden_members``,
        # ``integer_range``) are the target's own, so a walk they change is not shared.
        key = (id(schema), base, mode_id + "/" + target if provider_rules_act(mode, facts) else mode_id)
        done = self._walked.get(key)
        if done is None:
            done = self._walked[key] = self._lowered(schema, base, _PLACEHOLDER, mode, facts)
        return Lowered(done.schema, [Loss(target, x.pointer, x.keyword, x.value, x.action, x.effect,
                                          x.message.replace(_PLACEHOLDER, target), x.rule) for x in done.losses],
                       done.record)

    def _lowered(self, schema: Any, base: str, target: str, mode: Mode, facts: SchemaFacts) -> Lowered:
        """Scanned where a scan can tell the losses, else walked (and counted)."""
        scanned = scanned_lowering(schema, base, target, mode, facts)
        if scanned is not None:
            return scanned
        self.walks += 1
        return lower(schema, base, target, mode)

    def _facts_of(self, schema: Any) -> tuple[SchemaFacts, bool]:
        known = self._facts.get(id(schema))
        if known is None:
            # ensure_ascii (the default) writes the placeholder as an escape that nothing else produces
            # but a backslash text, which only makes the check err towards walking per target.
            facts = scan(schema)
            free = not facts.too_big and "\\u0000" not in json.dumps(schema)  # too big: json.dumps may recurse too far
            known = self._facts[id(schema)] = (schema, facts, free)
        return known[1], known[2]
