"""Real packages with damage, found in public repositories (`fixtures/real/damaged`).

`subs2srs-missing-media-legacy2.apkg` lists 46 audio files in its media map and holds none of
them; no note refers to them. The real Anki backend imports its notes without the files (it
refuses a package only when a note refers to a missing file: `4 missing from archive`, in
`test_semantic_damage.py`). deckport converts it, keeps every note and names each missing file in
a `media-missing` warning; until session 29 it refused the whole package. What the notes are is
read here from the package's own SQLite collection with Python's `sqlite3`, not through
deckport's reader, and the backend's import of deckport's package must hold the notes the
backend's import of the original holds.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import tempfile
import zipfile

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

from conftest import REAL_DIR
from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

MISSING_MEDIA = os.path.join(REAL_DIR, "damaged", "subs2srs-missing-media-legacy2.apkg")


def package_notes_and_media_map(package: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The notes (GUID → fields) of the package's collection, and its media map."""
    with zipfile.ZipFile(package) as archive, tempfile.TemporaryDirectory() as scratch:
        archive.extract("collection.anki21", scratch)
        media_map = json.loads(archive.read("media"))
        members = set(archive.namelist())
        with sqlite3.connect(os.path.join(scratch, "collection.anki21")) as db:
            notes = {guid: fields.split("\x1f") for guid, fields in db.execute("select guid, flds from notes")}
    assert not members & set(media_map), "the fixture holds none of the files its map lists"
    return notes, media_map


def anki_notes(package: str) -> dict[str, list[str]]:
    """The notes (GUID → fields) the backend's import of `package` gives a fresh collection."""
    with tempfile.TemporaryDirectory() as scratch:
        col = Collection(os.path.join(scratch, "collection.anki2"))
        try:
            col.import_anki_package(
                ImportAnkiPackageRequest(package_path=os.path.abspath(package), options=ImportAnkiPackageOptions())
            )
            return {note.guid: list(note.fields) for note in map(col.get_note, col.find_notes(""))}
        finally:
            col.close()


def test_deckport_keeps_every_note_and_names_every_missing_file(tmp_path):
    notes, media_map = package_notes_and_media_map(MISSING_MEDIA)
    assert len(notes) > 0 and len(media_map) == 46
    out = str(tmp_path / "out.json")
    run = subprocess.run(
        [DECKPORT, "convert", MISSING_MEDIA, out, "--verbose"], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    missing = [line for line in run.stderr.splitlines() if "warning: [media-missing]" in line]
    assert len(missing) == len(media_map)
    for member, name in media_map.items():
        assert any(f"member '{member}': warning: [media-missing] the media map lists '{name}'" in line for line in missing)
    with open(out, encoding="utf-8") as handle:
        document = json.load(handle)
    assert {note["guid"]: list(note["fields"].values()) for note in document["notes"]} == notes
    assert document.get("media", []) == []

    # Anki's import of deckport's package holds what its import of the original holds.
    package = str(tmp_path / "out.apkg")
    subprocess.run([DECKPORT, "convert", MISSING_MEDIA, package, "--quiet"], check=True, timeout=600)
    assert anki_notes(package) == anki_notes(MISSING_MEDIA) == notes

    strict = subprocess.run(
        [DECKPORT, "convert", MISSING_MEDIA, str(tmp_path / "strict.json"), "--strict"],
        capture_output=True, text=True, timeout=600,
    )
    assert strict.returncode == 1 and not os.path.exists(tmp_path / "strict.json")
