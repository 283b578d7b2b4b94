#!/usr/bin/env bash
# Puts toolcast and its run-time dependencies inside the extension, as Microsoft's Python-tool
# extensions do (bundled/libs), so the .vsix needs only a python3 (3.11+) on the machine:
#   bundled/libs/         toolcast (from this checkout, with the tokens extra) and its dependencies (pip, from PyPI);
#   bundled/native/cpXY/  the compiled dependencies, rpds-py (referencing and jsonschema need it) and regex (the
#                         patterns' matcher), one build per CPython minor version 3.11-3.14: neither ships an
#                         abi3 wheel. The launcher adds its own.
# Builds for the machine it runs on (linux-x64 here: `vsce package --target linux-x64`).
# Usage: TOOLCAST_PYTHON=/path/to/python3.11 scripts/bundle-python.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/../.." && pwd)"
python="${TOOLCAST_PYTHON:-python3}"
versions=(3.11 3.12 3.13 3.14)
log="$here/bundled/pip.log"  # the build backend's warnings go here; shown if pip fails
pip=(pip_quiet "$python" -m pip install --quiet --disable-pip-version-check --no-compile --no-warn-script-location)
pip_quiet() { "$@" 2>>"$log" || { tail -30 "$log" >&2; echo "bundle-python: pip failed (log: $log)" >&2; exit 1; }; }
build_tag="$("$python" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')"

rm -rf "$here/bundled/libs" "$here/bundled/native" "$log"
"${pip[@]}" --target "$here/bundled/libs" "${repo}[tokens]"  # the tokenizer (pure Python) for the cost lens
mkdir -p "$here/bundled/native/$build_tag"
native=()  # distribution==version of each compiled dependency
# (distribution, its dist-info prefix, its import package)
for spec in "rpds-py rpds_py rpds" "regex regex regex"; do
  read -r dist prefix package <<<"$spec"
  info="$(ls -d "$here"/bundled/libs/"$prefix"-*.dist-info)"
  version="${info##*/"$prefix"-}"
  version="${version%.dist-info}"
  mv "$here/bundled/libs/$package" "$info" "$here/bundled/native/$build_tag/"
  native+=("$dist==$version")
done
platform="$("$python" -c 'import sysconfig; print(sysconfig.get_platform().replace("-", "_").replace(".", "_"))')"
[ "$platform" = linux_x86_64 ] && platform=manylinux_2_17_x86_64
for v in "${versions[@]}"; do
  tag="cp${v/./}"
  [ "$tag" = "$build_tag" ] && continue
  "${pip[@]}" --target "$here/bundled/native/$tag" --no-deps --only-binary=:all: --platform "$platform" \
    --python-version "$v" --implementation cp --abi "$tag" "${native[@]}"
done
rm -rf "$here/bundled/libs/bin" "$here"/bundled/native/*/regex/tests
find "$here/bundled" -name __pycache__ -prune -exec rm -rf {} +
echo "bundled: $(ls "$here/bundled/libs" | grep -c 'dist-info$') distributions; ${native[*]} for ${versions[*]}"
