"""Names vulture (the dead-code check in .ci/run) cannot see used, each with why it stays.

    vulture adapters api server scripts/vulture_allowlist.py --min-confidence 60

A new entry needs a reason as good as these; code used only by tests does not belong here unless it is a
counter or a view that lets a test see what the code did (the rest of such code is dead and is removed)."""

# ruff: noqa: B018
# mypy: ignore-errors
_ = object()

# Called through getattr by the op's kind (`Fixes.edits`: "_" + op.kind).
_._replace
_._remove
_._rename

# Counters and views the tests read to see work done or skipped (reuse, laziness, re-parsing).
_.edited_runs  # checks: tools re-checked after an edit
_.walks  # convert/shared.py: schema walks done by the shared lowering
_.changed_elements  # document/parsed.py: elements an incremental re-parse rebuilt
_.is_lazy  # document/parser.py: a container not yet built from the C scanner's value
_.starts  # document/line_index.py: every line start, the tests' oracle for the block index
_.set_text  # server/lsp/documents.py: a document's text replaced, as a full-sync client does

# Registered with the language server by decorator (pygls calls them).
_.initialized
_.did_open
_.did_change
_.did_close

# Format checks registered with jsonschema's FormatChecker by decorator (adapters/proxy_plan.py).
_._uri
_._date_time

# pygls' own hooks and attributes toolcast overrides or sets.
_._start_io_async
_._stop_event
_.watchdog  # holds the task that exits with the client's process, so it is not collected

# google-re2's Options, read by RE2 (schema/dialects.py sets it so that a refused pattern is not written to stderr).
_.log_errors

# Standard-library protocols: logging records, exception chaining, argparse's Action signature.
_.levelname
_.levelno
_.__cause__
_.option_string
