"""Anki's own CSV export of every fixture package (made here with the real backend:
col.export_note_csv with HTML, tags, deck, note type and GUID), converted by deckport to a
package and to JSON, has the same fields, tags and decks as anki_view(package) (fields as
Anki's export writes them: without <style> blocks and [[type:…]]). Stock note types come back
with their real templates; a note type the file only names gets one made from the file, with
a warning, and keeps its field values."""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile

import pytest

from anki.collection import Collection

from conftest import fixture_packages
from test_csv_helpers import (
    as_anki_exports,
    collection_with_note_types,
    package_of_basic_notes,
    deckport,
    deckport_exists,
    import_csv,
    import_package,
    view_notes_by_guid,
    without_trailing_empty,
)

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


def anki_note_export(package: str, out: str, with_html: bool = True) -> None:
    """The package imported into a fresh collection as anki_view imports it, then exported
    with Anki's "Notes in Plain Text" exporter, every option on (HTML as `with_html` says)."""
    from anki_view import _import_apkg, _import_colpkg

    with tempfile.TemporaryDirectory(prefix="csv_export_") as folder:
        target = os.path.join(folder, "target")
        scratch = os.path.join(folder, "scratch")
        os.makedirs(target)
        os.makedirs(scratch)
        col = Collection(os.path.join(target, "collection.anki2"))
        try:
            if package.endswith(".colpkg"):
                _import_colpkg(col, package)
            else:
                _import_apkg(col, package, scratch)
            col.export_note_csv(
                out_path=out, limit=None, with_html=with_html, with_tags=True, with_deck=True,
                with_notetype=True, with_guid=True,
            )
        finally:
            col.close()


def expected_notes(view: dict) -> dict[str, dict]:
    return {
        guid: {
            "noteType": note["noteType"],
            "fields": without_trailing_empty([as_anki_exports(f) for f in note["fields"]]),
            "tags": note["tags"],
            # Anki's note export names the deck the note's first card is in, filtered or not.
            "deck": note["firstCardDeck"],
        }
        for guid, note in view_notes_by_guid(view).items()
    }


_APKG_PROBE: dict[str, str | None] = {}


def apkg_writer_missing(tmp_path) -> str | None:
    """Why `deckport convert x.csv y.apkg` does not work yet, or None when it does."""
    if "reason" not in _APKG_PROBE:
        source = tmp_path / "probe.csv"
        source.write_text("front,back\n", encoding="utf-8")
        result = deckport("convert", str(source), str(tmp_path / "probe.apkg"))
        _APKG_PROBE["reason"] = None if result.returncode == 0 else result.stderr.strip()
    return _APKG_PROBE["reason"]


@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_anki_export_to_json(package, live_view, tmp_path):
    export = str(tmp_path / "export.txt")
    anki_note_export(package, export)
    out = str(tmp_path / "deck.json")
    result = deckport("convert", export, out)
    if not live_view(package)["notes"]:
        # Anki exports a collection without notes as header lines only, and refuses to import
        # that file as empty: deckport refuses it too, saying so.
        assert result.returncode != 0 and "Anki refuses such a file as empty" in result.stderr, result.stderr
        with tempfile.TemporaryDirectory() as folder:
            col = collection_with_note_types(folder, [])
            try:
                with pytest.raises(Exception, match="empty"):
                    import_csv(col, export)
            finally:
                col.close()
        return
    assert result.returncode == 0, result.stderr
    with open(out, encoding="utf-8") as handle:
        document = json.load(handle)

    names = {t["id"]: t["name"] for t in document["noteTypes"]}
    decks = {d["id"]: d["name"] for d in document["decks"]}
    deck_of_note = {}
    for card in document["cards"]:
        deck_of_note.setdefault(card["note"], decks[card["deck"]])
    got = {
        n["guid"]: {
            "noteType": names[n["noteType"]],
            "fields": without_trailing_empty(list(n["fields"].values())),
            "tags": sorted(n["tags"]),
            "deck": deck_of_note[n["id"]],
        }
        for n in document["notes"]
    }
    assert got == expected_notes(live_view(package))


@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_anki_export_to_package(package, live_view, tmp_path):
    reason = apkg_writer_missing(tmp_path)
    if reason:
        pytest.skip(f"deckport convert x.csv y.apkg does not work yet: {reason}")
    from anki_view import anki_view

    export = str(tmp_path / "export.txt")
    anki_note_export(package, export)
    out = str(tmp_path / "deck.apkg")
    result = deckport("convert", export, out)
    if not live_view(package)["notes"]:
        # As in test_anki_export_to_json: a file of header lines only is refused.
        assert result.returncode != 0 and "Anki refuses such a file as empty" in result.stderr, result.stderr
        assert not os.path.exists(out)
        return
    assert result.returncode == 0, result.stderr
    ours = view_notes_by_guid(anki_view(out))
    got = {
        guid: {
            "noteType": note["noteType"],
            "fields": without_trailing_empty(note["fields"]),
            "tags": note["tags"],
            "deck": note["firstDeck"],
        }
        for guid, note in ours.items()
    }
    expected = expected_notes(live_view(package))
    assert got == expected
    # Every note's cards are in its deck, and the decks are the package's decks that hold cards.
    assert all(len(note["decks"]) == 1 for note in ours.values())
    assert sorted({note["firstDeck"] for note in ours.values()}) == sorted(
        {note["deck"] for note in expected.values()}
    )


