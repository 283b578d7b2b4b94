"""Checks of one tool object: ``run_checks`` runs the per-tool checks in a fixed order (discovery_checks,
schema_checks, limit_checks, then losses and consumer_checks); ``check_tool`` remembers its results. Everything
there is a function of the tool object's value, its shape, where its fields sit, the configuration and the
workspace folder, so results are remembered by content (in the caller's ``Analyzer``) and an edit re-checks
only the tool it touched. Pointers in the results are relative to the tool object; the engine rebases them
and turns them into spans and fixes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import pointer as jp
from ..convert import convert
from ..convert.accept import field_of, parameter_counts
from ..errors import ToolcastError
from ..loading import load_tools
from ..schema.patterns import TOOL_SECONDS, pattern_time
from .analyzer import Analyzer
from .config import CheckConfig
from .consumer_checks import tool_raws
from .discovery_checks import check_description_length, check_name_and_description, check_names, check_parameters_root
from .judged import judged_config
from .limit_checks import check_openai_limits, strict_for
from .loss_findings import loss_findings
from .raw import ToolFacts, ToolResult
from .schema_checks import ParamCounts, check_examples, check_legacy, check_schema_tree
from .tool_context import ToolContext
from .validation import Validation

__all__ = ["check_tool", "run_checks", "strict_for"]


def check_tool(
    value: Any,
    shape: str | None,
    fields: Mapping[str, str],
    config: CheckConfig,
    base_dir: str | None = None,
    content: str | None = None,
    *,
    analyzer: Analyzer | None = None,
) -> ToolResult:
    """All per-tool findings (pointers relative to the tool object), remembered by content in the
    ``analyzer`` (none: a fresh one, nothing reused): ``content`` is the tool's source text when the
    caller has it (cheaper than serialising ``value``)."""
    if analyzer is None:
        analyzer = Analyzer()
    if content is None:
        try:
            content = json.dumps(value, ensure_ascii=False, allow_nan=True)
        except (TypeError, ValueError):
            content = repr(value)
    # A digest, not the text: the cache would otherwise keep a copy of every tool's text.
    digest = hashlib.blake2b(content.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    key = (digest, len(content), shape, tuple(sorted(fields.items())), config.cache_key(), base_dir)
    hit = analyzer.tool_results.hit(key)
    if hit is not None:
        return hit
    judged = judged_config(value, shape, config)  # each provider in its chosen form, unless targets are named
    result = run_checks(ToolContext(value, shape or "canonical", fields, judged, base_dir, analyzer.workspace_files,
                                    asked=config))
    analyzer.tool_results.keep(key, result)
    return result


def run_checks(ctx: ToolContext) -> ToolResult:
    """Every check of one tool, in a fixed order (the order of its findings): what a model discovers it by,
    its ``parameters`` (with its examples and strict limits), its ``returns``, its names and description
    per target, what converting it loses, then what its consumers do to it."""
    with pattern_time(TOOL_SECONDS):
        return _run_checks(ctx)


def _run_checks(ctx: ToolContext) -> ToolResult:
    name = check_name_and_description(ctx)
    check_parameters_root(ctx)
    counts = ParamCounts()
    params_ptr = ctx.field_ptr("parameters")
    params = jp.resolve(ctx.value, params_ptr, None)
    if ctx.shape == "legacy":
        check_legacy(ctx, params_ptr, params)
    elif isinstance(params, dict):
        validation = Validation(params, ctx.base_dir, ctx.files)
        counts = check_schema_tree(ctx, params_ptr, params, validation)
        check_examples(ctx, validation)
        check_openai_limits(ctx, params_ptr, params)
    returns_ptr = ctx.field_ptr("returns")
    returns = jp.resolve(ctx.value, returns_ptr, None)
    if isinstance(returns, (dict, bool)) and ctx.shape != "legacy":
        counts += check_schema_tree(ctx, returns_ptr, returns, Validation(returns, ctx.base_dir, ctx.files))
    target_names = check_names(ctx, name)
    check_description_length(ctx)
    ctx.raws.extend(loss_findings(ctx.value, ctx.shape, ctx.config))  # TC5xx: kept as losses reports them
    if ctx.config.consumers or ctx.config.models:  # TC9xx: only for selected hosts, APIs and models
        # A consumer's API gets the strictness stated, not the one toolcast chose for OpenAI.
        asked = replace(ctx.config, target_options=ctx.asked.target_options) if ctx.asked else ctx.config
        for raw in tool_raws(ctx.value, ctx.shape, ctx.fields, name, asked):
            ctx.add(raw)
    anthropic_strict = "anthropic" in ctx.config.targets and strict_for(
        "anthropic", ctx.value, ctx.shape, ctx.config.options_for("anthropic")
    )
    if anthropic_strict:
        counts = _sent_counts(ctx) or counts
    facts = ToolFacts(name, target_names, anthropic_strict, counts.optional, counts.unions)
    return ToolResult(tuple(ctx.raws), facts)


def _sent_counts(ctx: ToolContext) -> ParamCounts | None:
    """The optional and union-typed parameters of the schema Anthropic strict is sent (what its request limits,
    TC606 and TC607, count and ``convert_all`` refuses by), or None when the tool does not convert."""
    try:
        loaded = load_tools(ctx.value, ctx.shape if ctx.shape != "canonical" else None)
        conv = convert(loaded[0].tool, "anthropic", ctx.config.options_for("anthropic")) if loaded else None
    except (ToolcastError, ValueError, TypeError, KeyError):
        return None
    if conv is None or not conv.ok:
        return None
    return ParamCounts(*parameter_counts(field_of("anthropic", conv.output, "parameters")))
