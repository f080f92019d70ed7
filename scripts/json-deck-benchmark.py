#!/usr/bin/env python3
"""Time deckport reading and writing a large deckport JSON deck, to judge the JSON fast paths.

    scripts/json-deck-benchmark.py .build/release/deckport            # one binary
    scripts/json-deck-benchmark.py /tmp/with-fast-path /tmp/without   # two builds side by side

The deck is made from fixtures/anki/latest_sched.apkg: its notes, cards and reviews repeated
(40,000 notes, 66,666 cards, 35,554 reviews, about 51 MB; no media) and cached under
.build-bench/json/. Each task runs --repeats times per binary; the best wall time is printed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "fixtures", "anki", "latest_sched.apkg")
CACHE = os.path.join(ROOT, ".build-bench", "json")


def make_deck(deckport, notes):
    """The big deck's path, made (with `deckport`) when not cached."""
    path = os.path.join(CACHE, f"big-{notes}.json")
    if os.path.exists(path):
        return path
    os.makedirs(CACHE, exist_ok=True)
    small = os.path.join(CACHE, "small.json")
    subprocess.run([deckport, "convert", FIXTURE, small], check=True, capture_output=True)
    with open(small, encoding="utf-8") as handle:
        deck = json.load(handle)
    base = 10**12
    new_notes, new_cards, new_reviews = [], [], []
    for index in range(notes):
        note = dict(deck["notes"][index % len(deck["notes"])])
        old_id, note_id = note["id"], base + index
        note.update(id=note_id, guid=f"g{index:09d}")
        note["fields"] = {name: f"{value} #{index}" for name, value in note["fields"].items()}
        new_notes.append(note)
        for card in (c for c in deck["cards"] if c["note"] == old_id):
            copy = json.loads(json.dumps(card))
            copy.update(id=base + len(new_cards), note=note_id)
            new_cards.append(copy)
            for review in (r for r in deck["reviews"] if r["card"] == card["id"]):
                new_reviews.append(dict(review, id=2 * base + len(new_reviews), card=copy["id"]))
    deck.update(notes=new_notes, cards=new_cards, reviews=new_reviews, media=[])
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(deck, handle, indent=2, ensure_ascii=False)
    return path


def best_time(command, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("deckport", nargs="+", help="deckport binaries to compare")
    parser.add_argument("--notes", type=int, default=40000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    deck = make_deck(args.deckport[0], args.notes)
    with tempfile.TemporaryDirectory() as scratch:
        tasks = {
            "json -> json": ["convert", "--force", deck, os.path.join(scratch, "out.json")],
            "json -> apkg": ["convert", "--force", deck, os.path.join(scratch, "out.apkg")],
        }
        for name, arguments in tasks.items():
            for binary in args.deckport:
                seconds = best_time([binary, *arguments], args.repeats)
                print(f"{name:14} {seconds:7.2f} s  {binary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
