#!/usr/bin/env bash
# mypy over the installed layout: the source folders are mapped into the `toolcast` namespace by
# setuptools, which mypy cannot follow, so give it the same view through symlinks.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-"$root/.venv/bin/python"}
view=$(mktemp -d)
trap 'rm -rf "$view"' EXIT
mkdir -p "$view/toolcast"
for d in adapters server schemas; do ln -s "$root/$d" "$view/toolcast/$d"; done
cd "$view"
MYPYPATH="$view" "$py" -m mypy --config-file "$root/pyproject.toml" -p toolcast "$@"
