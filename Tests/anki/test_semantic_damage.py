"""The semantic damage table (docs/damage.md, "Semantic damage"): packages that parse cleanly but
hold references that point nowhere, impossible note types or a damaged media map, converted by
deckport into every output format, and imported as they are by the real Anki backend.

Each damaged input is made here, independently of deckport's code: SQL run on the collection of
the real fixture `fixtures/anki/legacy2_sched.apkg` (or its media map replaced), re-zipped. Two
notes or cards with one id need a table without its primary key (Anki's own tables refuse them).

For every case and every output format the table says the exit status and the exact warning or
error lines (paths shown as SRC and OUT); the test checks them exactly (the routine warnings of
CSV and app storage, which every deck with scheduling or media gets, are left aside), that a
failed conversion leaves nothing at OUT (an app store: unchanged), that a package deckport wrote
imports into Anki, and what Anki does with the damaged source itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import tempfile
import unicodedata
import zipfile
from dataclasses import dataclass, field
from typing import Callable

import pytest

from conftest import FIXTURES, PACKAGE_DIR
from test_csv_helpers import collection_with_note_types, deckport, deckport_exists, import_csv

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from anki.collection import (  # noqa: E402
    Collection,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)

SOURCE = os.path.join(PACKAGE_DIR, "legacy2_sched.apkg")
EMPTY_STORE = os.path.join(FIXTURES, "app", "flashzilla-empty.store")
FIRST = 1795331276845  # a Basic note (fields Front, Back) and its one card, in deck Default
VOCAB = 1795331276852  # a "Vocab (3 fields)" note
REVIEW = 1795331276887  # a review of card 1795331276847
BASIC, CLOZE = 1795331276711, 1795331276715
# The media map of the fixture: member -> name. Members 0 and 4 hold different PNG bytes.
MEDIA = {"0": "日本.png", "1": "_vocab.css", "2": "café.png", "3": "beep.wav", "4": "pixel.png", "5": "my photo.png"}

# --------------------------------------------------------------------------------------------
# Building damaged packages


def package(folder: str, sql: str = "", media: dict | None = None, drop: tuple[str, ...] = ()) -> str:
    """The legacy fixture with `sql` run on its collection, its media map replaced by `media`
    (member -> name) and the members `drop` left out."""
    scratch = tempfile.mkdtemp(dir=folder)
    out = os.path.join(folder, "src.apkg")
    with zipfile.ZipFile(SOURCE) as source:
        database = source.extract("collection.anki21", scratch)
        db = sqlite3.connect(database)
        db.executescript(sql)
        db.commit()
        db.close()
        with zipfile.ZipFile(out, "w") as result:
            for name in source.namelist():
                if name in drop:
                    continue
                if name == "collection.anki21":
                    result.write(database, name)
                elif name == "media" and media is not None:
                    result.writestr(name, json.dumps(media, ensure_ascii=False))
                else:
                    result.writestr(name, source.read(name))
    return out


def media_map(**changes: str) -> dict:
    return {**MEDIA, **changes}


def without_primary_key(table: str) -> str:
    return f"CREATE TABLE copy AS SELECT * FROM {table}; DROP TABLE {table}; ALTER TABLE copy RENAME TO {table};"


def models(path: str, value: str) -> str:
    """SQL setting one value inside the schema-11 `models` JSON."""
    return f"UPDATE col SET models = json_set(models, '{path}', {value});"


NFD_CAFE = unicodedata.normalize("NFD", "café.png")


def json_deck(folder: str, notes: list[int], cards: list[int]) -> str:
    """A hand-written deckport JSON deck (docs/json-format.md) whose notes and cards have the
    given ids (each card belongs to the first note)."""
    document = {
        "format": "deckport-deck",
        "version": 1,
        "decks": [{"id": 1, "name": "Default"}],
        "noteTypes": [
            {
                "id": 10,
                "name": "Basic",
                "fields": [{"name": "Front"}, {"name": "Back"}],
                "templates": [{"name": "Card 1", "question": "{{Front}}", "answer": "{{Back}}"}],
            }
        ],
        "notes": [
            {"id": nid, "guid": f"g{index}", "noteType": 10, "fields": {"Front": f"front {index}", "Back": "b"}}
            for index, nid in enumerate(notes)
        ],
        "cards": [{"id": cid, "note": notes[0], "template": 0, "deck": 1} for cid in cards],
    }
    path = os.path.join(folder, "src.json")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out)
    return path

# --------------------------------------------------------------------------------------------
# Running deckport

FORMATS = {
    # format: (output file name, extra arguments, group in the table)
    "apkg": ("out.apkg", [], "anki"),
    "apkg-modern": ("out.apkg", [], "anki"),
    "colpkg": ("out.colpkg", [], "anki"),
    "colpkg-modern": ("out.colpkg", [], "anki"),
    "json": ("out.json", [], "json"),
    "csv": ("out.csv", [], "csv"),
    "plist": ("out.plist", ["--profile", "flashzilla"], "app"),
    "app-json": ("out.json", ["--profile", "flashzilla"], "app"),
    "sqlite": ("out.sqlite", ["--profile", "flashzilla"], "app"),
    "core-data": ("out.store", ["--profile", "flashzilla", "--backup"], "app"),
}

# What every deck with scheduling and media gets in CSV and app storage (tested elsewhere).
ROUTINE = re.compile(
    r"\[(media-dropped|field-dropped|formatting-dropped|tags-dropped|scheduling-dropped|"
    r"csv-scheduling|csv-reviews|csv-media|csv-note-type|media-unused|anki-properties-dropped|"
    r"decks-dropped|cards-dropped|note-types-merged|note-types-dropped|modification-times-dropped)\]"
)


@dataclass
class Run:
    status: int
    lines: list[str]  # warning and error lines, paths as SRC and OUT, routine warnings left out
    out: str
    stdout: str = ""  # the summary ("Wrote OUT (csv) from …: N notes, …")


def convert(folder: str, source: str, fmt: str) -> Run:
    name, extra, _ = FORMATS[fmt]
    out = os.path.join(tempfile.mkdtemp(dir=folder), name)
    if fmt == "core-data":
        shutil.copy(EMPTY_STORE, out)
    result = deckport("convert", source, out, "--to", fmt, "--verbose", *extra)
    lines = []
    for line in result.stderr.splitlines():
        if line.startswith("deckport:   ") or ROUTINE.search(line):
            continue
        lines.append(line.replace(source, "SRC").replace(out, "OUT"))
    return Run(result.returncode, lines, out, result.stdout)


# --------------------------------------------------------------------------------------------
# Importing with the real Anki backend


def anki_import(folder: str, path: str) -> Collection:
    """A fresh collection `path` was imported into (a .colpkg restored as Anki restores a
    backup); the caller closes it. Raises what the backend raises."""
    from anki_view import _import_colpkg, _neutralise_notetypes

    target = tempfile.mkdtemp(dir=folder)
    col = Collection(os.path.join(target, "collection.anki2"))
    try:
        if path.endswith(".colpkg"):
            _import_colpkg(col, path)
        else:
            _neutralise_notetypes(col)
            col.import_anki_package(
                ImportAnkiPackageRequest(
                    package_path=os.path.abspath(path),
                    options=ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True, with_deck_configs=True),
                )
            )
    except Exception:
        col.close()
        raise
    return col


def media_files(col: Collection) -> dict[str, str]:
    folder = col.media.dir()
    return {
        name: hashlib.sha1(open(os.path.join(folder, name), "rb").read()).hexdigest()
        for name in sorted(os.listdir(folder))
    }


def member_sha1(member: str) -> str:
    with zipfile.ZipFile(SOURCE) as source:
        return hashlib.sha1(source.read(member)).hexdigest()


def note_fields(col: Collection, nid: int) -> list[str]:
    return col.db.scalar("select flds from notes where id = ?", nid).split("\x1f")


# --------------------------------------------------------------------------------------------
# The table


@dataclass
class Outcome:
    status: int
    lines: list[str]
    # Checks what was written (called with the output path and a scratch folder) when status is 0.
    kept: Callable[[str, str], None] | None = None


@dataclass
class Case:
    id: str
    build: Callable[[str], str]
    # Anki with the damaged source: an exception pattern it fails with, or a check of what it imported.
    anki: str | Callable[[Collection], None] | None
    # Lines every conversion prints (the reader's), then the outcome per group or per format.
    read: list[str] = field(default_factory=list)
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    def outcome(self, fmt: str) -> Outcome:
        return self.outcomes.get(fmt) or self.outcomes[FORMATS[fmt][2]]


def ok(*lines: str, kept=None) -> Outcome:
    return Outcome(0, list(lines), kept)


def fails(line: str) -> Outcome:
    return Outcome(1, [line])


def json_kept(check: Callable[[dict], None]) -> Callable[[str, str], None]:
    """Reads deckport's JSON back with deckport (it must read what it wrote) and checks it."""

    def kept(out: str, folder: str) -> None:
        again = os.path.join(tempfile.mkdtemp(dir=folder), "again.json")
        result = deckport("convert", out, again)
        assert result.returncode == 0, result.stderr
        assert "warning" not in result.stderr, result.stderr
        check(json.load(open(out, encoding="utf-8")))

    return kept


