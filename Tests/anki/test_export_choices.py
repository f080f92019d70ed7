"""`deckport convert --without-scheduling`, `--without-deck-presets` and `--without-media` against
Anki's own export with "Include scheduling information", "Include deck presets" or "Include
media" off.

For every package in fixtures/anki (made by the real backend) and fixtures/real (exported by
people): the backend restores it into a collection (as `test_only_deck.py` does) and exports the
whole collection without scheduling (with option groups and media, the legacy layout), and
deckport converts the package with `--without-scheduling`. Both packages are imported into fresh
collections by the backend (`anki_view`), and what Anki sees must be the same: notes (their tags
without marked and leech), cards (new, at the same positions, in the same decks), note types,
decks, media, no reviews. Each card's own data (Anki's per-card JSON: what is left of the original
position, memory state, last review time) is compared too, read from the two packages. One more
case: one deck without scheduling (`--only-deck` with it) against Anki's export of that deck's
notes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import zipfile

import pytest
from anki.collection import Collection, NoteIdsLimit, SearchNode

from anki_view import anki_view
from conftest import fixture_packages
from test_csv_helpers import deckport, deckport_exists
from test_only_deck import COMPARED, anki_export

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


def anki_export_without_scheduling(package: str, folder: str, limit=lambda col: None) -> str:
    return anki_export(package, folder, limit, with_scheduling=False)


def card_data(package: str) -> dict[tuple[str, int], dict]:
    """Each card's data (parsed), by its note's GUID and its template, read from the package."""
    folder = tempfile.mkdtemp(prefix="deckport_card_data_")
    with zipfile.ZipFile(package) as archive:
        member = "collection.anki21" if "collection.anki21" in archive.namelist() else "collection.anki2"
        archive.extract(member, folder)
    db = sqlite3.connect(os.path.join(folder, member))
    try:
        rows = db.execute("select n.guid, c.ord, c.data from cards c join notes n on n.id = c.nid").fetchall()
    finally:
        db.close()
    return {(guid, ord_): json.loads(data) if data else {} for guid, ord_, data in rows}


def with_static_files(expected: dict, source: str) -> dict:
    """`expected` (anki_view of Anki's export of `source`) with the '_' and 'latex-' files of
    `source` that nothing refers to: Anki's exporter leaves them out, but its import of a package
    keeps them, and so deckport's package carries them (test_static_media_in_packages.py)."""
    static = {name: sha for name, sha in anki_view(source)["media"].items() if name.startswith(("_", "latex-"))}
    media = {**expected["media"], **static}
    return dict(expected, media=media, counts=dict(expected["counts"], media=len(media)))


def assert_same_as_anki(anki: str, ours: str, source: str | None = None) -> None:
    """Both packages as the backend imports them are the same; with `source`, a whole package
    deckport converted, besides its static files (`with_static_files`)."""
    expected, actual = anki_view(anki), anki_view(ours)
    if source:
        expected = with_static_files(expected, source)
    for key in COMPARED:
        assert actual[key] == expected[key], key
    assert actual["reviews"] == []
    assert {(c["type"], c["queue"], c["ivl"], c["factor"], c["reps"], c["lapses"], c["flags"]) for c in actual["cards"]} <= {
        (0, 0, 0, 0, 0, 0, 0)
    }
    assert card_data(ours) == card_data(anki)


def convert(package: str, folder: str, *arguments: str) -> str:
    out = os.path.join(folder, "ours.apkg")
    result = deckport("convert", package, out, "--without-scheduling", *arguments)
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_a_deck_without_scheduling_is_what_ankis_export_without_it_holds(package, tmp_path):
    anki = anki_export_without_scheduling(package, str(tmp_path / "anki"))
    os.makedirs(tmp_path / "ours")
    ours = convert(package, str(tmp_path / "ours"))
    assert_same_as_anki(anki, ours, package)
    # Every deck expanded, parents the file lacks too, and no custom study tags.
    assert imported_deck_states(ours) == imported_deck_states(anki)


def test_one_deck_without_scheduling(tmp_path):
    package = os.path.join(os.path.dirname(fixture_packages()[0]), "latest.colpkg")
    deck = "Languages::French"

    def notes_of_deck(col: Collection) -> NoteIdsLimit:
        return NoteIdsLimit(list(col.find_notes(col.build_search_string(SearchNode(deck=deck)))))

    anki = anki_export_without_scheduling(package, str(tmp_path / "anki"), notes_of_deck)
    os.makedirs(tmp_path / "ours")
    assert_same_as_anki(anki, convert(package, str(tmp_path / "ours"), "--only-deck", deck))


@pytest.mark.parametrize("choice", ["--without-scheduling", "--without-media"])
def test_the_selection_line_counts_what_ankis_export_with_the_same_choices_holds(choice, tmp_path):
    """`--only-deck` with `--without-scheduling` or `--without-media`: the selection the report
    gives (`kept`, and its line) counts the notes, cards, reviews and media files that the
    backend imports from Anki's own export of that deck with the same choice (no reviews, no
    media), not what the deck holds with them."""
    package = os.path.join(os.path.dirname(fixture_packages()[0]), "latest.colpkg")
    deck = "Languages::French"

    def notes_of_deck(col: Collection) -> NoteIdsLimit:
        return NoteIdsLimit(list(col.find_notes(col.build_search_string(SearchNode(deck=deck)))))

    anki_choice = {"--without-scheduling": {"with_scheduling": False}, "--without-media": {"with_media": False}}[choice]
    anki = anki_export(package, str(tmp_path / "anki"), notes_of_deck, **anki_choice)
    expected = anki_view(anki)["counts"]
    assert (expected["reviews"] == 0) == (choice == "--without-scheduling")
    assert (expected["media"] == 0) == (choice == "--without-media")
    ours = str(tmp_path / "ours.apkg")
    result = deckport("convert", package, ours, "--only-deck", deck, choice, "--json")
    assert result.returncode == 0, result.stderr
    kept = json.loads(result.stdout)["selection"]["kept"]
    assert kept == expected
    assert anki_view(ours)["counts"] == expected
    line = deckport("convert", package, str(tmp_path / "again.apkg"), "--only-deck", deck, choice)
    assert line.returncode == 0, line.stderr
    assert line.stdout.splitlines()[0].endswith(
        f"{kept['reviews']} of 8 reviews, {kept['media']} of 7 media files"), line.stdout


def collection_with_a_second_group(name: str, edit, legacy: bool = False) -> str:
    """A collection package the backend makes (in the latest layout, or the legacy one) whose
    deck Spanish holds a note and uses a second option group, Fast; `edit(default, fast)` changes
    the two groups first."""
    from test_writer_judged_by_anki import anki_made_collection_package

    def make(col: Collection) -> None:
        default = col.decks.get_config(1)
        fast = col.decks.get_config(col.decks.add_config_returning_id("Fast"))
        edit(default, fast)
        col.decks.update_config(default)
        col.decks.update_config(fast)
        deck = col.decks.get(col.decks.id("Spanish"))
        deck["conf"] = fast["id"]
        col.decks.save(deck)
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"] = "hola"
        col.add_note(note, deck["id"])

    return anki_made_collection_package(name, make, legacy=legacy)


@pytest.mark.parametrize("legacy", [False, True], ids=["schema 18", "schema 11"])
def test_option_groups_lose_their_fsrs_parameters_as_in_ankis_export(legacy, tmp_path):
    """A collection the backend made whose two option groups hold FSRS parameters (one in each
    generation's list), exported by the backend in either layout (option groups as protobuf or
    as schema-11 JSON): Anki's import of its export without scheduling, and of deckport's (both
    layouts), give the same option groups, parameters cleared."""
    from test_writer_judged_by_anki import imported_deck_configs

    def edit(default: dict, fast: dict) -> None:
        default["fsrsParams6"] = [0.2 + index / 100 for index in range(21)]
        default["desiredRetention"] = 0.85
        fast["fsrsParams5"] = [0.4 + index / 100 for index in range(19)]

    package = collection_with_a_second_group("fsrs.colpkg", edit, legacy=legacy)
    expected = imported_deck_configs(anki_export_without_scheduling(package, str(tmp_path / "anki")))
    assert sorted(config["name"] for config in expected) == ["Default", "Fast"]
    assert all(not config["fsrsParams5"] and not config["fsrsParams6"] for config in expected)
    for fmt in ("apkg", "apkg-modern"):
        folder = tmp_path / fmt
        os.makedirs(folder)
        out = str(folder / "ours.apkg")
        result = deckport("convert", package, out, "--without-scheduling", "--to", fmt)
        assert result.returncode == 0, result.stderr
        assert imported_deck_configs(out) == expected, fmt
    # Without the flag the parameters travel (the check above is not vacuous).
    plain = str(tmp_path / "plain.apkg")
    assert deckport("convert", package, plain).returncode == 0
    assert any(config["fsrsParams5"] for config in imported_deck_configs(plain))


def judged(package: str, tmp_path, flag: str, **anki_choices: bool) -> tuple[str, str]:
    """(Anki's export of `package` with `anki_choices`, deckport's conversion of it with `flag`),
    after checking that the backend sees the same notes, cards, decks and media in both."""
    anki = anki_export(package, str(tmp_path / "anki"), **anki_choices)
    out = str(tmp_path / "ours.apkg")
    result = deckport("convert", package, out, flag)
    assert result.returncode == 0, result.stderr
    expected, actual = anki_view(anki), anki_view(out)
    if flag != "--without-media":
        expected = with_static_files(expected, package)
    for key in COMPARED:
        assert actual[key] == expected[key], key
    return anki, out


@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_a_deck_without_presets_is_what_ankis_export_without_them_holds(package, tmp_path):
    """Anki's export with "Include deck presets" off and deckport's `--without-deck-presets`,
    both imported by the backend with their deck configs: the same notes, cards, decks and media,
    and the same option groups (the importing collection's own)."""
    from test_writer_judged_by_anki import imported_deck_configs

    anki, out = judged(package, tmp_path, "--without-deck-presets", with_deck_configs=False)
    assert imported_deck_configs(out) == imported_deck_configs(anki)


def test_presets_stay_home_without_deck_presets(tmp_path):
    """A collection the backend made with a second option group on a deck: with
    `--without-deck-presets` Anki's import gets only its own Default, as from Anki's export
    without presets; without the flag, the group travels."""
    from test_writer_judged_by_anki import imported_deck_configs

    def edit(default: dict, fast: dict) -> None:
        fast["new"]["perDay"] = 99

    package = collection_with_a_second_group("presets.colpkg", edit)
    expected = imported_deck_configs(anki_export(package, str(tmp_path / "anki"), with_deck_configs=False))
    assert [config["name"] for config in expected] == ["Default"]
    ours = str(tmp_path / "ours.apkg")
    assert deckport("convert", package, ours, "--without-deck-presets").returncode == 0
    assert imported_deck_configs(ours) == expected
    plain = str(tmp_path / "plain.apkg")
    assert deckport("convert", package, plain).returncode == 0
    assert [config["name"] for config in imported_deck_configs(plain)] == ["Default", "Fast"]


@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_a_deck_without_media_is_what_ankis_export_without_them_holds(package, tmp_path):
    """Anki's export with "Include media" off and deckport's `--without-media`, both imported by
    the backend: the same notes (still naming their files), cards and decks, no media, and the
    same files missing."""
    _, out = judged(package, tmp_path, "--without-media", with_media=False)
    assert anki_view(out)["media"] == {}


def imported_deck_states(package: str) -> dict[str, tuple]:
    """Each deck's (collapsed, browserCollapsed) after the backend imports `package` into a fresh
    collection (Default, which an import never replaces, left out), and a custom study session's
    tag choices (activeTags, inactiveTags) where it has them."""
    from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    col = Collection(os.path.join(tempfile.mkdtemp(prefix="deckport_collapse_"), "collection.anki2"))
    try:
        col.import_anki_package(
            ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions(with_scheduling=True)))
        return {
            deck["name"]: (deck["collapsed"], deck["browserCollapsed"])
            + tuple(deck[key] for key in ("activeTags", "inactiveTags") if key in deck)
            for deck in col.decks.all()
            if deck["id"] != 1
        }
    finally:
        col.close()


