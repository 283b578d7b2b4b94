"""One verdict per (tool, target): what ``check`` says of a tool file and what ``convert`` does with it, read
side by side. ``disagreements`` lists every place they part: check reports an error for a target that convert
writes, convert refuses a target check has no error for, or convert reports a loss that changes meaning and
check has no finding for it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from toolcast.adapters.checks import CheckConfig, check_document
from toolcast.adapters.checks.loss_findings import loss_code
from toolcast.adapters.convert import convert, convert_all
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.loading import load_tools
from toolcast.adapters.losses import Effect
from toolcast.adapters.rules.codes import DESCRIPTION_TOO_LONG
from toolcast.adapters.rules.findings import Severity
from toolcast.adapters.targets import TARGETS, TargetOptions


def disagreements(document: Any, shape: str | None = None, targets: Sequence[str] = TARGETS,
                  strict: bool | None = None) -> list[str]:
    """Where check and convert disagree about ``document`` (a tool or a list of tools), per target; ``strict``
    sets every target's mode (None: each target's default)."""
    options = {t: TargetOptions(strict=strict) for t in targets} if strict is not None else {}
    config = CheckConfig(targets=tuple(targets), targets_named=True, target_options=options)
    findings = check_document(json.dumps(document), config=config).findings
    try:
        tools = [lt.tool for lt in load_tools(document, shape)]
    except (ToolcastError, ValueError, TypeError, KeyError):
        return []  # nothing to convert: the discovery findings say why
    out: list[str] = []
    for target in targets:
        errors = [f for f in findings if f.severity == Severity.ERROR and (not f.targets or target in f.targets)]
        listed = convert_all(tools, target, config.options_for(target))
        refused = [c.refusal for c in listed.conversions if c.refusal is not None]
        if listed.refusal is not None:
            refused.append(listed.refusal)
        if errors and not refused:
            out.append(f"{target}: check errors {sorted({f.code for f in errors})}, convert writes")
        if refused and not errors:
            out.append(f"{target}: convert refuses ({refused[0].keyword}: {refused[0].message}), check has no error")
        for conv in listed.conversions:
            for loss in conv.losses:
                if loss.effect == Effect.NEUTRAL:
                    continue
                code = DESCRIPTION_TOO_LONG if (loss.pointer, loss.keyword) == ("/description", "description") \
                    else loss_code(loss)
                if not any(f.code == code and (not f.targets or target in f.targets) for f in findings):
                    out.append(f"{target}: loss {loss.pointer} {loss.keyword} ({loss.effect.value}) has no {code}")
    return out


def single_target_convert(document: Any, target: str) -> Any:
    """``convert`` of the document's first tool for ``target`` with its default options."""
    return convert(load_tools(document)[0].tool, target)
