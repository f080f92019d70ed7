"""A CSV file that names a stock note type in another language than English (as Anki's export
does for a user whose Anki speaks French: `Basique`) gets the note type the real Anki backend
creates in that language, in every language Anki speaks (user complaint 20 in
shared/docs/peers.md: localized note types break field mapping).

The truth is the backend's own: a collection made in each language (`anki.lang.set_lang`) and
its stock note types (fixtures/make_stock_note_types.py). deckport converts a sheet naming each
of them into a package; the backend imports it into a collection without note types of its own,
and the note types it holds must be the backend's, name, fields, templates, styling and all.
Where languages give one name different fields or templates (Anki leaves some names
untranslated), a sheet that names only the note type gets the first language's (English first).
Each note's cards are those the backend makes itself for the same fields under that note type
(in English, the cards the row asks for); Odia's optional reversed card spells its field in the
template otherwise than the field, so Anki, which matches field names exactly, makes no second
card there, and neither does deckport.
"""

from __future__ import annotations

import os

import anki.lang
import pytest
from anki.collection import Collection

import make_stock_note_types
from anki_view import _neutralise_notetypes
from test_csv_helpers import deckport, deckport_exists, import_package

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

# A row's fields for each stock kind, and the template ordinals of the cards Anki makes for it in English.
ROWS = {
    1: (["a", "b"], [0]),
    2: (["a", "b"], [0, 1]),
    3: (["a", "b", "y"], [0, 1]),
    4: (["a", "b"], [0]),
    5: (["{{c1::a}} {{c2::b}}", "x"], [0, 1]),
    6: (["{{c1::image-occlusion:rect:left=.1:top=.1:width=.2:height=.2:oi=1}}", "", "", "", ""], [0]),
}


@pytest.fixture(scope="module")
def languages() -> list[dict]:
    return make_stock_note_types.truth()


def test_the_table_is_current(languages):
    path = make_stock_note_types.SWIFT
    with open(path, encoding="utf-8") as handle:
        assert handle.read() == make_stock_note_types.swift_source(languages), (
            "run fixtures/make_stock_note_types.py again"
        )


def first_with_name(languages: list[dict], name: str) -> dict:
    """The backend's note type named `name` in the first language that has one so named."""
    for language in languages:
        for entry in language["noteTypes"]:
            if entry["name"].lower() == name.lower():
                return entry
    raise AssertionError(name)


def comparable(entry: dict) -> dict:
    return {key: entry[key] for key in ("name", "kind", "fields", "templates", "css", "sortField")}


def imported_note_types(col: Collection) -> dict[str, dict]:
    found = {}
    for model in col.models.all():
        found[model["name"]] = {
            "name": model["name"],
            "kind": "cloze" if model["type"] == 1 else "standard",
            "fields": [field["name"] for field in model["flds"]],
            "templates": [{"name": t["name"], "question": t["qfmt"], "answer": t["afmt"]} for t in model["tmpls"]],
            "css": model["css"],
            "sortField": model["sortf"],
        }
    return found


def test_a_sheet_naming_a_stock_note_type_in_any_language_gets_the_backends(languages, tmp_path):
    checked = 0
    for language in languages:
        code = language["language"]
        folder = tmp_path / code
        folder.mkdir()
        sheet = folder / "sheet.txt"
        lines = ["#separator:tab", "#html:true", "#notetype column:1"]
        for entry in language["noteTypes"]:
            fields, _ = ROWS[entry["stockKind"]]
            lines.append("\t".join([entry["name"], *fields]))
        sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
        package = str(folder / "sheet.apkg")
        result = deckport("convert", str(sheet), package)
        assert result.returncode == 0, f"{code}: {result.stderr}"
        assert "csv-note-type" not in result.stderr, f"{code}: {result.stderr}"

        col = Collection(str(folder / "collection.anki2"))
        try:
            _neutralise_notetypes(col)
            import_package(col, package)
            note_types = imported_note_types(col)
            for entry in language["noteTypes"]:
                expected = comparable(first_with_name(languages, entry["name"]))
                assert note_types.get(expected["name"]) == expected, f"{code}: {entry['name']}"
                [nid] = col.find_notes(f'"note:{expected["name"]}"')
                fields, ordinals = ROWS[entry["stockKind"]]
                # The cards the backend makes itself for the same fields under the same note
                # type: where a template spells a field otherwise than the field (or_OR's U+0B5C
                # against U+0B21 U+0B3C), Anki matches names exactly and makes fewer cards.
                own = col.new_note(col.models.by_name(expected["name"]))
                for index, text in enumerate(fields):
                    own.fields[index] = text
                col.add_note(own, 1)
                backend_ordinals = sorted(card.ord for card in own.cards())
                if code == "en_US":
                    assert backend_ordinals == ordinals, f"{code}: {entry['name']}"
                written = sorted(card.ord for card in col.get_note(nid).cards())
                assert written == backend_ordinals, f"{code}: {entry['name']}"
                checked += 1
        finally:
            col.close()
    assert checked >= 6 * 50  # every stock note type of every language Anki speaks


