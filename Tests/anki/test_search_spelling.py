r"""`--only-deck` and `--only-tag` find a deck or a tag by the spelling Anki holds, as its search
`deck:TEXT` / `tag:TEXT` does, judged by the real backend.

Anki's import of a deck package stores deck names and tags in its own spelling (levels trimmed,
NFC, `blank` for an empty level); its restore of a collection package keeps the tags as the file
spells them, and the deck names too when the package is of the latest layout (an older one's are
stored so by the upgrade Anki opens it with). Its search normalises only its own text: every
white space character becomes a space, each level of a deck name is trimmed. So `deck:Outer`
finds no deck restored as ` Outer `, and `tag:a::blank::b` no tag restored as `a::::b`.

The packages are made here by the backend, then their deck names and tags rewritten by SQL in a
copy (independently of deckport's code). For each search the backend restores the package and
searches it; deckport must keep exactly the notes it finds (and fail, writing nothing, when it
finds none), and, where it finds some, write what Anki's own export of them holds.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zipfile

import pytest
from anki.collection import Collection, NoteIdsLimit
from anki.decks import DeckId

from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from test_only_deck import anki_export, anki_quoted, assert_same_as_anki, ours, restored  # noqa: E402
from test_only_tag import untidy_tags  # noqa: E402,F401  (a fixture)

# (deck name as stored, in Anki's native form with U+001F between levels; the note's tags as
# stored in `notes.tags`)
STORED = [
    ("Sp \x1f Verbs", " Tag::::X "),
    (" Outer ", " NFDe\u0301 "),
    ("In  ner", " ::lead "),
    ("a\u3000b", " x "),
    ("   ", " y "),
    ("Z\x1f  \x1fY", " y "),
    ("NFDe\u0301", " y "),
]


def unicase(a: str, b: str) -> int:
    a, b = a.casefold(), b.casefold()
    return (a > b) - (a < b)


def made(folder, legacy: bool) -> str:
    """A collection package the backend wrote of a note in each deck of STORED, whose names and
    tags are then set as STORED says: in the live collection before a latest-layout export, in
    the schema-11 `col.decks` of a legacy export."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "collection.anki2")
    col = Collection(path)
    model = col.models.by_name("Basic")
    ids = []
    for index in range(len(STORED)):
        deck_id = col.decks.id(f"D{index}")
        note = col.new_note(model)
        note["Front"], note["Back"] = f"note {index}", "back"
        col.add_note(note, DeckId(deck_id))
        ids.append((deck_id, note.id))
    out = os.path.join(folder, "legacy.colpkg" if legacy else "latest.colpkg")
    if legacy:
        col.export_collection_package(out, include_media=True, legacy=True)
        col.close()
        scratch = os.path.join(folder, "extracted")
        with zipfile.ZipFile(out) as archive:
            archive.extractall(scratch)
            names = archive.namelist()
        database = sqlite3.connect(os.path.join(scratch, "collection.anki21"))
        decks = json.loads(database.execute("SELECT decks FROM col").fetchone()[0])
        for (deck_id, note_id), (name, tags) in zip(ids, STORED):
            decks[str(deck_id)]["name"] = name.replace("\x1f", "::")
            database.execute("UPDATE notes SET tags = ? WHERE id = ?", (tags, note_id))
        database.execute("UPDATE col SET decks = ?", (json.dumps(decks),))
        database.commit()
        database.close()
        with zipfile.ZipFile(out, "w") as archive:
            for name in names:
                archive.write(os.path.join(scratch, name), name)
        return out
    col.close()
    database = sqlite3.connect(path)
    database.create_collation("unicase", unicase)
    for (deck_id, note_id), (name, tags) in zip(ids, STORED):
        database.execute("UPDATE decks SET name = ? WHERE id = ?", (name, deck_id))
        database.execute("UPDATE notes SET tags = ? WHERE id = ?", (tags, note_id))
    database.commit()
    database.close()
    col = Collection(path)
    try:
        col.export_collection_package(out, include_media=True, legacy=False)
    finally:
        col.close()
    return out


@pytest.fixture(scope="module")
def latest(tmp_path_factory) -> str:
    return made(str(tmp_path_factory.mktemp("latest")), legacy=False)


@pytest.fixture(scope="module")
def legacy(tmp_path_factory) -> str:
    return made(str(tmp_path_factory.mktemp("legacy")), legacy=True)


def anki_finds(package: str, folder: str, search: str) -> list[str]:
    col = restored(package, folder)
    try:
        return sorted(col.get_note(nid).guid for nid in col.find_notes(search))
    finally:
        col.close()


def assert_as_anki(package: str, tmp_path, option: str, text: str) -> None:
    search = anki_quoted(("deck:" if option == "--only-deck" else "tag:") + text)
    found = anki_finds(package, str(tmp_path / "search"), search)
    result = deckport("convert", package, "-", "--to", "json", option, text)
    if not found:
        assert result.returncode == 1, f"Anki's {search} finds nothing; deckport kept {result.stdout[:300]}"
        assert ("no deck" if option == "--only-deck" else "no note has the tag") in result.stderr, result.stderr
        out = str(tmp_path / "none.apkg")
        assert deckport("convert", package, out, option, text).returncode == 1 and not os.path.exists(out)
        return
    assert result.returncode == 0, result.stderr
    assert sorted(note["guid"] for note in json.loads(result.stdout)["notes"]) == found, search
    anki = anki_export(package, str(tmp_path / "anki"), lambda col: NoteIdsLimit(list(col.find_notes(search))))
    os.makedirs(tmp_path / "ours")
    if option == "--only-deck":
        made_by_us = ours(package, str(tmp_path / "ours"), text)
    else:
        made_by_us = ours(package, str(tmp_path / "ours"), tags=(text,))
    assert_same_as_anki(anki, made_by_us)


DECK_SEARCHES = [
    "Sp::Verbs", "Sp :: Verbs", "Sp*", "Outer", " Outer ", "*Outer*", "In  ner", "In ner", "a\u3000b", "a b",
    "blank", "   ", "\t", "Z", "Z::blank::Y", "Z::  ::Y", "NFD\u00e9", "NFDe\u0301",
]
TAG_SEARCHES = ["Tag::::X", "Tag::blank::X", "Tag", "NFD\u00e9", "NFDe\u0301", "NFD*", "::lead", "blank::lead", "blank"]


@pytest.mark.parametrize("text", DECK_SEARCHES, ids=repr)
def test_a_deck_of_a_latest_collection_package_is_found_by_the_name_it_holds(latest, tmp_path, text):
    assert_as_anki(latest, tmp_path, "--only-deck", text)


@pytest.mark.parametrize("text", DECK_SEARCHES, ids=repr)
def test_a_deck_of_a_legacy_collection_package_is_found_by_the_name_its_upgrade_stores(legacy, tmp_path, text):
    assert_as_anki(legacy, tmp_path, "--only-deck", text)


@pytest.mark.parametrize("text", TAG_SEARCHES, ids=repr)
@pytest.mark.parametrize("kind", ["latest", "legacy"])
def test_a_tag_of_a_collection_package_is_found_only_as_it_is_spelled(latest, legacy, tmp_path, kind, text):
    assert_as_anki(latest if kind == "latest" else legacy, tmp_path, "--only-tag", text)


@pytest.mark.parametrize("text", ["a::::b", "a::blank::b", "::lead", "blank::lead"])
def test_a_tag_of_a_deck_package_is_found_only_as_anki_stores_it(untidy_tags, tmp_path, text):  # noqa: F811
    assert_as_anki(untidy_tags, tmp_path, "--only-tag", text)
