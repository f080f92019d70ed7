"""The Anki packages deckport writes, judged by the real Anki backend.

For every fixture package P (conftest.fixture_packages()) and every output format F, the
deckport binary (DECKPORT_BIN, default <repo>/.build/debug/deckport) runs
`deckport convert P OUT --to F --verbose`, and the real backend imports OUT:

* test_anki_sees_the_source: anki_view(OUT) must equal anki_view(P), the live truth, key by key:
  notes (GUID, note type, fields, tags, modification time), cards (deck and every scheduling
  column), note types (fields, templates, CSS, sort field), decks holding cards, media (name and
  SHA-1), missing media, the review log and the counts. The only allowances are differences
  Anki itself makes between importing a deck package and restoring a collection package; each
  is applied only where it applies and is checked precisely (see `expected_view`):

  1. An .apkg written from a .colpkg carries only what Anki's own exporter would put in one:
     the note types the notes use (anki_view lists every note type of a restored collection
     but only the used ones of an imported deck package), and the media files Anki's exporter
     takes along when the backend exports the same collection as an .apkg (those a note refers
     to, the LaTeX images its LaTeX names, '_' files a note type refers to), and besides the
     files Anki's import of a deck package keeps though nothing refers to them ('_' and
     'latex-' files: its exporter leaves them out, but deckport loses nothing its import
     keeps). Every file left out must be named in a `[media-unused]` warning, and every note
     type left out in a `[note-type-unused]` warning.
  2. A .colpkg written from an .apkg is a whole collection, restored as it is: it keeps the
     note types and media files of the package that Anki's deck import skips (note types no
     note uses; files nothing refers to, other than '_' and 'latex-' files). The view of our
     .colpkg may therefore hold extra note types, each used by no note, and extra files, each
     referred to by no note.
  3. Tag order: a deck import stores each note's tags sorted, as Anki canonicalises them; a
     collection restore keeps the stored order, which deckport keeps from the source. For
     .colpkg outputs tags are compared as sorted lists.

* test_sort_field_and_checksum_match_anki: `notes.sfld` and `notes.csum` as written (legacy
  .apkg, read with sqlite3) equal what Anki computes for the same notes when it imports them.
* test_second_import_adds_no_notes: importing the same written .apkg twice into one collection
  adds every note the first time and none the second (GUIDs and ids are kept, so Anki sees
  the same notes).
* test_check_database_repairs_nothing_new: Anki's Check Database, run on the collection our
  package gives (an .apkg imported into a fresh collection, a .colpkg restored), reports exactly
  what it reports on the collection the source package gives: the written collection is as
  sound as Anki's own (a parent deck missing from a collection, for example, would show).
* test_filtered_decks_descriptions_and_option_groups: a collection built here with the real
  backend holds what the fixtures lack (a filtered deck with borrowed cards, a deck description,
  a second option group). Its .colpkg, converted to each format, must give Anki the same decks,
  option groups, deck-to-group links and card placement (`did`, `odid`, `odue`, queue, type,
  due) as Anki's own package of that collection of the same kind.
* test_deck_options_survive: a .colpkg written from a .colpkg restores with the same option
  groups (Anki's own schema-11 view of them, `col.decks.all_config()`), whether the source held
  them as legacy JSON or as schema-18 protobuf.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import zipfile

import pytest

from conftest import deckport_binary, fixture_packages, truth_path

DECKPORT = deckport_binary()

from anki.collection import (  # noqa: E402  (after the skip, like the other checks)
    Collection,
    ExportAnkiPackageOptions,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)

from anki_view import _import_colpkg, anki_view, referenced_media  # noqa: E402

PACKAGES = fixture_packages()


def truth(package: str) -> dict:
    """The committed anki_view of `package`."""
    with open(truth_path(package), encoding="utf-8") as handle:
        return json.load(handle)

FORMATS = {"apkg": ".apkg", "apkg-modern": ".apkg", "colpkg": ".colpkg", "colpkg-modern": ".colpkg"}

_SCRATCH = tempfile.mkdtemp(prefix="deckport_writer_")
atexit.register(shutil.rmtree, _SCRATCH, ignore_errors=True)

# --------------------------------------------------------------------------------------------
# Converting and importing


_CONVERTED: dict[tuple[str, str], tuple[str, str]] = {}


def convert(package: str, fmt: str) -> tuple[str, str]:
    """(path of `deckport convert package --to fmt`, its standard error), once per session."""
    key = (package, fmt)
    if key not in _CONVERTED:
        out = os.path.join(_SCRATCH, f"{os.path.basename(package)}--{fmt}{FORMATS[fmt]}")
        result = subprocess.run(
            [DECKPORT, "convert", package, out, "--to", fmt, "--verbose"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, (
            f"deckport convert {os.path.basename(package)} --to {fmt} exited {result.returncode}\n"
            f"stderr: {result.stderr}"
        )
        _CONVERTED[key] = (out, result.stderr)
    return _CONVERTED[key]


_VIEWS: dict[str, dict] = {}


def view_of(path: str) -> dict:
    if path not in _VIEWS:
        _VIEWS[path] = anki_view(path)
    return _VIEWS[path]


def fresh_collection(folder: str) -> Collection:
    os.makedirs(folder, exist_ok=True)
    return Collection(os.path.join(folder, "collection.anki2"))


def import_apkg(col: Collection, package: str):
    return col.import_anki_package(
        ImportAnkiPackageRequest(
            package_path=os.path.abspath(package),
            options=ImportAnkiPackageOptions(
                merge_notetypes=False, with_scheduling=True, with_deck_configs=True
            ),
        )
    )


def restored_deck_configs(package: str) -> list[dict]:
    """The option groups of a restored .colpkg, as Anki shows them (schema-11 dicts)."""
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(folder)
    col_path = col.path
    col.close()
    col._backend.import_collection_package(
        col_path=col_path,
        backup_path=os.path.abspath(package),
        media_folder=os.path.join(folder, "collection.media"),
        media_db=os.path.join(folder, "collection.media.db2"),
    )
    col.reopen()
    try:
        return sorted(col.decks.all_config(), key=lambda c: c["id"])
    finally:
        col.close()


# --------------------------------------------------------------------------------------------
# The expected view


def kind(path: str) -> str:
    return "colpkg" if path.endswith(".colpkg") else "apkg"


def anki_deck_export(colpkg: str, legacy: bool) -> str:
    """The path of the .apkg Anki's own exporter makes of the whole collection `colpkg`
    restores (``export_with_anki``)."""
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _import_colpkg(col, colpkg)
        out = os.path.join(folder, "anki-export.apkg")
        export_with_anki(col, out, legacy=legacy)
    finally:
        col.close()
    return out


def export_with_anki(col: Collection, path: str, legacy: bool) -> None:
    """The whole of `col` as an .apkg at `path`, by Anki's own exporter, with scheduling, deck
    options and media; in the legacy layout or the latest."""
    col.export_anki_package(
        out_path=path,
        options=ExportAnkiPackageOptions(
            legacy=legacy, with_scheduling=True, with_deck_configs=True, with_media=True
        ),
        limit=None,
    )


_EXPORTED_MEDIA: dict[str, set[str]] = {}


def anki_exported_media(colpkg: str) -> set[str]:
    """The media files Anki's own exporter puts in an .apkg of the whole collection `colpkg`
    restores (with scheduling and media, as deckport writes an .apkg from a .colpkg): those the
    notes refer to, LaTeX images the notes' LaTeX names, and '_' files the note types refer to."""
    if colpkg not in _EXPORTED_MEDIA:
        out = anki_deck_export(colpkg, legacy=True)
        with zipfile.ZipFile(out) as archive:
            _EXPORTED_MEDIA[colpkg] = set(json.loads(archive.read("media")).values())
    return _EXPORTED_MEDIA[colpkg]


