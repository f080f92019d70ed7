#!/usr/bin/env bash
# Builds the libFuzzer targets of Tests/Fuzz/Sources (targets of the root package, added to it
# when DECKPORT_FUZZ is set, so they can use `package` symbols) with coverage instrumentation and AddressSanitizer,
# seeds each from fixtures/, and runs each for a chosen time.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 seconds, every target
#   scripts/fuzz.sh merge TARGET              minimise TARGET's committed corpus (Tests/Fuzz/corpus/)
#                                             together with what the runs added in .build-fuzz/
# FUZZ_BUILD=coverage builds with coverage instrumentation only, optimised (-c release) and
# without AddressSanitizer, in .build-fuzz-coverage/: several times faster, for long runs. Swift
# traps on overflow, bad indexes and failed unwraps in both builds; only ASan's checks of
# unsafe pointer code are left out. The default is FUZZ_BUILD=address.
# Extra libFuzzer flags can be passed in FUZZ_FLAGS (such as "-fork=1 -ignore_crashes=0").
# Prints, per target, the executions it survived. A finding (crash, trap, sanitizer report,
# hang, memory blow-up) stops with the reproducer saved under .build-fuzz*/findings/ and exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="run"
if [ "${1:-}" = "merge" ]; then mode="merge"; shift; fi
seconds=60
if [ "$mode" = "run" ]; then seconds="${1:-60}"; shift || true; fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzAnkiPackage FuzzAnkiMember FuzzDeckJSON FuzzCSV FuzzAppStorage FuzzCoreDataStore
  FuzzCrowdAnki FuzzDeckJSONDirectory FuzzWriters FuzzBuilder)

fuzzer_lib="$(dirname "$(dirname "$(command -v swift)")")/lib/clang"
fuzzer_lib="$(find "$fuzzer_lib" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -n 1)"
[ -n "$fuzzer_lib" ] || { echo "fuzz: libFuzzer (libclang_rt.fuzzer_no_main) not found in the Swift toolchain" >&2; exit 1; }

build="${FUZZ_BUILD:-address}"
case "$build" in
  address) scratch="$PWD/.build-fuzz"; configuration=debug; sanitizer=(-Xswiftc -sanitize=address) ;;
  coverage) scratch="$PWD/.build-fuzz-coverage"; configuration=release; sanitizer=(-Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld) ;;
  *) echo "fuzz: FUZZ_BUILD must be address or coverage, not $build" >&2; exit 64 ;;
esac
echo "fuzz: building ${targets[*]} (instrumented, $build build)"
mkdir -p "$scratch"
# A failed build must stop here: the binaries of an earlier build would otherwise be fuzzed.
: >"$scratch/build.log"
for target in "${targets[@]}"; do
  if ! DECKPORT_FUZZ=1 swift build --scratch-path "$scratch" -c "$configuration" --product "$target" \
    ${sanitizer[@]+"${sanitizer[@]}"} -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$fuzzer_lib" -Xlinker -lstdc++ >>"$scratch/build.log" 2>&1; then
    grep -E 'error' "$scratch/build.log" | head -n 20 >&2
    echo "fuzz: $target did not build (see $scratch/build.log)" >&2
    exit 1
  fi
done
grep -E 'Build complete' "$scratch/build.log" | tail -n 1 || true

if [ "$mode" = "merge" ]; then
  for target in "${targets[@]}"; do
    committed="Tests/Fuzz/corpus/$target"
    merged="$scratch/merged-$target"
    rm -rf "$merged" && mkdir -p "$merged" "$committed" "$scratch/corpus/$target"
    ASAN_OPTIONS=detect_leaks=0 "$scratch/$configuration/$target" -merge=1 -timeout=20 -rss_limit_mb=2048 \
      "$merged" "$committed" "$scratch/corpus/$target" >"$scratch/merge-$target.log" 2>&1
    rm -rf "$committed" && mv "$merged" "$committed"
    echo "fuzz: $target corpus: $(find "$committed" -type f | wc -l) inputs, $(du -sh "$committed" | cut -f1)"
  done
  exit 0
fi

# Packs the files under folder $1 into the input FuzzDeckJSONDirectory reads (its main.swift):
# per file, a byte giving the path's length, the path, its size in 4 bytes big-endian, its bytes.
pack_folder() {
  local folder="$1" relative size shift
  (cd "$folder" && LC_ALL=C find . -type f | LC_ALL=C sort | sed 's|^\./||') | while IFS= read -r relative; do
    # shellcheck disable=SC2059
    printf "\\$(printf '%03o' "$(LC_ALL=C; echo "${#relative}")")"
    printf '%s' "$relative"
    size=$(stat -c %s "$folder/$relative")
    for shift in 24 16 8 0; do
      # shellcheck disable=SC2059
      printf "\\$(printf '%03o' $(((size >> shift) & 255)))"
    done
    cat "$folder/$relative"
  done
}

