#!/usr/bin/env bash
# Builds the README's library example, unchanged, in a new package that depends on this one by
# path (the way an app would), and runs it on a bundled Anki package:
#   scripts/check-library-example.sh
# The example's code is the README's Swift blocks under "## Using the library" (all but the
# `.package(...)` line); a small main.swift calls its importAnkiDeck(from:mediaInto:). The new
# package is made in a temporary folder; its build folder is .build-example/ here, so a second
# run is incremental. Exits 1 when it does not build, or when what it prints or saves differs
# from what the real Anki backend saw in that package.
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
output="$("$repo/.build-example/debug/LibraryExample" "$repo/fixtures/anki/latest_sched.apkg" "$work/media")"
echo "$output"
# What the real Anki backend saw in that package (fixtures/anki/latest_sched.apkg.truth.json):
# 15 cards, one of them suspended, and 6 media files.
expected="flashcards: 15, suspended: 1"
media="$(find "$work/media" -type f | wc -l)"
if [ "$output" != "$expected" ] || [ "$media" -ne 6 ]; then
  echo "check-library-example: expected '$expected' and 6 media files, got '$output' and $media" >&2
  exit 1
fi
echo "check-library-example: the README's example builds and runs in a new package"
