"""A real Emacs (batch) with its eglot drives `toolcast serve`: what a user of eglot reported, seen in eglot.

- "Rename to 'send_email'" is listed once, for both TC203 and TC204 (it was listed twice).
- Hover on `"format": "uri"` arrives as plain text (eglot without markdown-mode asks for nothing else)
  and names the targets the TC502 on that key names (it said "kept" for every target, as markdown).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from toolcast.adapters.targets import TARGETS

EMACS = shutil.which("emacs")
ELPA = next((p.parent for p in Path("/usr/share/emacs/site-lisp/elpa").glob("eglot-*/eglot.el")), None)
DRIVE = Path(__file__).with_name("eglot") / "drive.el"

TOOL = (
    '{\n'
    '  "name": "send.email",\n'
    '  "description": "Send an email.",\n'
    '  "parameters": {"type": "object", "required": ["to"], "properties": {\n'
    '    "to": {"type": "string", "format": "email"},\n'
    '    "link": {"type": "string", "format": "uri"}}}\n'
    '}\n'
)


@pytest.mark.skipif(EMACS is None or ELPA is None, reason="no Emacs with eglot here (Debian: elpa-eglot)")
def test_eglot_lists_one_rename_and_gets_a_plain_text_hover_that_agrees(tmp_path: Path) -> None:
    assert EMACS is not None and ELPA is not None
    src = tmp_path / "send.tool.json"
    src.write_text(TOOL, encoding="utf-8")
    # Every form named: the `uri` format's losses below are those of OpenAI strict and Gemini's forms.
    (tmp_path / "toolcast.toml").write_text(f"targets = {json.dumps(list(TARGETS))}\n", encoding="utf-8")
    exe = Path(sys.executable).parent / "toolcast"
    done = subprocess.run([EMACS, "--batch", "-Q", "-l", str(DRIVE), str(src)], capture_output=True, text=True,
                          timeout=180, cwd=tmp_path, env={"TOOLCAST_ELPA": str(ELPA.parent), "TOOLCAST_EXE": str(exe),
                                                          "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(seen, indent=1))  # with -s: what eglot saw
    titles = [a["title"] for a in seen["actions"]]
    assert titles.count("Rename to 'send_email'") == 1, titles
    (rename,) = [a for a in seen["actions"] if a["title"] == "Rename to 'send_email'"]
    assert sorted(rename["codes"]) == ["TC203", "TC204"]
    assert seen["hoverKind"] == "plaintext" and not re.search(r"[`*]", seen["hover"]), seen["hover"]
    # The TC502 on `uri` names its targets by label; the hover's lines for exactly those say "folded".
    (tc502,) = [d for d in seen["diagnostics"] if "[TC502]" in d and "`uri`" in d]
    folded = {line[2:].split(": ")[0] for line in seen["hover"].splitlines()[1:] if ": folded" in line}
    named = tc502.split("format `uri` is not supported by ")[1].split(";")[0].split(", ")
    assert folded == set(named) and "OpenAI Chat Completions" in folded, (seen["hover"], tc502)
