#!/usr/bin/env bash
# Checks of the VS Code extension that need no VS Code: type check, unit tests of the pure parts, the
# bundle, the packaged .vsix and its manifest, and a plain-Node LSP smoke test against the real server.
# TOOLCAST_PYTHON: the interpreter that has toolcast installed (default: python3).
set -euo pipefail
cd "$(dirname "$0")"
export TOOLCAST_PYTHON="${TOOLCAST_PYTHON:-python3}"
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
