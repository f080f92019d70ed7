#!/usr/bin/env bash
# Creates .venv with the real Anki backend (our judge), genanki and pytest, from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
requirements="anki==26.9.3 genanki==0.13.1 pytest==9.0.3 jsonschema==4.26.0"
stamp=".venv/.deckport-requirements"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$requirements" ]; then
  exit 0
fi
echo "python-env: installing $requirements into .venv"
python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check $requirements
echo "$requirements" > "$stamp"