def expected_view(truth: dict, source: str, out: str, ours: dict, stderr: str) -> dict:
    """The truth with the allowances of the module docstring applied where they apply."""
    expected = {key: value for key, value in truth.items()}
    if kind(source) == "colpkg" and kind(out) == "apkg":
        used = {note["noteType"] for note in truth["notes"]}
        expected["noteTypes"] = [t for t in truth["noteTypes"] if t["name"] in used]
        for dropped in truth["noteTypes"]:
            if dropped["name"] not in used:
                assert f"note type '{dropped['name']}'" in stderr and "[note-type-unused]" in stderr, (
                    f"note type {dropped['name']!r} was left out without a warning"
                )
        keep = anki_exported_media(source) | {n for n in truth["media"] if n.startswith(("_", "latex-"))}
        expected["media"] = {n: s for n, s in truth["media"].items() if n in keep}
        for name in truth["media"]:
            if name not in keep:
                assert f"media file '{name}': warning: [media-unused]" in stderr, (
                    f"media file {name!r} was left out without a warning"
                )
        expected["counts"] = dict(truth["counts"], media=len(expected["media"]))
        # A collection keeps the review log of cards it deleted (no note, ord -1 in the view); a
        # deck package holds only its cards' reviews, as Anki's own export does.
        orphans = sum(1 for review in truth["reviews"] if review["noteGuid"] == "")
        if orphans:
            assert f"[reviews-unused] {orphans} review-log entr" in stderr, "reviews were left out without a warning"
            expected["reviews"] = [review for review in truth["reviews"] if review["noteGuid"] != ""]
            expected["counts"]["reviews"] = len(expected["reviews"])
    if kind(source) == "apkg" and kind(out) == "colpkg":
        used = {note["noteType"] for note in ours["notes"]}
        extra_types = [t for t in ours["noteTypes"] if t not in truth["noteTypes"]]
        assert all(t["name"] not in used for t in extra_types), "an extra note type is in use"
        expected["noteTypes"] = sorted(truth["noteTypes"] + extra_types, key=lambda t: t["name"])
        referenced = referenced_media(ours["notes"], ours["noteTypes"])
        extra_media = {n: s for n, s in ours["media"].items() if n not in truth["media"]}
        assert not (set(extra_media) & referenced), "an extra media file is referenced"
        expected["media"] = dict(truth["media"], **extra_media)
        expected["counts"] = dict(truth["counts"], media=len(expected["media"]))
    if kind(out) == "colpkg":
        expected["notes"] = [dict(n, tags=sorted(n["tags"])) for n in truth["notes"]]
    return expected


def comparable(view: dict, out: str) -> dict:
    if kind(out) == "colpkg":
        view = dict(view, notes=[dict(n, tags=sorted(n["tags"])) for n in view["notes"]])
    return view


