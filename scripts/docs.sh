#!/usr/bin/env bash
# Builds the DeckKit reference (the DocC catalog Sources/DeckKit/DeckKit.docc and a page for
# every public symbol DeckKit re-exports) with the toolchain's docc, into .build/docs/:
#   scripts/docs.sh            build it; any DocC warning (a broken link, a symbol a page
#                              names that is not public) fails the run
#   scripts/docs.sh --coverage also print how many public symbols have a summary
# Open .build/docs/index.html through a web server (`python3 -m http.server -d .build/docs`),
# or pass --transform-for-static-hosting (done here) and browse .build/docs/documentation/deckkit.
set -euo pipefail
cd "$(dirname "$0")/.."
coverage=()
[ "${1:-}" = "--coverage" ] && coverage=(--experimental-documentation-coverage --coverage-summary-level brief)

swift build --target DeckKit >/dev/null
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
modules=DeckCore,DeckConversion,DeckAnki,DeckJSON,DeckCSV,DeckAppStorage,DeckCrowdAnki
includes=(-I .build/debug/Modules)
# The C modules: a system library's module map sits in its folder, a C target's in its include/.
for library in Sources/C*/; do includes+=(-I "$library"); done
for library in Sources/C*/include/; do
  if [ -f "$library/module.modulemap" ]; then includes+=(-I "$library"); fi
done
swift-symbolgraph-extract -module-name DeckKit -target "$(uname -m)-unknown-linux-gnu" "${includes[@]}" \
  -minimum-access-level public -skip-synthesized-members \
  -experimental-allowed-reexported-modules="$modules" -output-dir "$graphs"
rm -rf .build/docs
docc convert Sources/DeckKit/DeckKit.docc --additional-symbol-graph-dir "$graphs" --output-path .build/docs \
  --fallback-display-name DeckKit --fallback-bundle-identifier deckport.DeckKit \
  --transform-for-static-hosting --warnings-as-errors ${coverage[@]+"${coverage[@]}"} 2>&1 | tee "$graphs/docc.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "docs: docc reported problems (above)" >&2; exit 1; }
echo "docs: .build/docs ($(find .build/docs/data/documentation -name '*.json' | wc -l) pages)"
