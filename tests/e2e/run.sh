#!/usr/bin/env bash
# End-to-end tests of the web front end: headless Chromium (Debian's package)
# driven by playwright-core, against a real `acedrex serve` on a free port with
# a temporary database. Installs what it needs; safe to run again.
#   bash tests/e2e/run.sh                 # all tests
#   bash tests/e2e/run.sh online.test.mjs # some of them
# Environment: ACEDREX_BIN (default build/release/acedrex), ACEDREX_E2E_MOCK=1
# (use the development mock server instead), CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
fc-list 2>/dev/null | grep -qi dejavu || need_apt+=(fonts-dejavu-core)
# the characters of xiangqi, janggi and shogi pieces in the screenshots
fc-list 2>/dev/null | grep -qi wenquanyi || need_apt+=(fonts-wqy-microhei)
if ((${#need_apt[@]})); then
  echo "e2e: installing ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/ws ]; then
  echo "e2e: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ "${ACEDREX_E2E_MOCK:-0}" != "1" ] && [ -z "${ACEDREX_E2E_BASE:-}" ]; then
  bin="${ACEDREX_BIN:-$root/build/release/acedrex}"
  if [ ! -x "$bin" ]; then
    echo "e2e: building $bin"
    (cd "$root" && cmake --preset release >/dev/null && cmake --build --preset release -j"$(nproc)" --target acedrex)
  fi
  export ACEDREX_BIN="$bin"
fi

mkdir -p output
if (($#)); then files=("$@"); else files=(*.test.mjs); fi
exec node --test --test-concurrency=1 --test-timeout=600000 "${files[@]}"
