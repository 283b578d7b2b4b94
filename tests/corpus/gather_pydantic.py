"""Record ``model_json_schema()`` of the pydantic models of real public packages (not run by the suite).

Usage::

    python -m tests.corpus.gather_pydantic [--out tests/corpus]

These are the schemas pydantic-based tool frameworks (FastMCP, pydantic-ai, openai-agents, the OpenAI SDK's
``pydantic_function_tool``) send when such a model is a tool's argument type: ``Optional`` as
``anyOf``+``null`` with ``default: null``, ``$defs``/``$ref``, enums, discriminated unions, nested and
recursive models. Each package's public models are taken in name order (at most ``--max``); a model
whose schema cannot be generated, or is longer than ``--max-chars`` as JSON, is skipped. Shape
``schema``: the harness makes the model a tool's parameters (title → name).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import pydantic

SOURCES = {
    # corpus id → (distribution, modules, license)
    "mcp-types": ("mcp-types", ["mcp_types"], "MIT"),
    "anthropic-types": ("anthropic", ["anthropic.types"], "MIT"),
    "openai-chat-types": ("openai", ["openai.types.chat"], "Apache-2.0"),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    ap.add_argument("--max", type=int, default=100, help="models per package, at most")
    ap.add_argument("--max-chars", type=int, default=20_000, help="larger schemas are skipped (repository size)")
    args = ap.parse_args(argv)
    for cid, (dist, modules, lic) in SOURCES.items():
        seen: dict[str, tuple[str, Any]] = {}
        for mod_name in modules:
            mod = importlib.import_module(mod_name)
            for attr in sorted(dir(mod)):
                obj = getattr(mod, attr)
                if not (inspect.isclass(obj) and issubclass(obj, pydantic.BaseModel)) or obj is pydantic.BaseModel:
                    continue
                try:
                    schema = obj.model_json_schema()
                except Exception:  # a model with a type pydantic cannot describe
                    continue
                if schema.get("type") != "object" or len(json.dumps(schema)) > args.max_chars:
                    continue
                seen.setdefault(json.dumps(schema, sort_keys=True), (f"{obj.__module__}.{obj.__qualname__}", schema))
        chosen = list(seen.values())[: args.max]
        record = {
            "source": {"kind": "pydantic model_json_schema()", "package": dist,
                       "version": importlib.metadata.version(dist), "pydantic": pydantic.VERSION,
                       "models": [name for name, _ in chosen]},
            "license": lic,
            "shape": "schema",
            "tools": [schema for _, schema in chosen],
        }
        path = args.out / f"pydantic-{cid}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(chosen)} of {len(seen)} model schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main())
