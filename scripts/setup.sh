#!/usr/bin/env bash
# Installs what deckport needs on a fresh Debian/Ubuntu machine (the -dev packages of SQLite,
# libzip, libzstd, zlib and libdeflate) and builds the deckport command.
#   scripts/setup.sh            debug build   (.build/debug/deckport)
#   scripts/setup.sh release    release build (.build/release/deckport)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/apt-install.sh libsqlite3-dev libzip-dev libzstd-dev zlib1g-dev libdeflate-dev pkg-config

# Record the commit being built for `deckport --version` (a header left out of git, rewritten only
# when the commit changes, so an unchanged tree is not rebuilt).
commit="unknown"
if git rev-parse --git-dir >/dev/null 2>&1; then
  commit="$(git rev-parse --short=12 HEAD)"
  [ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit-dirty"
fi
header=Sources/CBuildInfo/BuildCommit.h
line="#define DECKPORT_BUILD_COMMIT \"$commit\""
if ! [ -f "$header" ] || [ "$(cat "$header")" != "$line" ]; then
  echo "$line" > "$header"
  # A build made before the header existed did not record it as a dependency: touching the
  # source makes every build configuration compile it again.
  touch Sources/CBuildInfo/BuildInfo.c
fi

configuration="${1:-debug}"
# The release build links the Swift runtime and Foundation into the executable: the installed
# deckport then needs only the system libraries above, not the Swift toolchain, and starts in
# about 8 ms less (the dynamic loader no longer binds thousands of Swift symbols at each start;
# docs/performance.md, "Start-up").
flags=()
[ "$configuration" = release ] && flags+=(--static-swift-stdlib)
echo "setup: building deckport ($configuration)"
status=0
swift build -c "$configuration" --product deckport "${flags[@]}" 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\]' || status=${PIPESTATUS[0]}
# A failed build must not pass for a good one because an older binary is still there.
if [ "$status" -ne 0 ] || ! [ -x ".build/$configuration/deckport" ]; then
  echo "setup: the build failed" >&2
  exit 1
fi
