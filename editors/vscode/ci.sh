#!/usr/bin/env bash
# Checks of the VS Code extension that need no VS Code: type check, unit tests of the pure parts, the
# bundle, the bundled Python server (scripts/bundle-python.sh: toolcast and its dependencies from PyPI),
# the packaged linux-x64 .vsix and its manifest, and a plain-Node LSP smoke test against the real server
# (installed, and bundled run by the system's python3).
# TOOLCAST_PYTHON: the interpreter that has toolcast installed (default: python3), 3.11+ with pip.
set -euo pipefail
TOOLCAST_PYTHON="${TOOLCAST_PYTHON:-python3}"
case "$TOOLCAST_PYTHON" in */*) TOOLCAST_PYTHON="$(cd "$(dirname "$TOOLCAST_PYTHON")" && pwd)/$(basename "$TOOLCAST_PYTHON")" ;; esac
export TOOLCAST_PYTHON
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
npx tsc -p . --noEmit
npm run --silent test
npm run --silent package
node scripts/check-vsix.mjs toolcast.vsix
# The extension's target list is the server's: the targets and the display names of the provider profiles.
"$TOOLCAST_PYTHON" -c 'import json, sys
from toolcast.adapters.targets import TARGETS
from toolcast.adapters.providers import display_name
print(json.dumps([{"id": t, "label": display_name(t)} for t in TARGETS]))' > out/server-targets.json
node -e 'const a = require("./out/src/targets.js").TARGETS, b = require("./out/server-targets.json");
if (JSON.stringify(a) !== JSON.stringify(b)) { console.error("targets differ from the server:", a, b); process.exit(1); }'
node test/smoke.mjs
