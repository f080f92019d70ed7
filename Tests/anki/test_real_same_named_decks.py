"""A real package whose two decks share a name (`fixtures/real/unstable`).

`2anki-csv-to-apkg-legacy1.apkg` was made by 2anki from genanki's template collection: deck 1
"Default" (empty) and deck 4852774000898560, also "Default", which holds the three cards. The
real Anki backend's import of it is not the same twice: it matches decks by name and keeps
whichever of the two it meets first, so the cards land in `Default` on some imports and in a new
deck `Default_` on others (seen here: six imports gave both). It therefore has no truth file and
stays out of `fixtures/real/`, whose packages every check compares with one.

Until session 56 deckport refused to write any Anki package from it ("Anki would rename one of
them"). Now its writers make the two decks one, with a `[decks-merged]` warning, and the
backend's import of what deckport writes is the same every time: the three notes, their cards
in deck 1 `Default`, no other deck. What the package holds is read with Python's `sqlite3`, not
through deckport's reader.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import tempfile
import zipfile

import pytest
from anki.collection import Collection, ImportAnkiPackageRequest

from conftest import REAL_DIR
from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

SAME_NAMED = os.path.join(REAL_DIR, "unstable", "2anki-csv-to-apkg-legacy1.apkg")


def package_decks_and_notes(package: str) -> tuple[dict[int, str], dict[str, list[str]], dict[int, int]]:
    """The package's decks (id → name), notes (GUID → fields) and cards per deck id."""
    with zipfile.ZipFile(package) as archive, tempfile.TemporaryDirectory() as scratch:
        archive.extract("collection.anki2", scratch)
        with sqlite3.connect(os.path.join(scratch, "collection.anki2")) as db:
            decks = {int(key): deck["name"] for key, deck in json.loads(db.execute("select decks from col").fetchone()[0]).items()}
            notes = {guid: fields.split("\x1f") for guid, fields in db.execute("select guid, flds from notes")}
            cards = dict(db.execute("select did, count() from cards group by did").fetchall())
    return decks, notes, cards


def anki_import(package: str) -> tuple[set[str], dict[str, list[str]], dict[str, int]]:
    """The deck names, notes (GUID → fields) and cards per deck name of a fresh collection that
    imported `package`."""
    with tempfile.TemporaryDirectory() as scratch:
        col = Collection(os.path.join(scratch, "collection.anki2"))
        try:
            col.import_anki_package(ImportAnkiPackageRequest(package_path=os.path.abspath(package)))
            names = {deck.id: deck.name for deck in col.decks.all_names_and_ids()}
            notes = {note.guid: list(note.fields) for note in map(col.get_note, col.find_notes(""))}
            cards = {names[did]: count for did, count in col.db.all("select did, count() from cards group by did")}
            return set(names.values()), notes, cards
        finally:
            col.close()


def test_the_fixture_has_two_decks_of_one_name():
    decks, notes, cards = package_decks_and_notes(SAME_NAMED)
    assert decks == {1: "Default", 4852774000898560: "Default"}
    assert len(notes) == 3 and cards == {4852774000898560: 3}


@pytest.mark.parametrize("target", ["out.apkg", "out.colpkg"])
def test_written_as_one_deck_that_anki_imports_the_same_every_time(tmp_path, target):
    _, notes, _ = package_decks_and_notes(SAME_NAMED)
    out = str(tmp_path / target)
    run = subprocess.run([DECKPORT, "convert", SAME_NAMED, out], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert (
        "deck 'Default' (id 4852774000898560): warning: [decks-merged] deck 1 has the same name" in run.stderr
        and "they are written as one deck, id 1, which holds this deck's 3 cards" in run.stderr
    ), run.stderr
    if target.endswith(".apkg"):
        # Several imports, since the backend's import of the original differs between them.
        for _ in range(4):
            assert anki_import(out) == ({"Default"}, notes, {"Default": 3})
    strict = subprocess.run(
        [DECKPORT, "convert", SAME_NAMED, str(tmp_path / ("strict-" + target)), "--strict"],
        capture_output=True, text=True, timeout=600,
    )
    assert strict.returncode == 1 and not os.path.exists(tmp_path / ("strict-" + target))


def test_a_crowdanki_folder_holds_one_deck_not_one_inside_the_other(tmp_path):
    folder = tmp_path / "folder"
    run = subprocess.run(
        [DECKPORT, "convert", SAME_NAMED, str(folder), "--to", "crowdanki"], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    assert "[decks-merged]" in run.stderr
    with open(folder / "deck.json", encoding="utf-8") as handle:
        root = json.load(handle)
    assert root["name"] == "Default" and root["children"] == [] and len(root["notes"]) == 3


def test_settings_that_name_the_merged_deck_name_the_kept_one_in_the_restored_collection(tmp_path):
    """The deck selected, the decks studied and a note type's last deck name deck 4852774000898560
    in the source; the collection Anki restores from deckport's package names deck 1 instead
    (before, the writer dropped them, and Anki's defaults took their place)."""
    document = tmp_path / "deck.json"
    run = subprocess.run([DECKPORT, "convert", SAME_NAMED, str(document)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    with open(document, encoding="utf-8") as handle:
        deck = json.load(handle)
    merged = "4852774000898560"
    note_type = deck["noteTypes"][0]
    note_type["ankiProperties"]["did"] = merged
    settings = {
        "activeDecks": f"[{merged}]",
        "curDeck": merged,
        f"_nt_{note_type['id']}_lastDeck": merged,
    }
    media = deck.pop("media")
    deck["settings"], deck["media"] = settings, media
    with open(document, "w", encoding="utf-8") as handle:
        json.dump(deck, handle)
    package = str(tmp_path / "out.colpkg")
    run = subprocess.run([DECKPORT, "convert", str(document), package], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "[decks-merged]" in run.stderr
    with tempfile.TemporaryDirectory() as scratch:
        col = Collection(os.path.join(scratch, "collection.anki2"))
        try:
            col.close()
            col._backend.import_collection_package(
                col_path=os.path.join(scratch, "collection.anki2"), backup_path=package,
                media_folder=os.path.join(scratch, "media"), media_db=os.path.join(scratch, "media.db"),
            )
            col.reopen()
            assert col.get_config("curDeck") == 1
            assert col.get_config("activeDecks") == [1]
            assert col.get_config(f"_nt_{note_type['id']}_lastDeck") == 1
            assert col.models.get(note_type["id"])["did"] == 1
            assert {deck.name for deck in col.decks.all_names_and_ids()} == {"Default"}
        finally:
            col.close()
