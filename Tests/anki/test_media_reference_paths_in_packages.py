"""References that read as paths, judged by the real backend: which files a deck package needs for
them. Found by checking `MediaReferences.fileNames(in:)`, which took no name with a `/` or a `\\`,
against the backend (anki 26.9.3, legacy and latest packages alike):

* Anki's export, from its own media folder, looks each reference up (character references
  decoded, in NFC) as one file under exactly that name: a name with a `/` finds no file, even
  when the folder holds one there or under the name without the slash (`a/`, `x.png/`,
  `./x.png`, `sub/x.png`, `../x.png`, `/x.png`), nor does `a\\b.png` find `ab.png` (a file that
  is literally `a\\b.png` makes the export fail and ask for Check Media). `%20`, `?query`, a space
  around the name and a letter's case are part of the name.
* Anki's import of a package renames a reference its path test takes for one file name (`a/`,
  `a//`, `a\\b.png`; not `sub/x.png`, `./x.png`, `..`) to the name it would store (`a`,
  `ab.png`) and keeps the package's files that the renamed references name. deckport's Anki
  writers rename the references so, and must carry those files; `inspect` must not call them
  unused, nor the references missing. Before the fix, `inspect` named `a`, `b`, `slash.png`,
  `backslash.png` and `soundz.mp3` below as files Anki's import leaves out, which it keeps.

The backend makes a collection whose notes refer to files so, with the files a looser reading
would take in its media folder. Its own export packs only the names as written; a package of its
notes holding every file of that folder (the media map made here) is what its import is judged
on, against deckport's deck package of the backend's collection package and deckport's `inspect`.
"""

from __future__ import annotations

import json

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions
from anki_view import anki_view

from test_csv_helpers import anki_reading, deckport, deckport_exists, with_legacy_media
from test_csv_helpers import legacy_media_names as media_names

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

# Each field, and the files in the media folder a reading of its references might take.
FIELDS = {
    '<img src="a/">': ["a"],
    '<img src="b//">': ["b"],
    '<img src="slash.png/">': ["slash.png"],
    '<img src="./dot.png">': ["dot.png", ".dot.png"],
    '<img src="sub/x.png">': ["x.png", "subx.png"],
    "[sound:snd/y.mp3]": ["y.mp3", "sndy.mp3"],
    '<img src="../up.png">': ["up.png", "..up.png"],
    '<img src="/abs.png">': ["abs.png"],
    '<img src="back\\slash.png">': ["backslash.png"],
    "[sound:sound\\z.mp3]": ["soundz.mp3", "z.mp3"],
    '<img src="..">': [],
    '<img src=".">': [],
    '<img src="http://example.com/remote.png">': ["remote.png"],
    '<img src="a%20b.png"> <img src="pc%20c.png">': ["a b.png", "pc%20c.png"],
    '<img src="amp&amp;b.png">': ["amp&b.png", "amp&amp;b.png"],
    '<img src="q.png?v=1">': ["q.png"],
    '<img src=" lead.png"> <img src=" sp.png ">': [" lead.png", "sp.png", " sp.png"],
    '<img src="CASE.png">': ["case.png"],
    '<img src="e\u0301.png">': ["\u00e9.png"],
    '<img src=".hidden">': [".hidden"],
}

# What Anki's export packs: the names as written (decoded, NFC).
EXPORTED = {"pc%20c.png", "amp&b.png", " lead.png", "\u00e9.png", ".hidden"}
# What its import keeps besides: the files the references it renames name.
RENAMED_TO = {"a", "b", "slash.png", "backslash.png", "soundz.mp3"}


def with_every_file(exported: str, out: str, names: list[str]) -> str:
    """`exported` (a legacy package) with a media map naming every one of `names`."""
    return with_legacy_media(
        exported, out, {str(i): name for i, name in enumerate(names)}, {str(i): name.encode("utf-8") for i, name in enumerate(names)}
    )


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("media_reference_paths")
    col = Collection(str(folder / "collection.anki2"))
    files = []
    try:
        basic = col.models.by_name("Basic")
        for field, names in FIELDS.items():
            for name in names:
                # Each name is one the backend stores as it is: the folder is one Anki keeps.
                assert col.media.write_data(name, name.encode("utf-8")) == name
                files.append(name)
            note = col.new_note(basic)
            note["Front"], note["Back"] = field, "x"
            col.add_note(note, 1)
        anki = {}
        for legacy in (True, False):
            anki[legacy] = str(folder / f"anki-{'legacy' if legacy else 'latest'}.apkg")
            col.export_anki_package(
                out_path=anki[legacy],
                options=ExportAnkiPackageOptions(with_scheduling=False, with_deck_configs=False, with_media=True, legacy=legacy),
                limit=None,
            )
        colpkg = str(folder / "collection.colpkg")
        col.export_collection_package(colpkg, include_media=True, legacy=True)
    finally:
        col.close()
    every = with_every_file(anki[True], str(folder / "every.apkg"), files)
    ours = str(folder / "ours.apkg")
    result = deckport("convert", colpkg, ours)
    assert result.returncode == 0, result.stderr
    return anki, every, ours, files


def test_ankis_export_packs_only_the_names_as_written(packages):
    anki, _, _, _ = packages
    assert media_names(anki[True]) == EXPORTED
    assert anki_reading(anki[False])[1] == sorted(EXPORTED)


def test_ankis_import_keeps_the_files_its_renamed_references_name(packages):
    """The truth the rest is judged by; the renamed fields of Anki's own package and of the one
    holding every file are the same."""
    anki, every, _, _ = packages
    fronts, media = anki_reading(every)
    assert media == sorted(EXPORTED | RENAMED_TO)
    assert fronts == anki_reading(anki[True])[0]
    assert '<img src="backslash.png">' in fronts and "[sound:soundz.mp3]" in fronts


def test_deckports_package_holds_the_files_ankis_import_keeps(packages):
    _, every, ours, _ = packages
    assert media_names(ours) == EXPORTED | RENAMED_TO
    assert anki_reading(ours) == anki_reading(every)


def test_inspect_names_as_unused_what_ankis_import_leaves_out(packages):
    _, every, _, files = packages
    run = deckport("inspect", every, "--json")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["unusedMedia"] == sorted(set(files) - EXPORTED - RENAMED_TO)
    # Missing as Anki's import leaves the references (it renames `q.png?v=1` and ` sp.png `), named
    # as the notes write them; `a/` and the rest it renames name files the package has.
    # (anki_view, like Check Media, also names `.` and `..`, which no file can be; deckport never did.)
    assert summary["missingMedia"] == sorted(["a%20b.png", "q.png?v=1", " sp.png ", "CASE.png"])
    stored = {"q.png?v=1": "q.pngv=1", " sp.png ": " sp.png _"}
    assert sorted(stored.get(name, name) for name in summary["missingMedia"]) == [
        name for name in anki_view(every)["missingMedia"] if name not in {".", ".."}
    ]


def test_a_deck_chosen_keeps_the_files_ankis_import_keeps(packages, tmp_path):
    """`--only-deck` keeps the media its notes refer to: before the fix it left out the five files
    of the renamed references, and the package written from it imported with those missing."""
    _, every, _, _ = packages
    out = str(tmp_path / "chosen.apkg")
    run = deckport("convert", every, out, "--only-deck", "Default")
    assert run.returncode == 0, run.stderr
    assert media_names(out) == EXPORTED | RENAMED_TO
    assert anki_reading(out) == anki_reading(every)
