#!/usr/bin/env bash
# Times Anki's field-text, CSS and template patterns on hostile input, before and after deckport's
# byte scans replaced NSRegularExpression (ICU, a backtracking engine) for them.
#
#     bash scripts/hostile-text-benchmark.sh
#
# Compiles, optimised, the scan sources of Sources/DeckAnki/Text (they depend on nothing else)
# with scripts/hostile-text-benchmark/main.swift, which runs each pattern through
# NSRegularExpression at two small sizes (its time grows with the square or the cube of the
# size) and each scan at the same sizes and at about a megabyte. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
text=Sources/DeckAnki/Text
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -O -o "$work/hostile-text-benchmark" \
  "$text/FoldedLiteral.swift" "$text/PatternScan.swift" "$text/HTMLPatternScan.swift" \
  "$text/BracketTagScan.swift" "$text/LaTeXScan.swift" "$text/UnderscoredNameScan.swift" \
  scripts/hostile-text-benchmark/main.swift
"$work/hostile-text-benchmark"
