"""Media files nothing refers to, which Anki's import of a deck package keeps all the same: a name
starting with `_` (a font a style sheet loads, a script) or `latex-` (a LaTeX image) is "static",
copied whether or not a note, template or style sheet names it; every other unreferenced file is
left out. Found by a hunt: deckport's `.apkg` writers left the static files out with a
`[media-unused]` warning that said Anki's import would drop them too, `inspect` listed them as
left out, and `diff` did not compare them, so a font loaded only from `_style.css` was lost.

The backend makes a collection whose note type's CSS imports `_style.css` (which loads
`_font.woff2`, a reference Anki does not follow), with a note referring to `used.png` and files
nothing refers to. A package of its notes holding every file (the media map made here) is what
Anki's import is judged on: the files it keeps are those deckport's packages must carry, and the
ones it drops are those `inspect` must call unused.
"""

from __future__ import annotations

import json

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions

from test_csv_helpers import anki_reading, deckport, deckport_exists, with_legacy_media
from test_csv_helpers import legacy_media_names as media_names

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

FILES = {
    "used.png": b"png",
    "_style.css": b"@font-face { font-family: x; src: url(_font.woff2); }",
    "_font.woff2": b"woff2",
    "_static.js": b"console.log(1)",
    "_Static2.css": b"p {}",
    "latex-abc.png": b"latex",
    "Latex-upper.png": b"not static?",
    "orphan.png": b"orphan",
    "x_under.png": b"underscore inside",
}


def with_files(exported: str, out: str, names: list[str]) -> str:
    """`exported` (a legacy package) with a media map naming `names`, each holding FILES' bytes."""
    return with_legacy_media(
        exported, out, {str(i): name for i, name in enumerate(names)}, {str(i): FILES[name] for i, name in enumerate(names)}
    )


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("static_media")
    col = Collection(str(folder / "collection.anki2"))
    try:
        basic = col.models.by_name("Basic")
        basic["css"] += '\n@import url("_style.css");\n'
        col.models.update_dict(basic)
        # The backend's media folder stores names in lower case; the package made below holds
        # the others (a package's names are imported as they are).
        in_folder = [name for name in FILES if name == name.lower()]
        for name in in_folder:
            assert col.media.write_data(name, FILES[name]) == name
        note = col.new_note(basic)
        note["Front"], note["Back"] = '<img src="used.png">', "x"
        col.add_note(note, 1)
        exported = str(folder / "anki.apkg")
        col.export_anki_package(
            out_path=exported,
            options=ExportAnkiPackageOptions(with_scheduling=False, with_deck_configs=False, with_media=True, legacy=True),
            limit=None,
        )
        colpkg = str(folder / "collection.colpkg")
        col.export_collection_package(colpkg, include_media=True, legacy=True)
    finally:
        col.close()
    every = with_files(exported, str(folder / "every.apkg"), list(FILES))
    kept = set(anki_reading(every)[1])
    return folder, every, colpkg, kept, set(in_folder)


def test_ankis_import_keeps_the_static_files_nothing_refers_to(packages):
    """The truth the rest is judged by, as the backend gives it."""
    _, _, _, kept, _ = packages
    assert {"used.png", "_style.css", "_font.woff2", "_static.js", "_Static2.css", "latex-abc.png"} <= kept
    assert "orphan.png" not in kept and "x_under.png" not in kept


@pytest.mark.parametrize("to", ["apkg", "apkg-modern"])
@pytest.mark.parametrize("source", ["every", "colpkg"])
def test_deckports_package_carries_what_ankis_import_keeps(packages, to, source):
    folder, every, colpkg, kept, in_folder = packages
    out = str(folder / f"ours-{source}-{to}.apkg")
    run = deckport("convert", every if source == "every" else colpkg, out, "--to", to, "--verbose")
    assert run.returncode == 0, run.stderr
    read = set(FILES) if source == "every" else in_folder
    kept = kept & read
    assert set(anki_reading(out)[1]) == kept
    if to == "apkg":
        assert media_names(out) == kept
    # Only what Anki's import drops is warned of as left out.
    for name in read:
        warned = f"media file '{name}': warning: [media-unused]" in run.stderr
        assert warned == (name not in kept), (name, run.stderr)


def test_deckports_json_deck_carries_the_static_files_into_a_package(packages, tmp_path):
    _, every, _, kept, _ = packages
    deck = str(tmp_path / "deck.json")
    out = str(tmp_path / "from-json.apkg")
    assert deckport("convert", every, deck).returncode == 0
    run = deckport("convert", deck, out)
    assert run.returncode == 0, run.stderr
    assert set(anki_reading(out)[1]) == kept


def test_inspect_calls_unused_only_what_ankis_import_leaves_out(packages):
    _, every, _, kept, _ = packages
    run = deckport("inspect", every, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["unusedMedia"] == sorted(set(FILES) - kept)


def test_diff_names_a_static_file_a_package_lost(packages):
    folder, every, _, kept, _ = packages
    lost = sorted(kept - {"_font.woff2"})
    without_font = with_files(every, str(folder / "without-font.apkg"), lost)
    assert set(anki_reading(without_font)[1]) == set(lost), "the backend's import lacks the font"
    run = deckport("diff", every, without_font, "--json")
    assert run.returncode == 1, run.stdout + run.stderr
    removed = [entry["name"] for entry in json.loads(run.stdout)["media"]["removed"]]
    assert removed == ["_font.woff2"]
