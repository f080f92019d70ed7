"""Packages the real Anki backend cannot import as they are, converted by deckport and then
imported by the real backend.

* Duplicate GUIDs: the legacy fixture with two notes sharing one GUID. Anki matches notes by
  GUID, so it imports only one of them. `deckport convert --duplicate-guids new-guid` must give
  a package from which every note arrives (the later one under its new GUID);
  `--duplicate-guids keep-first` one from which the first note arrives, with its fields; the
  default (`fail`) refuses with exit status 1.
* Extreme numbers (docs/damage.md): the source package itself is refused by Anki
  ("IntegralValueOutOfRange") or read with 0 in place of the value; deckport's package of it
  imports, with each value clamped into the range Anki reads, as deckport's warning says.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import zipfile

import pytest

from conftest import PACKAGE_DIR
from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from anki.collection import (  # noqa: E402
    Collection,
    ExportAnkiPackageOptions,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)

SOURCE = os.path.join(PACKAGE_DIR, "legacy2_sched.apkg")
FIRST, SECOND = 1795331276845, 1795331276846
GUID = "An7DBu|ids"
MAX = 2**63 - 1


def altered(folder: str, sql: str) -> str:
    """The legacy fixture with `sql` run on its collection."""
    scratch = tempfile.mkdtemp(dir=folder)
    with zipfile.ZipFile(SOURCE) as source:
        database = source.extract("collection.anki21", scratch)
        with sqlite3.connect(database) as db:
            db.executescript(sql)
        db.close()
        out = os.path.join(folder, "altered.apkg")
        with zipfile.ZipFile(out, "w") as package:
            for name in source.namelist():
                if name == "collection.anki21":
                    package.write(database, name)
                else:
                    package.writestr(name, source.read(name))
    return out


def imported(folder: str, package: str):
    """(import log, {note id: (guid, first field)}, cards rows) of `package` imported into a
    fresh collection."""
    target = tempfile.mkdtemp(dir=folder)
    col = Collection(os.path.join(target, "collection.anki2"))
    try:
        log = col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=os.path.abspath(package),
                options=ImportAnkiPackageOptions(
                    merge_notetypes=False, with_scheduling=True, with_deck_configs=True
                ),
            )
        ).log
        notes = {nid: (guid, flds.split("\x1f")[0]) for nid, guid, flds in col.db.all("select id, guid, flds from notes")}
        cards = col.db.all("select id, nid, due, ivl, factor, reps, lapses from cards order by id")
        return log, notes, cards
    finally:
        col.close()


# --------------------------------------------------------------------------------------------
# Duplicate GUIDs


@pytest.fixture()
def duplicate(tmp_path) -> str:
    return altered(str(tmp_path), f"UPDATE notes SET guid = '{GUID}' WHERE id = {SECOND}")


def test_anki_keeps_both_notes_but_a_second_import_updates_one(duplicate, tmp_path):
    """What Anki does with the source itself: both notes arrive in an empty collection, under
    one GUID; importing the package again (with both notes changed) updates only one of them,
    with the changes of both."""
    target = tempfile.mkdtemp(dir=str(tmp_path))
    col = Collection(os.path.join(target, "collection.anki2"))
    options = ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True, with_deck_configs=True)
    changed = altered(
        tempfile.mkdtemp(dir=str(tmp_path)),
        f"UPDATE notes SET guid = '{GUID}' WHERE id = {SECOND};"
        f"UPDATE notes SET flds = 'one' || char(31) || 'x', mod = mod + 100 WHERE id = {FIRST};"
        f"UPDATE notes SET flds = 'two' || char(31) || 'y', mod = mod + 100 WHERE id = {SECOND};",
    )
    try:
        first = col.import_anki_package(ImportAnkiPackageRequest(package_path=duplicate, options=options)).log
        assert len(first.new) == 9
        assert col.db.scalar(f"select count(*) from notes where guid = ?", GUID) == 2
        second = col.import_anki_package(ImportAnkiPackageRequest(package_path=changed, options=options)).log
        assert len(second.updated) == 2
        fields = sorted(flds.split("\x1f")[0] for flds in col.db.list("select flds from notes where guid = ?", GUID))
        assert "one" not in fields  # the first note's change is lost
    finally:
        col.close()


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern"])
def test_empty_guids_are_named_and_given_guids(tmp_path, fmt):
    """Two notes whose GUID is empty: Anki imports them as they are, both under the empty GUID,
    so a later import could not tell them apart. deckport's reader names each (`guid-empty`,
    and `--strict` fails), and its package gives each a GUID derived from its note type and
    fields, under which the backend imports every note."""
    source = altered(str(tmp_path), f"UPDATE notes SET guid = '' WHERE id IN ({FIRST}, {SECOND})")
    _, as_anki_has_them, _ = imported(str(tmp_path), source)
    assert as_anki_has_them[FIRST][0] == as_anki_has_them[SECOND][0] == ""

    out = str(tmp_path / f"out-{fmt}.apkg")
    result = deckport("convert", source, out, "--to", fmt)
    assert result.returncode == 0, result.stderr
    named = [line for line in result.stderr.splitlines() if "[guid-empty]" in line]
    assert [f"table notes, row {FIRST}:" in named[0], f"table notes, row {SECOND}:" in named[1]] == [True, True], (
        result.stderr
    )
    assert len(named) == 2
    _, notes, _ = imported(str(tmp_path), out)
    assert len(notes) == len(as_anki_has_them)
    assert notes[FIRST][0] and notes[SECOND][0] and notes[FIRST][0] != notes[SECOND][0]

    strict = str(tmp_path / f"strict-{fmt}.apkg")
    result = deckport("convert", source, strict, "--to", fmt, "--strict")
    assert result.returncode == 1 and "[guid-empty]" in result.stderr, result.stderr
    assert not os.path.exists(strict)


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern"])
def test_new_guid_every_note_arrives(duplicate, tmp_path, fmt):
    out = str(tmp_path / "new-guid.apkg")
    result = deckport("convert", duplicate, out, "--to", fmt, "--duplicate-guids", "new-guid")
    assert result.returncode == 0, result.stderr
    assert f"note {SECOND}: warning: [guid-duplicate]" in result.stderr
    log, notes, _ = imported(str(tmp_path), out)
    assert len(log.new) == 9
    assert len(notes) == 9
    assert notes[FIRST][0] == GUID
    assert notes[SECOND][0] != GUID
    assert f"'{notes[SECOND][0]}'" in result.stderr  # the warning names the new GUID


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern"])
def test_keep_first_the_first_note_arrives(duplicate, tmp_path, fmt):
    with zipfile.ZipFile(SOURCE) as source:
        scratch = tempfile.mkdtemp(dir=str(tmp_path))
        with sqlite3.connect(source.extract("collection.anki21", scratch)) as db:
            first_field = db.execute(f"select flds from notes where id = {FIRST}").fetchone()[0].split("\x1f")[0]
        db.close()
    out = str(tmp_path / "keep-first.apkg")
    result = deckport("convert", duplicate, out, "--to", fmt, "--duplicate-guids", "keep-first")
    assert result.returncode == 0, result.stderr
    assert f"note {SECOND}: warning: [guid-duplicate]" in result.stderr
    assert "it is left out, with its cards" in result.stderr
    log, notes, cards = imported(str(tmp_path), out)
    assert len(log.new) == 8
    assert notes[FIRST] == (GUID, first_field)
    assert SECOND not in notes
    assert all(nid != SECOND for _, nid, *_ in cards)


def test_default_refuses(duplicate, tmp_path):
    out = str(tmp_path / "refused.apkg")
    result = deckport("convert", duplicate, out)
    assert result.returncode == 1
    assert f"note {SECOND}: note has the GUID '{GUID}' of note {FIRST}" in result.stderr
    assert not os.path.exists(out)


# --------------------------------------------------------------------------------------------
# Extreme numbers


def test_huge_due_negative_ivl_and_factor(tmp_path):
    source = altered(str(tmp_path), f"UPDATE cards SET due = {MAX}, ivl = -5, factor = -100 WHERE id = {FIRST}")
    # The source as it is: Anki refuses the whole package.
    with pytest.raises(Exception, match="IntegralValueOutOfRange"):
        imported(str(tmp_path), source)
    for fmt in ["apkg", "apkg-modern"]:
        out = str(tmp_path / f"{fmt}.apkg")
        result = deckport("convert", source, out, "--to", fmt)
        assert result.returncode == 0, result.stderr
        assert f"card {FIRST}: warning: [value-clamped] due {MAX} is written as 2147483647, ivl -5 is written as 0, factor -100 is written as 0" in result.stderr
        log, _, cards = imported(str(tmp_path), out)
        assert len(log.new) == 9
        card = next(row for row in cards if row[0] == FIRST)
        # Anki keeps the new position deckport wrote (the largest it reads), ivl and factor 0.
        assert card[2:5] == [2147483647, 0, 0]


# Each extreme value, into each Anki package format, judged by the real backend: the package
# imports, and Anki holds the value deckport clamped it to.
REVIEW = 1795331276887
EXTREMES = [
    # (SQL on the source, query on Anki's collection after import, the value Anki must hold)
    (f"UPDATE cards SET reps = {MAX} WHERE id = {FIRST}", f"SELECT reps FROM cards WHERE id = {FIRST}", 4294967295),
    (f"UPDATE cards SET lapses = -1 WHERE id = {FIRST}", f"SELECT lapses FROM cards WHERE id = {FIRST}", 0),
    (f"UPDATE cards SET ivl = {2**32} WHERE id = {FIRST}", f"SELECT ivl FROM cards WHERE id = {FIRST}", 4294967295),
    (f"UPDATE cards SET flags = 300 WHERE id = {FIRST}", f"SELECT flags FROM cards WHERE id = {FIRST}", 255),
    (f"UPDATE revlog SET ease = 300 WHERE id = {REVIEW}", f"SELECT ease FROM revlog WHERE id = {REVIEW}", 255),
    (f"UPDATE revlog SET ivl = {MAX} WHERE id = {REVIEW}", f"SELECT ivl FROM revlog WHERE id = {REVIEW}", 2147483647),
    (f"UPDATE revlog SET factor = -1 WHERE id = {REVIEW}", f"SELECT factor FROM revlog WHERE id = {REVIEW}", 0),
    # Types, queues and review kinds Anki does not define: a card's makes the import fail even
    # within the column's width; a review's is read as 0.
    (f"UPDATE cards SET type = 4 WHERE id = {FIRST}", f"SELECT type FROM cards WHERE id = {FIRST}", 3),
    (f"UPDATE cards SET queue = 5 WHERE id = {FIRST}", f"SELECT count(*) FROM cards WHERE id = {FIRST}", 1),
    (f"UPDATE cards SET queue = {2**31} WHERE id = {FIRST}", f"SELECT count(*) FROM cards WHERE id = {FIRST}", 1),
    (f"UPDATE revlog SET type = 6 WHERE id = {REVIEW}", f"SELECT type FROM revlog WHERE id = {REVIEW}", 5),
]


def restored(folder: str, package: str) -> Collection:
    """A fresh collection (in a new folder under `folder`) that `package` was imported into, with
    scheduling and deck presets; a .colpkg restored as Anki restores a backup. The caller closes it."""
    from anki_view import _import_colpkg

    col = Collection(os.path.join(tempfile.mkdtemp(dir=folder), "collection.anki2"))
    try:
        if package.endswith(".colpkg"):
            _import_colpkg(col, package)
        else:
            col.import_anki_package(
                ImportAnkiPackageRequest(
                    package_path=os.path.abspath(package),
                    options=ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True, with_deck_configs=True),
                )
            )
    except BaseException:
        col.close()
        raise
    return col


def imported_value(folder: str, package: str, query: str, every: bool = False):
    """`query`'s single value (or, `every`, its first column's values) in a fresh collection
    `package` was imported into (a .colpkg restored as Anki restores a backup)."""
    col = restored(folder, package)
    try:
        return col.db.list(query) if every else col.db.scalar(query)
    finally:
        col.close()


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern", "colpkg", "colpkg-modern"])
@pytest.mark.parametrize("sql,query,expected", EXTREMES)
def test_each_clamped_value_imports_into_anki(tmp_path, fmt, sql, query, expected):
    source = altered(str(tmp_path), sql)
    out = str(tmp_path / ("out." + fmt.split("-")[0]))
    result = deckport("convert", source, out, "--to", fmt)
    assert result.returncode == 0, result.stderr
    assert "[value-clamped]" in result.stderr
    assert imported_value(str(tmp_path), out, query) == expected


@pytest.mark.parametrize("fmt", ["colpkg", "colpkg-modern"])
def test_a_collection_creation_time_beyond_ankis_range_is_clamped_and_restores(tmp_path, fmt):
    source = altered(str(tmp_path), f"UPDATE col SET crt = {MAX}")
    out = str(tmp_path / "out.colpkg")
    result = deckport("convert", source, out, "--to", fmt)
    assert result.returncode == 0, result.stderr
    assert "creation time" in result.stderr
    assert imported_value(str(tmp_path), out, "SELECT crt FROM col") == 8210266876799


@pytest.mark.parametrize("fmt", ["colpkg", "colpkg-modern"])
@pytest.mark.parametrize("mode", ["new-guid", "keep-first"])
def test_duplicate_guid_modes_restore_as_collections(duplicate, tmp_path, fmt, mode):
    out = str(tmp_path / "out.colpkg")
    result = deckport("convert", duplicate, out, "--to", fmt, "--duplicate-guids", mode)
    assert result.returncode == 0, result.stderr
    notes = imported_value(str(tmp_path), out, "SELECT count(*) FROM notes")
    guids = imported_value(str(tmp_path), out, "SELECT count(DISTINCT guid) FROM notes")
    assert guids == notes
    assert notes == (9 if mode == "new-guid" else 8)


def test_guids_that_differ_only_in_unicode_composition_are_two_notes(tmp_path):
    """The real backend keeps the GUIDs `café` (precomposed) and `café` (e + U+0301) apart: two
    notes, and importing its package again matches each. deckport read its export, then refused
    to write a package of it (`note has the GUID 'café' of note …`), and a CSV of it came back
    with the second note under a new GUID, a duplicate on the next import. Now every way through
    keeps both GUIDs exactly, and the backend imports two notes, then updates them."""
    guids = ["caf\u00e9", "cafe\u0301"]
    made = Collection(str(tmp_path / "made.anki2"))
    try:
        basic = made.models.by_name("Basic")
        for guid, front in zip(guids, ["one", "two"]):
            note = made.new_note(basic)
            note["Front"] = front
            note.guid = guid
            made.add_note(note, made.decks.id("Default"))
        exported = str(tmp_path / "anki.apkg")
        made.export_anki_package(
            out_path=exported,
            options=ExportAnkiPackageOptions(
                with_scheduling=False, with_deck_configs=False, with_media=False, legacy=False
            ),
            limit=None,
        )
    finally:
        made.close()
    outputs = []
    for fmt in ("apkg", "apkg-modern", "colpkg"):
        out = str(tmp_path / f"out-{fmt}.{fmt.split('-')[0]}")
        result = deckport("convert", exported, out, "--to", fmt)
        assert result.returncode == 0, result.stderr
        outputs.append(out)
    csv = str(tmp_path / "notes.csv")
    result = deckport("convert", exported, csv)
    assert result.returncode == 0, result.stderr
    through_csv = str(tmp_path / "through-csv.apkg")
    result = deckport("convert", csv, through_csv)
    assert result.returncode == 0, result.stderr
    assert "csv-guid" not in result.stderr
    outputs.append(through_csv)
    for out in outputs:
        assert sorted(imported_value(str(tmp_path), out, "SELECT guid FROM notes", every=True)) == sorted(guids), out
    # A second import of deckport's package into the collection that imported it adds nothing.
    target = Collection(str(tmp_path / "target.anki2"))
    try:
        for _ in range(2):
            target.import_anki_package(
                ImportAnkiPackageRequest(package_path=outputs[0], options=ImportAnkiPackageOptions())
            )
        assert sorted(guid for (guid,) in target.db.all("SELECT guid FROM notes")) == sorted(guids)
    finally:
        target.close()


def test_a_csv_or_crowdanki_folder_keeps_shared_guids_and_says_what_anki_does_with_them(duplicate, tmp_path):
    """A CSV file with a guid column and a CrowdAnki folder keep GUIDs as they are, so two notes
    sharing one are both written with it, and a `guid-duplicate` warning names the later note.
    The warning's claim is the real backend's behaviour: its CSV import adds both notes, and an
    edited file imported again updates only one of them (the other's edit is lost)."""
    from test_csv_helpers import import_csv

    csv = str(tmp_path / "notes.csv")
    result = deckport("convert", duplicate, csv, "-v")
    assert result.returncode == 0, result.stderr
    warning = (
        f"note {SECOND}: warning: [guid-duplicate] note has the GUID '{GUID}' of note {FIRST}, and both are "
        "written with it; Anki's CSV import matches notes by GUID, so importing it again after an edit would "
        "update only one of them"
    )
    assert warning in result.stderr
    with open(csv, encoding="utf-8") as handle:
        text = handle.read()
    rows = [line for line in text.splitlines() if line.startswith(GUID + ",")]
    assert len(rows) == 2
    edited = str(tmp_path / "edited.csv")
    with open(edited, "w", encoding="utf-8") as handle:
        handle.write(text.replace(rows[0], rows[0].replace("Hello", "Edited one"), 1).replace("Plain,", "Edited two,", 1))
    col = Collection(str(tmp_path / "csv.anki2"))
    try:
        import_csv(col, csv)
        assert col.db.scalar(f"SELECT count(*) FROM notes WHERE guid = '{GUID}'") == 2
        import_csv(col, edited)
        firsts = [flds.split("\x1f")[0] for (flds,) in col.db.all(f"SELECT flds FROM notes WHERE guid = '{GUID}'")]
        assert sum("Edited" in first for first in firsts) == 1, firsts
    finally:
        col.close()
    assert deckport("convert", duplicate, str(tmp_path / "strict.csv"), "--strict").returncode == 1

    folder = str(tmp_path / "crowdanki")
    result = deckport("convert", duplicate, folder, "--to", "crowdanki", "-v")
    assert result.returncode == 0, result.stderr
    assert f"note {SECOND}: warning: [guid-duplicate]" in result.stderr
    assert "CrowdAnki's import matches notes by GUID" in result.stderr

    # Without a guid column, no GUID is written, and no such warning is given.
    plain = str(tmp_path / "plain.csv")
    result = deckport("convert", duplicate, plain, "--header", "--columns", "front,back", "-v")
    assert result.returncode == 0, result.stderr
    assert "guid-duplicate" not in result.stderr
