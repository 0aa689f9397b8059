#!/usr/bin/env bash
# Installs what rldp-verify needs, once: Debian's libcdd-dev and libgmp-dev (pycddlib's exact GMP
# backend is built against them) and lrslib (the lrs vertex-enumeration backend), a virtual
# environment in .venv and the Python packages (with the optional Normaliz backend and the LDP libraries
# the adapter tests need: pure-ldp 1.1.2, multi-freq-ldpy, opendp).
# Idempotent: a second run finds everything in place and prints nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv
PY=${PYTHON:-python3}

need_apt=()
for pkg in libcdd-dev libgmp-dev lrslib; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "bootstrap: installing Debian packages: ${need_apt[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "bootstrap: missing Debian packages ${need_apt[*]}; run as root: apt-get install ${need_apt[*]}" >&2
    exit 1
  fi
fi

# Debian's headless Chromium and its WebDriver for the browser test of the HTML report
# (tests/report/test_browser.py); optional: without root the test is skipped with a message.
need_browser=()
for pkg in chromium chromium-driver; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need_browser+=("$pkg")
done
if [ ${#need_browser[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "bootstrap: installing Debian packages: ${need_browser[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_browser[@]}" >/dev/null || \
      echo "bootstrap: could not install ${need_browser[*]}; the browser test of the report will be skipped" >&2
  else
    echo "bootstrap: ${need_browser[*]} not installed (run as root: apt-get install ${need_browser[*]}); the browser test of the report will be skipped" >&2
  fi
fi

if [ ! -x "$VENV/bin/python" ]; then
  echo "bootstrap: creating $VENV"
  "$PY" -m venv "$VENV"
fi
stamp="$VENV/.rldp-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ]; then
  echo "bootstrap: installing Python packages into $VENV"
  log="$VENV/install.log"
  if ! { "$VENV/bin/python" -m pip install -q --upgrade pip && \
         "$VENV/bin/python" -m pip install -q -e '.[dev,normaliz,test-adapters]'; } >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "bootstrap: installing the Python packages failed (full log: $log)" >&2
    exit 1
  fi
  "$VENV/bin/python" -c "import cdd.gmp" || { echo "bootstrap: pycddlib's exact backend cdd.gmp does not import" >&2; exit 1; }
  touch "$stamp"
fi