def anki_kept(check: Callable[[Collection], None] | None = None) -> Callable[[str, str], None]:
    """Imports deckport's package with the real backend (it must import) and checks it."""

    def kept(out: str, folder: str) -> None:
        col = anki_import(folder, out)
        try:
            if check:
                check(col)
        finally:
            col.close()

    return kept


def csv_kept(*rows: str) -> Callable[[str, str], None]:
    def kept(out: str, folder: str) -> None:
        text = open(out, encoding="utf-8").read()
        for row in rows:
            assert row in text.splitlines(), text

    return kept


OUT_CARD = "deckport: OUT: card {card}: warning: "
READ_NOTES = "deckport: SRC: member 'collection.anki21': table notes, row {row}: warning: "
READ_CARDS = "deckport: SRC: member 'collection.anki21': table cards, row {row}: warning: "
APP = "deckport: OUT: record type 'Card', "

ORPHAN = f"card belongs to note {FIRST}, which does not exist"
FEWER = (
    f"note has 1 field value, but its note type 'Vocab (3 fields)' (id 1795331276842) has 3 fields; "
    "the missing 2 are written empty, as Anki's Check Database fills them"
)
MORE = (
    f"note has 3 field values, but its note type 'Basic' (id {BASIC}) has 2 fields; values 2 to 3 are "
    "joined with \"; \" into the last field, 'Back', as Anki's Check Database joins them"
)
DECK = (
    "card is in deck 4242, which the collection does not define; it is written in a deck 'recovered4242' "
    "with that id, added as Anki's Check Database adds one"
)
MISSING_TYPE = "note uses note type 42, which the collection does not define"


