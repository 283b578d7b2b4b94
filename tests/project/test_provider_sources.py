"""Every provider fact toolcast encodes can be opened by a reader of the repository: the provider profiles'
`sources` are docs URLs, `owner/repo#N`, `owner/repo@commit path`, or sections of docs/providers.md that
exist; the output judge's section citations name sections that exist too."""

from __future__ import annotations

import json
import re
from pathlib import Path

from toolcast.adapters.consumers import SOURCE_FORMS

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "providers.md"
#: `docs/providers.md §1.1-1.6, §3.5 (a remark)`: one or more sections or ranges, then an optional remark.
_DOC_SOURCE = re.compile(r"docs/providers\.md (§[\d.]+(?:-[\d.]+)?(?:, §[\d.]+(?:-[\d.]+)?)*)(?: \(.+\))?")
_CITED = re.compile(r"§(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?")


def _sections() -> set[str]:
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", REFERENCE.read_text(encoding="utf-8"), re.MULTILINE))


def _cited(text: str) -> set[str]:
    return {part for match in _CITED.finditer(text) for part in match.groups() if part}


def test_the_reference_has_numbered_sections() -> None:
    assert {"1", "1.4", "2.4", "3.3", "5", "6.1"} <= _sections()


def test_every_profile_source_can_be_opened() -> None:
    sections = _sections()
    for path in sorted((ROOT / "schemas" / "providers").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        # The profile's own sources, each limit's (`limits.<block>.source`) and each of its rules'.
        blocks = [b for value in data["limits"].values() for b in (value if isinstance(value, list) else [value])]
        rules = data.get("rules", [])
        lists = [data["sources"], *(block["source"] for block in blocks), *(rule["source"] for rule in rules)]
        for sources in lists:
            assert any(SOURCE_FORMS.fullmatch(s) for s in sources), f"{path.name}: no URL or repository source"
        for source in (s for sources in lists for s in sources):
            doc = _DOC_SOURCE.fullmatch(source)
            assert doc or SOURCE_FORMS.fullmatch(source), f"{path.name}: {source!r} is not a source a reader can open"
            if doc:
                missing = _cited(doc.group(1)) - sections
                assert not missing, f"{path.name}: docs/providers.md has no section {sorted(missing)}"


def test_the_output_judge_cites_sections_that_exist() -> None:
    judge = (ROOT / "adapters" / "convert" / "accept.py").read_text(encoding="utf-8")
    assert "/work/" not in judge and "shared/reference" not in judge
    cited = _cited(judge)
    assert cited, "the judge cites no section"
    assert not cited - _sections(), f"docs/providers.md lacks {sorted(cited - _sections())}"
