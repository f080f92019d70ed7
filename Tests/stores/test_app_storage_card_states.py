"""Cards never studied that are suspended, buried or flagged, or in an order of their own, written
as app storage.

App records hold a note's values and nothing of its cards: a deck made from them has only
active, unflagged new cards. A black-box hunt found these three states lost without a word (the
`scheduling-dropped` warning counted only studied cards), so a suspended card came back into the
study queue. Here the real Anki backend makes the package and says which card is which;
Python's own readers (json, plistlib, sqlite3) show the records hold no place for the states;
the backend's import of the package made back from the records shows they are indeed lost; and
every card's loss must be named in a warning, so that --strict refuses the conversion. The same
for new cards Anki shows in another order than their notes' (its "Reposition"): the backend's
scheduler shows them, made back from the records, in the records' order.
No deckport code takes part in any judgement.
"""

from __future__ import annotations

import json
import os
import plistlib
import re
import sqlite3
import subprocess

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions, ImportAnkiPackageOptions, ImportAnkiPackageRequest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DECKPORT = os.environ.get("DECKPORT_BIN", os.path.join(ROOT, ".build", "debug", "deckport"))

if not os.path.exists(DECKPORT):
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


def deckport(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, *arguments], capture_output=True, text=True)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """A Basic deck made by the backend: four new cards, plain, flagged red, suspended and buried
    by the user. Returns the package's path and, by state, the (card id, note id) the backend
    gave the card."""
    folder = tmp_path_factory.mktemp("states")
    col = Collection(str(folder / "collection.anki2"))
    try:
        basic = col.models.by_name("Basic")
        ids = []
        for index in range(4):
            note = col.new_note(basic)
            note["Front"], note["Back"] = f"q{index}", f"a{index}"
            col.add_note(note, col.decks.id("Default"))
            ids.append((note.card_ids()[0], note.id))
        col.set_user_flag_for_cards(1, [ids[1][0]])
        col.sched.suspend_cards([ids[2][0]])
        col.sched.bury_cards([ids[3][0]], manual=True)
        rows = {card: (card_type, queue, flags) for card, card_type, queue, flags in col.db.all("select id, type, queue, flags from cards")}
        assert rows == {ids[0][0]: (0, 0, 0), ids[1][0]: (0, 0, 1), ids[2][0]: (0, -1, 0), ids[3][0]: (0, -3, 0)}
        path = str(folder / "states.apkg")
        col.export_anki_package(
            out_path=path,
            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=False, with_media=True, legacy=True),
            limit=None,
        )
    finally:
        col.close()
    return path, {"plain": ids[0], "flag 1": ids[1], "suspended": ids[2], "buried by the user": ids[3]}


def records(path: str, kind: str) -> list[dict]:
    """The records a file holds, as Python's own readers see them."""
    if kind == "sqlite":
        connection = sqlite3.connect(path)
        try:
            connection.row_factory = sqlite3.Row
            # deckport's schema lists the table of each record type.
            ((table,),) = connection.execute("select table_name from deckport_record_types").fetchall()
            return [dict(row) for row in connection.execute(f'select * from "{table}"')]
        finally:
            connection.close()
    with open(path, "rb") as handle:
        if kind == "plist":
            (held,) = plistlib.load(handle).values()
            return json.loads(held) if isinstance(held, (bytes, str)) else held
        return json.load(handle)


def scheduling_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if "[scheduling-dropped]" in line]
    assert len(lines) == 1, stderr
    return lines[0]


def imported_back(destination: str, folder) -> Collection:
    """A new collection of the backend's into which it imported the package deckport made back from
    the records in `destination` (with scheduling); the caller closes it."""
    back = str(folder / "back.apkg")
    made = deckport("convert", destination, back)
    assert made.returncode == 0, made.stderr
    col = Collection(str(folder / "judge.anki2"))
    try:
        col.import_anki_package(
            ImportAnkiPackageRequest(package_path=back, options=ImportAnkiPackageOptions(with_scheduling=True))
        )
    except BaseException:
        col.close()
        raise
    return col


DESTINATIONS = [
    pytest.param("cards.json", "json", ["--to", "app-json"], id="app JSON, generic"),
    pytest.param("flashzilla.json", "json", ["--to", "app-json", "--profile", "flashzilla"], id="app JSON, Flashzilla"),
    pytest.param("cards.sqlite", "sqlite", ["--to", "sqlite"], id="SQLite"),
    pytest.param("cards.plist", "plist", ["--to", "plist"], id="plist"),
    pytest.param("flashzilla.plist", "plist", ["--to", "plist", "--profile", "flashzilla"], id="plist, Flashzilla"),
]


