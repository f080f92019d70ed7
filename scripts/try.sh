#!/usr/bin/env bash
# Sets everything up, installs deckport (scripts/install.sh: the release build, its man page and
# completions, under /usr/local as root or ~/.local otherwise; or under the PREFIX given), and
# runs it on a bundled sample deck (an Anki package made by the real Anki backend, latest
# generation, with scheduling and media).
#   scripts/try.sh [PREFIX]
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-}"
if [ -z "$prefix" ]; then
  if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi
scripts/install.sh "$prefix"
deckport="$prefix/bin/deckport"
sample=fixtures/anki/latest_sched.apkg
echo
echo "\$ deckport inspect $sample"
"$deckport" inspect "$sample"
echo
echo "\$ deckport inspect $sample --json"
"$deckport" inspect "$sample" --json