def first_difference(expected, actual, path="$"):
    if type(expected) is not type(actual):
        return f"{path}: expected {expected!r}, got {actual!r}"
    if isinstance(expected, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in actual:
                return f"{path}.{key}: missing"
            if key not in expected:
                return f"{path}.{key}: unexpected {actual[key]!r}"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        for index, (a, b) in enumerate(zip(expected, actual)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        return None
    return None if expected == actual else f"{path}: expected {expected!r}, got {actual!r}"


# --------------------------------------------------------------------------------------------
# Tests


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_anki_sees_the_source(package, fmt, live_view):
    out, stderr = convert(package, fmt)
    truth = live_view(package)
    ours = comparable(view_of(out), out)
    expected = expected_view(truth, package, out, ours, stderr)
    for key in ("notes", "cards", "noteTypes", "decks", "media", "missingMedia", "reviews", "counts"):
        difference = first_difference(expected[key], ours[key], key)
        assert difference is None, f"{os.path.basename(out)}: {difference}"


def convert_through_json(package: str, fmt: str) -> tuple[str, str]:
    """(path of package -> JSON -> fmt, the standard error of the second conversion)."""
    middle = os.path.join(_SCRATCH, f"{os.path.basename(package)}.json")
    if not os.path.exists(middle):
        first = subprocess.run([DECKPORT, "convert", package, middle], capture_output=True, text=True, timeout=600)
        assert first.returncode == 0, first.stderr
    out = os.path.join(_SCRATCH, f"{os.path.basename(package)}--json--{fmt}{FORMATS[fmt]}")
    second = subprocess.run(
        [DECKPORT, "convert", middle, out, "--to", fmt, "--verbose", "--force"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert second.returncode == 0, f"deckport convert {os.path.basename(middle)} --to {fmt}: {second.stderr}"
    return out, second.stderr


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern", "colpkg"])
@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_through_json_and_back(package, fmt, live_view):
    """Package -> deckport JSON -> package: Anki must see exactly what the direct conversion
    gives it (the same allowances, applied the same way)."""
    out, stderr = convert_through_json(package, fmt)
    truth = live_view(package)
    ours = comparable(view_of(out), out)
    expected = expected_view(truth, package, out, ours, stderr)
    for key in ("notes", "cards", "noteTypes", "decks", "media", "missingMedia", "reviews", "counts"):
        difference = first_difference(expected[key], ours[key], key)
        assert difference is None, f"{os.path.basename(out)} (through JSON): {difference}"


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_sort_field_and_checksum_match_anki(package):
    out, _ = convert(package, "apkg")
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    with zipfile.ZipFile(out) as archive:
        archive.extract("collection.anki21", folder)
    written = sqlite3.connect(os.path.join(folder, "collection.anki21"))
    try:
        ours = {g: (s, c) for g, s, c in written.execute("select guid, sfld, csum from notes")}
    finally:
        written.close()
    col = fresh_collection(os.path.join(folder, "target"))
    try:
        import_apkg(col, out)
        anki = {g: (s, c) for g, s, c in col.db.all("select guid, sfld, csum from notes")}
    finally:
        col.close()
    assert len(ours) == len(anki)
    for guid, value in anki.items():
        assert ours.get(guid) == value, f"note {guid}: wrote (sfld, csum) {ours.get(guid)!r}, Anki computes {value!r}"


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern"])
@pytest.mark.parametrize("package", [p for p in PACKAGES if truth(p)["notes"]], ids=os.path.basename)
def test_second_import_adds_no_notes(package, fmt):
    out, _ = convert(package, fmt)
    col = fresh_collection(tempfile.mkdtemp(dir=_SCRATCH))
    try:
        first = import_apkg(col, out).log
        count = col.note_count()
        second = import_apkg(col, out).log
        assert len(first.new) == count > 0
        assert len(second.new) == 0, f"the second import added {len(second.new)} notes"
        assert len(second.duplicate) + len(second.updated) == count
        assert col.note_count() == count
    finally:
        col.close()


@pytest.mark.parametrize("fmt", ["colpkg", "colpkg-modern"])
@pytest.mark.parametrize(
    "package", [p for p in PACKAGES if kind(p) == "colpkg"], ids=os.path.basename
)
def test_deck_options_survive(package, fmt):
    out, _ = convert(package, fmt)
    assert restored_deck_configs(out) == restored_deck_configs(package)


def anki_made_collection_package(name: str, edit, legacy: bool = False) -> str:
    """A collection the backend makes and `edit(col)` changes, exported by the backend as the
    collection package `name` in the latest layout (or the legacy one)."""
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(os.path.join(folder, "source"))
    try:
        edit(col)
        path = os.path.join(folder, name)
        col.export_collection_package(path, include_media=True, legacy=legacy)
    finally:
        if col.db:
            col.close()
    return path


@pytest.fixture(scope="module")
def anki_made_option_groups() -> str:
    """A collection made by the backend whose `Default` option group was changed (so it waits
    for a sync: usn -1, kept by schema 18 outside the group's protobuf) and which has a second
    group, given to a deck that holds a note (so that a deck export carries the group too)."""

    def edit(col: Collection) -> None:
        default = col.decks.get_config(1)
        default["new"]["perDay"] = 33
        default["desiredRetention"] = 0.85
        col.decks.update_config(default)
        deck = col.decks.get(col.decks.id("Spanish"))
        deck["conf"] = col.decks.add_config_returning_id("Fast")
        col.decks.save(deck)
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"] = "hola"
        col.add_note(note, deck["id"])

    return anki_made_collection_package("option-groups.colpkg", edit)


def test_option_groups_made_by_anki_survive(anki_made_option_groups):
    """Anki's restore of what deckport writes (both layouts, and through JSON) has the option
    groups of its restore of the original, every member the same, the sync state included."""
    expected = restored_deck_configs(anki_made_option_groups)
    assert [config["usn"] for config in expected if config["id"] == 1] == [-1], expected
    assert sorted(config["name"] for config in expected) == ["Default", "Fast"]
    outputs = [convert(anki_made_option_groups, fmt) for fmt in ("colpkg", "colpkg-modern")]
    outputs.append(convert_through_json(anki_made_option_groups, "colpkg"))
    for out, _ in outputs:
        assert restored_deck_configs(out) == expected, os.path.basename(out)


def imported_deck_configs(package: str) -> list[dict]:
    """The option groups of a fresh collection after Anki's import of the deck package (with
    its deck configs), as Anki shows them, without `mod` (the import's own time)."""
    col = fresh_collection(tempfile.mkdtemp(dir=_SCRATCH))
    try:
        import_apkg(col, package)
        configs = sorted(col.decks.all_config(), key=lambda c: c["name"])
        return [{key: value for key, value in config.items() if key != "mod"} for config in configs]
    finally:
        col.close()


def test_option_groups_made_by_anki_survive_anki_import(anki_made_option_groups):
    """Anki's import of deckport's deck packages of the collection (both layouts) gives the
    option groups Anki's import of its own deck export gives, every member but `mod` the same."""
    expected = imported_deck_configs(anki_deck_export(anki_made_option_groups, legacy=False))
    # Anki's import keeps the collection's own Default group (id 1); the imported Fast is new.
    assert sorted(config["name"] for config in expected) == ["Default", "Fast"], expected
    for fmt in ("apkg", "apkg-modern"):
        out, _ = convert(anki_made_option_groups, fmt)
        assert imported_deck_configs(out) == expected, fmt


class _ZstdBuffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t), ("pos", ctypes.c_size_t)]


def zstd_frame_content(frame: bytes) -> bytes:
    """The content of a zstd frame, decoded by the system's libzstd (the library deckport links;
    no Python package for zstd is installed), streaming, as the frame need not record its size."""
    library = ctypes.CDLL(ctypes.util.find_library("zstd"))
    library.ZSTD_createDStream.restype = ctypes.c_void_p
    library.ZSTD_freeDStream.argtypes = [ctypes.c_void_p]
    library.ZSTD_decompressStream.restype = ctypes.c_size_t
    library.ZSTD_decompressStream.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    library.ZSTD_isError.argtypes = [ctypes.c_size_t]
    stream = library.ZSTD_createDStream()
    source = ctypes.create_string_buffer(frame, len(frame))
    chunk = ctypes.create_string_buffer(1 << 20)
    given = _ZstdBuffer(ctypes.cast(source, ctypes.c_void_p), len(frame), 0)
    content = bytearray()
    try:
        while True:
            made = _ZstdBuffer(ctypes.cast(chunk, ctypes.c_void_p), len(chunk), 0)
            left = library.ZSTD_decompressStream(stream, ctypes.byref(made), ctypes.byref(given))
            assert not library.ZSTD_isError(left), "not a valid zstd frame"
            content += chunk.raw[: made.pos]
            if left == 0 or (given.pos == given.size and made.pos < made.size):
                return bytes(content)
    finally:
        library.ZSTD_freeDStream(stream)


def package_query(package: str, query: str, config_query: str | None = None) -> list[tuple]:
    """The rows `query` gives on the collection a package holds (read with Python's sqlite3);
    `config_query` instead when the collection has a `config` table."""
    with zipfile.ZipFile(package) as archive, tempfile.TemporaryDirectory(dir=_SCRATCH) as folder:
        names = archive.namelist()
        member = next(m for m in ("collection.anki21b", "collection.anki21", "collection.anki2") if m in names)
        data = archive.read(member)
        if member.endswith("b"):
            data = zstd_frame_content(data)
        path = os.path.join(folder, "c.db")
        with open(path, "wb") as handle:
            handle.write(data)
        db = sqlite3.connect(path)
        try:
            has_config = db.execute("select count() from sqlite_master where name = 'config'").fetchone()[0]
            return db.execute(config_query if config_query and has_config else query).fetchall()
        finally:
            db.close()


def package_graves(package: str) -> int:
    """The deletion records (rows of `graves`) in the collection a package holds."""
    return package_query(package, "select count() from graves")[0][0]


def package_setting_keys(package: str) -> set[str]:
    """The keys of the collection settings a package holds (`col.conf`, or the `config` table)."""
    keys = package_query(package, "select null", "select key from config")
    if keys and keys[0][0] is not None:
        return {key for (key,) in keys}
    ((conf,),) = package_query(package, "select conf from col")
    return set(json.loads(conf))


COLPKGS_WITH_GRAVES = [p for p in PACKAGES if kind(p) == "colpkg" and package_graves(p) > 0]


def test_real_collection_packages_hold_deletion_records():
    """The check below is not vacuous: real collection packages hold graves."""
    assert len(COLPKGS_WITH_GRAVES) >= 3, COLPKGS_WITH_GRAVES


def anki_restored(package: str, read):
    """What `read(col)` gives on the collection Anki holds after restoring the collection package."""
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(folder)
    try:
        _import_colpkg(col, package)
        return read(col)
    finally:
        col.close()


def anki_restored_graves(package: str) -> list[tuple[int, int, int]]:
    """The deletion records (oid, type, usn) Anki holds after restoring the collection package."""
    return anki_restored(package, lambda col: sorted(tuple(row) for row in col.db.all("select oid, type, usn from graves")))


@pytest.mark.parametrize("package", COLPKGS_WITH_GRAVES, ids=os.path.basename)
def test_deletion_records_survive_anki_restore(package):
    """Anki's own restore of a collection package keeps its deletion records (graves; schema 18
    keeps one per object and kind). Restoring what deckport writes from it, directly in both
    layouts and through its JSON document, gives Anki the same records, and no conversion
    warns about them."""
    expected = anki_restored_graves(package)
    assert expected
    outputs = [convert(package, fmt) for fmt in ("colpkg", "colpkg-modern")]
    outputs.append(convert_through_json(package, "colpkg-modern"))
    for out, stderr in outputs:
        assert "graves" not in stderr and "deletion" not in stderr, stderr
        assert anki_restored_graves(out) == expected, os.path.basename(out)


def anki_imported_graves(package: str) -> int:
    """The deletion records Anki holds after importing the deck package into a new collection."""
    col = fresh_collection(tempfile.mkdtemp(dir=_SCRATCH))
    try:
        import_apkg(col, package)
        return col.db.scalar("select count() from graves")
    finally:
        col.close()


def anki_restored_config(package: str) -> dict:
    """The collection settings Anki holds after restoring the collection package."""
    return anki_restored(package, lambda col: col.all_config())


# The settings deckport writes a value of its own for when the source has none (a collection
# written by Anki 2.0 lacks them), or when the source's would not fit the collection written.
_GENERATED_SETTINGS = {
    "activeDecks", "addToCur", "collapseTime", "creationOffset", "curDeck", "curModel", "dayLearnFirst",
    "dueCounts", "estTimes", "newSpread", "nextPos", "rollover", "sched2021", "schedVer", "sortBackwards",
    "sortType", "timeLim",
}

COLPKGS = [p for p in PACKAGES if kind(p) == "colpkg"]


@pytest.mark.parametrize("package", COLPKGS, ids=os.path.basename)
def test_settings_survive_anki_restore(package):
    """Anki's restore of what deckport writes from a collection package, directly in both
    layouts and through its JSON document, holds every setting Anki's restore of the original
    holds, with the same value; the only other settings are the defaults deckport writes where
    the source has none. The one exception says so: a `nextPos` below a new card's position is
    raised past every new card's, which Anki's restore of the original keeps as it is."""
    expected = anki_restored_config(package)
    assert len(expected) >= 10, sorted(expected)
    outputs = [convert(package, fmt) for fmt in ("colpkg", "colpkg-modern")]
    outputs.append(convert_through_json(package, "colpkg-modern"))
    restored = expected
    for out, stderr in outputs:
        expected = restored
        ours = anki_restored_config(out)
        lines = stderr.splitlines()
        raised = [line for line in lines if "warning: [setting-changed]" in line]
        # A v1 collection's settings are written as Anki's upgrade writes them (what its restore
        # of the original holds too), and the upgrade's warning says so.
        upgraded = [line for line in lines if "warning: [scheduler-v1-upgraded]" in line]
        assert all("its settings count days as Anki's current scheduler does" in line for line in upgraded), upgraded
        assert "setting" not in "\n".join(line for line in lines if line not in raised + upgraded), stderr
        if raised:
            assert len(raised) == 1 and "table col: setting 'nextPos'" in raised[0], raised
            last_new = anki_restored(out, lambda col: col.db.scalar("select max(due) from cards where type = 0"))
            assert ours["nextPos"] == last_new + 1 > expected["nextPos"], (ours["nextPos"], last_new, expected["nextPos"])
            assert f"is {expected['nextPos']}, but a new card already has position {ours['nextPos'] - 1}" in raised[0]
            expected = dict(expected, nextPos=ours["nextPos"])
        different = {key: (value, ours.get(key)) for key, value in expected.items() if ours.get(key) != value}
        if "creationOffset" not in package_setting_keys(package):
            # Anki's upgrade of a v1 collection sets it from this machine's time zone; deckport
            # writes the zone in which the collection's creation time is 04:00, Anki's day start.
            assert "creationOffset" in ours
            different.pop("creationOffset", None)
        assert not different, f"{os.path.basename(out)}: {different}"
        assert set(ours) - set(expected) <= _GENERATED_SETTINGS, sorted(set(ours) - set(expected))


def anki_restored_decks_and_note_types(package: str) -> tuple[dict, dict, dict]:
    """Anki's schema-11 view of every deck and note type after restoring the collection package
    (`col.decks.all()`, `col.models.all()`, by id), and each note type's card requirements
    (`req`) as Anki computes them when it saves the note type."""

    def read(col: Collection) -> tuple[dict, dict, dict]:
        decks = {deck["id"]: deck for deck in col.decks.all()}
        note_types = {note_type["id"]: note_type for note_type in col.models.all()}
        requirements = {}
        for note_type in col.models.all():
            col.models.update_dict(note_type)
            requirements[note_type["id"]] = col.models.get(note_type["id"])["req"]
        return decks, note_types, requirements

    return anki_restored(package, read)


def assert_decks_and_note_types_restored(package: str, outputs: list[tuple[str, str]]) -> None:
    """Anki's restore of each output holds every deck and note type of Anki's restore of
    `package`, every member the same (collapse state, the day's counts, limits, sync state, a
    note type's last deck, legacy keys), except a note type's `req`, which deckport derives from
    the templates: it must be what Anki derives when it saves the note type."""
    decks, note_types, requirements = anki_restored_decks_and_note_types(package)
    for out, stderr in outputs:
        assert "property" not in stderr, stderr
        our_decks, our_note_types, _ = anki_restored_decks_and_note_types(out)
        name = os.path.basename(out)
        assert first_difference(decks, our_decks, "decks") is None, f"{name}: {first_difference(decks, our_decks, 'decks')}"
        for note_type_id, note_type in note_types.items():
            ours = dict(our_note_types[note_type_id])
            assert ours.pop("req") == requirements[note_type_id], f"{name}: {note_type['name']}"
            expected = {key: value for key, value in note_type.items() if key != "req"}
            difference = first_difference(expected, ours, f"noteTypes[{note_type['name']}]")
            assert difference is None, f"{name}: {difference}"
        assert set(our_note_types) == set(note_types), name


@pytest.mark.parametrize("package", COLPKGS, ids=os.path.basename)
def test_decks_and_note_types_survive_anki_restore(package):
    """A collection package's decks and note types, restored by Anki from what deckport writes
    (both layouts, and through its JSON document), are those Anki restores from the original,
    member for member."""
    outputs = [convert(package, fmt) for fmt in ("colpkg", "colpkg-modern")]
    outputs.append(convert_through_json(package, "colpkg-modern"))
    assert_decks_and_note_types_restored(package, outputs)


def anki_imported_decks_and_note_types(package: str) -> tuple[dict, dict]:
    """Anki's schema-11 view of every deck and of every note type the import added, after
    importing the deck package into a fresh collection, by name, without the ids and
    modification times an import gives anew (the fresh collection's own note types, whose field
    and template ids are random, are left out)."""
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(folder)
    try:
        own = {note_type["id"] for note_type in col.models.all()}
        import_apkg(col, package)
        strip = lambda entry: {k: v for k, v in entry.items() if k not in ("id", "mod")}  # noqa: E731
        decks = {deck["name"]: strip(deck) for deck in col.decks.all()}
        note_types = {m["name"]: strip(m) for m in col.models.all() if m["id"] not in own}
        return decks, note_types
    finally:
        col.close()


@pytest.mark.parametrize("package", [p for p in PACKAGES if kind(p) == "apkg"], ids=os.path.basename)
def test_decks_and_note_types_survive_anki_import(package):
    """A deck package's decks and note types, imported by Anki from what deckport writes (both
    generations, and through its JSON document), are those Anki imports from the original,
    member for member (a filtered deck of Anki 2.1 without preview delays keeps none)."""
    expected = anki_imported_decks_and_note_types(package)
    outputs = [convert(package, fmt) for fmt in ("apkg", "apkg-modern")]
    outputs.append(convert_through_json(package, "apkg-modern"))
    for out, stderr in outputs:
        assert "property" not in stderr, stderr
        difference = first_difference(expected, anki_imported_decks_and_note_types(out), "imported")
        assert difference is None, f"{os.path.basename(out)}: {difference}"


@pytest.fixture(scope="module")
def anki_made_deck_properties() -> dict[str, str]:
    """A collection made by the backend whose decks and note type hold every property a fresh
    one does not (collapsed, the day's counts, a deck's own limits and desired retention, a
    filtered deck's preview delays, a note type's last deck), exported as a collection package in
    both layouts (schema 18 and schema 11)."""
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(os.path.join(folder, "source"))
    try:
        basic = col.models.by_name("Basic")
        deck_id = col.decks.id("Limits::Own")
        note = col.new_note(basic)
        note["Front"], note["Back"] = "q", "a"
        col.add_note(note, deck_id)
        deck = col._backend.get_deck(deck_id)
        deck.normal.review_limit, deck.normal.new_limit = 77, 5
        deck.normal.review_limit_today.limit, deck.normal.review_limit_today.today = 12, 20000
        deck.normal.new_limit_today.limit, deck.normal.new_limit_today.today = 3, 20001
        deck.normal.desired_retention = 0.85
        deck.normal.extend_new, deck.normal.extend_review = 7, 9
        deck.common.study_collapsed, deck.common.browser_collapsed = True, True
        deck.common.last_day_studied = 123
        deck.common.new_studied, deck.common.review_studied = 4, 5
        deck.common.learning_studied, deck.common.milliseconds_studied = 6, 7000
        col._backend.update_deck(deck)
        parent = col.decks.by_name("Limits")
        parent["browserCollapsed"] = True
        col.decks.save(parent)
        filtered_id = col.decks.new_filtered("Preview")
        filtered = col._backend.get_deck(filtered_id)
        filtered.filtered.delays.extend([1.5, 10.0])
        filtered.filtered.preview_delay, filtered.filtered.preview_again_secs = 11, 3
        filtered.filtered.preview_hard_secs, filtered.filtered.preview_good_secs = 4, 5
        col._backend.update_deck(filtered)
        basic = col.models.by_name("Basic")
        basic["did"] = deck_id
        basic["tags"] = ["last", "used"]
        col.models.update_dict(basic)
        packages = {}
        for legacy in (False, True):
            packages["legacy" if legacy else "latest"] = path = os.path.join(folder, f"properties-{legacy}.colpkg")
            if not col.db:
                col.reopen()  # an export closes the collection
            col.export_collection_package(path, include_media=True, legacy=legacy)
    finally:
        if col.db:
            col.close()
    return packages


@pytest.mark.parametrize("layout", ["latest", "legacy"])
def test_deck_properties_made_by_anki_survive(anki_made_deck_properties, layout):
    """The same, on a collection whose decks and note type hold every property (schema 18 in
    the Latest layout, schema 11 in the legacy one); the check is not vacuous: Anki holds them."""
    package = anki_made_deck_properties[layout]
    decks, note_types, _ = anki_restored_decks_and_note_types(package)
    own = next(deck for deck in decks.values() if deck["name"] == "Limits::Own")
    assert own["collapsed"] and own["reviewLimitToday"] == {"limit": 12, "today": 20000}, own
    assert own["desiredRetention"] == 85 and own["newToday"] == [123, 4], own
    preview = next(deck for deck in decks.values() if deck["name"] == "Preview")
    assert preview["delays"] == [1.5, 10.0] and preview["previewAgainSecs"] == 3, preview
    basic = next(note_type for note_type in note_types.values() if note_type["name"] == "Basic")
    assert basic["did"] == own["id"] and basic["tags"] == ["last", "used"], basic
    outputs = [convert(package, fmt) for fmt in ("colpkg", "colpkg-modern")]
    outputs.append(convert_through_json(package, "colpkg-modern"))
    assert_decks_and_note_types_restored(package, outputs)


def anki_restored_tags(package: str) -> list[tuple[str, int, int]]:
    """The rows of the `tags` table (tag, usn, collapsed) Anki holds after restoring the
    collection package, by tag."""
    return anki_restored(package, lambda col: sorted(tuple(row) for row in col.db.all("select tag, usn, collapsed from tags")))


def assert_tags_restored(package: str, outputs: list[tuple[str, str]]) -> None:
    """Anki's restore of each output lists the tags Anki's restore of `package` lists, with the
    same update sequence numbers; a tag expanded in the browser's sidebar comes back collapsed
    (the collections deckport writes keep tags as schema 11 does), and the output's warning
    counts exactly those."""
    expected = anki_restored_tags(package)
    expanded = sum(1 for _, _, collapsed in expected if not collapsed)
    for out, stderr in outputs:
        ours = anki_restored_tags(out)
        assert [(tag, usn) for tag, usn, _ in ours] == [(tag, usn) for tag, usn, _ in expected], os.path.basename(out)
        assert all(collapsed for _, _, collapsed in ours), os.path.basename(out)
        if expanded:
            assert f"[tag-collapse-dropped] {expanded} tag" in stderr, stderr
        else:
            assert "tag-collapse-dropped" not in stderr, stderr


@pytest.mark.parametrize("package", COLPKGS, ids=os.path.basename)
def test_tag_registry_survives_anki_restore(package):
    """A collection package's list of tags, restored by Anki from what deckport writes (both
    layouts, and through its JSON document), is the list Anki restores from the original."""
    outputs = [convert(package, fmt) for fmt in ("colpkg", "colpkg-modern")]
    outputs.append(convert_through_json(package, "colpkg-modern"))
    assert_tags_restored(package, outputs)


@pytest.fixture(scope="module")
def anki_made_tag_registry() -> str:
    """A collection made by the backend whose list of tags holds a parent no note has, a tag
    synced at usn 5 and a tag expanded in the browser, exported as a collection package."""

    def edit(col: Collection) -> None:
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"] = "q"
        note.tags = ["parent::child", "synced", "open"]
        col.add_note(note, 1)
        col.tags.set_collapsed("parent", True)
        col.tags.set_collapsed("open", False)
        col.db.execute("update tags set usn = 5 where tag = 'synced'")

    return anki_made_collection_package("tags.colpkg", edit)


def test_tag_registry_made_by_anki_survives(anki_made_tag_registry):
    """The same, on a list that holds what a list can: the check is not vacuous."""
    tags = anki_restored_tags(anki_made_tag_registry)
    assert ("parent", -1, 1) in tags and ("synced", 5, 1) in tags and ("open", -1, 0) in tags, tags
    outputs = [convert(anki_made_tag_registry, fmt) for fmt in ("colpkg", "colpkg-modern")]
    outputs.append(convert_through_json(anki_made_tag_registry, "colpkg-modern"))
    assert_tags_restored(anki_made_tag_registry, outputs)


PACKAGES_WITH_GRAVES = [p for p in PACKAGES if package_graves(p) > 0]


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern"])
@pytest.mark.parametrize("package", PACKAGES_WITH_GRAVES, ids=os.path.basename)
def test_deletion_records_kept_in_deck_packages(package, fmt):
    """A deck package deckport writes holds the source's deletion records as rows of `graves`,
    read here with Python's sqlite3, for a later conversion. Anki's import of a deck package
    takes none of them (not even into a new collection), so the conversion says so, with their
    number."""
    count = package_graves(package)
    out, stderr = convert(package, fmt)
    assert package_graves(out) == count
    assert anki_imported_graves(out) == 0
    noun = "deletion record is" if count == 1 else "deletion records are"
    warning = f"table graves: warning: [deletions-ignored] {count} {noun} kept in the package"
    assert warning in stderr and "Anki's import of an .apkg ignores them" in stderr, stderr
    assert stderr.count("[deletions-") == 1, stderr


_CHECKS: dict[str, str] = {}


def check_database(package: str) -> str:
    """What Anki's Check Database repairs in the collection `package` gives: an .apkg imported
    into a fresh collection, a .colpkg restored."""
    if package not in _CHECKS:
        folder = tempfile.mkdtemp(dir=_SCRATCH)
        col = fresh_collection(folder)
        try:
            if kind(package) == "apkg":
                import_apkg(col, package)
            else:
                col_path = col.path
                col.close()
                col._backend.import_collection_package(
                    col_path=col_path,
                    backup_path=os.path.abspath(package),
                    media_folder=os.path.join(folder, "collection.media"),
                    media_db=os.path.join(folder, "collection.media.db2"),
                )
                col.reopen()
            _CHECKS[package] = col.fix_integrity()[0]
        finally:
            col.close()
    return _CHECKS[package]


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_check_database_repairs_nothing_new(package, fmt):
    out, _ = convert(package, fmt)
    assert check_database(out) == check_database(package)


# --------------------------------------------------------------------------------------------
# A collection with what the fixtures lack: a filtered deck, a deck description and a second
# option group. It is built here with the real backend and exported by Anki itself, so the
# comparison is with Anki's own packages of the same collection.


@pytest.fixture(scope="module")
def anki_made_packages() -> dict[str, str]:
    from anki.collection import ExportAnkiPackageOptions

    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(os.path.join(folder, "source"))
    try:
        basic = col.models.by_name("Basic")
        deck_id = col.decks.id("Lang::Sub")
        for index in range(5):
            note = col.new_note(basic)
            note["Front"], note["Back"] = f"q{index}", f"a{index}"
            note.tags = ["t"]
            col.add_note(note, deck_id)
        deck = col.decks.get(deck_id)
        deck["desc"] = "A <b>description</b>"
        options_id = col.decks.add_config_returning_id("Fast")
        options = col.decks.get_config(options_id)
        options["new"]["perDay"], options["new"]["delays"] = 99, [2.5, 30.0]
        options["rev"]["maxIvl"] = 1000
        col.decks.update_config(options)
        deck["conf"] = options_id
        col.decks.save(deck)
        filtered_id = col.decks.new_filtered("Cram")
        filtered = col.decks.get(filtered_id)
        filtered["terms"], filtered["resched"] = [["tag:t", 3, 0]], False
        col.decks.save(filtered)
        col.sched.rebuild_filtered_deck(filtered_id)
        packages = {"colpkg": os.path.join(folder, "source.colpkg")}
        for legacy in (True, False):
            name = "apkg" if legacy else "apkg-modern"
            packages[name] = os.path.join(folder, f"source-{name}.apkg")
            col.export_anki_package(
                out_path=packages[name],
                options=ExportAnkiPackageOptions(
                    legacy=legacy, with_scheduling=True, with_deck_configs=True, with_media=True
                ),
                limit=None,
            )
        col.export_collection_package(packages["colpkg"], include_media=True, legacy=False)
    finally:
        if col.db:
            col.close()
    return packages


def anki_state(package: str) -> dict:
    """Decks (with description and filtered-deck settings), option groups, which group each
    deck uses, and every card's deck, original deck and scheduling, after Anki reads `package`."""
    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(folder)
    try:
        if kind(package) == "apkg":
            import_apkg(col, package)
        else:
            col_path = col.path
            col.close()
            col._backend.import_collection_package(
                col_path=col_path,
                backup_path=os.path.abspath(package),
                media_folder=os.path.join(folder, "collection.media"),
                media_db=os.path.join(folder, "collection.media.db2"),
            )
            col.reopen()
        ignored = {"id", "mod", "conf"}
        decks = {d["name"]: {k: v for k, v in d.items() if k not in ignored} for d in col.decks.all()}
        configs = {
            c["name"]: {k: v for k, v in c.items() if k not in ("id", "usn", "mod")}
            for c in col.decks.all_config()
        }
        uses = {
            d["name"]: col.decks.config_dict_for_deck_id(d["id"])["name"]
            for d in col.decks.all()
            if not d["dyn"]
        }
        name = lambda did: col.decks.name_if_exists(did) if did else None  # noqa: E731
        cards = [
            (guid, ord_, name(did), name(odid), odue, queue, ctype, due)
            for guid, ord_, did, odid, odue, queue, ctype, due in col.db.all(
                "select n.guid, c.ord, c.did, c.odid, c.odue, c.queue, c.type, c.due "
                "from cards c join notes n on n.id = c.nid order by n.guid, c.ord"
            )
        ]
        return {"decks": decks, "optionGroups": configs, "deckUses": uses, "cards": cards}
    finally:
        col.close()


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_filtered_decks_descriptions_and_option_groups(anki_made_packages, fmt):
    out, _ = convert(anki_made_packages["colpkg"], fmt)
    # Compared with Anki's own package of the same kind and layout.
    reference = anki_made_packages[fmt if kind(out) == "apkg" else "colpkg"]
    expected, ours = anki_state(reference), anki_state(out)
    for key in ("decks", "optionGroups", "deckUses", "cards"):
        difference = first_difference(expected[key], ours[key], key)
        assert difference is None, f"{os.path.basename(out)}: {difference}"


# --------------------------------------------------------------------------------------------
# A collection whose database is some 6 MiB: large enough that the writers compress the pages
# of its rows while SQLite builds the indexes (DeflateAhead for legacy layouts, under 3 MiB
# deflated in one go as in every fixture above; ZstdAhead for the Latest layout). Made and exported by the real backend; what
# Anki reads back from deckport's packages is compared with what it reads from its own.


@pytest.fixture(scope="module")
def anki_made_large_package() -> str:
    from anki.collection import ExportAnkiPackageOptions

    folder = tempfile.mkdtemp(dir=_SCRATCH)
    col = fresh_collection(os.path.join(folder, "source"))
    try:
        basic = col.models.by_name("Basic")
        deck_id = col.decks.id("Large")
        words = ["alpha", "beta", "gamma", "delta", "épsilon", "zeta", "ēta", "theta", "iota", "kappa"]
        for index in range(6000):
            note = col.new_note(basic)
            # Text that differs from note to note, so pages do not compress to nothing.
            note["Front"] = f"q{index} " + " ".join(words[(index * 7 + k * 3) % 10] + str(k * index % 997) for k in range(60))
            note["Back"] = f"a{index} " + " ".join(words[(index + k) % 10] + str(k * k + index) for k in range(60))
            note.tags = [f"t{index % 13}"]
            col.add_note(note, deck_id)
        path = os.path.join(folder, "large.apkg")
        export_with_anki(col, path, legacy=False)
    finally:
        if col.db:
            col.close()
    return path


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_large_collection_compressed_ahead(anki_made_large_package, fmt):
    out, _ = convert(anki_made_large_package, fmt)
    with zipfile.ZipFile(out) as archive:
        assert archive.testzip() is None
        if fmt.endswith("-modern"):
            # One zstd frame (DeckIO's ZstdAhead: the header page as a raw block in front).
            frame = archive.read("collection.anki21b")
            assert frame[:4] == b"\x28\xb5\x2f\xfd"
        else:
            # Deflated, and larger than the 3 MiB under which nothing is done ahead.
            info = archive.getinfo("collection.anki21")  # beside the placeholder collection.anki2
            assert info.compress_type == zipfile.ZIP_DEFLATED
            assert info.file_size > 5 * (1 << 20)
    expected, ours = view_of(anki_made_large_package), view_of(out)
    assert ours["counts"]["notes"] == 6000
    for key in ("notes", "cards", "noteTypes", "decks"):
        difference = first_difference(expected[key], ours[key], key)
        assert difference is None, f"{os.path.basename(out)}: {difference}"
