#!/usr/bin/env bash
# The whole test suite, from a fresh clone: makes .venv, installs the package
# with its test extras, makes sure Debian's Chromium is there for the browser
# tests, and runs pytest: unit, rule, property and conformance tests, doctests,
# ruff and mypy --strict, the notebooks (nbval) and the browser tests against
# a real Voilà server.  Usage: bash tests/run.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
# Browser tests drive Debian's chromium (Playwright's own browser download cannot work here).
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing Debian's chromium for the browser tests..."
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "NOTE: the browser tests need Chromium: run 'sudo apt-get install chromium' (Debian/Ubuntu)." >&2
    fi
fi
exec .venv/bin/python -m pytest "$@"