mkdir -p "$scratch/findings"
for target in "${targets[@]}"; do
  binary="$scratch/$configuration/$target"
  [ -x "$binary" ] || { echo "fuzz: $target did not build" >&2; exit 1; }
  corpus="$scratch/corpus/$target"
  mkdir -p "$corpus"
  # A committed corpus (grown by earlier long runs) is read as well; new inputs go to $corpus.
  corpora=("$corpus")
  [ -d "Tests/Fuzz/corpus/$target" ] && corpora+=("Tests/Fuzz/corpus/$target")
  case "$target" in
    FuzzAnkiPackage) cp fixtures/anki/*.apkg fixtures/anki/*.colpkg "$corpus"/ 2>/dev/null || true ;;
    FuzzDeckJSON)
      [ -x .build/debug/deckport ] || swift build --product deckport >/dev/null
      # A collection package gives a document with settings and a list of tags; the real Anki 2.1
      # package, decks, note types and fields with Anki's other properties.
      for package in fixtures/anki/legacy1.apkg fixtures/anki/genanki_legacy1.apkg fixtures/anki/legacy.colpkg \
        fixtures/real/c-notes-filtered-legacy1.apkg; do
        .build/debug/deckport convert "$package" "$corpus/$(basename "$package").json" --force >/dev/null
      done ;;
    FuzzCSV)
      find fixtures/csv \( -name '*.txt' -o -name '*.csv' -o -name '*.tsv' \) -exec cp {} "$corpus"/ \;
      # A spreadsheet with a schedule, for the second read (a header row of column names).
      printf 'Front,Back,Due,Interval,Ease,Reviews,Lapses,Suspended\nle chat,the cat,2027-01-15,12,250%%,5,1,\nla maison,the house,,,,,,yes\n' \
        >"$corpus/schedule.csv" ;;
    FuzzAppStorage)
      find fixtures/app -maxdepth 1 -type f \( -name '*.plist' -o -name '*.json' -o -name '*.store' -o -name '*.sqlite' \) \
        -exec cp {} "$corpus"/ \; ;;
    # The target writes its own seeds: each store as it is, and its model, for two entities.
    FuzzCoreDataStore) DECKPORT_FUZZ_SEEDS="$corpus" ASAN_OPTIONS=detect_leaks=0 "$binary" ;;
    # The committed corpus holds the deck files of fixtures/crowdanki (cut), after the byte that
    # lays out the folder.
    FuzzCrowdAnki) ;;
    FuzzDeckJSONDirectory)
      [ -x .build/debug/deckport ] || swift build --product deckport >/dev/null
      for package in fixtures/anki/legacy1.apkg fixtures/anki/legacy.colpkg; do
        rm -rf "$scratch/seed-dir"
        .build/debug/deckport convert "$package" "$scratch/seed-dir" --to json-dir --force >/dev/null
        pack_folder "$scratch/seed-dir" >"$corpus/$(basename "$package").dir"
      done
      rm -rf "$scratch/seed-dir" ;;
    FuzzAnkiMember) printf '\x00\x08\x03' > "$corpus/meta"; printf '\x04{"0": "a.png"}' > "$corpus/media" ;;
    # Programs, not files: FuzzWriters reads its seed collections itself, FuzzBuilder needs none.
    FuzzWriters | FuzzBuilder) ;;
  esac
  # FuzzWriters's and FuzzBuilder's inputs are short programs (choices and at most 24 changes or
  # calls), not files.
  max_len=262144
  case "$target" in FuzzWriters | FuzzBuilder) max_len=4096 ;; esac
  log="$scratch/$target.log"
  status=0
  # SWIFT_BACKTRACE=enable=no: a Swift trap (SIGILL) reaches libFuzzer's own handler, which saves
  # the input as a crash-* artifact; Swift's backtracer would otherwise end the process first.
  # shellcheck disable=SC2086
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" "${corpora[@]}" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len="$max_len" -artifact_prefix="$scratch/findings/$target-" -print_final_stats=1 ${FUZZ_FLAGS:-} >"$log" 2>&1 || status=$?
  # With -fork, libFuzzer prints no final stats: the count is then the last `#N:` line's.
  runs=$({ grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" || true; } | awk '{ total += $2 } END { print (NR ? total : "") }')
  [ -n "$runs" ] || runs=$({ grep -Eo '^#[0-9]+:' "$log" || true; } | tail -n 1 | tr -dc '0-9')
  [ -n "$runs" ] || runs="?"
  # With -fork and -ignore_crashes (and the like) the run goes on after a finding and exits 0:
  # its last status line counts them, and any count is a failure.
  findings=$({ grep -Eo 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' "$log" || true; } | tail -n 1 | sed 's/.*: //')
  if [ "$status" -eq 0 ] && [ -n "$findings" ] && [ "$findings" != "0/0/0" ]; then status=1; fi
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $target FAILED after $runs executions${findings:+ (oom/timeout/crash: $findings)} (see $log and $scratch/findings/)"
    tail -n 30 "$log"
    exit 1
  fi
  echo "fuzz: $target survived $runs executions in ${seconds}s ($build build)"
  # An input slower than 10 s is saved, not counted. Replay it alone: libFuzzer's timer signal
  # cuts short a call that blocks (opening a named pipe), so a hang can look merely slow.
  slowest=$({ grep -Eo 'Slowest unit: [0-9]+ s' "$log" || true; } | tail -n 1 | tr -dc '0-9')
  [ -z "$slowest" ] || echo "fuzz: $target: an input took $slowest s (saved as $scratch/findings/$target-slow-unit-*); replay it alone"
done