def rows_by_guid(path: str) -> tuple[list[str], dict[str, dict]]:
    """A note export's `#` lines, and its rows by GUID: note type, deck, fields (trailing empty
    ones left out) and tags (sorted: Anki's import reorders them)."""
    with open(path, encoding="utf-8", newline="") as handle:
        lines = handle.read().split("\n")
    directives = [line for line in lines if line.startswith("#")]
    tags_column = next(int(line.split(":")[1]) for line in directives if line.startswith("#tags column:"))
    body = "\n".join(line for line in lines if not line.startswith("#"))
    rows = {}
    for row in csv.reader(io.StringIO(body), delimiter="\t"):
        if row:
            row += [""] * (tags_column - len(row))
            rows[row[0]] = {
                "noteType": row[1], "deck": row[2], "fields": without_trailing_empty(row[3 : tags_column - 1]),
                "tags": sorted(row[tags_column - 1].split()),
            }
    return directives, rows


def plain_text_exports(package: str, folder) -> tuple[tuple[list[str], dict], tuple[list[str], dict]]:
    """Anki's "Notes in Plain Text" export of `package` with HTML off, and deckport's
    `convert PACKAGE out.txt --html false`, each as `rows_by_guid` gives it."""
    anki = str(folder / "anki.txt")
    anki_note_export(package, anki, with_html=False)
    ours = str(folder / "ours.txt")
    result = deckport("convert", package, ours, "--html", "false")
    assert result.returncode == 0, result.stderr
    return rows_by_guid(anki), rows_by_guid(ours)


@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_plain_text_export_is_ankis(package, live_view, tmp_path):
    """`convert PACKAGE out.txt --html false` writes what Anki's "Notes in Plain Text" export
    writes with "Include HTML and media references" off: each field one line of plain text, and
    every row's note type, deck and tags, note by note. (Where a note's first card sits in a
    filtered deck, Anki's export names that deck and deckport the card's home deck, so that
    importing the file puts the note back where it lives.)"""
    if not live_view(package)["notes"]:
        pytest.skip("no notes: neither tool writes rows")
    (anki_directives, anki_rows), (our_directives, our_rows) = plain_text_exports(package, tmp_path)
    assert "#html:false" in anki_directives and "#html:false" in our_directives
    document = json.loads(deckport("convert", package, "-", "--to", "json").stdout)
    filtered = {deck["name"] for deck in document["decks"] if "filtered" in deck}
    for row in anki_rows.values():
        if row["deck"] in filtered:
            row["deck"] = None
    for guid, row in our_rows.items():
        if anki_rows.get(guid, {}).get("deck", "") is None:
            row["deck"] = None
    assert our_rows == anki_rows


# Fields whose ends are white space, beside fields with something for Anki's plain-text line to
# replace. Anki's exports keep a field (or card side) as it is when `html_to_text_line` replaces
# nothing in it, and trim it only when it does: " z " stays " z ", " <b>z</b> " becomes "z".
EDGE_FIELDS = [
    " z ", "\u00a0y\u00a0", "\tt\t", "  <b>a</b>  ", "<br>lead br", "tail<br>", "a\nb", " a & b ", " x &amp; ",
    " 1 < 2 ", " [sound:a.mp3] q ", " &nbsp;r ", "\u2003em\u2003", " [[type:Front]] ", " a &zz; b ",
    " <style>p {}</style> s ",
]


@pytest.fixture(scope="module")
def edge_package(tmp_path_factory) -> str:
    """A package the real backend made, one Basic note per edge field (on its front and back)."""
    folder = tmp_path_factory.mktemp("edge")
    return package_of_basic_notes(folder, [(text, "back" + text) for text in EDGE_FIELDS], name="edge.apkg")


def test_plain_text_keeps_the_white_space_anki_keeps(edge_package, tmp_path):
    """Notes in Plain Text: each field as Anki's export writes it, white space at the ends kept
    or trimmed as Anki keeps or trims it."""
    (_, anki_rows), (_, our_rows) = plain_text_exports(edge_package, tmp_path)
    assert len(our_rows) == len(EDGE_FIELDS)
    assert {guid: row["fields"] for guid, row in our_rows.items()} == {
        guid: row["fields"] for guid, row in anki_rows.items()
    }


