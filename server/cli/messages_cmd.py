"""``toolcast request FILE --to TARGET [--model M]`` and ``toolcast response FILE --from SOURCE [--stream]
[--tools TOOLS_FILE]``: a canonical request as a provider's wire JSON (losses on stderr, history-rule
errors refuse it), and a provider's response or recorded stream as the canonical JSON (provider error
bodies exit 1, as do tool calls that do not validate against the tools)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any

from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.messages import (
    REQUEST_TARGETS,
    RESPONSE_SOURCES,
    CallProblem,
    ProviderErrorResponse,
    from_stream,
    from_wire,
    history_problems,
    map_calls,
    request_from_json,
    response_to_json,
    to_wire,
    tool_set,
)

from ..output import render
from .convert_cmd import read_source


def register(sub: Any) -> None:
    req = sub.add_parser("request", help="a canonical request (*.request.json) in a provider's wire format",
                         description="Print FILE (a canonical request) as TARGET's request JSON; report on stderr "
                                     "what TARGET cannot carry.")
    req.add_argument("file", help="canonical request (JSON); - reads standard input")
    req.add_argument("--to", required=True, choices=REQUEST_TARGETS, metavar="TARGET", help=", ".join(REQUEST_TARGETS))
    req.add_argument("--model", help="the model the request is for (replaces the file's `model`; it decides the "
                     "thinking configuration). Without it, a model of another provider is replaced by TARGET's "
                     "default, which is reported")
    req.add_argument("--format", choices=("text", "json"), default="text",
                     help="json: {request, losses} on stdout instead of losses on stderr")
    req.set_defaults(func=run_request)
    resp = sub.add_parser("response", help="a provider's response as the canonical response JSON",
                          description="Print FILE (SOURCE's response JSON, or with --stream its recorded stream) in "
                                      "toolcast's canonical form.")
    resp.add_argument("file", help="provider response (JSON); - reads standard input")
    resp.add_argument("--from", dest="source", required=True, choices=RESPONSE_SOURCES, metavar="SOURCE",
                      help=", ".join(RESPONSE_SOURCES))
    resp.add_argument("--stream", action="store_true",
                      help="FILE is a recorded stream: the server-sent events as SOURCE sends them (or a JSON list "
                           "of the events)")
    resp.add_argument("--tools", metavar="TOOLS_FILE",
                      help="the tools the request offered (a tool file, or `toolcast convert --format json` output "
                           "with its round-trip record): tool calls come back with the original names and arguments "
                           "as the tools expect them, validated against their parameters")
    resp.set_defaults(func=run_response)


def _load(path: str) -> Any:
    text = read_source(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolcastError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None


def run_request(args: argparse.Namespace) -> int:
    try:
        value = _load(args.file)
        if args.model is not None and isinstance(value, dict):
            value = {**value, "model": args.model}  # a file may then leave `model` out
        request = request_from_json(value)
        wire = to_wire(request, args.to, model=args.model)
        # The rules of the model actually sent (the target's default may have replaced the file's).
        problems = history_problems(replace(request, model=str(wire.body["model"])), args.to)
    except ToolcastError as exc:
        print(f"toolcast request: {exc}", file=sys.stderr)
        return 2
    if problems:  # the provider would reject the request: nothing is printed to send
        for p in problems:
            print(f"{args.file}: {args.to}: {p.pointer}: error {p.code}: {p.message}", file=sys.stderr)
        return 2
    if args.format == "json":
        sys.stdout.write(render({"request": wire.body, "losses": [x.to_dict() for x in wire.losses]}))
        return 0
    sys.stdout.write(render(wire.body))
    for loss in wire.losses:
        print(f"{args.file}: {args.to}: {loss.pointer}: {loss.message}", file=sys.stderr)
    return 0


def run_response(args: argparse.Namespace) -> int:
    try:
        if args.stream:
            response = from_stream(read_source(args.file), args.source)
        else:
            response = from_wire(_load(args.file), args.source)
        problems: list[CallProblem] = []
        if args.tools is not None:
            response, problems = map_calls(response, tool_set(_load(args.tools), args.source))
    except ProviderErrorResponse as exc:
        # Not a malformed file: the provider answered with an error. The canonical error on stdout, for
        # programs; the sentence on stderr, for people; exit 1 (2 is for files toolcast cannot read).
        sys.stdout.write(render({"error": exc.error.to_dict()}))
        print(f"toolcast response: {exc}", file=sys.stderr)
        return 1
    except ToolcastError as exc:
        print(f"toolcast response: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(response_to_json(response)))
    for p in problems:  # the program would get arguments its tool does not accept
        print(f"{args.file}: tool call {p.call_id!r} ({p.name}): {p.pointer or '/'}: {p.message}", file=sys.stderr)
    return 1 if problems else 0
