#!/usr/bin/env bash
# Formats the Swift code with the toolchain's swift-format and the rules in .swift-format
# (swift-argument-parser's, with lines up to 120 columns and the two documentation-comment
# rules off: our summaries may wrap, and Throws/Returns are written as prose), then lints it
# as CI does:
#   scripts/format.sh          format in place, then lint
#   scripts/format.sh --check  lint only (what .ci/run runs)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Package.swift)
[ "${1:-}" = "--check" ] || swift format format --in-place --recursive --parallel "${paths[@]}"
swift format lint --strict --recursive --parallel "${paths[@]}"
