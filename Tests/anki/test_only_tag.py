"""`deckport convert --only-tag TAG` against Anki's own export of the notes its search `tag:TAG` finds.

For every package in fixtures/anki (made by the real backend) and fixtures/real (exported by
people), and for every tag its notes have and every parent of one (`a` of `a::b`): the backend
restores the package, finds the notes with its own search `tag:TAG` (the tag or a subtag, case
ignored, `*` and `_` as wildcards) and exports them itself (`export_anki_package` with those
notes, scheduling, option groups and media), and deckport converts the package with `--only-tag`
the same text. Both packages are imported into fresh collections by the backend (`anki_view`),
and what Anki sees must be the same: notes, cards (with scheduling and decks), note types, decks,
media, reviews and counts; `deckport inspect --only-tag` tells what the backend saw. Then the
search's own words on one package: another case, wildcards, `none`, several tags at once
(`tag:a or tag:b`), and a tag with a deck (`deck:D tag:T`); and a tag no note has is an error.
"""

from __future__ import annotations

import json
import os
import tempfile

import pytest
from anki.collection import NoteIdsLimit

from conftest import fixture_packages
from test_csv_helpers import deckport, deckport_exists
from test_only_deck import anki_export, assert_inspect_is, assert_same_as_anki, ours, restored, selecting

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


def tags_and_parents(package: str) -> list[str]:
    """Every tag the package's notes have, and every parent of one, by deckport's reading."""
    result = deckport("convert", package, "-", "--to", "json")
    assert result.returncode == 0, result.stderr
    tags = {tag for note in json.loads(result.stdout)["notes"] for tag in note.get("tags", [])}
    parents = {"::".join(tag.split("::")[:level]) for tag in tags for level in range(1, tag.count("::") + 1)}
    return sorted(tags | parents)


def cases() -> list[tuple[str, str]]:
    return [(package, tag) for package in fixture_packages() for tag in tags_and_parents(package)]


def quoted(text: str) -> str:
    """`text` as one term of Anki's search, in quotes."""
    return '"' + text.replace('"', '\\"') + '"'


def anki_search_export(package: str, folder: str, search: str) -> str:
    """The .apkg Anki's exporter makes of the notes its `search` finds in `package`."""
    return anki_export(package, folder, lambda col: NoteIdsLimit(list(col.find_notes(search))))


def assert_selection_is_ankis(package: str, search: str, decks: tuple[str, ...], tags: tuple[str, ...]) -> None:
    folder = tempfile.mkdtemp(prefix="deckport_only_tag_")
    anki = anki_search_export(package, os.path.join(folder, "anki"), search)
    os.makedirs(os.path.join(folder, "ours"))
    expected = assert_same_as_anki(anki, ours(package, os.path.join(folder, "ours"), *decks, tags=tags))
    assert_inspect_is(package, selecting(decks, tags), expected)


@pytest.mark.parametrize(
    ("package", "tag"), cases(), ids=lambda value: os.path.basename(value) if os.sep in value else value
)
def test_one_tag_is_what_ankis_export_of_its_notes_holds(package, tag):
    assert_selection_is_ankis(package, quoted("tag:" + tag), (), (tag,))


SAMPLE = os.path.join(os.path.dirname(fixture_packages()[0]), "latest_sched.apkg")


@pytest.mark.parametrize(
    ("search", "decks", "tags"),
    [
        ("tag:A::B", (), ("A::B",)),  # another case, a subtag included
        ("tag:a::*", (), ("a::*",)),  # a wildcard for any run
        ("tag:日_語", (), ("日_語",)),  # a wildcard for one character
        ("tag:GE*", (), ("GE*",)),
        ("tag:none", (), ("none",)),  # the notes without tags
        ("tag:*", (), ("*",)),  # every note
        ("tag:geo or tag:a", (), ("geo", "a")),  # several tags: either
        ("tag:none or tag:geo", (), ("none", "geo")),
        ('"deck:Languages" tag:geo', ("Languages",), ("geo",)),  # a deck and a tag: both
        ('"deck:Languages::French" (tag:a or tag:日本語)', ("Languages::French",), ("a", "日本語")),
    ],
)
def test_the_searchs_own_words(search, decks, tags):
    assert_selection_is_ankis(SAMPLE, search, decks, tags)


def test_none_in_capitals_is_a_tag_as_in_anki(tmp_path):
    """Only `none` in lower case finds the notes without tags; Anki searches `tag:NONE` for a tag
    of that name (in any case), which no note of the sample has."""
    col = restored(SAMPLE, str(tmp_path / "anki"))
    try:
        assert col.find_notes("tag:none") and not col.find_notes("tag:NONE")
    finally:
        col.close()
    out = str(tmp_path / "out.apkg")
    result = deckport("convert", SAMPLE, out, "--only-tag", "NONE")
    assert result.returncode == 1
    assert "no note has the tag 'NONE' or a subtag of it" in result.stderr
    assert not os.path.exists(out)


def test_a_tag_no_note_has_is_an_error_naming_the_tags(tmp_path):
    out = str(tmp_path / "out.apkg")
    result = deckport("convert", SAMPLE, out, "--only-tag", "verbs")
    assert result.returncode == 1
    assert "no note has the tag 'verbs' or a subtag of it (its tags: 'a::b', 'a::b::c', 'geo'," in result.stderr
    assert not os.path.exists(out)


@pytest.fixture(scope="module")
def untidy_tags(tmp_path_factory) -> str:
    """A package whose notes' tags are stored as Anki's import would not store them (an empty
    level, a tab), made from a fixture the real backend exported by editing its tags column."""
    import shutil
    import sqlite3
    import zipfile

    source = os.path.join(os.path.dirname(fixture_packages()[0]), "legacy2_sched.apkg")
    folder = tmp_path_factory.mktemp("untidy")
    with zipfile.ZipFile(source) as archive:
        archive.extractall(folder)
        names = archive.namelist()
    database = sqlite3.connect(str(folder / "collection.anki21"))
    ids = [row[0] for row in database.execute("SELECT id FROM notes ORDER BY id")]
    for note_id, tags in zip(ids, [" a::::b ", " tab\there ", " ::lead "]):
        database.execute("UPDATE notes SET tags = ? WHERE id = ?", (tags, note_id))
    database.commit()
    database.close()
    path = str(folder / "untidy.apkg")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            archive.write(str(folder / name), name)
    shutil.rmtree(str(folder / "collection.media"), ignore_errors=True)
    return path


@pytest.mark.parametrize("tag", ["a::blank::b", "a", "tabhere", "blank::lead", "blank"])
def test_a_tag_anki_stores_otherwise_is_found_by_the_name_anki_gives_it(untidy_tags, tag):
    """A tag a package holds as Anki's import would not store it (`a::::b`, `tab<TAB>here`) is
    found by the name Anki shows and searches (`a::blank::b`, `tabhere`): what deckport keeps is
    what Anki's own export of the notes its search finds holds."""
    assert_selection_is_ankis(untidy_tags, "tag:" + quoted(tag), (), (tag,))