def anki_orphan(col: Collection) -> None:
    assert col.db.scalar("select count() from notes") == 8
    assert col.db.scalar("select count() from cards") == 14  # the card without a note is not imported


def anki_deck_missing(col: Collection) -> None:
    # Anki keeps the card in deck 4242, which no deck is: it shows in no deck until Check Database.
    assert col.db.scalar(f"select did from cards where id = {FIRST}") == 4242
    assert col.decks.get(4242, default=False) is None


def anki_review_missing(col: Collection) -> None:
    assert col.db.scalar("select count() from revlog") == 7  # the review of no card is not imported


def anki_template_missing_field(col: Collection) -> None:
    card = col.get_card(FIRST)
    assert "Nope" in card.question()  # Anki shows an error naming the field on the card


def anki_cloze_plain(col: Collection) -> None:
    # Each cloze card shows the whole text, the deletions in their {{c1::…}} form unrendered.
    card = col.get_card(1795331276853)
    assert "{{c1::Paris}}" in card.question()


def anki_media_duplicate(col: Collection) -> None:
    files = media_files(col)
    # One file under the name; its bytes are those of one member or the other (Anki's hash
    # map order, which changes from run to run).
    assert files["pixel.png"] in {member_sha1("0"), member_sha1("4")}
    assert "日本.png" not in files


def anki_media_case(col: Collection) -> None:
    files = media_files(col)  # on Linux, whose file names are case-sensitive
    assert files["Pixel.png"] == member_sha1("0")
    assert files["pixel.png"] == member_sha1("4")


