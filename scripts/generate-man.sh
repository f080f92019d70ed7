#!/usr/bin/env bash
# Regenerates man/deckport.1 from the CLI's own help (swift-argument-parser's generate-manual
# plugin). The date is pinned so the page only changes when the CLI does.
#   scripts/generate-man.sh           rewrite man/deckport.1
#   scripts/generate-man.sh --check   fail if man/deckport.1 is out of date
set -euo pipefail
cd "$(dirname "$0")/.."
date_stamp="2026-11-22"
swift package --disable-sandbox generate-manual --date "$date_stamp" \
  --authors "The deckport developers" >/dev/null
generated=.build/plugins/GenerateManual/outputs/deckport/deckport.1
if [ "${1:-}" = "--check" ]; then
  diff -u man/deckport.1 "$generated" || { echo "man/deckport.1 is out of date: run scripts/generate-man.sh" >&2; exit 1; }
else
  cp "$generated" man/deckport.1
fi
