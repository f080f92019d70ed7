"""The media a deck package holds are the ones Anki's own export packs: the real backend makes a
collection whose notes refer to files in the ways Anki's media pattern surprises (a `src=` inside
another attribute, `data-src=`, a `>` inside a quoted run, references that do and do not decode,
NBSP, the long s, sound tags), with a file in its media folder for each name the backend
extracts and for each name a looser reading would take instead. The backend exports the
collection as a package of its notes (legacy layout, with media) and as a collection package;
deckport converts the collection package to a deck package. Both packages must hold the same
media files, read from their media maps with Python alone. (deckport matches a reference to a
file by its normalised name, as Anki names files on import, where Anki's export looks for the name
as written: `src="x.png&quot;"` would find a file `x.png` here and not in Anki, so no case has a
name that normalising changes.)
"""

from __future__ import annotations

import os

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions

from test_csv_helpers import deckport, deckport_exists
from test_csv_helpers import legacy_media_names as media_names

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

# Each field, and the files in the media folder besides the ones the backend extracts from it:
# what a reading other than Anki's would take.
FIELDS = {
    '<img srcset="a.png 2x" sr="c.png" data-src="d.png" src="b.png">': ["a.png", "b.png", "c.png"],
    '<img alt="src=x.png" title=data> <img src=y.png>': [],
    '<img alt="a>b" src="after-gt.jpg">': [],
    "<img Src = spaced.png>": ["spaced.png"],
    '<img src="caf&eacute;.png">': ["caf&eacute;.png"],
    '<img src="&frac14;.png">': ["&frac14;.png"],
    '<img src="a&amp;b&c.png">': ["a&b&c.png"],
    '<img src="nb&nbsp;sp.png">': ["nb\u00a0sp.png"],
    '<img src="a&#X41;.png">': ["aA.png"],
    "<img \u017frc=long-s.png>": [],
    "<\u0131mg src=dotless.png>": ["dotless.png"],
    "[sound:amp&amp;ersand.mp3]": ["amp&amp;ersand.mp3"],
    "[sound:one.mp3][SOUND:upper.mp3]": ["upper.mp3"],
    '<img src="plain.png"> and [sound:plain.mp3]': [],
    "<img " + '"q"' * 30 + " src=many-quotes.png>": [],
}


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("media_references")
    col = Collection(str(folder / "collection.anki2"))
    expected_names = set()
    try:
        basic = col.models.by_name("Basic")
        deck = col.decks.id("Default")
        for field, decoys in FIELDS.items():
            extracted = list(col._backend.extract_media_files(field))
            for name in extracted + decoys:
                written = col.media.write_data(name, name.encode("utf-8"))
                if written != name:
                    # A name Anki stores otherwise (a quote, a colon) is no file to look for.
                    os.remove(os.path.join(col.media.dir(), written))
                elif name in extracted:
                    expected_names.add(name)
            note = col.new_note(basic)
            note["Front"] = field
            note["Back"] = "x"
            col.add_note(note, deck)
        anki = str(folder / "anki.apkg")
        col.export_anki_package(
            out_path=anki,
            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=True),
            limit=None,
        )
        colpkg = str(folder / "collection.colpkg")
        col.export_collection_package(colpkg, include_media=True, legacy=True)
    finally:
        col.close()
    ours = str(folder / "ours.apkg")
    result = deckport("convert", colpkg, ours)
    assert result.returncode == 0, result.stderr
    return anki, ours, expected_names


def test_the_package_holds_the_media_ankis_export_holds(packages):
    anki, ours, _ = packages
    assert media_names(ours) == media_names(anki)


def test_the_case_is_not_trivial(packages):
    """The backend packed what it extracted (so the comparison is about the tricky names), and
    left out every decoy."""
    anki, _, expected_names = packages
    names = media_names(anki)
    assert names == expected_names
    assert {"d.png", "y.png", "after-gt.jpg", "café.png", "¼.png", "nb sp.png", "long-s.png"} <= names
    assert not {"a.png", "b.png", "c.png", "spaced.png", "dotless.png", "upper.mp3"} & names