def anki_media_nfd(col: Collection) -> None:
    files = media_files(col)
    assert NFD_CAFE not in files
    assert files["café.png"] in {member_sha1("0"), member_sha1("2")}


def anki_member_missing(col: Collection) -> None:
    """Every note arrives; every file but the missing member's, with its bytes."""
    assert col.note_count() == 9
    files = media_files(col)
    assert "pixel.png" not in files
    with zipfile.ZipFile(SOURCE) as source:
        listed = json.loads(source.read("media"))
    assert files == {name: member_sha1(member) for member, name in listed.items() if member != "4"}


def anki_control_names(col: Collection) -> None:
    names = {d["name"] for d in col.decks.all()}
    assert "Lang[2Juages" in names  # control characters removed from deck names
    assert col.models.by_name("Ba\x07sic") is not None  # kept in note type names
    assert "pixel.png" in media_files(col)  # removed from media names ...
    assert note_fields(col, FIRST)[1] == '<img src="pixel.png">'  # ... and from the notes' references


CONTROL_SQL = (
    "UPDATE col SET decks = json_set(decks, '$.\"1795331276840\".name', 'Lang' || char(27) || '[2Juages');"
    + models(f'$."{BASIC}".name', "'Ba' || char(7) || 'sic'")
    + "UPDATE notes SET flds = replace(flds, 'pixel.png', 'pix' || char(7) || 'el.png');"
)

