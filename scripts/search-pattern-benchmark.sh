#!/usr/bin/env bash
# Times `deck:` and `tag:` patterns (--only-deck, --only-tag) on hostile names, before and after
# AnkiSearchPattern replaced NSRegularExpression (ICU, a backtracking engine) for them.
#
#     bash scripts/search-pattern-benchmark.sh
#
# Compiles, optimised, Sources/DeckConversion/AnkiSearchPattern.swift and
# Sources/DeckCore/Text/SimpleCaseFolding.swift (they need nothing else of their modules) with
# scripts/search-pattern-benchmark/main.swift, which runs each pattern as deckport's old regular
# expression through NSRegularExpression at small sizes (its time grows with a power of the
# size) and through AnkiSearchPattern at the same sizes and at 100,000 scalars. Prints a
# Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed '/^import DeckCore$/d' Sources/DeckConversion/AnkiSearchPattern.swift > "$work/AnkiSearchPattern.swift"
swiftc -O -package-name deckport -o "$work/search-pattern-benchmark" \
  "$work/AnkiSearchPattern.swift" Sources/DeckCore/Text/SimpleCaseFolding.swift \
  scripts/search-pattern-benchmark/main.swift
"$work/search-pattern-benchmark"
