#!/usr/bin/env bash
# Builds the README's library examples, unchanged, in a new package that depends on this one by
# path (the way an app would), and runs them:
#   scripts/check-library-example.sh
# The examples' code is the README's Swift blocks under "## Using the library" (all but the
# `.package(...)` line); a small main.swift calls its importAnkiDeck(from:mediaInto:) on a
# bundled Anki package, and its exportToAnki(_:to:) on two words, whose package the real Anki
# backend (.venv, scripts/python-env.sh) then imports. The new package is made in a temporary
# folder; its build folder is .build-example/ here, so a second run is incremental. Exits 1 when
# it does not build, when what the import prints or saves differs from what the real Anki
# backend saw in that package, or when Anki does not import the export's two notes.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/App/Sources/LibraryExample" "$work/media"

# The README's code, as it stands.
python3 - "$repo/README.md" "$work/App/Sources/LibraryExample/ImportingAnAnkiDeck.swift" <<'PY'
import re, sys
readme = open(sys.argv[1], encoding="utf-8").read()
section = readme.split("## Using the library", 1)[1].split("\n## ", 1)[0]
blocks = [b for b in re.findall(r"```swift\n(.*?)```\n", section, re.S) if not b.lstrip().startswith(".package(")]
if not blocks:
    sys.exit("check-library-example: the README has no library example under '## Using the library'")
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(blocks))
PY

cat >"$work/App/Sources/LibraryExample/main.swift" <<'SWIFT'
import Foundation

let arguments = CommandLine.arguments
let flashcards = try await importAnkiDeck(
  from: URL(filePath: arguments[1]), mediaInto: URL(filePath: arguments[2], directoryHint: .isDirectory))
print("flashcards: \(flashcards.count), suspended: \(flashcards.filter(\.isSuspended).count)")
if arguments.count > 3 {
  let words = [
    Word(id: UUID(), spanish: "hablar", english: "to speak", recording: nil, updatedAt: Date()),
    Word(id: UUID(), spanish: "la casa", english: "the house", recording: nil, updatedAt: Date()),
  ]
  let report = try await exportToAnki(words, to: URL(filePath: arguments[3]))
  print("exported: \(report.summary.notes) notes, \(report.summary.cards) cards")
}
SWIFT

cat >"$work/App/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LibraryExample",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "deckport", path: "$repo")],
  targets: [
    .executableTarget(name: "LibraryExample", dependencies: [.product(name: "DeckKit", package: "deckport")])
  ]
)
SWIFT

echo "check-library-example: building the README's example in a new package (depends on $repo by path)"
if ! swift build --package-path "$work/App" --scratch-path "$repo/.build-example" >"$work/build.log" 2>&1; then
  grep -E 'error' "$work/build.log" | head -n 20 >&2
  echo "check-library-example: the README's example does not build in a new package" >&2
  exit 1
fi
output="$("$repo/.build-example/debug/LibraryExample" "$repo/fixtures/anki/latest_sched.apkg" "$work/media" \
  "$work/Spanish.apkg")"
echo "$output"
exported="$(printf '%s\n' "$output" | sed -n 2p)"
output="$(printf '%s\n' "$output" | sed -n 1p)"
if [ "$exported" != "exported: 2 notes, 4 cards" ]; then
  echo "check-library-example: the export printed '$exported', not 'exported: 2 notes, 4 cards'" >&2
  exit 1
fi
# The export, as the real Anki backend imports it into a user's collection.
judged="$("$repo/.venv/bin/python" "$repo/fixtures/anki_import_sequence.py" "$work/Spanish.apkg" \
  | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["imports"][0]["new"], len(d["view"]["cards"]), sorted({c["deck"] for c in d["view"]["cards"]}))')"
if [ "$judged" != "2 4 ['Spanish']" ]; then
  echo "check-library-example: Anki imported '$judged' from the export, not 2 notes with 4 cards in 'Spanish'" >&2
  exit 1
fi
echo "check-library-example: the real Anki backend imported the export's 2 notes and 4 cards"
# What the real Anki backend saw in that package (fixtures/anki/latest_sched.apkg.truth.json):
# 15 cards, one of them suspended, and 6 media files.
expected="flashcards: 15, suspended: 1"
media="$(find "$work/media" -type f | wc -l)"
if [ "$output" != "$expected" ] || [ "$media" -ne 6 ]; then
  echo "check-library-example: expected '$expected' and 6 media files, got '$output' and $media" >&2
  exit 1
fi
echo "check-library-example: the README's examples build and run in a new package"
