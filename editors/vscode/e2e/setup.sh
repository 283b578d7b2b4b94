#!/usr/bin/env bash
# Installs what the real-workbench test needs, from the package registries only:
#   Debian: chromium (driven by Playwright, no browser download), ripgrep, libkrb5-dev (code-server's
#   kerberos module builds against it), python3 (the system Python the bundled server runs with); npm: code-server 4.100.3 (= VS Code 1.100.3, the last line that
#   runs on Node 20); PyPI: playwright (the driver only).
# code-server's @vscode/ripgrep would download rg from outside the registries; Debian's rg is placed in
# the cache that package reads first, as the archive it expects.
# Idempotent: a second run with everything present takes a second. Prints the install folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
home="${TOOLCAST_E2E_HOME:-$HOME/.cache/toolcast-e2e}"
python="${TOOLCAST_PYTHON:-python3}"
code_server_version=4.100.3
mkdir -p "$home"

need_apt=()
# The Python the bundled-server run uses: Debian's, with no toolcast in it.
[ -x /usr/bin/python3 ] || need_apt+=(python3)
command -v chromium >/dev/null || need_apt+=(chromium)
command -v rg >/dev/null || need_apt+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

"$python" -c 'import playwright' 2>/dev/null || "$python" -m pip install -q 'playwright>=1.50'

cs="$home/node_modules/.bin/code-server"
if [ ! -x "$cs" ] || ! "$cs" --version 2>/dev/null | grep -q "^$code_server_version"; then
  tmp="${TMPDIR:-/tmp}"
  rg_cache="$tmp/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$rg_cache/stage"
  cp "$(command -v rg)" "$rg_cache/stage/rg"
  for target in x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
    for v in v13.0.0-10 v13.0.0-13; do
      tar -czf "$rg_cache/ripgrep-$v-$target.tar.gz" -C "$rg_cache/stage" rg
    done
  done
  (cd "$home" && [ -f package.json ] || echo '{"private": true}' > "$home/package.json")
  npm_config_unsafe_perm=true npm_config_yes=true npm install --prefix "$home" --no-audit --no-fund \
    --loglevel=error "code-server@$code_server_version" >"$home/npm-install.log" 2>&1 || {
    tail -40 "$home/npm-install.log" >&2
    echo "toolcast e2e: installing code-server $code_server_version failed (log: $home/npm-install.log)" >&2
    exit 1
  }
fi
"$cs" --version >/dev/null
echo "$home"
