#!/usr/bin/env python3
"""How long deckport takes to stop after Ctrl-C, and that it leaves nothing behind.

Each task of scripts/benchmark.py runs on one of its decks (made by
`scripts/benchmark.py --generate-only`, cached under .build-bench/) and is sent SIGINT after
each delay given; the table shows the time from the signal to the end of the process, its exit
status (130 when it stopped, 0 when it had finished first) and whether anything was left: an
output, a hidden temporary file beside it, or a scratch folder in its TMPDIR.

    scripts/interruption-benchmark.py                      # huge deck, release build
    scripts/interruption-benchmark.py --deck large --delays 0.05,0.2 --deckport .build/debug/deckport
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def tasks(deck: str, work: str) -> dict[str, list[str]]:
    """The command of each task, with OUT for the output folder."""
    return {
        "legacy-to-latest": ["convert", f"{deck}/legacy.apkg", "OUT/out.apkg", "--to", "apkg-modern"],
        "latest-to-legacy": ["convert", f"{deck}/latest.apkg", "OUT/out.apkg", "--to", "apkg"],
        "package-to-csv": ["convert", f"{deck}/latest.apkg", "OUT/out.csv"],
        "package-to-json": ["convert", f"{deck}/latest.apkg", "OUT/out.json"],
        "package-to-json-dir": ["convert", f"{deck}/latest.apkg", "OUT/out", "--to", "json-dir"],
        "json-to-package": ["convert", f"{work}/deck.json", "OUT/out.apkg", "--to", "apkg-modern"],
        "inspect": ["inspect", f"{deck}/latest.apkg"],
    }


def left_behind(folder: str) -> list[str]:
    """Everything below `folder` but the empty `tmp` folder."""
    found = []
    for base, folders, files in os.walk(folder):
        for name in folders + files:
            path = os.path.join(base, name)
            if path != os.path.join(folder, "tmp"):
                found.append(os.path.relpath(path, folder))
    return sorted(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deck", default="huge", help="large or huge (default: huge)")
    parser.add_argument("--delays", default="0.1,0.4,0.8", help="seconds after the start, comma-separated")
    parser.add_argument("--deckport", default=os.path.join(ROOT, ".build", "release", "deckport"))
    arguments = parser.parse_args()

    deck = os.path.join(ROOT, ".build-bench", arguments.deck)
    if not os.path.isfile(os.path.join(deck, "latest.apkg")):
        print(f"no deck in {deck}: run scripts/benchmark.py --generate-only first", file=sys.stderr)
        return 1
    delays = [float(value) for value in arguments.delays.split(",")]
    work = tempfile.mkdtemp(prefix="interruption-", dir=os.path.join(ROOT, ".build-bench"))
    try:
        subprocess.run(
            [arguments.deckport, "convert", f"{deck}/latest.apkg", f"{work}/deck.json"], check=True,
            capture_output=True)
        print(f"| task ({arguments.deck} deck) | SIGINT after | stopped within | exit status | left behind |")
        print("|---|---:|---:|---:|---|")
        failures = 0
        for name, command in tasks(deck, work).items():
            for delay in delays:
                folder = os.path.join(work, "run")
                shutil.rmtree(folder, ignore_errors=True)
                os.makedirs(os.path.join(folder, "tmp"))
                process = subprocess.Popen(
                    [arguments.deckport, *[part.replace("OUT", folder) for part in command]],
                    env=dict(os.environ, TMPDIR=os.path.join(folder, "tmp")), stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL)
                time.sleep(delay)
                sent = time.perf_counter()
                process.send_signal(signal.SIGINT)
                status = process.wait()
                stopped = time.perf_counter() - sent
                left = left_behind(folder)
                finished = status == 0
                if finished:
                    # It had finished: its output is what is left, and it is complete.
                    left = [path for path in left if not path.startswith("out")]
                if left or status not in (0, 130):
                    failures += 1
                shown = "(had finished)" if finished else f"{stopped * 1000:.0f} ms"
                print(f"| {name} | {delay:.2f} s | {shown} | {status} | {', '.join(left) or 'nothing'} |")
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
