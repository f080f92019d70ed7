"""deckport's CSV of every fixture package, imported by the real Anki's own CSV importer
(col.get_csv_metadata + col.import_csv, every choice left to the importer) into a fresh
collection, gives the same notes as anki_view(package): GUIDs, note types, fields, tags, decks,
and the same cards.

A CSV names note types but cannot define them, so the fresh collection is given the package's
note types (by name, with their fields and templates) before the import, as a user importing
the file into their own collection would have them (from Anki's import of the package itself,
for a note type Anki's note type API refuses and that import takes)."""

from __future__ import annotations

import os
import tempfile

import pytest
from anki.errors import CardTypeError

from conftest import fixture_packages, new_card_order_kept, new_card_positions
from test_csv_helpers import (
    collection_holding_note_types_of,
    collection_with_note_types,
    deckport,
    deckport_exists,
    import_csv,
    notes_by_guid,
    view_notes_by_guid,
)

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


def used_note_types(view: dict) -> list[dict]:
    used = {note["noteType"] for note in view["notes"]}
    return [spec for spec in view["noteTypes"] if spec["name"] in used]


@pytest.mark.parametrize("extension", ["txt", "csv"])
@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_our_csv_imports_into_anki_as_the_package(package, extension, live_view, tmp_path):
    out = str(tmp_path / f"deck.{extension}")
    result = deckport("convert", package, out, "--verbose")
    view = live_view(package)
    if not view["notes"]:
        # A CSV file holds notes only; one without rows is refused by Anki's importer, so
        # deckport writes none (test_csv_anki_export shows Anki refusing such a file).
        assert result.returncode != 0 and "the deck holds no notes" in result.stderr, result.stderr
        assert not os.path.exists(out)
        return
    assert result.returncode == 0, result.stderr

    with tempfile.TemporaryDirectory(prefix="csv_import_") as folder:
        try:
            col = collection_with_note_types(os.path.join(folder, "made"), used_note_types(view))
        except CardTypeError:
            # A note type Anki's API refuses and its package import takes: the user's collection
            # has it from the package.
            col = collection_holding_note_types_of(folder, package)
        try:
            log = import_csv(col, out)
            imported = notes_by_guid(col)
            positions = new_card_positions(col)
            imported_decks = sorted({d for note in imported.values() for d in note["decks"]})
        finally:
            col.close()

    assert len(log.new) == len(view["notes"])
    assert not log.missing_notetype and not log.empty_first_field and not log.missing_deck
    expected = view_notes_by_guid(view)
    assert sorted(imported) == sorted(expected)
    lost = made = 0
    for guid, note in expected.items():
        got = imported[guid]
        assert got["noteType"] == note["noteType"], guid
        assert got["fields"] == note["fields"], guid
        assert got["tags"] == note["tags"], guid
        assert got["decks"] == [note["firstDeck"]], guid
        # Anki's importer makes a note's cards from its fields: a card the text no longer
        # calls for is not made again, and must be counted in deckport's [csv-cards] warning.
        lost += len(set(note["cards"]) - set(got["cards"]))
        made += len(set(got["cards"]) - set(note["cards"]))
    assert (f"[csv-cards] {lost} card{'s are' if lost != 1 else ' is'} not kept" in result.stderr) == (lost > 0), result.stderr
    assert (f"[csv-cards] {made} card{'s' if made != 1 else ''} the collection does not hold" in result.stderr) == (made > 0), result.stderr
    # A CSV holds no positions: Anki's importer numbers new cards in row order, and deckport
    # says so exactly when that is not the package's order.
    before = {
        (card["noteGuid"], card["ord"]): card["odue"] if card["odeck"] else card["due"]
        for card in view["cards"]
        if card["type"] == 0
    }
    in_order = new_card_order_kept(before, positions)
    assert ("[csv-scheduling] the order of" not in result.stderr) == in_order, result.stderr
    # The decks the notes went to, and no other: a note's deck is its first card's home deck.
    assert imported_decks == sorted({note["firstDeck"] for note in expected.values()})
