"""An app's storage before its first card, judged by the real Anki backend.

An app's JSON file of records with none in it (`[]`, as `JSONEncoder` writes an empty array) or
only records without keys (`{}`) used to become a note type without fields, which Anki refuses,
so every Anki format failed. Each becomes a deck package and a collection package the backend
imports as holding nothing: no note, no note type.
"""

from __future__ import annotations

import subprocess

import pytest

from conftest import deckport_binary

DECKPORT = deckport_binary()

from anki_view import anki_view  # noqa: E402  (after the skip, like the other checks)


@pytest.mark.parametrize("records", ["[]", "[{}, {}]"])
@pytest.mark.parametrize("extension", ["apkg", "colpkg"])
def test_an_app_file_without_notes_is_a_package_anki_imports_as_empty(tmp_path, records, extension):
    source = tmp_path / "cards.json"
    source.write_text(records, encoding="utf-8")
    package = tmp_path / f"cards.{extension}"
    run = subprocess.run([DECKPORT, "convert", str(source), str(package)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "0 notes, 0 cards" in run.stdout
    # Records without keys are named, never dropped in silence.
    named = "[records-without-keys] 2 records hold no keys" in run.stderr
    assert named == (records != "[]"), run.stderr
    view = anki_view(str(package))
    assert view["notes"] == [] and view["cards"] == []
    assert view["noteTypes"] == []
