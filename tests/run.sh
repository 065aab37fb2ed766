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
# axe-core, the accessibility engine the browser tests inject into every page (pinned; kept in
# .test-tools/, never fetched while the tests run).
AXE_VERSION=4.14.1
if [ ! -f .test-tools/node_modules/axe-core/axe.min.js ] \
    || ! grep -q "\"version\": \"$AXE_VERSION\"" .test-tools/node_modules/axe-core/package.json; then
    if command -v npm >/dev/null 2>&1; then
        mkdir -p .test-tools
        npm install --prefix .test-tools --no-audit --no-fund --silent "axe-core@$AXE_VERSION" >/dev/null
    else
        echo "NOTE: the accessibility tests need npm (Node.js) to install axe-core." >&2
    fi
fi
exec .venv/bin/python -m pytest "$@"