CASES = [
    Case(
        "card whose note is missing",
        lambda f: package(f, f"DELETE FROM notes WHERE id = {FIRST}"),
        anki_orphan,
        read=[READ_CARDS.format(row=FIRST) + f"[orphan-card] {ORPHAN}"],
        outcomes={
            "anki": ok(OUT_CARD.format(card=FIRST) + f"[orphan-card] {ORPHAN}; it is left out", kept=anki_kept(anki_orphan)),
            "json": ok(
                OUT_CARD.format(card=FIRST) + f"[orphan-card] {ORPHAN}; it is left out",
                kept=json_kept(lambda d: not any(c["id"] == FIRST for c in d["cards"]) or pytest.fail("kept")),
            ),
            "csv": ok(OUT_CARD.format(card=FIRST) + f"[orphan-card] {ORPHAN}; it is left out"),
            "app": ok(),
        },
    ),
    Case(
        "note whose note type is missing",
        lambda f: package(f, f"UPDATE notes SET mid = 42 WHERE id = {FIRST}"),
        r"No such notetype",
        read=[READ_NOTES.format(row=FIRST) + f"[unknown-note-type] {MISSING_TYPE}"],
        outcomes={
            "anki": fails(f"deckport: error: OUT: note {FIRST}: {MISSING_TYPE}; Anki would refuse the package"),
            "json": fails(
                f"deckport: error: OUT: note {FIRST} uses note type 42, which the deck does not define; "
                "the JSON format keys field values by the note type's field names"
            ),
            "csv": fails(
                f"deckport: error: OUT: note {FIRST} (GUID 'An7DBu|ids') uses note type 42, which the deck does "
                "not define; a CSV row needs the note type's name"
            ),
            # App records name their values by the profile's keys: the note's values in order.
            "app": ok(),
        },
    ),
    Case(
        "note with fewer fields than its note type",
        lambda f: package(f, f"UPDATE notes SET flds = 'only' WHERE id = {VOCAB}"),
        r"note has 1 fields, expected 3",
        read=[READ_NOTES.format(row=VOCAB) + "[field-count] note has 1 field, but its note type has 3; Anki would refuse it on import"],
        outcomes={
            "anki": ok(
                f"deckport: OUT: note {VOCAB}: warning: [field-count] {FEWER}",
                kept=anki_kept(lambda col: note_fields(col, VOCAB) == ["only", "", ""] or pytest.fail("fields")),
            ),
            "json": ok(
                f"deckport: OUT: note {VOCAB}: warning: [field-count] {FEWER}",
                kept=json_kept(
                    lambda d: [n for n in d["notes"] if n["id"] == VOCAB][0]["fields"]
                    == {"Word": "only", "Meaning": "", "Example": ""}
                    or pytest.fail("fields")
                ),
            ),
            # The note's second card shows the empty Meaning: Anki's CSV import does not make it.
            "csv": ok(
                f"deckport: OUT: note {VOCAB}: warning: [field-count] {FEWER}",
                "deckport: OUT: warning: [csv-cards] 1 card is not kept: Anki's CSV importer makes a note's cards from its fields, and this card's template shows nothing or its cloze number is no longer in the text (GUID 'LB42S_yJx<')",
            ),
            "app": ok(f"{APP}note {VOCAB}: warning: [field-count] {FEWER}"),
        },
    ),
    Case(
        "note with more fields than its note type",
        lambda f: package(f, f"UPDATE notes SET flds = 'a' || char(31) || 'b' || char(31) || 'c' WHERE id = {FIRST}"),
        r"note has 3 fields, expected 2",
        read=[READ_NOTES.format(row=FIRST) + "[field-count] note has 3 fields, but its note type has 2; Anki would refuse it on import"],
        outcomes={
            "anki": ok(
                f"deckport: OUT: note {FIRST}: warning: [field-count] {MORE}",
                kept=anki_kept(lambda col: note_fields(col, FIRST) == ["a", "b; c"] or pytest.fail("fields")),
            ),
            "json": ok(
                f"deckport: OUT: note {FIRST}: warning: [field-count] {MORE}",
                kept=json_kept(
                    lambda d: [n for n in d["notes"] if n["id"] == FIRST][0]["fields"] == {"Front": "a", "Back": "b; c"}
                    or pytest.fail("fields")
                ),
            ),
            "csv": ok(f"deckport: OUT: note {FIRST}: warning: [field-count] {MORE}", kept=csv_kept("An7DBu|ids,Basic,Default,a,b; c,,a::b geo")),
            "app": ok(f"{APP}note {FIRST}: warning: [field-count] {MORE}"),
        },
    ),
    Case(
        "card in a missing deck",
        lambda f: package(f, f"UPDATE cards SET did = 4242 WHERE id = {FIRST}"),
        anki_deck_missing,
        read=[READ_CARDS.format(row=FIRST) + "[unknown-deck] card is in deck 4242, which the collection does not define"],
        outcomes={
            "anki": ok(
                OUT_CARD.format(card=FIRST) + f"[unknown-deck] {DECK}",
                kept=anki_kept(
                    lambda col: col.decks.name(col.db.scalar(f"select did from cards where id = {FIRST}")) == "recovered4242"
                    or pytest.fail("deck")
                ),
            ),
            "json": ok(
                OUT_CARD.format(card=FIRST) + f"[unknown-deck] {DECK}",
                kept=json_kept(lambda d: {"id": 4242, "name": "recovered4242"}.items() <= [x for x in d["decks"] if x["id"] == 4242][0].items() or pytest.fail("deck")),
            ),
            "csv": ok(OUT_CARD.format(card=FIRST) + f"[unknown-deck] {DECK}", kept=csv_kept("An7DBu|ids,Basic,recovered4242,Hello <b>world</b> &amp; friends 🎉,\"<img src=\"\"pixel.png\"\">\",,a::b geo")),
            "app": ok(),
        },
    ),
    Case(
        "review of a missing card",
        lambda f: package(f, f"UPDATE revlog SET cid = 4242 WHERE id = {REVIEW}"),
        anki_review_missing,
        outcomes={
            "anki": ok(
                "deckport: OUT: table revlog: warning: [reviews-unused] 1 review-log entry belongs to cards the "
                "collection does not hold; an .apkg carries only the reviews of its cards, so it is left out",
                kept=anki_kept(anki_review_missing),
            ),
            # A collection backup keeps the collection's review log as it is, as Anki's does.
            "colpkg": ok(kept=anki_kept(lambda col: col.db.scalar("select count() from revlog") == 8 or pytest.fail("reviews"))),
            "colpkg-modern": ok(kept=anki_kept()),
            "json": ok(),
            "csv": ok(),
            "app": ok(),
        },
    ),
    Case(
        "two notes with one id",
        lambda f: package(
            f,
            without_primary_key("notes")
            + f"INSERT INTO notes SELECT id, 'other', mid, mod, usn, tags, 'second' || char(31) || 'x', sfld, csum, flags, data FROM notes WHERE id = {FIRST};",
        ),
        r"UNIQUE constraint failed: search_nids.nid",
        outcomes={
            group: fails(
                f"deckport: error: SRC: member 'collection.anki21': table notes, row {FIRST}: two rows have the id {FIRST}; "
                "references to it would be ambiguous, and Anki refuses such a package"
            )
            for group in ("anki", "json", "csv", "app")
        },
    ),
    Case(
        "two cards with one id",
        lambda f: package(
            f,
            without_primary_key("cards")
            + f"INSERT INTO cards SELECT id, 1795331276846, did, ord, mod, usn, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, flags, data FROM cards WHERE id = {FIRST};",
        ),
        r"UNIQUE constraint failed: search_cids.cid",
        outcomes={
            group: fails(
                f"deckport: error: SRC: member 'collection.anki21': table cards, row {FIRST}: two rows have the id {FIRST}; "
                "references to it would be ambiguous, and Anki refuses such a package"
            )
            for group in ("anki", "json", "csv", "app")
        },
    ),
    Case(
        "two notes with one id (JSON input)",
        lambda f: json_deck(f, [100, 100], [200]),
        None,  # no Anki input can hold it: the primary key of `notes` forbids it (the case above)
        outcomes={
            group: fails(
                "deckport: error: SRC: at notes[1].id: notes[0] has the same id 100; cards refer to notes by id, so each note needs its own"
            )
            for group in ("anki", "json", "csv", "app")
        },
    ),
    Case(
        "two cards with one id (JSON input)",
        lambda f: json_deck(f, [100], [200, 200]),
        None,
        outcomes={
            group: fails(
                "deckport: error: SRC: at cards[1].id: cards[0] has the same id 200; reviews refer to cards by id, so each card needs its own"
            )
            for group in ("anki", "json", "csv", "app")
        },
    ),
    Case(
        "negative ids and timestamps",
        lambda f: package(
            f,
            f"UPDATE cards SET nid = -5 WHERE nid = {FIRST}; UPDATE notes SET id = -5, mod = -1 WHERE id = {FIRST};"
            f"UPDATE cards SET id = -7, mod = {-(2**63)} WHERE id = 1795331276846; UPDATE revlog SET id = -3 WHERE id = {REVIEW};",
        ),
        lambda col: (col.db.all("select id, mod from notes where id < 0"), col.db.all("select id, mod from cards where id < 0"))
        == ([[-5, -1]], [[-7, -(2**63)]])
        or pytest.fail("Anki changed them"),
        outcomes={
            "anki": ok(
                kept=anki_kept(
                    lambda col: (col.db.all("select id, mod from notes where id < 0"), col.db.scalar("select count() from revlog where id = -3"))
                    == ([[-5, -1]], 1)
                    or pytest.fail("changed")
                )
            ),
            "json": ok(kept=json_kept(lambda d: [n["id"] for n in d["notes"]][0] == -5 or pytest.fail("id"))),
            "csv": ok(),
            "app": ok(),
        },
    ),
    Case(
        "note type with no templates",
        lambda f: package(f, models(f'$."{BASIC}".tmpls', "json('[]')")),
        r"1 template required",
        outcomes={
            "anki": fails(f"deckport: error: OUT: note type 'Basic' (id {BASIC}): it has no card templates; Anki needs at least one"),
            "json": ok(),
            "csv": ok(),
            "app": ok(),
        },
    ),
    Case(
        "template naming a missing field",
        lambda f: package(f, models(f'$."{BASIC}".tmpls[0].qfmt', "'{{Nope}}'")),
        anki_template_missing_field,
        outcomes={"anki": ok(kept=anki_kept(anki_template_missing_field)), "json": ok(), "csv": ok(), "app": ok()},
    ),
    Case(
        "cloze note type with non-cloze templates",
        lambda f: package(
            f, models(f'$."{CLOZE}".tmpls[0].qfmt', "'{{Text}}'") + models(f'$."{CLOZE}".tmpls[0].afmt', "'{{Text}}<br>{{Back Extra}}'")
        ),
        anki_cloze_plain,
        outcomes={"anki": ok(kept=anki_kept(anki_cloze_plain)), "json": ok(), "csv": ok(), "app": ok()},
    ),
    Case(
        "media map with two entries for one name",
        lambda f: package(f, media=media_map(**{"0": "pixel.png"})),
        anki_media_duplicate,
        read=["deckport: SRC: member 'media': entry 4: warning: [media-duplicate] media file 'pixel.png' is listed twice; the later copy (member 4) is ignored"],
        outcomes={
            "anki": ok(kept=anki_kept(lambda col: media_files(col)["pixel.png"] == member_sha1("0") or pytest.fail("bytes"))),
            "json": ok(kept=json_kept(lambda d: [m["sha1"] for m in d["media"] if m["name"] == "pixel.png"] == [member_sha1("0")] or pytest.fail("media"))),
            "csv": ok(),
            "app": ok(),
        },
    ),
    Case(
        "media names equal but for case",
        lambda f: package(f, f"UPDATE notes SET flds = replace(flds, '日本.png', 'Pixel.png')", media=media_map(**{"0": "Pixel.png"})),
        anki_media_case,
        outcomes={"anki": ok(kept=anki_kept(anki_media_case)), "json": ok(), "csv": ok(), "app": ok()},
    ),
    Case(
        "media names equal but for Unicode normalisation",
        lambda f: package(f, media=media_map(**{"0": NFD_CAFE})),
        anki_media_nfd,
        read=[
            "deckport: SRC: member 'media': entry 0: warning: [media-renamed] media file 'café.png' is named in decomposed Unicode (not NFC); it is renamed to the composed (NFC) form, with every reference to it in the notes, as Anki renames it on import",
            "deckport: SRC: member 'media': entry 2: warning: [media-duplicate] media file 'café.png' is listed twice; the later copy (member 2) is ignored",
        ],
        outcomes={
            "anki": ok(kept=anki_kept(lambda col: media_files(col)["café.png"] == member_sha1("0") or pytest.fail("bytes"))),
            "json": ok(),
            "csv": ok(),
            "app": ok(),
        },
    ),
    Case(
        "media map entry whose member is missing",
        lambda f: package(f, drop=("4",)),
        r"4 missing from archive",
        read=["deckport: SRC: member '4': warning: [media-missing] the media map lists 'pixel.png' in member '4', but the package has no such member; the file is left out, and notes that refer to it will show it missing"],
        outcomes={"anki": ok(kept=anki_kept(anki_member_missing)), "json": ok(), "csv": ok(), "app": ok()},
    ),
    Case(
        "media map entry with an empty name",
        lambda f: package(f, media=media_map(**{"4": ""})),
        r"not a valid \.apkg file",
        outcomes={
            group: fails("deckport: error: SRC: member 'media': entry 4: the media name is empty; Anki refuses such a package")
            for group in ("anki", "json", "csv", "app")
        },
    ),
    Case(
        "names with control characters",
        lambda f: package(f, CONTROL_SQL, media=media_map(**{"4": "pix\x07el.png"})),
        anki_control_names,
        read=["deckport: SRC: member 'media': entry 4: warning: [media-renamed] media file 'pix\\u{07}el.png' is renamed 'pixel.png', with every reference to it in the notes, as Anki renames it on import"],
        outcomes={
            "anki": ok(
                "deckport: OUT: deck 'Lang\\e[2Juages' (id 1795331276840): warning: [deck-renamed] Anki normalises deck names (no control characters, no empty levels, no spaces or ':' around a level); it is written as 'Lang[2Juages'",
                kept=anki_kept(anki_control_names),
            ),
            "colpkg": ok(
                "deckport: OUT: deck 'Lang\\e[2Juages' (id 1795331276840): warning: [deck-renamed] Anki normalises deck names (no control characters, no empty levels, no spaces or ':' around a level); it is written as 'Lang[2Juages'",
                "deckport: OUT: deck 'Languages' (id 1795331276843): warning: [deck-added] deck 'Languages::French' has no parent deck 'Languages'; a collection needs it, so it is added (as Anki's Check Database would)",
                kept=anki_kept(anki_control_names),
            ),
            "json": ok(kept=json_kept(lambda d: None)),
            "csv": ok(
                "deckport: OUT: deck 'Lang\\e[2Juages' (id 1795331276840): warning: [deck-renamed] Anki normalises deck names (no control characters, no empty levels, no spaces or ':' around a level); its rows name it 'Lang[2Juages', as Anki's import would store it",
            ),
            "app": ok(),
        },
    ),
]
CASES[-1].outcomes["colpkg-modern"] = CASES[-1].outcomes["colpkg"]


