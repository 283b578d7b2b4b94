"""Rule codes are constants bound to the rule that declares them (``rules.py``): the code that emits a
finding imports the constant, so it cannot name a code the registry does not know."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from toolcast.adapters.checks import RULES
from toolcast.adapters.rules import codes as rules_module

ROOT = Path(__file__).resolve().parents[2]
_CODE = re.compile(r"TC\d{3}")
#: The one module where a rule code is written out.
_DECLARING = ROOT / "adapters" / "rules" / "codes.py"


def _constants() -> dict[str, str]:
    return {
        name: value
        for name, value in vars(rules_module).items()
        if name.isupper() and isinstance(value, str) and _CODE.fullmatch(value)
    }


def test_every_constant_is_a_registered_rule_named_after_it() -> None:
    constants = _constants()
    assert constants
    for name, code in constants.items():
        assert code in RULES, f"{name} = {code!r} is not registered"
        assert name == RULES[code].name.upper().replace("-", "_"), (name, RULES[code].name)


def test_every_registered_rule_has_exactly_one_constant() -> None:
    by_code: dict[str, list[str]] = {}
    for name, code in _constants().items():
        by_code.setdefault(code, []).append(name)
    assert sorted(by_code) == sorted(RULES)
    for code, names in by_code.items():
        assert len(names) == 1, (code, names)


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _CODE.fullmatch(node.value.strip())
    ]


def test_no_rule_code_literal_outside_the_declaring_module() -> None:
    files = [p for top in ("adapters", "server") for p in sorted((ROOT / top).rglob("*.py"))]
    assert len(files) > 20
    found = [
        f"{path.relative_to(ROOT)}:{line}: {value!r}"
        for path in files
        if path != _DECLARING
        for line, value in _literals(path)
    ]
    assert not found, "use the constant from adapters/rules/codes.py:\n" + "\n".join(found)
    # the scan itself sees the literals where they are declared
    assert {value for _, value in _literals(_DECLARING)} == set(RULES)
