"""``toolcast convert FILE --to TARGET``: the provider's JSON on stdout, each loss on stderr.
``toolcast convert --mcp -- COMMAND [ARGS...] --to TARGET`` (or ``--mcp-url URL``) converts the tools a
live MCP server lists; its losses are located as ``mcp:<server>/<tool>#<pointer inside the tool>``.
``--exec -- COMMAND`` / ``--exec-dir DIR`` convert the tools executables print for ``--schema``
(located as ``exec:<program>#<pointer inside the tool>``)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolcast.adapters.consumers import UnknownConsumer, consumer, model_family
from toolcast.adapters.convert import Conversion, convert, convert_all
from toolcast.adapters.document import LineIndex, numbers_out_of_range
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.loading import LoadedTool, load_tools
from toolcast.adapters.targets import SHAPES, TARGETS, TargetOptions

from ..output import render, write_atomic

if TYPE_CHECKING:
    from toolcast.adapters.document import ParsedDocument


def register(sub: Any) -> None:
    p = sub.add_parser("convert", help="convert tool definitions to a provider's format",
                       description="Print FILE's tools in TARGET's format; report every loss on stderr.")
    p.add_argument("file", nargs="?", help="tool file (JSON); - reads standard input")
    p.add_argument("--to", required=True, choices=TARGETS, metavar="TARGET", help=", ".join(TARGETS))
    p.add_argument("--from", dest="shape", choices=SHAPES, metavar="SHAPE",
                   help="input shape, when detection guesses wrong: " + ", ".join(SHAPES))
    strict = p.add_mutually_exclusive_group()
    strict.add_argument("--strict", dest="strict", action="store_true", default=None)
    strict.add_argument("--no-strict", dest="strict", action="store_false")
    p.add_argument("--gemini-type-case", choices=("upper", "lower"), default="upper")
    p.add_argument("--tool", help="convert only the tool with this name")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--out", help="write the output to this file (atomically) instead of stdout")
    p.add_argument("--model", help="check the tools against this model's rules too (schemas/consumers/models; "
                                   "e.g. gemini-2.5-pro, us.anthropic.claude-opus-4-7): an error writes nothing")
    p.add_argument("--for", dest="consumer", metavar="CONSUMER",
                   help="check the tools against this host's or API's rules too (schemas/consumers; e.g. "
                        "llama-cpp, deepseek): an error writes nothing")
    from .mcp_common import add_source_arguments

    add_source_arguments(p)
    p.set_defaults(func=run)


def read_source(path: str) -> str:
    """The file's text: UTF-8, a leading BOM tolerated. Raises ToolcastError with a clear message."""
    from toolcast.adapters.document import MAX_FILE_BYTES, UnreadableFile, read_regular

    try:
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1) if path == "-" else read_regular(path)
        if len(data) > MAX_FILE_BYTES:
            raise ToolcastError(f"{path}: more than {MAX_FILE_BYTES:,} bytes; toolcast reads at most "
                                f"{MAX_FILE_BYTES:,}")
    except UnreadableFile as exc:
        raise ToolcastError(str(exc)) from None
    except OSError as exc:
        raise ToolcastError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ToolcastError(f"{path}: not UTF-8 (byte {exc.start})") from None


def run(args: argparse.Namespace) -> int:
    if not _model_known(args):
        return 2
    named, live = _tool_source(args)
    if not named:
        return 2
    try:
        text, parsed, loaded = _loaded_tools(args, live)
        options = TargetOptions(strict=args.strict, gemini_type_case=args.gemini_type_case)
        converted = _converted(args, loaded, options)
    except ToolcastError as exc:  # e.g. a broken provider profile: a message, never a traceback
        print(f"toolcast: {exc}", file=sys.stderr)
        return 2
    records = _loss_records(args.file, text, parsed, loaded, converted.conversions, live)
    if (args.model is not None or args.consumer is not None) and not _model_rules_pass(args, text, options, live):
        return 2
    try:
        if args.format == "json":
            return _emit_json(args, loaded, converted, records)
        return _emit_text(args, loaded, converted, records)
    except ToolcastError as exc:  # output that cannot be written as JSON: refused, never a traceback
        print(f"toolcast: {exc}", file=sys.stderr)
        return 2


def _model_known(args: argparse.Namespace) -> bool:
    """``--model`` names a model toolcast knows (or is not given); an unknown one is said on stderr."""
    if args.model is None and args.consumer is None:
        return True
    try:
        if args.model is not None:
            model_family(args.model)
        if args.consumer is not None:
            consumer(args.consumer)
    except UnknownConsumer as exc:
        print(f"toolcast convert: {exc}", file=sys.stderr)
        return False
    return True


