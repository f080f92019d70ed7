#!/usr/bin/env bash
# Sets everything up and runs deckport on a bundled sample deck (an Anki package made by the
# real Anki backend, latest generation, with scheduling and media).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh release
sample=fixtures/anki/latest_sched.apkg
echo
echo "\$ deckport inspect $sample"
.build/release/deckport inspect "$sample"
echo
echo "\$ deckport inspect $sample --json"
.build/release/deckport inspect "$sample" --json
