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
from anki.collection import Collection
from anki.errors import CardTypeError

from conftest import fixture_packages, new_card_order_kept, new_card_positions
from test_csv_helpers import (
    collection_holding_note_types_of,
    collection_with_note_types,
    deckport,
    deckport_exists,
    import_csv,
    notes_by_guid,
    package_of_basic_notes,
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


def deck_with_backs(backs: list[str]) -> dict:
    """A deckport JSON deck of Basic notes whose backs are `backs`, in order."""
    return {
        "format": "deckport-deck", "version": 1,
        "notes": [{"noteType": "Basic", "fields": {"Front": f"q{i}", "Back": back}} for i, back in enumerate(backs)],
    }


@pytest.mark.parametrize("first_html_row", [2, 5, 6, 9])
@pytest.mark.parametrize("layout", [["--columns", "front,back"], ["--header"]])
def test_a_sheet_whose_html_comes_late_says_anki_reads_it_as_text(tmp_path, first_html_row, layout):
    """A spreadsheet has no #html: line: Anki's importer decides from the file's first five
    rows (a header row among them) whether its fields are HTML. deckport warns
    [csv-html-late] exactly when the real backend then reads the sheet as plain text, and its
    own reader, deciding as Anki decides, reads it so too and warns, naming the row."""
    import json
    import re

    backs = [f"a{i}" for i in range(12)]
    backs[first_html_row - 1] = "<b>bold</b>"
    source = tmp_path / "deck.json"
    source.write_text(json.dumps(deck_with_backs(backs)))
    sheet = tmp_path / "sheet.csv"
    written = deckport("convert", str(source), str(sheet), *layout)
    assert written.returncode == 0, written.stderr
    warned = "[csv-html-late]" in written.stderr
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        anki_reads_html = col.get_csv_metadata(str(sheet), None).is_html
    finally:
        col.close()
    assert warned == (not anki_reads_html), written.stderr
    back = deckport("convert", str(sheet), str(tmp_path / "back.json"), *layout)
    assert back.returncode == 0, back.stderr
    late = re.search(r"sheet\.csv:(\d+): warning: \[csv-html-late\]", back.stderr)
    header_lines = 1 if "--header" in layout else 0
    reads_html = first_html_row <= 5 - header_lines
    assert (late is None) == reads_html, back.stderr
    if late:
        assert int(late.group(1)) == first_html_row + header_lines


def test_decks_named_by_numbers_are_said_to_be_ids_to_anki(tmp_path):
    """Anki's CSV importer takes a deck cell that is a number for a deck id (1 is Default;
    another is skipped when no deck has it), and no spelling of the number reaches it as a name
    (a cell it does not find makes a new deck per row). deckport writes such a deck's name as it
    is and says so: the [csv-deck-id] warning names exactly the decks, and counts exactly the
    notes, the real backend does not file under their deck's name. deckport reads the sheet back
    to the same decks, with a [csv-deck-id] warning naming the lines."""
    import json
    import re

    names = ["1", "2024", "-5", "Year::2024", "007", "Plain"]
    notes = [(f"q{copy} in {name}", "a") for name in names for copy in (1, 2)]
    decks = [name for name in names for _ in (1, 2)]
    package = package_of_basic_notes(tmp_path, notes, decks=decks, name="numbers.apkg")
    sheet = str(tmp_path / "numbers.csv")
    written = deckport("convert", package, sheet)
    assert written.returncode == 0, written.stderr
    warning = re.search(r"\[csv-deck-id\] the decks (.*?) are named by a number, .*? it files their (\d+) notes", written.stderr)
    assert warning, written.stderr
    assert warning.group(1) == "'-5', '007', '1', '2024'"
    col = Collection(str(tmp_path / "target.anki2"))
    try:
        import_csv(col, sheet)
        filed = {col.get_note(nid).fields[0]: col.decks.name(col.get_note(nid).cards()[0].did) for nid in col.find_notes("")}
    finally:
        col.close()
    misfiled = [front for front, deck in zip((n[0] for n in notes), decks) if filed.get(front) != deck]
    assert int(warning.group(2)) == len(misfiled) == 8
    back = deckport("convert", sheet, str(tmp_path / "back.json"))
    assert back.returncode == 0, back.stderr
    document = json.loads((tmp_path / "back.json").read_text())
    deck_names = {deck["id"]: deck["name"] for deck in document["decks"]}
    deck_of_note = {card["note"]: deck_names[card["deck"]] for card in document["cards"]}
    assert {note["fields"]["Front"]: deck_of_note[note["id"]] for note in document["notes"]} == dict(zip((n[0] for n in notes), decks))
    assert "warning: [csv-deck-id] the deck cell '" in back.stderr


@pytest.mark.parametrize(
    "text",
    [
        "#separator:comma\r#html:true\rq1,a1\rq2,a2\r",
        "#separator:comma\r#html:false\n<b>q1</b>,a1\nq2,a2\n",
        "#separator:comma\n#html:true\nq1,a1\rq2,a2\rq3,a3\n",
        "q1,a1\rq2,a2\rq3,a3\r",
        "#separator:comma\r\n#html:true\r\nq1,a1\r\nq2,a2\r\n",
        "#separator:comma\r#deck:Foo\nq1,a1\nq2,a2\n",
        "#separator:tab\r\r\nq1\ta1\nq2\ta2\n",
        "#separator:comma\r\r\n#deck:Foo\nq1,a1\n",
        "#separator:comma\r\rq1,a1\nq2,a2\n",
        "#separator:comma\n#deck:Foo\r\rq1,a1\nq2,a2\n",
    ],
    ids=[
        "all-cr", "header-cr", "rows-cr", "no-header-cr", "crlf", "directive-lost", "doubled-cr",
        "doubled-cr-directive", "doubled-cr-row", "doubled-cr-deck",
    ],
)
def test_lone_carriage_returns_are_said_where_anki_reads_otherwise(tmp_path, text):
    """Lines ending with a carriage return alone: deckport reads them as line ends everywhere;
    the real backend does in rows but not in the # lines. [csv-line-ends] is given exactly when
    Anki's import of the file then differs from deckport's reading (fewer notes, or a directive
    lost: the deck the notes go to)."""
    import re

    path = tmp_path / "mac.csv"
    path.write_bytes(text.encode())
    import json

    read = deckport("convert", str(path), str(tmp_path / "out.json"))
    assert read.returncode == 0, read.stderr
    document = json.loads((tmp_path / "out.json").read_text())
    names = {deck["id"]: deck["name"] for deck in document["decks"]}
    ours = sorted((note["fields"]["Front"], names[card["deck"]]) for note in document["notes"] for card in document["cards"] if card["note"] == note["id"])
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_csv(col, str(path))
        anki = sorted((col.get_note(nid).fields[0], col.decks.name(col.get_note(nid).cards()[0].did)) for nid in col.find_notes(""))
    finally:
        col.close()
    assert ("[csv-line-ends]" in read.stderr) == (anki != ours), (read.stderr, anki, ours)


HOSTILE_TAGS = [
    ["a b", "c\td", "e\nf", "g\u3000h", "ok"],
    ["::", "lang::", "::verbs", "lang::::verbs"],
    ["Verb", "verb", "x::Y"],
    ["STRASSE", "X::y::z", "e\u0301"],
    ["Straße", "plain"],
    # A `::` before a combining mark separates levels for Anki, which splits bytes.
    ["::\u0301", "a::\u0301"],
]
HOSTILE_DECKS = ["Words::", "Words:: ::Sub", "Line\nBreak", " Spaced :: Deck ", "Fine::Deck", "a:: \u0301b"]


def test_tags_and_decks_are_written_as_ankis_csv_import_stores_them(tmp_path):
    """Tags and deck names Anki's CSV import would change (split at spaces, NFC, empty levels,
    one spelling under case folding; deck levels normalised) are written as it stores them,
    each change warned ([tag-changed], [deck-renamed]): the real backend's import of the CSV
    stores exactly what deckport reads back from it, and a note whose tags the import changes
    is named in a warning."""
    import json

    document = {
        "format": "deckport-deck", "version": 1,
        "notes": [
            {"noteType": "Basic", "deck": HOSTILE_DECKS[i], "tags": tags, "fields": {"Front": f"q{i}", "Back": "a"}}
            for i, tags in enumerate(HOSTILE_TAGS)
        ],
    }
    source = tmp_path / "deck.json"
    source.write_text(json.dumps(document))
    sheet = str(tmp_path / "sheet.csv")
    written = deckport("convert", str(source), sheet, "--verbose")
    assert written.returncode == 0, written.stderr
    back = json.loads(deckport("convert", sheet, "-", "--to", "json").stdout)
    decks = {deck["id"]: deck["name"] for deck in back["decks"]}
    deck_of = {card["note"]: decks[card["deck"]] for card in back["cards"]}
    ours = {note["fields"]["Front"]: (sorted(note["tags"]), deck_of[note["id"]]) for note in back["notes"]}
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_csv(col, sheet)
        anki = {}
        for nid in col.find_notes(""):
            note = col.get_note(nid)
            anki[note.fields[0]] = (sorted(note.tags), col.decks.name(note.cards()[0].did))
    finally:
        col.close()
    assert anki == ours
    given = json.loads(deckport("convert", str(source), "-", "--to", "json").stdout)
    for note in given["notes"]:
        if sorted(note["tags"]) != ours[note["fields"]["Front"]][0]:
            assert f"note {note['id']}: warning: [tag-changed]" in written.stderr, note["tags"]
    for name in ["Words::", "Words:: ::Sub", "Line\\nBreak"]:
        assert f"deck '{name}'" in written.stderr and "[deck-renamed]" in written.stderr
    # A sheet without tag and deck columns writes neither, and says nothing of them but that.
    sheet_only = deckport("convert", str(source), str(tmp_path / "plain.csv"), "--header", "--columns", "front,back")
    assert sheet_only.returncode == 0, sheet_only.stderr
    assert "[tag-changed]" not in sheet_only.stderr and "[deck-renamed]" not in sheet_only.stderr