@pytest.mark.parametrize("fmt", ["apkg", "apkg-modern"])
def test_decks_collapsed_by_the_sharer_arrive_expanded_as_in_ankis_export(tmp_path, fmt):
    """The sharer's collapsed decks are part of their study state: Anki's export without
    scheduling expands them, in the deck list and the browser."""
    from anki.collection import ExportAnkiPackageOptions
    from anki.decks import DeckId

    col = Collection(str(tmp_path / "collection.anki2"))
    parent, child = col.decks.id("Parent"), col.decks.id("Parent::Child")
    note = col.new_note(col.models.by_name("Basic"))
    note["Front"], note["Back"] = "front", "back"
    col.add_note(note, DeckId(child))
    for deck_id in (parent, child):
        deck = col.decks.get(deck_id)
        deck["collapsed"] = deck["browserCollapsed"] = True
        col.decks.save(deck)
    source, anki = str(tmp_path / "with.apkg"), str(tmp_path / "anki.apkg")
    for path, with_scheduling in ((source, True), (anki, False)):
        col.export_anki_package(
            out_path=path, options=ExportAnkiPackageOptions(with_scheduling=with_scheduling, with_media=True, legacy=True),
            limit=None)
    col.close()
    assert imported_deck_states(source) == {"Parent": (True, True), "Parent::Child": (True, True)}
    expected = imported_deck_states(anki)
    assert expected == {"Parent": (False, False), "Parent::Child": (False, False)}
    ours = str(tmp_path / "ours.apkg")
    result = deckport("convert", source, ours, "--without-scheduling", "--to", fmt)
    assert result.returncode == 0, result.stderr
    assert imported_deck_states(ours) == expected


