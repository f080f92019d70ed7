"""Tags a CSV file spells in several cases, read as the real Anki backend's CSV import stores them.

Anki's CSV import keeps one spelling of the tags that are one under case folding: the first it
meets in row order (`the The` is `the`; `THE` in a later row is `the`; `X::y::z` after `x::Y` is
`x::Y::z`), and names an empty level `blank`. deckport's reading of the same file
(`fixtures/csv/sheets/tag_case.tsv`) holds the tags Anki's own import of it holds, says each
change with a `tag-changed` warning naming the row's line, and `--strict` fails; a package
deckport makes of it, imported by the backend, has the tags of Anki's CSV import.
"""

from __future__ import annotations

import json
import os
import tempfile

import pytest
from anki.collection import Collection

from conftest import FIXTURES
from test_csv_helpers import deckport, deckport_exists, import_csv, import_package

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

SOURCE = os.path.join(FIXTURES, "csv", "sheets", "tag_case.tsv")


def tags_by_front(col: Collection) -> dict[str, list[str]]:
    return {col.get_note(nid)["Front"]: sorted(col.get_note(nid).tags) for nid in col.find_notes("")}


def anki_csv_import() -> dict[str, list[str]]:
    with tempfile.TemporaryDirectory() as folder:
        col = Collection(os.path.join(folder, "collection.anki2"))
        try:
            import_csv(col, SOURCE)
            return tags_by_front(col)
        finally:
            col.close()


def test_the_fixture_has_tags_anki_folds():
    anki = anki_csv_import()
    assert anki["q1"] == ["the"] and anki["q2"] == ["the", "x::Y"] and anki["q3"] == ["Verb", "x::Y::z"]


def test_deckports_reading_holds_the_tags_ankis_csv_import_stores(tmp_path):
    result = deckport("convert", SOURCE, "-", "--to", "json")
    assert result.returncode == 0, result.stderr
    read = {note["fields"]["Front"]: sorted(note.get("tags", [])) for note in json.loads(result.stdout)["notes"]}
    assert read == anki_csv_import()
    warnings = [line for line in result.stderr.splitlines() if "[tag-changed]" in line]
    assert f"{SOURCE}:4: warning: [tag-changed] tag 'The' is the tag 'the' for Anki" in warnings[0], warnings
    assert f"{SOURCE}:5: warning: [tag-changed] tag 'THE' is read as 'the'" in warnings[1], warnings
    assert f"{SOURCE}:6: warning: [tag-changed] tag 'X::y::z' is read as 'x::Y::z'" in warnings[2], warnings
    strict = deckport("convert", SOURCE, str(tmp_path / "strict.apkg"), "--strict")
    assert strict.returncode == 1 and "[tag-changed]" in strict.stderr
    assert not os.path.exists(tmp_path / "strict.apkg")


def test_a_package_of_it_imports_with_the_tags_of_ankis_csv_import(tmp_path):
    out = str(tmp_path / "tags.apkg")
    result = deckport("convert", SOURCE, out)
    assert result.returncode == 0, result.stderr
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_package(col, out)
        assert tags_by_front(col) == anki_csv_import()
    finally:
        col.close()