def _tool_source(args: argparse.Namespace) -> tuple[bool, Any]:
    """Where the tools come from: (True, None) for a tool file or standard input; (True, the listed
    document) for a server or tool executables (``args.file`` becomes the name it is shown by); (False,
    None) when none or more than one is given or the tools cannot be listed (said on stderr)."""
    from .mcp_common import wants_server

    if wants_server(args) or getattr(args, "mcp_command", None):
        if args.file is not None:
            print("toolcast convert: give a tool file, a server (--mcp / --mcp-url) or tool executables (--exec / "
                  "--exec-dir), not more than one", file=sys.stderr)
            return False, None
        from .mcp_common import fetch_document

        live = fetch_document(args, "convert")
        if live is None or live.failures:  # a folder's failing executables: nothing is converted
            return False, None
        args.file = live.shown
        return True, live
    if args.file is None:
        print("toolcast convert: give a tool file (- for standard input), or a server: --mcp -- COMMAND [ARGS...] "
              "or --mcp-url URL", file=sys.stderr)
        return False, None
    return True, None


def _loaded_tools(args: argparse.Namespace, live: Any) -> tuple[str, ParsedDocument, list[LoadedTool]]:
    """The text, its parse and its tools (only ``--tool``'s when given); ToolcastError when the text is not
    JSON, holds a number beyond a double, or holds no such tool."""
    from toolcast.adapters.checks import Analyzer

    text = read_source(args.file) if live is None else live.text
    parsed = Analyzer().parse(text)  # this run's analyzer: the file is parsed once
    if parsed.errors:
        e = parsed.errors[0]
        line, col = LineIndex(text).position(e.start, "utf-32")
        raise ToolcastError(f"{args.file}:{line + 1}:{col + 1}: invalid JSON: {e.message}")
    too_large = numbers_out_of_range(parsed.value, 1)
    if too_large:  # it would be written as Infinity (not JSON), or as digits no provider reads
        raise ToolcastError(f"{args.file}#{too_large[0]}: number beyond the range of a double; toolcast does not "
                            "convert it (TC005)")
    loaded = load_tools(parsed.value, args.shape)
    if args.tool is not None:
        loaded = [lt for lt in loaded if lt.tool.name == args.tool]
        if not loaded:
            raise ToolcastError(f"{args.file}: no tool named {args.tool!r}")
    return text, parsed, loaded


@dataclass(frozen=True, slots=True)
class _Converted:
    """The conversions of the tools, the output to write, and a refusal of the list as a whole (a
    provider's limit on one request's tools)."""

    conversions: tuple[Conversion, ...]
    output: Any
    refusal: Any
    ok: bool  # nothing refused: the output is written


def _converted(args: argparse.Namespace, loaded: list[LoadedTool], options: TargetOptions) -> _Converted:
    # One tool file, or one executable's tool (`--exec`): the tool itself, not a list of one.
    single = len(loaded) == 1 and (loaded[0].pointer == "" or bool(getattr(args, "exec", False)))
    if single or (args.tool is not None and len(loaded) == 1):
        conversion = convert(loaded[0].tool, args.to, options)
        return _Converted((conversion,), conversion.output, None, conversion.ok)
    whole = convert_all([lt.tool for lt in loaded], args.to, options)
    return _Converted(whole.conversions, whole.output, whole.refusal,
                      whole.refusal is None and all(c.ok for c in whole.conversions))


def _loss_records(shown: str, text: str, parsed: ParsedDocument, loaded: list[LoadedTool],
                  conversions: tuple[Conversion, ...], live: Any) -> list[dict[str, Any]]:
    """Each loss as a record, placed in the document (with a server's or executable's location)."""
    index = LineIndex(text)
    records = [_record(shown, parsed, index, lt, loss)
               for lt, conv in zip(loaded, conversions, strict=True) for loss in conv.losses]
    if live is not None:
        from .mcp_common import live_location

        for r in records:
            r["location"] = live_location(live, r["document_pointer"])[0]
    return records


