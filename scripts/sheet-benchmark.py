#!/usr/bin/env python3
"""Measure how deckport's spreadsheet reading and writing grow with the rows.

    scripts/sheet-benchmark.py .build/release/deckport
    scripts/sheet-benchmark.py /tmp/old/deckport .build/release/deckport --rows 1000,5000,20000

For each row count it writes, with Python, a sheet of that many rows under review (`front`,
`back`, `due`, `interval`, `ease`, `reviews`, `lapses`, `suspended` columns, due dates spread over
300 days) and times each binary on:

* sheet -> deck, distinct: the rows' first cells all differ (`word 1`, `word 2`, …);
* sheet -> deck, one first cell: every row's first cell is the same word, so every note shares
  its identity and takes the next GUID of one sequence (this grew with the square of the rows
  before `DerivedNoteGUIDs`);
* deck -> sheet with schedules: the deck the distinct sheet became, written back as a sheet with
  the scheduling columns (each row's due day named in the sheet's time zone).

It prints the median wall time and the peak resident set size (wait4) of --repeats runs; a run
past --timeout is printed as such and the larger counts of that task are skipped.
"""

import argparse
import datetime
import importlib
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
measure = importlib.import_module("wide-records-benchmark").measure

COLUMNS = "front,back,due,interval,ease,reviews,lapses,suspended"


def write_sheet(path: str, rows: int, same_first_cell: bool) -> None:
    start = datetime.date(2027, 1, 1)
    with open(path, "w", encoding="utf-8") as handle:
        for index in range(rows):
            front = "chat" if same_first_cell else f"word {index + 1}"
            due = start + datetime.timedelta(days=index % 300)
            handle.write(f"{front},back {index + 1},{due.isoformat()},10,2.5,3,0,\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="deckport binaries to compare")
    parser.add_argument("--rows", default="1000,5000,20000,100000", help="comma-separated row counts")
    parser.add_argument("--repeats", type=int, default=3, help="runs per task; medians are printed")
    parser.add_argument("--timeout", type=float, default=120, help="seconds before a run counts as too slow")
    arguments = parser.parse_args()
    print(f"medians of {arguments.repeats} runs; release builds")
    print("| binary | rows | task | wall s | peak RSS MB |")
    print("|---|---:|---|---:|---:|")
    too_slow: set[tuple[str, str]] = set()
    for rows in [int(text) for text in arguments.rows.split(",")]:
        with tempfile.TemporaryDirectory(prefix="deckport-sheet-") as folder:
            distinct = os.path.join(folder, "distinct.csv")
            same = os.path.join(folder, "same.csv")
            write_sheet(distinct, rows, same_first_cell=False)
            write_sheet(same, rows, same_first_cell=True)
            for binary in arguments.binaries:
                deck = os.path.join(folder, "deck.json")
                tasks = [
                    ("sheet -> deck, distinct", [binary, "convert", distinct, deck, "--columns", COLUMNS]),
                    ("sheet -> deck, one first cell", [binary, "convert", same, deck + ".same", "--to", "json",
                                                       "--columns", COLUMNS]),
                    ("deck -> sheet with schedules", [binary, "convert", deck, os.path.join(folder, "back.csv"),
                                                      "--columns", COLUMNS]),
                ]
                for name, command in tasks:
                    if (binary, name) in too_slow:
                        print(f"| {binary} | {rows:,} | {name} | skipped | |")
                        continue
                    runs = []
                    for _ in range(arguments.repeats):
                        result = measure(command + ["--force", "-q"], arguments.timeout)
                        if result is None:
                            break
                        runs.append(result)
                    if len(runs) < arguments.repeats:
                        too_slow.add((binary, name))
                        print(f"| {binary} | {rows:,} | {name} | over {arguments.timeout:.0f} | |")
                        continue
                    seconds = statistics.median(run[0] for run in runs)
                    memory = statistics.median(run[1] for run in runs)
                    print(f"| {binary} | {rows:,} | {name} | {seconds:.2f} | {memory:.0f} |", flush=True)


if __name__ == "__main__":
    main()
