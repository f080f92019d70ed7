"""A sheet's schedule columns keep what they can hold, and the warning counts exactly the cards
whose state Anki sees change after the round trip, naming the first.

With FSRS on, Anki's "Set due date" on a new card makes a card under review with interval 0;
deckport wrote its row with empty schedule columns, so it came back new, and the warning counted
it with reasons that did not apply and never named it. The warning also missed cards that change
without a schedule of their own (a new card given its note's first card's schedule, a buried card
that comes back unburied). The real backend imports the original and the round trip, aligned to
the same day, and compares each card's state."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

import pytest

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from anki_view import _align_days, _neutralise_notetypes, _package_timing
from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

COLUMNS = "guid,notetype,deck,front,back,due,interval,ease,reviews,lapses,suspended"

# Cards in the states a sheet can and cannot hold, made by the backend.
MAKE = """
import os, sys, tempfile
from anki.collection import Collection, ExportAnkiPackageOptions
with tempfile.TemporaryDirectory() as tmp:
    col = Collection(os.path.join(tmp, "collection.anki2"))
    col.set_config("fsrs", True)
    basic = col.models.by_name("Basic"); both = col.models.by_name("Basic (and reversed card)")
    deck = col.decks.id("Deck")
    def add(model, front):
        note = col.new_note(model); note["Front"] = front; note["Back"] = "b"; col.add_note(note, deck)
        return note.card_ids()
    set_due = add(basic, "set due under FSRS")[0]
    col.sched.set_due_date([set_due], "15")
    reviewed, sibling = add(both, "first reviewed, second new")
    col.sched.set_due_date([reviewed], "7")
    buried = add(basic, "buried")[0]
    col.sched.set_due_date([buried], "4")
    col.sched.bury_cards([buried], manual=False)
    flagged = add(basic, "flagged")[0]
    col.set_user_flag_for_cards(2, [flagged])
    suspended = add(basic, "suspended review")[0]
    col.sched.set_due_date([suspended], "9")
    col.sched.suspend_cards([suspended])
    add(basic, "plain new")
    col.close(); col.reopen()
    col.export_anki_package(out_path=sys.argv[1], limit=None, options=ExportAnkiPackageOptions(
        with_scheduling=True, with_deck_configs=True, with_media=True, legacy=True))
"""

STATE = ("type", "queue", "ivl", "factor", "reps", "lapses", "left", "flags")


def cards_seen_by_anki(package: str, aligned_to: str) -> dict[tuple[str, int], dict]:
    """Each card's state after the backend's import of `package`, days aligned with `aligned_to`."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "target"))
        os.makedirs(os.path.join(tmp, "scratch"))
        col = Collection(os.path.join(tmp, "target", "collection.anki2"))
        try:
            crt, days = _package_timing(aligned_to, os.path.join(tmp, "scratch"))
            _neutralise_notetypes(col)
            _align_days(col, crt, days)
            col.import_anki_package(ImportAnkiPackageRequest(
                package_path=os.path.abspath(package),
                options=ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True)))
            rows = col.db.all(
                "select n.guid, n.flds, c.ord, c.type, c.queue, c.ivl, c.factor, c.reps, c.lapses, c.left,"
                " c.flags, c.due, c.odid from cards c join notes n on n.id = c.nid")
        finally:
            col.close()
    return {
        (guid, ordinal): dict(zip(STATE, state), front=fields.split("\x1f")[0], due=due, odid=odid)
        for guid, fields, ordinal, *state, due, odid in rows
    }


def changed_cards(before: dict, after: dict) -> list[tuple[str, int]]:
    changed = []
    for key, card in before.items():
        back = after[key]
        if (
            any(card[part] != back[part] for part in STATE)
            or (card["type"] != 0 and card["due"] != back["due"])
            or card["odid"]
        ):
            changed.append(key)
    return sorted(changed)


def test_the_warning_counts_and_names_exactly_the_cards_anki_sees_change(tmp_path):
    original = str(tmp_path / "deck.apkg")
    made = subprocess.run([sys.executable, "-c", MAKE, original], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    sheet, back = str(tmp_path / "deck.csv"), str(tmp_path / "back.apkg")
    written = subprocess.run(
        [DECKPORT, "convert", original, sheet, "--header", "--columns", COLUMNS],
        capture_output=True, text=True, timeout=300)
    assert written.returncode == 0, written.stderr
    read = subprocess.run([DECKPORT, "convert", sheet, back, "--header"], capture_output=True, text=True, timeout=300)
    assert read.returncode == 0, read.stderr

    before, after = cards_seen_by_anki(original, original), cards_seen_by_anki(back, original)
    by_front = {card["front"]: (key, card) for key, card in before.items() if key[1] == 0}

    # The set-due card under FSRS (interval 0) is still under review, due the same day.
    key, card = by_front["set due under FSRS"]
    assert (card["type"], card["ivl"]) == (2, 0)
    assert {part: after[key][part] for part in ("type", "queue", "ivl", "due")} == {
        part: card[part] for part in ("type", "queue", "ivl", "due")}

    changed = changed_cards(before, after)
    fronts = sorted(before[key]["front"] + f"#{key[1] + 1}" for key in changed)
    # The buried card comes back unburied, the flag is lost, and the reversed card takes the
    # reviewed card's schedule; nothing else changes.
    assert fronts == ["buried#1", "first reviewed, second new#2", "flagged#1"]

    match = re.search(r"the scheduling of (\d+) of (\d+) cards is not kept \(([^)]*)\)", written.stderr)
    assert match, written.stderr
    assert (int(match.group(1)), int(match.group(2))) == (len(changed), len(before))
    assert {reason for reason in ("burying", "flags", "a note's other cards") if reason in match.group(3)} == {
        "burying", "flags", "a note's other cards"}
    assert "learning steps" not in match.group(3) and "filtered decks" not in match.group(3)
    named = re.search(r"the first is card \d+ \(note GUID '([^']*)', card (\d+) of its note\)", written.stderr)
    assert named, written.stderr
    assert (named.group(1), int(named.group(2)) - 1) in changed