def _emit_json(args: argparse.Namespace, loaded: list[LoadedTool], converted: _Converted,
               records: list[dict[str, Any]]) -> int:
    roundtrip = [c.roundtrip for c in converted.conversions]
    payload = {"output": converted.output if converted.ok else None, "losses": records,
               "roundtrip": roundtrip[0] if len(roundtrip) == 1 else roundtrip}
    if not converted.ok:  # every exit 2 says why on stderr, whatever the format
        print(_refusal_line(args.to, loaded, converted.conversions, converted.refusal), file=sys.stderr)
    return _emit(args, render(payload), converted.ok)


def _emit_text(args: argparse.Namespace, loaded: list[LoadedTool], converted: _Converted,
               records: list[dict[str, Any]]) -> int:
    for r in records:
        where = r.get("location") or f"{r['path']}:{r['line']}:{r['column']}"
        print(f"{where}: {r['target']}: {r['message']} ({r['action']}, {r['effect']})", file=sys.stderr)
    if not converted.ok:
        print(_refusal_line(args.to, loaded, converted.conversions, converted.refusal), file=sys.stderr)
        return 2
    return _emit(args, render(converted.output), True)


def _model_rules_pass(args: argparse.Namespace, text: str, options: TargetOptions, live: Any) -> bool:
    """``--model`` and ``--for``: the model's and the consumer's rules (TC9xx, and TC511 for their regular-expression
    engines) for the target, each on stderr; False (nothing written) when one says they reject the tools."""
    from toolcast.adapters.checks import RULES, CheckConfig, Severity, check_document

    pattern_dialect = next(code for code, rule in RULES.items() if rule.name == "pattern-dialect")

    models = (args.model,) if args.model is not None else ()
    consumers = (args.consumer,) if args.consumer is not None else ()
    # The consumers' findings only: the other checks are `check`'s (a provider's own TC511 is a loss above).
    config = CheckConfig(targets=(args.to,), models=models, consumers=consumers, target_options={args.to: options},
                         select=("TC9", pattern_dialect))
    report = check_document(text, config=config)
    index = LineIndex(text)
    errors = 0
    for f in report.findings:
        if args.tool is not None and f.tool_name not in (None, args.tool):
            continue
        if f.code == pattern_dialect and "consumer" not in f.data:
            continue
        if live is not None:
            from .mcp_common import live_location

            where = live_location(live, f.pointer)[0]
        else:
            line, col = index.position(f.span[0], "utf-32")
            where = f"{args.file}:{line + 1}:{col + 1}"
        print(f"{where}: {f.severity.value}: {f.code} {f.message}", file=sys.stderr)
        errors += f.severity == Severity.ERROR
    if errors:
        who = " and ".join(n for n in (args.model, args.consumer) if n is not None)
        print(f"toolcast: {who} rejects these tools as converted for {args.to}; nothing written", file=sys.stderr)
    return not errors


def _refusal_line(target: str, loaded: list[LoadedTool], conversions: tuple[Conversion, ...],
                  whole: Any = None) -> str:
    """One line for a refusal: the list's, or the first refused tool's, the rule (or keyword) and the place, and
    why."""
    if whole is not None:
        return f"toolcast: {target} cannot take these tools together (`{whole.keyword}`): {whole.message}; " \
               "nothing written"
    for lt, conv in zip(loaded, conversions, strict=True):
        refused = conv.refusal
        if refused is not None:
            return (f"toolcast: {target} cannot express tool {lt.tool.name!r} (`{refused.keyword or 'schema'}` at "
                    f"{refused.pointer or '/'}): {refused.message}; nothing written")
    return f"toolcast: {target}: nothing written"


def _record(path: str, parsed: Any, index: LineIndex, lt: LoadedTool, loss: Any) -> dict[str, Any]:
    pointer = lt.doc_pointer(loss.pointer)
    span = parsed.span(pointer, "key") or parsed.span(pointer, "value")
    while span is None and pointer:
        pointer = pointer.rsplit("/", 1)[0]
        span = parsed.span(pointer, "key") or parsed.span(pointer, "value")
    line, col = index.position(span[0] if span else 0, "utf-32")
    return {"path": path, "line": line + 1, "column": col + 1, "tool_index": lt.index,
            "tool_name": lt.tool.name, "document_pointer": pointer, **loss.to_dict()}


def _emit(args: argparse.Namespace, text: str, ok: bool) -> int:
    """Output to --out (only a successful conversion is written to a file) or stdout."""
    if args.out and ok:
        try:
            source = None if args.file == "-" or args.file.startswith(("mcp:", "exec:")) else Path(args.file)
            write_atomic(Path(args.out), text, source=source)
        except ToolcastError as exc:
            print(f"toolcast: {exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0 if ok else 2
