"""The tool-use system prompt Anthropic adds to every Messages request with tools (also on Bedrock's Claude
models): its tokens per model and ``tool_choice``, as Anthropic's pricing documentation tables them. Billed on
top of the tool definitions; ``adapters/cost.py`` adds it to every per-request total.

The table changes with models: each row names its source and the date it was read. A model no row matches gets
the table's whole range, labelled so."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Claude 3 rows: "Tool use pricing and tokens" (read 2026-11-28).
SOURCE = "https://docs.anthropic.com/en/docs/tool-use-pricing-and-tokens"
#: Later models: the pricing page's "Tool use system prompt token count" table. Its 346 / 313 were read
#: 2026-11-28 as quoted by a third-party measurement of the same table
#: (claudecodeguides.com/claude-tool-definitions-346-tokens-per-call); the page itself was not reachable.
CURRENT_SOURCE = "https://platform.claude.com/docs/en/about-claude/pricing#tool-use-pricing"
READ_ON = "2026-11-28"


@dataclass(frozen=True)
class Row:
    """Models matching ``pattern`` (searched in the lower-cased model id, so Bedrock's ids match too)."""

    family: str
    pattern: re.Pattern[str]
    auto: int  # tool_choice auto (and none)
    forced: int  # tool_choice any or tool
    source: str


TABLE: tuple[Row, ...] = (
    Row("Claude 3 Opus", re.compile(r"claude-3-opus"), 530, 281, SOURCE),
    Row("Claude 3 Sonnet", re.compile(r"claude-3-sonnet"), 159, 235, SOURCE),
    Row("Claude 3 Haiku", re.compile(r"claude-3-haiku"), 264, 340, SOURCE),
    Row("Claude Haiku 3.5", re.compile(r"claude-(3-5-haiku|haiku-3-5)"), 264, 340, CURRENT_SOURCE),
    Row("Claude 4 and Sonnet 3.5/3.7", re.compile(r"claude-(3-[57]-sonnet|sonnet-3-[57]|(opus|sonnet|haiku)-4)"),
        346, 313, CURRENT_SOURCE),
)

LOW = min(min(r.auto, r.forced) for r in TABLE)
HIGH = max(max(r.auto, r.forced) for r in TABLE)


def row_for(model: str | None) -> Row | None:
    if not model:
        return None
    lowered = model.lower()
    return next((r for r in TABLE if r.pattern.search(lowered)), None)


def tokens(model: str | None, tool_choice: str = "auto") -> tuple[int, int, str]:
    """(low, high, what it is for): one number for a model the table knows, else the table's range."""
    row = row_for(model)
    forced = tool_choice in ("any", "tool")
    choice = "any/tool" if forced else "auto"
    if row is None:
        why = f"{model} not in Anthropic's table" if model else "no Claude model named"
        return LOW, HIGH, f"{why}: by model and tool_choice"
    value = row.forced if forced else row.auto
    return value, value, f"{row.family}, tool_choice {choice}"


__all__ = ["CURRENT_SOURCE", "HIGH", "LOW", "READ_ON", "SOURCE", "TABLE", "Row", "row_for", "tokens"]
