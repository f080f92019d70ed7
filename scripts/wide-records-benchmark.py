#!/usr/bin/env python3
"""Measure how deckport's app storage handles records of many keys.

    scripts/wide-records-benchmark.py .build/release/deckport
    scripts/wide-records-benchmark.py /tmp/old/deckport .build/release/deckport --keys 2000,20000

For each key count it writes, with Python's json module, a JSON file of --records records of
that many keys (values `N-I`), and times each binary on:

* file -> deck: `deckport convert wide.json deck.json --to json`;
* deck -> new file: `deckport convert deck.json new.json --to app-json`;
* deck -> same file: the same into the file the deck came from (every record matched, compared,
  unchanged);
* deck -> SQLite and SQLite -> deck, for key counts SQLite can hold (at most 1,998 keys: it
  allows 2,000 columns, and deckport's schema takes two).

It prints the median wall time and the peak resident set size (wait4) of --repeats runs.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def measure(command, timeout):
    """Runs `command`; returns (seconds, peak RSS in MB), or None when it ran past `timeout`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while True:
        finished, status, usage = os.wait4(process.pid, os.WNOHANG)
        if finished:
            break
        if time.perf_counter() - start > timeout:
            process.kill()
            process.wait()
            return None
        time.sleep(0.01)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="deckport binaries to compare")
    parser.add_argument("--keys", default="20,1900,20000", help="comma-separated key counts (default 20,1900,20000)")
    parser.add_argument("--records", type=int, default=50, help="records per file (default 50)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per task; medians are printed")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before a run counts as too slow")
    arguments = parser.parse_args()
    print(f"{arguments.records} records per file; medians of {arguments.repeats} runs")
    print("| binary | keys | task | wall s | peak RSS MB |")
    print("|---|---:|---|---:|---:|")
    for count in [int(text) for text in arguments.keys.split(",")]:
        with tempfile.TemporaryDirectory(prefix="deckport-wide-") as folder:
            source = os.path.join(folder, "wide.json")
            with open(source, "w", encoding="utf-8") as handle:
                json.dump([{f"key {index}": f"{number}-{index}" for index in range(count)}
                           for number in range(arguments.records)], handle)
            for binary in arguments.binaries:
                deck = os.path.join(folder, "deck.json")
                store = os.path.join(folder, "wide.sqlite")
                tasks = [
                    ("file -> deck", [binary, "convert", source, deck, "--to", "json", "--force"]),
                    ("deck -> new file", [binary, "convert", deck, os.path.join(folder, "new.json"), "--to",
                                          "app-json", "--force"]),
                    ("deck -> same file", [binary, "convert", deck, source, "--force"]),
                ]
                if count <= 1998:
                    tasks += [
                        ("deck -> SQLite", [binary, "convert", deck, store, "--force"]),
                        ("SQLite -> deck", [binary, "convert", store, os.path.join(folder, "back.json"), "--to",
                                            "json", "--force"]),
                    ]
                for task, command in tasks:
                    runs = []
                    for _ in range(arguments.repeats):
                        fresh = {"deck -> new file": os.path.join(folder, "new.json"), "deck -> SQLite": store}
                        if task in fresh and os.path.exists(fresh[task]):
                            os.remove(fresh[task])  # a new file each time
                        run = measure(command, arguments.timeout)
                        if run is None:
                            break
                        runs.append(run)
                    if len(runs) < arguments.repeats:
                        print(f"| {binary} | {count:,} | {task} | > {arguments.timeout:.0f} | |", flush=True)
                        if task == "file -> deck":
                            break  # the other tasks need the deck
                        continue
                    median = [sorted(values)[len(values) // 2] for values in zip(*runs)]
                    print(f"| {binary} | {count:,} | {task} | {median[0]:.2f} | {median[1]:.0f} |", flush=True)


if __name__ == "__main__":
    main()
