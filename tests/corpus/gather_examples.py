"""Extract the tool definitions written as literals in a repository's code and notebooks (not run by the suite).

Usage::

    python -m tests.corpus.gather_examples GIT_DIR OWNER/NAME ID [--commit C] [--license L] [--out DIR]

Every ``.py`` file and every code cell of every ``.ipynb`` at ``COMMIT`` is parsed with ``ast``; each dict
literal that ``ast.literal_eval`` accepts and that has a tool's shape is recorded exactly as written:
``{"name", "input_schema"}`` (Anthropic), ``{"type": "function", "function": {...}}`` (OpenAI Chat),
``{"type": "function", "name", "parameters"}`` (OpenAI Responses), ``{"toolSpec": {...}}`` (Bedrock),
``{"name", "parametersJsonSchema"|"parameters_json_schema"}`` (Gemini JSON Schema),
``{"name", "parameters": {...}}`` (OpenAI legacy functions / Gemini declarations). Literals inside a tool are
not visited again; identical tools are kept once. The source shape of each tool goes to ``shapes``.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

_GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}


def _shape(d: Any) -> str | None:
    if not isinstance(d, dict) or not all(isinstance(k, str) for k in d):
        return None
    if isinstance(d.get("toolSpec"), dict) and "name" in d["toolSpec"]:
        return "bedrock"
    if d.get("type") == "function" and isinstance(d.get("function"), dict) and "name" in d["function"]:
        return "openai"
    if d.get("type") == "function" and isinstance(d.get("name"), str) and isinstance(d.get("parameters"), dict):
        return "openai-responses"
    if isinstance(d.get("name"), str) and isinstance(d.get("input_schema"), dict):
        return "anthropic"
    if isinstance(d.get("name"), str) and isinstance(d.get("parameters_json_schema"), dict):
        return "gemini-json"  # the google-genai Python SDK's snake_case spelling of parametersJsonSchema
    if isinstance(d.get("name"), str) and isinstance(d.get("parametersJsonSchema"), dict):
        return "gemini-json"
    params = d.get("parameters")
    if isinstance(d.get("name"), str) and isinstance(params, dict) and ("properties" in params or "type" in params):
        return "gemini" if str(params.get("type", "")) in _GEMINI_TYPES else "canonical"
    return None


def _tools_in(source: str) -> list[tuple[str, Any]]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    found: list[tuple[str, Any]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Dict):
            try:
                value = ast.literal_eval(node)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                value = None
            shape = _shape(value)
            if shape is not None:
                found.append((shape, value))
                return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True,
                          text=True, errors="replace").stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("git_dir")
    ap.add_argument("repository")
    ap.add_argument("id")
    ap.add_argument("--commit", default="HEAD")
    ap.add_argument("--license", default="see repository")
    ap.add_argument("--exclude", nargs="*", default=[], help="skip paths containing any of these (generated API stubs)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = ap.parse_args(argv)
    commit = _git(args.git_dir, "rev-parse", args.commit).strip()
    seen: dict[str, tuple[str, Any, str]] = {}
    for path in sorted(_git(args.git_dir, "ls-tree", "-r", "--name-only", commit).splitlines()):
        if not path.endswith((".py", ".ipynb")) or any(x in path for x in args.exclude):
            continue
        try:
            text = _git(args.git_dir, "show", f"{commit}:{path}")
        except subprocess.CalledProcessError:
            continue  # a large file the snapshot lists but does not hold
        if path.endswith(".py"):
            sources = [text]
        else:
            try:
                nb = json.loads(text)
            except json.JSONDecodeError:
                continue
            sources = ["".join(c["source"]) if isinstance(c.get("source"), list) else str(c.get("source", ""))
                       for c in nb.get("cells", []) if c.get("cell_type") == "code"]
            # notebook magics (%pip, !ls) are not Python: blank them so the rest of the cell parses
            sources = ["\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in s.splitlines())
                       for s in sources]
        for source in sources:
            for shape, tool in _tools_in(source):
                seen.setdefault(json.dumps(tool, sort_keys=True), (shape, tool, path))
    entries = list(seen.values())
    record = {
        "source": {"kind": "tool literals in code and notebooks", "repository": args.repository, "commit": commit,
                   "excluded": args.exclude, "paths": [p for _, _, p in entries]},
        "license": args.license,
        "shapes": [s for s, _, _ in entries],
        "tools": [t for _, t, _ in entries],
    }
    out = args.out / f"examples-{args.id}.json"
    out.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{out.name}: {len(entries)} tools")
    return 0


if __name__ == "__main__":
    sys.exit(main())
