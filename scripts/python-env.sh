#!/usr/bin/env bash
# Creates .venv with the real Anki backend (our judge), genanki, pytest and pytest-xdist (the
# checks run on every core), from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
requirements="anki==26.9.3 genanki==0.13.1 pytest==9.0.3 pytest-xdist==3.8.0 jsonschema==4.26.0"
stamp=".venv/.deckport-requirements"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$requirements" ]; then
  exit 0
fi
echo "python-env: installing $requirements into .venv"
python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check $requirements
echo "$requirements" > "$stamp"
