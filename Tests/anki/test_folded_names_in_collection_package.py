"""Names that only full case folding tells apart, in a modern collection package, judged by the
real backend.

Anki compares deck, note type and tag names by Unicode full case folding (the `unicase` crate):
`Straße` and `STRASSE` are one name and sort before `Strasse X`; `Tip` and `Tıp` are two. A
schema-18 collection keeps those names in tables whose indexes use its `unicase` collation, so a
`.colpkg` deckport writes must hold its indexes in the order the backend's collation reads them
(its integrity check passes) and every deck the backend keeps apart. deckport's folding took
`Tıp` for `Tip`, so the binary before this test merged the two decks; its collation lowercased
names, putting `Straße` after `Strasse X`. The decks here are made by the backend itself.
"""

from __future__ import annotations

import os

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions

from anki_view import _import_colpkg
from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

DECKS = ["Straße", "Strasse X", "Tip", "Tıp", "zèbre", "Zebra", "ÉCOLE", "Ölfeld"]


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("folded")
    col = Collection(str(folder / "collection.anki2"))
    try:
        basic = col.models.by_name("Basic")
        for index, name in enumerate(DECKS):
            note = col.new_note(basic)
            note["Front"], note["Back"] = f"front {index}", name
            note.tags = [name.replace(" ", "_")]
            col.add_note(note, col.decks.id(name))
        out = str(folder / "decks.apkg")
        col.export_anki_package(
            out_path=out, limit=None,
            options=ExportAnkiPackageOptions(
                with_scheduling=True, with_deck_configs=True, with_media=True, legacy=False))
        return out
    finally:
        col.close()


def test_a_modern_collection_package_keeps_the_decks_the_backend_keeps_apart_in_its_order(package, tmp_path):
    out = str(tmp_path / "out.colpkg")
    result = deckport("convert", package, out, "--to", "colpkg-modern")
    assert result.returncode == 0, result.stderr
    os.makedirs(tmp_path / "restored")
    col = Collection(str(tmp_path / "restored" / "collection.anki2"))
    try:
        _import_colpkg(col, out)
        # Each index in the order the backend's collation reads it.
        assert col.db.scalar("pragma integrity_check") == "ok"
        # The backend's own order of the names, read through its collation.
        names = col.db.list("select name from decks where id != 1 order by name")
        assert names == ["Straße", "Strasse X", "Tip", "Tıp", "Zebra", "zèbre", "ÉCOLE", "Ölfeld"]
        assert sorted(col.tags.all()) == sorted(name.replace(" ", "_") for name in DECKS)
    finally:
        col.close()
