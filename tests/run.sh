#!/usr/bin/env bash
# The whole test suite, from a fresh clone: makes .venv, installs the package
# with its test extras, and runs pytest (unit, rule, property and conformance
# tests, doctests, ruff and mypy --strict).  Usage: bash tests/run.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
exec .venv/bin/python -m pytest "$@"
