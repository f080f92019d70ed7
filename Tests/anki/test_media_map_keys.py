"""The keys of a legacy package's media map (`{"0": "name", …}`), as the real backend reads them:
it parses each as an unsigned number, so `"01"` and `"+1"` name member `1`, and refuses the
package for a key that is not one (`" 1"`, `"-1"`, `"x"`). Found by a hunt: deckport refused the
first two packages whole ("media map key "01" is not a member number"), which Anki imports.
"""

from __future__ import annotations


import pytest
from anki.collection import Collection, ExportAnkiPackageOptions
from anki.errors import InvalidInput

from test_csv_helpers import anki_reading, deckport, deckport_exists, with_legacy_media

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("media_map_keys")
    col = Collection(str(folder / "collection.anki2"))
    try:
        assert col.media.write_data("x.png", b"png") == "x.png"
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"], note["Back"] = '<img src="x.png">', "x"
        col.add_note(note, 1)
        out = str(folder / "anki.apkg")
        col.export_anki_package(
            out_path=out,
            options=ExportAnkiPackageOptions(with_scheduling=False, with_deck_configs=False, with_media=True, legacy=True),
            limit=None,
        )
    finally:
        col.close()
    return out


def with_key(exported: str, out: str, key: str) -> str:
    """`exported` whose media map names member `1` (holding x.png's bytes) by `key`."""
    return with_legacy_media(exported, out, {key: "x.png"}, {"1": b"png"})


@pytest.mark.parametrize("key", ["1", "01", "+1", "0001"])
def test_a_key_anki_reads_as_a_number_names_its_member(exported, tmp_path, key):
    package = with_key(exported, str(tmp_path / "in.apkg"), key)
    assert anki_reading(package)[1] == ["x.png"], "the backend imports the file"
    out = str(tmp_path / "out.apkg")
    run = deckport("convert", package, out)
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr, run.stderr
    assert anki_reading(out)[1] == ["x.png"]


@pytest.mark.parametrize("key", [" 1", "1 ", "-1", "x", "1.0"])
def test_a_key_anki_refuses_is_refused_naming_it(exported, tmp_path, key):
    package = with_key(exported, str(tmp_path / "in.apkg"), key)
    with pytest.raises(InvalidInput):
        anki_reading(package)
    out = tmp_path / "out.apkg"
    run = deckport("convert", package, str(out))
    assert run.returncode == 1, run.stderr
    assert f'media map key "{key}" is not a member number' in run.stderr
    assert not out.exists()
