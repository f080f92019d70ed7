#!/usr/bin/env bash
# Builds the libFuzzer targets in Tests/Fuzz with coverage instrumentation and AddressSanitizer,
# seeds each from fixtures/, and runs each for a chosen time.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 seconds, every target
# Prints, per target, the executions it survived. A finding (crash, trap, sanitizer report,
# hang, memory blow-up) stops with the reproducer saved under .build-fuzz/findings/ and exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzAnkiPackage FuzzAnkiMember FuzzDeckJSON FuzzCSV FuzzAppStorage)

fuzzer_lib="$(dirname "$(dirname "$(command -v swift)")")/lib/clang"
fuzzer_lib="$(find "$fuzzer_lib" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -n 1)"
[ -n "$fuzzer_lib" ] || { echo "fuzz: libFuzzer (libclang_rt.fuzzer_no_main) not found in the Swift toolchain" >&2; exit 1; }

scratch="$PWD/.build-fuzz"
echo "fuzz: building ${targets[*]} (instrumented)"
mkdir -p "$scratch"
# A failed build must stop here: the binaries of an earlier build would otherwise be fuzzed.
if ! swift build --package-path Tests/Fuzz --scratch-path "$scratch" -c debug \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xlinker "$fuzzer_lib" -Xlinker -lstdc++ >"$scratch/build.log" 2>&1; then
  grep -E 'error' "$scratch/build.log" | head -n 20 >&2
  echo "fuzz: the targets did not build (see $scratch/build.log)" >&2
  exit 1
fi
grep -E 'Build complete' "$scratch/build.log" || true

mkdir -p "$scratch/findings"
for target in "${targets[@]}"; do
  binary="$scratch/debug/$target"
  [ -x "$binary" ] || { echo "fuzz: $target did not build" >&2; exit 1; }
  corpus="$scratch/corpus/$target"
  mkdir -p "$corpus"
  case "$target" in
    FuzzAnkiPackage) cp fixtures/anki/*.apkg fixtures/anki/*.colpkg "$corpus"/ 2>/dev/null || true ;;
    FuzzDeckJSON)
      [ -x .build/debug/deckport ] || swift build --product deckport >/dev/null
      for package in fixtures/anki/legacy1.apkg fixtures/anki/genanki_legacy1.apkg; do
        .build/debug/deckport convert "$package" "$corpus/$(basename "$package").json" --force >/dev/null
      done ;;
    FuzzCSV) find fixtures/csv \( -name '*.txt' -o -name '*.csv' -o -name '*.tsv' \) -exec cp {} "$corpus"/ \; ;;
    FuzzAppStorage)
      find fixtures/app -maxdepth 1 -type f \( -name '*.plist' -o -name '*.json' -o -name '*.store' -o -name '*.sqlite' \) \
        -exec cp {} "$corpus"/ \; ;;
    FuzzAnkiMember) printf '\x00\x08\x03' > "$corpus/meta"; printf '\x04{"0": "a.png"}' > "$corpus/media" ;;
  esac
  log="$scratch/$target.log"
  status=0
  ASAN_OPTIONS=detect_leaks=0 "$binary" "$corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=262144 -artifact_prefix="$scratch/findings/$target-" -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $target FAILED after $runs executions (see $log and $scratch/findings/)"
    tail -n 30 "$log"
    exit 1
  fi
  echo "fuzz: $target survived $runs executions in ${seconds}s"
done