UNTIDY_PARENTS = {
    "spaced": [(2059400110, "Spanish :: Verbs", ["hablar"]), (2059400111, "Spanish :: Verbs :: Irregular", ["ser"]),
               (2059400112, "Spanish :: Nouns ", ["casa"])],
    "spaced-parent": [(2059400110, "Spanish", ["x"]), (2059400111, "Spanish :: Verbs", ["hablar"])],
    "case-parent": [(2059400111, "spanish::Verbs", ["hablar"]), (2059400112, "SPANISH::Nouns", ["casa"])],
    "folded-parent": [(2059400111, "Straße::Verbs", ["hablar"]), (2059400112, "STRASSE::Nouns", ["casa"])],
    "empty-level": [(2059400111, "A::::B", ["hablar"])],
}


@pytest.mark.parametrize("case", list(UNTIDY_PARENTS))
def test_parents_a_file_lacks_arrive_expanded_and_are_made_from_the_names_anki_stores(case, tmp_path):
    """genanki writes deck names as given and no parents: without scheduling, every deck arrives
    expanded as from Anki's export, and the parents deckport adds are those of the names Anki
    stores (`Spanish`, not `Spanish ` of `Spanish :: Verbs`), so no warning names a deck the
    file does not have."""
    import re

    import genanki

    model = genanki.Model(
        1607392319, "Simple", fields=[{"name": "Q"}, {"name": "A"}],
        templates=[{"name": "Card 1", "qfmt": "{{Q}}", "afmt": "{{A}}"}],
    )
    decks = []
    for deck_id, name, words in UNTIDY_PARENTS[case]:
        deck = genanki.Deck(deck_id, name)
        for word in words:
            deck.add_note(genanki.Note(model=model, fields=[word, "m " + word], guid=genanki.guid_for(word)))
        decks.append(deck)
    package = str(tmp_path / f"{case}.apkg")
    genanki.Package(decks).write_to_file(package)
    anki = anki_export_without_scheduling(package, str(tmp_path / "anki"))
    ours = str(tmp_path / "ours.apkg")
    result = deckport("convert", package, ours, "--without-scheduling", "--verbose")
    assert result.returncode == 0, result.stderr
    assert imported_deck_states(ours) == imported_deck_states(anki)
    named = set(re.findall(r"deck '([^']*)' \(id \d+\): warning", result.stderr))
    assert named <= {name for _, name, _ in UNTIDY_PARENTS[case]} | {"Default"}, result.stderr
