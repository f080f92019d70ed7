"""Helpers shared by the CSV checks against the real Anki backend (this module holds no tests;
its name keeps it with the other test_csv_* files)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest, ImportCsvRequest

from conftest import REPO

DECKPORT = os.environ.get("DECKPORT_BIN") or os.path.join(REPO, ".build", "debug", "deckport")


def deckport_exists() -> bool:
    return os.path.isfile(DECKPORT) and os.access(DECKPORT, os.X_OK)


def deckport(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, *args], capture_output=True, text=True, timeout=600)


def collection_with_note_types(folder: str, note_types: list[dict]) -> Collection:
    """A fresh collection whose only note types are `note_types` (as anki_view lists them:
    name, kind, fields, templates, css, sortField), so a CSV that names them by name imports
    into exactly those. The stock note types are removed first (one placeholder remains, which
    no note uses), so a package's own "Basic" or "Cloze" is the one the rows get."""
    from anki_view import _neutralise_notetypes

    os.makedirs(folder, exist_ok=True)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _neutralise_notetypes(col)
        for spec in note_types:
            model = col.models.new(spec["name"])
            if spec["kind"] == "cloze":
                model["type"] = 1
            for name in spec["fields"]:
                col.models.add_field(model, col.models.new_field(name))
            for template in spec["templates"]:
                entry = col.models.new_template(template["name"])
                entry["qfmt"] = template["qfmt"]
                entry["afmt"] = template["afmt"]
                col.models.add_template(model, entry)
            model["css"] = spec["css"]
            model["sortf"] = spec["sortField"]
            col.models.add(model)
    except BaseException:
        col.close()
        raise
    return col


def collection_holding_note_types_of(folder: str, package: str) -> Collection:
    """A fresh collection that holds the note types of `package` as Anki's import of it gives
    them (the stock ones removed first, as `anki_view` does), and none of its notes. Some note
    types only come into a collection this way: Anki's note type API refuses a template whose
    front names no field, and its package import takes one."""
    from anki_view import _neutralise_notetypes

    col = Collection(os.path.join(folder, "collection.anki2"))
    _neutralise_notetypes(col)
    import_package(col, package)
    col.remove_notes(list(col.find_notes("")))
    return col


def import_csv(col: Collection, path: str):
    """Anki's own CSV import of `path` into `col`, every choice left to the importer."""
    metadata = col.get_csv_metadata(os.path.abspath(path), None)
    return col.import_csv(ImportCsvRequest(path=os.path.abspath(path), metadata=metadata)).log


def import_package(col: Collection, path: str):
    """Anki's import of the package at `path` into `col`, with scheduling, as a user makes it."""
    request = ImportAnkiPackageRequest(
        package_path=os.path.abspath(path), options=ImportAnkiPackageOptions(with_scheduling=True)
    )
    return col.import_anki_package(request).log


def anki_reading(package: str) -> tuple[list[str], list[str]]:
    """The notes' fronts and the media files of a fresh collection the backend imported `package` into."""
    with tempfile.TemporaryDirectory() as scratch:
        col = Collection(os.path.join(scratch, "collection.anki2"))
        try:
            col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions()))
            return sorted(col.get_note(nid).fields[0] for nid in col.find_notes("")), sorted(os.listdir(col.media.dir()))
        finally:
            col.close()


@contextmanager
def imported_twice(folder: str, first: str, second: str) -> Iterator[tuple[Collection, object, object]]:
    """A new collection in `folder` into which the backend imported the package `first`, then
    `second`: yields it and the two imports' logs, and closes it after."""
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        first_log = import_package(col, first)
        yield col, first_log, import_package(col, second)
    finally:
        col.close()


def notes_by_guid(col: Collection) -> dict[str, dict]:
    """Every note of `col`: note type, fields, sorted tags, the decks of its cards, card ords."""
    out = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        cards = note.cards()
        out[note.guid] = {
            "noteType": note.note_type()["name"],
            "fields": list(note.fields),
            "tags": sorted(note.tags),
            "decks": sorted({col.decks.name(c.did) for c in cards}),
            "cards": sorted(c.ord for c in cards),
        }
    return out


def view_notes_by_guid(view: dict) -> dict[str, dict]:
    """anki_view's notes in the same shape, decks from its cards (a card in a filtered deck
    counts under its home deck, but in `firstCardDeck`)."""
    decks: dict[str, set] = {}
    ords: dict[str, list] = {}
    first_deck: dict[str, tuple[int, str]] = {}
    first_card_deck: dict[str, tuple[int, str]] = {}
    for card in view["cards"]:
        guid = card["noteGuid"]
        deck = card["odeck"] or card["deck"]
        decks.setdefault(guid, set()).add(deck)
        ords.setdefault(guid, []).append(card["ord"])
        if guid not in first_deck or card["ord"] < first_deck[guid][0]:
            first_deck[guid] = (card["ord"], deck)
            first_card_deck[guid] = (card["ord"], card["deck"])
    return {
        note["guid"]: {
            "noteType": note["noteType"],
            "fields": note["fields"],
            "tags": sorted(note["tags"]),
            "decks": sorted(decks.get(note["guid"], set())),
            "firstDeck": first_deck.get(note["guid"], (0, None))[1],
            # The deck the first card is in now: a filtered deck rather than its home deck.
            "firstCardDeck": first_card_deck.get(note["guid"], (0, None))[1],
            "cards": sorted(ords.get(note["guid"], [])),
        }
        for note in view["notes"]
    }


_STYLE = re.compile(r"<style>.*?</style>", re.IGNORECASE | re.DOTALL)
_TYPE = re.compile(r"\[\[type:[^]]+\]\]", re.IGNORECASE | re.DOTALL)


def as_anki_exports(field: str) -> str:
    """A field as Anki's note export writes it with HTML: `<style>` blocks and `[[type:…]]`
    removed (rslib/src/import_export/text/csv/export.rs strip_redundant_sections)."""
    return _TYPE.sub("", _STYLE.sub("", field))


def without_trailing_empty(fields: list[str]) -> list[str]:
    fields = list(fields)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def package_of_basic_notes(folder, notes: list[tuple[str, str]], decks: list[str] | None = None, name: str = "deck.apkg") -> str:
    """A package the real backend exports (latest layout, with scheduling, option groups and
    media) of Basic notes with these fronts and backs, each in the deck of that position in
    `decks` (created by name), else in Default; made in `folder`."""
    from anki.collection import ExportAnkiPackageOptions

    col = Collection(os.path.join(str(folder), "source.anki2"))
    try:
        basic = col.models.by_name("Basic")
        for index, (front, back) in enumerate(notes):
            note = col.new_note(basic)
            note.fields[0], note.fields[1] = front, back
            col.add_note(note, col.decks.id(decks[index]) if decks else 1)
        path = os.path.join(str(folder), name)
        col.export_anki_package(
            out_path=path, limit=None,
            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=False),
        )
    finally:
        col.close()
    return path


def legacy_media_names(package: str) -> set[str]:
    """The file names of a legacy package's media map (a JSON object of member → name)."""
    with zipfile.ZipFile(package) as archive:
        return set(json.loads(archive.read("media")).values())


def with_legacy_media(exported: str, out: str, media_map: dict[str, str], members: dict[str, bytes]) -> str:
    """`exported` (a legacy package) written to `out` with `media_map` as its media map and
    `members` as its numbered members, in place of its own."""
    with zipfile.ZipFile(exported) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.namelist():
            if member != "media" and not member.isdigit():
                target.writestr(member, source.read(member))
        target.writestr("media", json.dumps(media_map))
        for member, data in members.items():
            target.writestr(member, data)
    return out