def test_cards_in_plain_text_keep_the_white_space_anki_keeps(edge_package, tmp_path):
    """Cards in Plain Text: each side as Anki's export writes it."""
    from anki_render import card_csv

    out = tmp_path / "cards.txt"
    result = deckport("convert", edge_package, str(out), "--to", "cards", "--html", "false")
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8") == card_csv(edge_package, False)


PLAIN_LOSS_FIELDS = [
    ("[sound:hello.mp3]", "a sound alone"),
    ("two<br>lines", "x"),
    ('<img src="cat.png"> cat', "<b>bold</b> &amp; &lt;tag&gt;"),
    ("plain", "a &amp; b &lt; c"),
    ("also plain", "nothing to lose"),
    ("x&nbsp;y", "[sound:a b.mp3] and <img src='d.jpg'>"),
    ("it's \"quoted\"", "a & b, it&#x27;s"),
]


def test_plain_text_losses_are_the_notes_anki_changes(tmp_path):
    """`--html false` names the notes whose fields Anki's importer would not bring back: the
    plain-text file, imported by the real backend into the collection the notes came from,
    changes exactly the notes the [csv-plain-text] warning counts (as they show: a quote it stores
    as a reference is no change), and skips exactly those the [csv-empty-first-field] warning
    counts."""
    import html
    import re

    from anki_view import _import_apkg

    package = package_of_basic_notes(tmp_path, PLAIN_LOSS_FIELDS)
    plain = str(tmp_path / "plain.txt")
    result = deckport("convert", package, plain, "--html", "false", "--verbose")
    assert result.returncode == 0, result.stderr
    lost = re.search(r"\[csv-plain-text\] .*?, (\d+) notes lose .*?; (\d+) of them lose media", result.stderr)
    emptied = re.search(r"\[csv-empty-first-field\] (\d+) notes? ha(?:s|ve) a first field that plain text leaves empty", result.stderr)
    assert lost and emptied, result.stderr
    assert deckport("convert", package, plain, "--html", "false", "--strict", "--force").returncode == 1

    target = tmp_path / "target"
    target.mkdir()
    col = Collection(str(target / "collection.anki2"))
    try:
        _import_apkg(col, package, str(tmp_path))
        before = {col.get_note(nid).guid: list(col.get_note(nid).fields) for nid in col.find_notes("")}
        log = import_csv(col, plain)
        after = {col.get_note(nid).guid: list(col.get_note(nid).fields) for nid in col.find_notes("")}
    finally:
        col.close()
    # What shows: Anki stores a quote of a plain-text file as a reference (`it&#x27;s`).
    changed = [guid for guid in before if [html.unescape(f) for f in after[guid]] != [html.unescape(f) for f in before[guid]]]
    with_media = [guid for guid in changed if re.search(r"\[sound:|<img", " ".join(before[guid]))]
    assert int(lost.group(1)) == len(changed) + len(log.empty_first_field)
    assert int(lost.group(2)) == len(with_media) + len(log.empty_first_field)
    assert int(emptied.group(1)) == len(log.empty_first_field) == 1
    # two<br>lines, <img>…/<b>…, x&nbsp;y, and a reference Anki's export leaves as it is
    # (it&#x27;s, shown afterwards as those characters); "plain", "also plain" and the quotes
    # come back as they showed.
    assert len(changed) == 4


@pytest.mark.parametrize("with_guid", [False, True])
def test_a_package_of_ankis_export_without_guids_adds_its_notes_again_and_deckport_says_so(tmp_path, with_guid):
    """Anki's "Notes in Plain Text" export without "Include unique identifier", converted to a
    package and imported into the collection it came from, adds every note a second time (the
    backend's import matches notes by GUID alone): deckport warns [csv-no-guid] for exactly that
    file, and not for the export with GUIDs, whose package updates the notes instead. Importing
    the file itself, as the warning advises, adds none."""
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        basic = col.models.by_name("Basic")
        for front, back in [("hola", "hello"), ("gato", "cat"), ("perro", "dog")]:
            note = col.new_note(basic)
            note.fields[0], note.fields[1] = front, back
            col.add_note(note, 1)
        sheet = str(tmp_path / "notes.txt")
        col.export_note_csv(
            out_path=sheet, limit=None, with_html=True, with_tags=True, with_deck=True,
            with_notetype=True, with_guid=with_guid,
        )
        package = str(tmp_path / "notes.apkg")
        converted = deckport("convert", sheet, package)
        assert converted.returncode == 0, converted.stderr
        assert ("[csv-no-guid]" in converted.stderr) == (not with_guid), converted.stderr
        import_csv(col, sheet)
        assert len(col.find_notes("")) == 3, "the file itself adds no note"
        import_package(col, package)
        assert len(col.find_notes("")) == (6 if not with_guid else 3)
    finally:
        col.close()
