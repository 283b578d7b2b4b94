#!/usr/bin/env bash
# mypy over the installed layout: the source folders are mapped into the `toolcast` package by setuptools,
# which mypy cannot follow, so give it the same view through symlinks (the public package's own files, with
# adapters/, server/ and schemas/ beside them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-"$root/.venv/bin/python"}
view=$(mktemp -d)
trap 'rm -rf "$view"' EXIT
mkdir -p "$view/toolcast"
for f in "$root"/api/*; do ln -s "$f" "$view/toolcast/"; done
for d in adapters server schemas; do ln -s "$root/$d" "$view/toolcast/$d"; done
cd "$view"
MYPYPATH="$view" "$py" -m mypy --config-file "$root/pyproject.toml" -p toolcast "$@"
