#!/usr/bin/env python3
"""Measure what deckport's memory does when a deck's pictures go into an app's store and back.

    scripts/app-store-memory-benchmark.py .build/release/deckport
    scripts/app-store-memory-benchmark.py /tmp/old/deckport .build/release/deckport --images 300 --size 2000000

The deck is made by the real Anki backend (`anki` in .venv/, as scripts/python-env.sh installs
it) and cached under .build-bench/app-store/: --images notes of the Basic note type, each with
one PNG-like picture of --size bytes on its back. Each binary then runs, on a fresh copy of
fixtures/app/neomnemo.store (a SwiftData store whose `image` attribute allows external storage):

* deck -> store: `deckport convert images.apkg copy.store --profile neomnemo --force`
  (every picture becomes an image value, from 128 KiB a file in `_EXTERNAL_DATA`);
* store -> deck: `deckport convert copy.store back.apkg`.

With `--targets store,app-json` it also writes the records as a JSON file (`--to app-json
--profile neomnemo`, each picture a base64 string) and reads them back; `sqlite` does the same
with deckport's own SQLite record file.

For each run it prints the wall time, the peak resident set size the kernel reports through
wait4 (file pages mapped and touched count there too), and the peak of the process's anonymous
memory (RssAnon in /proc/PID/status, sampled every 5 ms): the memory that cannot be given back
without swap, and what an iOS app's limit counts.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".build-bench", "app-store")
STORE = os.path.join(ROOT, "fixtures", "app", "neomnemo.store")
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")

MAKE_DECK = r"""
import os, sys, tempfile
from anki.collection import Collection, ExportAnkiPackageOptions
from anki.decks import DeckId
images, size, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
folder = tempfile.mkdtemp()
col = Collection(os.path.join(folder, "collection.anki2"))
basic = col.models.by_name("Basic")
for index in range(images):
    name = f"picture{index:05d}.png"
    col.media.write_data(name, b"\x89PNG\r\n\x1a\n" + os.urandom(size - 8))
    note = col.new_note(basic)
    note["Front"] = f"word {index}"
    note["Back"] = f'<img src="{name}">'
    col.add_note(note, DeckId(1))
col.export_anki_package(out_path=out, options=ExportAnkiPackageOptions(
    with_scheduling=False, with_media=True, with_deck_configs=False, legacy=False), limit=None)
col.close()
"""


def make_deck(images, size):
    """The cached deck's path, made with the real backend when missing."""
    path = os.path.join(CACHE, f"images-{images}x{size}.apkg")
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run([PYTHON, "-c", MAKE_DECK, str(images), str(size), path + ".part"], check=True)
        os.rename(path + ".part", path)
    return path


def measure(command):
    """Runs `command`; returns (seconds, peak RSS in MB from wait4, peak RssAnon in MB)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_anon = 0
    status_path = f"/proc/{process.pid}/status"
    while True:
        finished, status, usage = os.wait4(process.pid, os.WNOHANG)
        if finished:
            break
        try:
            with open(status_path, encoding="ascii") as handle:
                for line in handle:
                    if line.startswith("RssAnon:"):
                        peak_anon = max(peak_anon, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.005)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return seconds, usage.ru_maxrss / 1024, peak_anon / 1024


def copy_store(folder):
    """A fresh copy of the NeoMnemo store (and its external-data folder) in `folder`."""
    target = os.path.join(folder, "copy.store")
    shutil.copy(STORE, target)
    support = os.path.join(os.path.dirname(STORE), ".neomnemo_SUPPORT")
    if os.path.isdir(support):
        shutil.copytree(support, os.path.join(folder, ".copy_SUPPORT"))
    return target


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="deckport binaries to compare")
    parser.add_argument("--images", type=int, default=300, help="pictures in the deck (default 300)")
    parser.add_argument("--size", type=int, default=2_000_000, help="bytes per picture (default 2,000,000)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per task and binary; medians are printed")
    parser.add_argument(
        "--targets", default="store", help="comma-separated: store (the default), app-json, sqlite")
    arguments = parser.parse_args()
    targets = arguments.targets.split(",")
    unknown = set(targets) - {"store", "app-json", "sqlite"}
    if unknown:
        sys.exit(f"unknown targets: {', '.join(sorted(unknown))}")
    deck = make_deck(arguments.images, arguments.size)
    megabytes = arguments.images * arguments.size / 1e6
    print(f"deck: {arguments.images} pictures of {arguments.size:,} bytes ({megabytes:.0f} MB of media)")
    print("| binary | task | wall s | peak RSS MB | peak anonymous MB |")
    print("|---|---|---:|---:|---:|")
    for binary in arguments.binaries:
        results = {}
        for _ in range(arguments.repeats):
            for target in targets:
                with tempfile.TemporaryDirectory(prefix="deckport-app-memory-") as folder:
                    if target == "store":
                        output, writing = copy_store(folder), ["--force"]
                    else:
                        output = os.path.join(folder, "records." + ("json" if target == "app-json" else "sqlite"))
                        writing = ["--to", target]
                    results.setdefault(f"deck -> {target}", []).append(
                        measure([binary, "convert", deck, output, "--profile", "neomnemo"] + writing))
                    results.setdefault(f"{target} -> deck", []).append(
                        measure([binary, "convert", output, os.path.join(folder, "back.apkg"), "--profile", "neomnemo"]))
        for task, runs in results.items():
            median = [sorted(values)[len(values) // 2] for values in zip(*runs)]
            print(f"| {binary} | {task} | {median[0]:.2f} | {median[1]:.0f} | {median[2]:.0f} |")


if __name__ == "__main__":
    main()
