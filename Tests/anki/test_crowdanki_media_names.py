"""Media files of a CrowdAnki folder whose names Anki stores otherwise, judged by the real backend.

A folder made on a Mac holds `café.png` in decomposed Unicode (NFD); a folder from Linux may hold
`a:b.png`, `con.jpg` or `trail.`. Anki stores such a file under its normal name (NFC, `ab.png`,
`con_.jpg`, `trail._`), and its import of a package renames the notes' references with it. Found
by a hunt: deckport's CrowdAnki reader skipped these files (`[media-skipped]`) while the package
writer still renamed the references, so the backend's import of the package lacked every one.
Now they are renamed with their references (`[media-renamed]`), as the package reader renames
them.

The folder is a real CrowdAnki export (fixtures/crowdanki/brain-brew-starter) copied, with a
`media/` folder and one note's empty field referring to the files added here.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import unicodedata

import pytest

from conftest import FIXTURES
from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from test_crowdanki import anki_media, imported  # noqa: E402

# Each name as the folder holds it, and as Anki stores it.
NAMES = {
    unicodedata.normalize("NFD", "café.png"): "café.png",
    "a:b.png": "ab.png",
    "con.jpg": "con_.jpg",
    "trail.": "trail._",
    "plain.png": "plain.png",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    source = os.path.join(FIXTURES, "crowdanki", "brain-brew-starter", "General-With-Derivatives")
    target = str(tmp_path_factory.mktemp("crowdanki_media") / "General-With-Derivatives")
    shutil.copytree(source, target)
    deck_path = os.path.join(target, "deck.json")
    deck = json.load(open(deck_path, encoding="utf-8"))
    note = deck["notes"][0]
    assert note["fields"][3] == ""
    note["fields"][3] = "".join(f'<img src="{name}">' for name in NAMES)
    deck["media_files"] = sorted(NAMES)
    with open(deck_path, "w", encoding="utf-8") as out:
        json.dump(deck, out, ensure_ascii=False, indent=4, sort_keys=True)
    os.mkdir(os.path.join(target, "media"))
    for name in NAMES:
        with open(os.path.join(target, "media", name), "wb") as out:
            out.write(name.encode("utf-8"))
    return target, note["guid"]


def test_files_anki_stores_otherwise_are_renamed_with_their_references(folder, tmp_path):
    path, guid = folder
    package = str(tmp_path / "out.apkg")
    run = deckport("convert", path, package, "--from", "crowdanki", "--verbose")
    assert run.returncode == 0, run.stderr
    assert "[media-skipped]" not in run.stderr
    for name, stored in NAMES.items():
        assert (f"media/{name}: warning: [media-renamed]" in run.stderr) == (name != stored), (name, run.stderr)

    col = imported(package, str(tmp_path))
    try:
        media = anki_media(col)
        for name, stored in NAMES.items():
            assert media.get(stored) == hashlib.sha1(name.encode("utf-8")).hexdigest(), stored
        check = col.media.check()
        assert not set(check.missing) & set(NAMES.values()), check.missing
        note = col.get_note(col.db.scalar("select id from notes where guid = ?", guid))
        assert note.fields[3] == "".join(f'<img src="{stored}">' for stored in NAMES.values())
    finally:
        col.close()
