r"""`deckport convert --only-deck NAME` against Anki's own export of the notes of one deck.

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

Then the search's own words (`deck:PATTERN`, as `--only-deck PATTERN` takes them) on a collection
the backend makes here, with decks named to tell the rules apart (`Music*Star` beside
`MusicXStar`, `Under_Score` beside `UnderXScore`, a normal deck named `filtered` beside a filtered
deck, a note with its two cards in two decks): for each pattern (wildcards, `\*`, another case,
a subdeck only, `*`, `filtered`, levels with spaces, `\:`), deckport keeps the notes the
backend's own search `deck:PATTERN` finds, and the same package as the backend's export of them.
A pattern no deck matches is an error listing the decks; `current` is refused.
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


def escaped(name: str) -> str:
    """A deck's name as `--only-deck` takes it for that deck alone, as Anki's search writes it
    (`SearchNode(deck=name)`): its wildcards `*` and `_`, and the backslash, escaped."""
    return name.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")


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
def test_one_deck_is_what_ankis_export_of_it_holds(package, deck, tmp_path):
    folder = str(tmp_path)
    anki = anki_export(
        package, os.path.join(folder, "anki"), lambda col: NoteIdsLimit(list(col.find_notes(col.build_search_string(SearchNode(deck=deck)))))
    )
    os.makedirs(os.path.join(folder, "ours"))
    expected = assert_same_as_anki(anki, ours(package, os.path.join(folder, "ours"), escaped(deck)))
    assert_inspect_is(package, selecting((escaped(deck),)), expected)


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


# The search's own words, on a collection made here by the backend.

PATTERN_DECKS = (
    "Languages::French::Verbs",
    "Languages::Spanish",
    "Langs",
    "French Stuff",
    "Music*Star",
    "MusicXStar",
    "Under_Score",
    "UnderXScore",
    "filtered",  # a normal deck with the name of the search for filtered decks
)


@pytest.fixture(scope="module")
def pattern_package(tmp_path_factory) -> str:
    """A .colpkg the backend makes: a Basic (and reversed card) note in each of PATTERN_DECKS
    (its name in front), one more with its first card in `Langs` and its second in `MusicXStar`,
    and a filtered deck `Filtered Deck 1` that took the cards of `Languages::Spanish`."""
    from anki.decks import DeckId

    folder = tmp_path_factory.mktemp("deck_patterns")
    col = Collection(str(folder / "collection.anki2"))
    try:
        model = col.models.by_name("Basic (and reversed card)")
        for name in PATTERN_DECKS:
            note = col.new_note(model)
            note["Front"], note["Back"] = name, "back"
            col.add_note(note, DeckId(col.decks.id(name)))
        split = col.new_note(model)
        split["Front"], split["Back"] = "split", "back"
        col.add_note(split, DeckId(col.decks.id("Langs")))
        col.set_deck([split.cards()[1].id], col.decks.id("MusicXStar"))
        deck = col.sched.get_or_create_filtered_deck(deck_id=DeckId(0))
        deck.name = "Filtered Deck 1"
        deck.config.search_terms[0].search = '"deck:Languages::Spanish"'
        deck.config.search_terms[0].limit = 100
        col.sched.add_or_update_filtered_deck(deck)
        assert len(col.find_cards("deck:filtered")) == 2
        out = str(folder / "patterns.colpkg")
        col.export_collection_package(out, include_media=True, legacy=False)
    finally:
        col.close()
    return out


def anki_quoted(term: str) -> str:
    """`term` as one term of Anki's search, in quotes."""
    return '"' + term.replace('"', '\\"') + '"'


@pytest.mark.parametrize(
    "patterns",
    [
        ("Lang*",),  # Languages, its subdecks, Langs
        ("*French*",),  # any level: Languages::French and French Stuff
        ("Languages::Fr_nch",),  # _ one character
        ("*",),  # every card
        ("filtered",),  # the cards in filtered decks (Languages::Spanish's), not the deck named so
        ("Filtered",),  # another case: the deck named filtered
        ("Music\\*Star",),  # \* the character: not MusicXStar
        ("Music*Star",),  # * a wildcard: both
        ("Under\\_Score",),
        ("Under_Score",),
        ("lANGUAGES::french",),  # mixed case, a plain name
        ("*::Verbs",),  # a subdeck only
        ("Languages::Spanish",),  # cards taken into a filtered deck are found by where they were
        (" Languages :: French ",),  # each level trimmed, as Anki trims a deck name's
        ("Languages\\:\\:French",),  # \: is :, as Anki's parser reads it
        ("Langs", "Music\\*Star"),  # several: either
        ("langs", "MUSIC*"),
    ],
    ids=lambda patterns: " | ".join(patterns),
)
def test_a_deck_search_keeps_the_notes_ankis_search_finds(pattern_package, tmp_path, patterns):
    search = " or ".join(anki_quoted("deck:" + pattern) for pattern in patterns)
    col = restored(pattern_package, str(tmp_path / "search"))
    try:
        found = sorted(col.get_note(nid).guid for nid in col.find_notes(search))
    finally:
        col.close()
    assert found, search
    result = deckport("convert", pattern_package, "-", "--to", "json", *selecting(patterns))
    assert result.returncode == 0, result.stderr
    assert sorted(note["guid"] for note in json.loads(result.stdout)["notes"]) == found

    def notes_found(col: Collection) -> NoteIdsLimit:
        return NoteIdsLimit(list(col.find_notes(search)))

    anki = anki_export(pattern_package, str(tmp_path / "anki"), notes_found)
    os.makedirs(tmp_path / "ours")
    expected = assert_same_as_anki(anki, ours(pattern_package, str(tmp_path / "ours"), *patterns))
    assert_inspect_is(pattern_package, selecting(patterns), expected)


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("Span*", "no deck matches 'Span*' (its decks: 'Default', 'Filtered Deck 1', 'French Stuff', 'Langs',"),
        ("Music\\*X", "no deck is named 'Music\\*X' (its decks: 'Default',"),  # \* is no wildcard
        ("Spanish", "no deck is named 'Spanish' (its decks: 'Default',"),
        ("current", "'current' is Anki's search for the deck chosen in its window"),
        ("deck:(", "no deck is named 'deck:(' (its decks: 'Default',"),
        ("", "a deck to search for is empty"),
    ],
)
def test_a_deck_search_no_deck_matches_is_an_error_naming_the_file_and_its_decks(
    pattern_package, tmp_path, pattern, message
):
    out = str(tmp_path / "out.apkg")
    result = deckport("convert", pattern_package, out, "--only-deck", pattern)
    assert result.returncode == 1, result.stderr
    assert f"{pattern_package}: {message}" in result.stderr
    assert not os.path.exists(out)


