#!/usr/bin/env bash
# Builds the release deckport (scripts/setup.sh release, which also installs the system
# libraries it needs) and installs it with its man page and bash, zsh and fish completions.
#   scripts/install.sh [PREFIX]     default: /usr/local as root, ~/.local otherwise
# Installs PREFIX/bin/deckport, PREFIX/share/man/man1/deckport.1,
# PREFIX/share/bash-completion/completions/deckport, PREFIX/share/zsh/site-functions/_deckport
# and PREFIX/share/fish/vendor_completions.d/deckport.fish, then says whether deckport is on
# the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-}"
if [ -z "$prefix" ]; then
  if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi
scripts/setup.sh release
built=.build/release/deckport

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$built" "$prefix/bin/deckport"
install -m 644 man/deckport.1 "$prefix/share/man/man1/deckport.1"
"$built" --generate-completion-script bash > "$prefix/share/bash-completion/completions/deckport"
"$built" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_deckport"
"$built" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/deckport.fish"

echo "install: $("$prefix/bin/deckport" --version | sed 's/^/deckport /') installed in $prefix:"
echo "install:   $prefix/bin/deckport"
echo "install:   $prefix/share/man/man1/deckport.1 (man deckport)"
echo "install:   completions for bash, zsh and fish under $prefix/share"
if [ "$(command -v deckport 2>/dev/null || true)" = "$prefix/bin/deckport" ]; then
  echo "install: deckport is on your PATH"
else
  echo "install: $prefix/bin is not first on your PATH for deckport; run it as $prefix/bin/deckport, or add"
  echo "install:   export PATH=\"$prefix/bin:\$PATH\""
  echo "install: to your shell's profile"
fi