def test_field_names_choose_among_languages_that_share_a_name(languages, tmp_path):
    """Malay leaves "Basic" untranslated but names its back "Belakang": a sheet whose columns say
    so gets Malay's "Basic", one that names no columns English's."""
    malay = next(
        entry
        for language in languages
        if language["language"] == "ms_MY"
        for entry in language["noteTypes"]
        if entry["stockKind"] == 1
    )
    assert (malay["name"], malay["fields"]) == ("Basic", ["Front", "Belakang"])
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Front,Belakang\nrumah,house\n", encoding="utf-8")
    package = str(tmp_path / "sheet.apkg")
    result = deckport("convert", str(sheet), package, "--header")
    assert result.returncode == 0, result.stderr
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        _neutralise_notetypes(col)
        import_package(col, package)
        assert imported_note_types(col)["Basic"] == comparable(malay)
    finally:
        col.close()


def test_a_french_ankis_own_export_becomes_its_note_types_and_cards(languages, tmp_path):
    """The CSV a French Anki exports (its own `export_note_csv`, note type column and all)
    becomes, through deckport, the notes, note types and cards the French collection holds."""
    anki.lang.set_lang("fr_FR")
    try:
        source = Collection(str(tmp_path / "french.anki2"))
    finally:
        anki.lang.set_lang("en_US")
    try:
        french = {model["originalStockKind"]: model["name"] for model in source.models.all()}
        # "Généralités (deux sens)" (Basic and reversed card) and "Texte à trous" (Cloze).
        rows = {french[2]: ["chat", "cat"], french[5]: ["{{c1::Le}} {{c2::chat}}", "x"]}
        for name, fields in rows.items():
            note = source.new_note(source.models.by_name(name))
            for index, value in enumerate(fields):
                note.fields[index] = value
            source.add_note(note, source.decks.id("Français"))
        sheet = str(tmp_path / "export.txt")
        source.export_note_csv(
            out_path=sheet, limit=None, with_html=True, with_tags=True, with_deck=True, with_notetype=True, with_guid=True
        )
        expected_types = {name: comparable(first_with_name(languages, name)) for name in rows}
        expected_cards = {
            name: sorted(c.ord for nid in source.find_notes(f'"note:{name}"') for c in source.get_note(nid).cards())
            for name in rows
        }
    finally:
        source.close()
    with open(sheet, encoding="utf-8") as handle:
        assert "Généralités (deux sens)" in handle.read()  # Anki's export names its French note type
    package = str(tmp_path / "export.apkg")
    result = deckport("convert", sheet, package)
    assert result.returncode == 0, result.stderr
    assert "csv-note-type" not in result.stderr, result.stderr
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        _neutralise_notetypes(col)
        import_package(col, package)
        note_types = imported_note_types(col)
        for name, fields in rows.items():
            assert note_types[name] == expected_types[name]
            [nid] = col.find_notes(f'"note:{name}"')
            note = col.get_note(nid)
            assert list(note.fields) == fields
            assert sorted(card.ord for card in note.cards()) == expected_cards[name]
    finally:
        col.close()