@pytest.fixture(scope="module")
def spaced_package(tmp_path_factory) -> str:
    """A package genanki made, whose deck names are stored as the user typed them
    (`Spanish :: Verbs`), which Anki's import stores as `Spanish::Verbs`."""
    import genanki

    model = genanki.Model(
        1607392319, "Simple", fields=[{"name": "Q"}, {"name": "A"}],
        templates=[{"name": "Card 1", "qfmt": "{{Q}}", "afmt": "{{A}}"}],
    )
    decks = []
    for deck_id, name, words in [
        (2059400110, "Spanish :: Verbs", ["hablar", "comer"]),
        (2059400111, "Spanish :: Verbs :: Irregular", ["ser", "ir"]),
        (2059400112, "Spanish :: Nouns ", ["casa"]),
    ]:
        deck = genanki.Deck(deck_id, name)
        for word in words:
            deck.add_note(genanki.Note(model=model, fields=[word, "meaning of " + word], guid=genanki.guid_for(word)))
        decks.append(deck)
    path = str(tmp_path_factory.mktemp("spaced") / "spaced.apkg")
    genanki.Package(decks).write_to_file(path)
    return path


@pytest.mark.parametrize(
    ("anki_name", "given"),
    [
        ("Spanish::Verbs", "Spanish::Verbs"),
        ("Spanish::Verbs", "Spanish :: Verbs"),
        ("Spanish", "spanish"),
        ("Spanish::Verbs::Irregular", "Spanish::Verbs::Irregular"),
        ("Spanish::Nouns", "Spanish*Nouns"),
    ],
)
def test_a_deck_stored_as_anki_would_not_store_it_is_found_by_the_name_anki_gives_it(
    spaced_package, tmp_path, anki_name, given
):
    """A deck whose stored name Anki's import normalises (`Spanish :: Verbs`) is found by the
    name Anki shows, by its stored spelling and by a pattern, with its subdecks: what deckport
    keeps is what Anki's own export of that deck holds."""
    folder = str(tmp_path)
    anki = anki_export(
        spaced_package, os.path.join(folder, "anki"),
        lambda col: NoteIdsLimit(list(col.find_notes(col.build_search_string(SearchNode(deck=anki_name))))),
    )
    os.makedirs(os.path.join(folder, "ours"))
    expected = assert_same_as_anki(anki, ours(spaced_package, os.path.join(folder, "ours"), given))
    assert expected["counts"]["notes"] in (1, 2, 4, 5)


def test_a_part_written_as_a_collection_package_has_the_default_deck_every_collection_has(pattern_package, tmp_path):
    """Anki makes the Default deck (id 1) with every collection and never deletes it; its restore
    of a collection package without one does not add it. A part of a collection written as a
    .colpkg, and a deck that never had a Default deck, are restored with it, beside their own."""
    part = str(tmp_path / "part.colpkg")
    result = deckport("convert", pattern_package, part, "--only-deck", "Under_Score")
    assert result.returncode == 0, result.stderr
    source = tmp_path / "french.json"
    source.write_text(json.dumps({
        "format": "deckport-deck", "version": 1,
        "notes": [{"noteType": "Basic", "deck": "French", "fields": {"Front": "chat", "Back": "cat"}}],
    }))
    french = str(tmp_path / "french.colpkg")
    result = deckport("convert", str(source), french)
    assert result.returncode == 0, result.stderr
    for package, deck in [(part, "Under_Score"), (french, "French")]:
        col = restored(package, str(tmp_path / (os.path.basename(package) + "-restored")))
        try:
            names = {entry.id: entry.name for entry in col.decks.all_names_and_ids()}
            assert names.get(1) == "Default", names
            assert deck in names.values(), names
            assert col.card_count() >= 1
        finally:
            col.close()
