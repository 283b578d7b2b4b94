"""Benchmark (not a test): what ``toolcast check`` says by default about real tools.

    .venv/bin/python bench/default_warnings.py [--sample 50] [--seed 27] [--json out.json]

Over the real-world corpus (``tests/corpus/*.json``, each tool as ``tests/corpus/harness.py`` loads it:
the tool as found, a bare pydantic schema as a tool's ``parameters``), runs ``check_document`` with the
configuration ``toolcast check`` uses when no ``toolcast.toml`` is found (every target, default rules
and severities) and prints:

* the tools with at least one default warning or error (count and share);
* the findings per code (warnings and errors; information findings counted apart);
* the tools whose only warnings are one code (what a single default change would silence);
* a seeded sample of the default warnings, with tool, code and message, to be judged one by one
  ("does a provider or host really accept less or more than the author wrote?").

The sample ranks every warning by a hash of the seed and the warning's identity (file, tool, code,
pointer, message) and keeps the lowest: a warning that stays after a change keeps its rank, so the
samples before and after a change share every warning they can, and one judgement serves both.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolcast.adapters.checks.config import CheckConfig  # noqa: E402
from toolcast.adapters.checks.entry import check_document  # noqa: E402
from toolcast.adapters.rules.findings import Severity  # noqa: E402

from tests.corpus.harness import corpus  # noqa: E402  (the corpus exactly as its tests load it)

LOUD = (Severity.ERROR, Severity.WARNING)


def default_findings() -> list[dict[str, Any]]:
    """Every default finding of every corpus tool, one dict each."""
    config = CheckConfig()
    rows: list[dict[str, Any]] = []
    for entry in corpus():
        text = json.dumps(entry.document(), ensure_ascii=False, indent=2)
        report = check_document(text, path=f"{entry.file}#{entry.index}.tool.json", config=config)
        for f in report.findings:
            rows.append({
                "tool": entry.key, "name": entry.name, "code": f.code, "severity": f.severity.value,
                "pointer": f.pointer, "message": f.message,
            })
    return rows


def rank(seed: int, row: dict[str, Any]) -> str:
    ident = json.dumps([seed, row["tool"], row["code"], row["pointer"], row["message"]], ensure_ascii=False)
    return hashlib.sha256(ident.encode("utf-8")).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--json", type=Path, help="also write the figures and the sample here")
    args = ap.parse_args()

    tools = [e.key for e in corpus()]
    rows = default_findings()
    loud = [r for r in rows if r["severity"] in LOUD]
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for r in loud:
        by_tool.setdefault(r["tool"], []).append(r)
    share = len(by_tool) / len(tools)
    print(f"corpus: {len(tools)} tools; default findings: {len(rows)} ({len(loud)} warnings or errors)")
    print(f"tools with >=1 default warning or error: {len(by_tool)} of {len(tools)} ({share:.1%})")
    mcp = [t for t in tools if t.startswith("mcp-")]
    mcp_loud = [t for t in mcp if t in by_tool]
    print(f"  of them MCP tools: {len(mcp_loud)} of {len(mcp)} ({len(mcp_loud) / max(len(mcp), 1):.1%})")

    print("\nfindings per code (warning/error; info apart):")
    per_code = Counter(r["code"] for r in loud)
    info = Counter(r["code"] for r in rows if r["severity"] not in LOUD)
    tools_per_code = Counter(c for fs in by_tool.values() for c in {r["code"] for r in fs})
    for code in sorted(set(per_code) | set(info)):
        print(f"  {code}: {per_code[code]:6d} loud in {tools_per_code[code]:5d} tools, {info[code]:6d} info")
    only = Counter(next(iter(cs)) for cs in ({r["code"] for r in fs} for fs in by_tool.values()) if len(cs) == 1)
    print("\ntools whose only default warnings are one code:")
    for code, n in only.most_common():
        print(f"  {code}: {n} tools ({n / len(tools):.1%})")

    sample = sorted(loud, key=lambda r: rank(args.seed, r))[: args.sample]
    print(f"\nsample of {len(sample)} default warnings (seed {args.seed}):")
    for i, r in enumerate(sample, 1):
        print(f"{i:3d}. {r['tool']} ({r['name']}) {r['code']} {r['pointer'] or '/'}: {r['message']}")
    if args.json:
        args.json.write_text(json.dumps({
            "tools": len(tools), "loud_tools": len(by_tool), "share": share, "per_code": dict(per_code),
            "info_per_code": dict(info), "only": dict(only), "sample": sample,
        }, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