def case_ids(cases):
    return [c.id for c in cases]


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("case", CASES, ids=case_ids(CASES))
def test_deckport(case: Case, fmt: str, tmp_path, live_view):
    folder = str(tmp_path)
    source = case.build(folder)
    before = open(EMPTY_STORE, "rb").read()
    run = convert(folder, source, fmt)
    expected = case.outcome(fmt)
    summary = [line for line in run.lines if line.startswith(("Wrote ", "Records in ", "Kept the old "))]
    messages = [line for line in run.lines if line not in summary]
    assert (run.status, messages) == (expected.status, case.read + expected.lines)
    if run.status != 0:
        if fmt == "core-data":
            assert open(run.out, "rb").read() == before  # the store is unchanged
            assert os.listdir(os.path.dirname(run.out)) == ["out.store"]
        else:
            assert not os.path.exists(run.out)
            assert os.listdir(os.path.dirname(run.out)) == []  # no temporary file left either
    elif expected.kept:
        expected.kept(run.out, folder)
    if run.status == 0 and fmt == "csv":
        written = int(re.search(r"^Wrote .*?: (\d+) notes?\b", run.stdout, re.MULTILINE).group(1))
        csv_imports_into_anki(run.out, written, folder, source, live_view)


def csv_imports_into_anki(csv_path: str, written: int, folder: str, source: str, live_view) -> None:
    """Anki's own CSV importer takes every row of the CSV deckport wrote, into a collection
    holding the note types Anki sees in the damaged source (or, where Anki refuses that source or
        its note types, in the undamaged fixture): every one of the `written` notes becomes a note of
    the note type it names, none refused for a missing note type or an empty first field."""
    with tempfile.TemporaryDirectory(prefix="csv_import_", dir=folder) as scratch:
        for attempt in ("damaged", "fixture"):
            os.mkdir(os.path.join(scratch, attempt))
        try:
            col = collection_with_note_types(os.path.join(scratch, "damaged"), live_view(source)["noteTypes"])
        except Exception:  # Anki refuses the damaged source, or will not add its note types
            col = collection_with_note_types(os.path.join(scratch, "fixture"), live_view(SOURCE)["noteTypes"])
        try:
            log = import_csv(col, csv_path)
            imported = col.note_count()
        finally:
            col.close()
    assert not log.missing_notetype and not log.empty_first_field, log
    assert imported == len(log.new) == written


ANKI_INPUTS = [c for c in CASES if c.anki is not None]


@pytest.mark.parametrize("case", ANKI_INPUTS, ids=case_ids(ANKI_INPUTS))
def test_anki_with_the_damaged_source(case: Case, tmp_path):
    folder = str(tmp_path)
    source = case.build(folder)
    if isinstance(case.anki, str):
        with pytest.raises(Exception, match=case.anki):
            anki_import(folder, source).close()
    else:
        col = anki_import(folder, source)
        try:
            case.anki(col)
        finally:
            col.close()


WARNING_CASES = [c for c in CASES if c.read or any(o.status == 0 and o.lines for o in c.outcomes.values())]


@pytest.mark.parametrize("case", WARNING_CASES, ids=case_ids(WARNING_CASES))
def test_strict_fails_on_every_warning(case: Case, tmp_path):
    """Every case that warns fails with --strict (here into an .apkg), and nothing is written."""
    folder = str(tmp_path)
    source = case.build(folder)
    out = os.path.join(folder, "strict.apkg")
    result = deckport("convert", source, out, "--strict")
    assert result.returncode == 1
    assert not os.path.exists(out)
