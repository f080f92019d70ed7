#!/usr/bin/env bash
# Sets everything up and runs every test: the Swift suite, then the checks against the real
# Anki backend (installed into .venv from PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh debug
scripts/python-env.sh
# jq, for the README's pipe example (Tests/anki/test_documented_examples.py runs it).
scripts/apt-install.sh jq

echo "test: the Swift suite"
swift test 2>&1 | tee .build/swift-test.log

echo "test: checks against the real Anki backend, and against stores Apple's frameworks made"
DECKPORT_BIN="$PWD/.build/debug/deckport" .venv/bin/python -m pytest Tests/anki Tests/stores -q -p no:cacheprovider -n auto \
  2>&1 | tee .build/pytest.log
