"""`deckport convert --only-deck NAME` against Anki's own export of the notes of one deck.

For every package in fixtures/anki (made by the real backend) and fixtures/real (exported by
people), and for every deck in it: the backend restores the package into a collection, finds the
deck's notes with its own search (`deck:NAME`: cards in the deck or its subdecks, and cards
taken from them into a filtered deck) and exports them itself (`export_anki_package` with those
notes, scheduling, option groups and media, the legacy layout), and deckport converts the
package with `--only-deck` the deck's name. (Anki's "export this deck" leaves out the notes whose
cards sit in a filtered deck at the time; deckport keeps them, as Anki's search finds them.) Both packages are imported into fresh collections by the backend (`anki_view`), and what
Anki sees must be the same: notes, cards (with scheduling and decks), note types, decks, media,
reviews and counts; and `deckport inspect --only-deck` of the package tells what the backend saw
of its export (counts, decks, note types, missing media). Two more checks: a name matched ignoring case, and several decks at once
(against Anki's export of the notes `deck:A or deck:B` finds).
"""

from __future__ import annotations

import json
import os
import tempfile

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions, NoteIdsLimit, SearchNode

from anki_view import _import_apkg, _import_colpkg, anki_view
from conftest import fixture_packages
from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

COMPARED = ("notes", "cards", "noteTypes", "decks", "media", "missingMedia", "reviews", "counts")


def restored(package: str, folder: str) -> Collection:
    """A collection in `folder` holding `package`, as Anki restores it, or imports it into a
    collection without note types of its own and of the package's day (as `anki_view` does)."""
    os.makedirs(folder, exist_ok=True)
    col = Collection(os.path.join(folder, "collection.anki2"))
    if package.endswith(".colpkg"):
        _import_colpkg(col, package)
    else:
        _import_apkg(col, package, tempfile.mkdtemp(dir=folder))
    return col


def deck_names(package: str) -> list[str]:
    """The names of the decks of the package that hold cards or have subdecks that do (those an
    Anki import makes), by deckport's reading (its JSON document)."""
    result = deckport("convert", package, "-", "--to", "json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    names = {deck["id"]: deck["name"] for deck in document["decks"]}
    holding = {names[card["deck"]] for card in document["cards"]}
    return sorted(name for name in names.values() if any(h == name or h.startswith(name + "::") for h in holding))


def cases() -> list[tuple[str, str]]:
    found = []
    for package in fixture_packages():
        for name in deck_names(package):
            found.append((package, name))
    return found


def anki_export(
    package: str,
    folder: str,
    limit=lambda col: None,
    with_scheduling: bool = True,
    with_deck_configs: bool = True,
    with_media: bool = True,
) -> str:
    """The .apkg Anki's own exporter makes of `limit(col)` (None: everything) in the collection
    `col` that `package` gives, with or without scheduling, option groups and media."""
    col = restored(package, folder)
    try:
        out = os.path.join(folder, "anki.apkg")
        col.export_anki_package(
            out_path=out,
            options=ExportAnkiPackageOptions(
                legacy=True, with_scheduling=with_scheduling, with_deck_configs=with_deck_configs, with_media=with_media
            ),
            limit=limit(col),
        )
        return out
    finally:
        col.close()


def selecting(decks: tuple[str, ...] = (), tags: tuple[str, ...] = ()) -> list[str]:
    """The options of deckport that keep the notes of `decks` with one of `tags`."""
    return [a for name in decks for a in ("--only-deck", name)] + [a for tag in tags for a in ("--only-tag", tag)]


def ours(package: str, folder: str, *names: str, tags: tuple[str, ...] = ()) -> str:
    out = os.path.join(folder, "ours.apkg")
    result = deckport("convert", package, out, *selecting(names, tags))
    assert result.returncode == 0, result.stderr
    return out


def assert_same_as_anki(anki: str, deckport_made: str) -> dict:
    """Both packages as the backend imports them are the same; returns what it saw of Anki's."""
    expected, actual = anki_view(anki), anki_view(deckport_made)
    for key in COMPARED:
        assert actual[key] == expected[key], key
    return expected


def assert_inspect_is(package: str, selection: list[str], expected: dict) -> None:
    """`deckport inspect` of the package with the `selection` options tells what the backend saw
    of its own export of those notes: counts, the decks holding cards, note types and missing
    media; its `selection` says how much of the whole package that is."""
    from test_inspect_matches_anki import reduce_notetypes_from_anki, reduce_notetypes_from_deckport

    result = deckport("inspect", package, *selection, "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    counts = {key: summary[key] for key in ("notes", "cards", "media", "reviews")}
    assert counts == expected["counts"]
    assert summary["decks"] == expected["decks"]
    assert reduce_notetypes_from_deckport(summary["noteTypes"]) == reduce_notetypes_from_anki(expected["noteTypes"])
    assert summary["missingMedia"] == expected["missingMedia"]
    whole = deckport("inspect", package, "--json")
    assert whole.returncode == 0, whole.stderr
    read = json.loads(whole.stdout)
    assert summary["selection"]["read"] == {key: read[key] for key in ("notes", "cards", "media", "reviews")}
    assert summary["selection"]["kept"] == counts


@pytest.mark.parametrize(
    ("package", "deck"), cases(), ids=lambda value: os.path.basename(value) if os.sep in value else value
)
def test_one_deck_is_what_ankis_export_of_it_holds(package, deck):
    folder = tempfile.mkdtemp(prefix="deckport_only_deck_")
    anki = anki_export(
        package, os.path.join(folder, "anki"), lambda col: NoteIdsLimit(list(col.find_notes(col.build_search_string(SearchNode(deck=deck)))))
    )
    os.makedirs(os.path.join(folder, "ours"))
    expected = assert_same_as_anki(anki, ours(package, os.path.join(folder, "ours"), deck))
    assert_inspect_is(package, selecting((deck,)), expected)


def test_a_deck_name_matches_ignoring_case_and_several_decks_are_their_notes_together(tmp_path):
    package = os.path.join(os.path.dirname(fixture_packages()[0]), "latest_sched.apkg")
    os.makedirs(tmp_path / "ours")

    def notes_of_both(col: Collection) -> NoteIdsLimit:
        return NoteIdsLimit(list(col.find_notes('deck:"Languages::French::Verbs" or deck:Default')))

    anki = anki_export(package, str(tmp_path / "anki"), notes_of_both)
    assert_same_as_anki(anki, ours(package, str(tmp_path / "ours"), "languages::FRENCH::verbs", "Default"))


def test_a_deck_the_package_lacks_is_an_error_naming_its_decks(tmp_path):
    package = os.path.join(os.path.dirname(fixture_packages()[0]), "latest_sched.apkg")
    out = str(tmp_path / "out.apkg")
    result = deckport("convert", package, out, "--only-deck", "Spanish")
    assert result.returncode == 1
    assert "no deck is named 'Spanish' (its decks: 'Default', 'Languages', 'Languages::French'" in result.stderr
    assert not os.path.exists(out)