@pytest.mark.parametrize("name, kind, arguments", DESTINATIONS)
def test_suspended_flagged_and_buried_new_cards_are_named(tmp_path, package, name, kind, arguments):
    source, cards = package
    destination = str(tmp_path / name)
    run = deckport("convert", source, destination, *arguments)
    assert run.returncode == 0, run.stderr

    # The records are the four notes, and none has a key for a card's state.
    held = records(destination, kind)
    assert len(held) == 4
    for record in held:
        assert not [key for key in record if re.search(r"flag|suspend|bur(y|ied)|queue", key, re.IGNORECASE)], record

    # So every card that is more than a plain new card is named, with its state; the plain one is not.
    line = scheduling_line(run.stderr)
    assert "3 new cards are" in line, line
    for state, (card, note) in cards.items():
        named = f"card {card} of note {note}: {state}"
        assert (named in line) == (state != "plain"), (named, line)
    assert f"card {cards['plain'][0]} " not in line

    # The backend, importing the package made back from the records, sees only plain new cards:
    # the states are indeed lost, as the warning says.
    col = imported_back(destination, tmp_path)
    try:
        states = col.db.all("select type, queue, flags from cards")
    finally:
        col.close()
    assert sorted(states) == [[0, 0, 0]] * 4


@pytest.mark.parametrize("name, kind, arguments", DESTINATIONS)
def test_strict_refuses_the_conversion_naming_the_cards(tmp_path, package, name, kind, arguments):
    source, cards = package
    destination = str(tmp_path / name)
    run = deckport("convert", source, destination, "--strict", *arguments)
    assert run.returncode == 1, run.stderr
    line = scheduling_line(run.stderr)
    assert f"card {cards['suspended'][0]} of note {cards['suspended'][1]}: suspended" in line, line
    assert os.listdir(tmp_path) == []


@pytest.fixture(scope="module")
def ordered_packages(tmp_path_factory):
    """Two Basic decks made by the backend, four new cards each: one in the order its notes were
    added, and one whose cards Anki's "Reposition" put last note first. Returns, by deck, the
    package's path and the fronts in the order the backend's scheduler shows the new cards."""
    folder = tmp_path_factory.mktemp("order")
    made = {}
    for deck, repositioned in (("in order", False), ("repositioned", True)):
        col = Collection(str(folder / f"{deck}.anki2"))
        try:
            cards = []
            for index in range(4):
                note = col.new_note(col.models.by_name("Basic"))
                note["Front"], note["Back"] = f"q{index}", f"a{index}"
                col.add_note(note, col.decks.id("Default"))
                cards.append(note.card_ids()[0])
            if repositioned:
                col.sched.reposition_new_cards(
                    list(reversed(cards)), starting_from=0, step_size=1, randomize=False, shift_existing=False
                )
            path = str(folder / f"{deck}.apkg")
            col.export_anki_package(
                out_path=path,
                options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=False, with_media=True, legacy=True),
                limit=None,
            )
            made[deck] = (path, queued_fronts(col))
        finally:
            col.close()
    assert made["in order"][1] == ["q0", "q1", "q2", "q3"]
    assert made["repositioned"][1] == ["q3", "q2", "q1", "q0"]
    return made


def queued_fronts(col: Collection) -> list[str]:
    """The first field of each new card, in the order the backend's scheduler would show them
    (studying the one deck that holds the cards)."""
    (deck,) = col.db.list("select distinct did from cards")
    col.decks.select(deck)
    return [col.get_note(queued.card.note_id).fields[0] for queued in col.sched.get_queued_cards(fetch_limit=100).cards]


@pytest.mark.parametrize("name, kind, arguments", DESTINATIONS)
def test_a_new_card_order_the_records_lose_is_named(tmp_path, ordered_packages, name, kind, arguments):
    for deck, (source, shown) in ordered_packages.items():
        folder = tmp_path / deck
        folder.mkdir()
        destination = str(folder / name)
        run = deckport("convert", source, destination, *arguments)
        assert run.returncode == 0, run.stderr
        assert len(records(destination, kind)) == 4

        # The backend's scheduler, on the package made back from the records, shows the new cards
        # in the records' order: the notes' order, which is the deck's only where it kept them so.
        col = imported_back(destination, folder)
        try:
            shown_back = queued_fronts(col)
        finally:
            col.close()
        assert shown_back == ["q0", "q1", "q2", "q3"], (deck, shown_back)

        # So the warning says the order is lost exactly where the backend shows another order.
        if shown_back == shown:
            assert "order of" not in run.stderr, (deck, run.stderr)
        else:
            assert "the order of 4 new cards is not kept" in scheduling_line(run.stderr), (deck, run.stderr)
            strict = deckport("convert", source, str(folder / ("strict-" + name)), "--strict", *arguments)
            assert strict.returncode == 1, strict.stderr
            assert not os.path.exists(folder / ("strict-" + name))
