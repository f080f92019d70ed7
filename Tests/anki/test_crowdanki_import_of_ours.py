"""deckport's CrowdAnki folders, imported as CrowdAnki imports them, judged by the real Anki backend.

CrowdAnki's importer runs inside Anki's desktop program; `fixtures/crowdanki_import.py` makes the
same calls into the `anki` package (option groups, note models, decks, notes, media), reading
deck.json with Python's json module. So these tests judge what a user gets when they import a
folder deckport wrote with CrowdAnki, not what deckport reads back from it.

* test_a_package_as_a_folder_imports_through_crowdanki: each package fixture (real decks people
  exported, and the backend's own) converted to a CrowdAnki folder imports, and Anki then holds
  every note of the package (GUID, fields, tags, note type, deck) and every media file of it,
  byte for byte.
* test_a_real_crowdanki_folder_written_again_imports_through_crowdanki: each folder CrowdAnki
  exported (fixtures/crowdanki/), written again by deckport, imports as the original does, with
  the same notes, note models and media files.
* test_a_value_anki_cannot_read_is_fitted_and_crowdanki_imports_the_folder: a value of a deck, note
  type or option group Anki cannot read (the cases of test_json_values_anki_refuses) is written
  as the nearest one it reads, with a `value-clamped` warning naming the item; the folder imports,
  and `--strict` refuses to write it.
* test_a_template_is_reported_exactly_when_anki_refuses_it_through_crowdanki, the sort field, deck
  name and note type name tests: what Anki's note type and deck APIs refuse or rewrite is reported.
* test_anki_refuses_such_a_value_through_crowdanki: the same folder with the value put back is
  refused by Anki through CrowdAnki's calls, so the test above does judge the fitting.
* test_a_folder_written_again_after_an_edit_updates_what_crowdanki_imported: CrowdAnki's second
  import of a folder written again after an edit updates the note and adds nothing.
* test_a_note_whose_values_do_not_fit_its_note_type_is_fitted_and_crowdanki_imports_it: a note of
  fewer or more values than its note type has fields is fitted as Anki's Check Database fits it
  (Anki refuses it as it is, which stops CrowdAnki's import part way).
"""

from __future__ import annotations

import glob
import json
import os
import sqlite3
import subprocess
import unicodedata
import zipfile

import pytest

from conftest import FIXTURES, REAL_DIR, new_card_order_kept, new_card_positions
from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from anki.collection import Collection  # noqa: E402
from anki.errors import BackendError  # noqa: E402
from anki_view import _neutralise_notetypes  # noqa: E402
from crowdanki_import import deck_file, import_like_crowdanki  # noqa: E402
from test_crowdanki import anki_media, anki_notes, assert_notes_survive, crowdanki_folders, imported  # noqa: E402
from test_json_values_anki_refuses import (  # noqa: E402
    BOUNDED,
    CASES,
    DECK_VALUES,
    deck,
    note_type,
    same,
    setting,
    source_document,
    with_setting,
)


def packages() -> list[str]:
    return sorted(glob.glob(os.path.join(REAL_DIR, "*.apkg"))) + sorted(
        glob.glob(os.path.join(FIXTURES, "anki", "*.apkg"))
    )


def empty_collection(folder: str) -> Collection:
    """A new collection without Anki's stock note types, so a folder's "Basic" keeps its name."""
    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    _neutralise_notetypes(col)
    return col


def folder_in_anki(folder: str, scratch: str) -> Collection:
    col = empty_collection(scratch)
    try:
        import_like_crowdanki(col, folder)
    except BaseException:
        col.close()
        raise
    return col


@pytest.mark.parametrize("package", packages(), ids=os.path.basename)
def test_a_package_as_a_folder_imports_through_crowdanki(tmp_path, package):
    folder = str(tmp_path / "Deck")
    written = deckport("convert", package, folder, "--to", "crowdanki", "--verbose")
    assert written.returncode == 0, written.stderr
    if "warning: [template-refused]" in written.stderr:
        # A note model with a template Anki's note type API refuses (Anki's import of the package
        # takes it): deckport said that CrowdAnki's import stops there, and it does.
        with pytest.raises(BackendError, match="has a problem"):
            folder_in_anki(folder, str(tmp_path / "crowdanki")).close()
        return
    os.makedirs(str(tmp_path / "original"))
    original = imported(package, str(tmp_path / "original"))
    via_crowdanki = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        expected = anki_notes(original, home_decks=True)
        assert_cards_as_reported(original, via_crowdanki, written.stderr)
        got = anki_notes(via_crowdanki)
        if not expected:
            # A package without notes (Anki exports one): the folder imports, and adds none.
            assert got == {}
            return
        if "[template-deck-override]" in written.stderr:
            # Cards a template sends to a deck by an id the folder does not keep land in Default
            # (test_a_default_top_deck_and_template_deck_overrides_arrive_as_reported): decks
            # are compared there.
            for notes in (expected, got):
                for note in notes.values():
                    note.pop("decks")
            assert got == expected
        else:
            assert_notes_survive(expected, got, folder, written.stderr, through_crowdanki=True)
        # CrowdAnki copies every file of media/; each file Anki took from the package arrives
        # with the same bytes.
        media = anki_media(via_crowdanki)
        for name, digest in anki_media(original).items():
            assert media.get(name) == digest, name
    finally:
        original.close()
        via_crowdanki.close()


def assert_cards_as_reported(original: Collection, via_crowdanki: Collection, stderr: str) -> None:
    """The cards CrowdAnki's import makes are the package's but for the ones the conversion
    reported: cards it does not make again from the notes' fields ([cards-dropped]), cards it
    makes that the package lacks ([cards-added]); and the new cards come in the package's order
    exactly when no `[scheduling] the order of …` warning says otherwise."""
    def cards(col: Collection) -> set[tuple[str, int]]:
        return {(guid, ordinal) for guid, ordinal in col.db.all("select n.guid, c.ord from cards c join notes n on n.id = c.nid")}

    had, made = cards(original), cards(via_crowdanki)
    lost, added = len(had - made), len(made - had)
    assert (f"[cards-dropped] {lost} card" in stderr) if lost else ("[cards-dropped]" not in stderr), stderr
    assert (f"[cards-added] {added} card" in stderr) if added else ("[cards-added]" not in stderr), stderr
    in_order = new_card_order_kept(new_card_positions(original), new_card_positions(via_crowdanki))
    assert ("[scheduling] the order of" not in stderr) == in_order, stderr


def changed_deck_as_folder(tmp_path, change) -> tuple[str, str, subprocess.CompletedProcess]:
    """deckport's JSON of `legacy2_sched.apkg` with `change` made (the JSON file's path), written
    as a CrowdAnki folder (its path), and what deckport said."""
    document = source_document(str(tmp_path))
    change(document)
    source = str(tmp_path / "changed.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    folder = str(tmp_path / "Deck")
    result = deckport("convert", source, folder, "--to", "crowdanki", "--verbose")
    assert result.returncode == 0, result.stderr
    return source, folder, result


@pytest.mark.parametrize("folder", crowdanki_folders(), ids=os.path.basename)
def test_a_real_crowdanki_folder_written_again_imports_through_crowdanki(tmp_path, folder):
    """A folder CrowdAnki exported, written again by deckport, imports through CrowdAnki's calls
    as the original does: the same notes (GUID, fields, tags, note model, the decks Anki puts
    their cards in), note models and media files. Where Anki refuses the original (Brain Brew's
    example lacks keys Anki requires), the rewritten folder may be refused too; deckport never
    makes a folder Anki imports into one it refuses."""
    again = str(tmp_path / os.path.basename(folder))
    written = deckport("convert", folder, again, "--to", "crowdanki")
    assert written.returncode == 0, written.stderr
    try:
        original = folder_in_anki(folder, str(tmp_path / "original"))
    except BackendError as refused:
        assert "missing field `sticky`" in str(refused), refused
        return
    try:
        rewritten = folder_in_anki(again, str(tmp_path / "again"))
        try:
            assert anki_notes(rewritten) == anki_notes(original)
            for model in col_models(original):
                held = rewritten.models.by_name(model["name"])
                assert held is not None, model["name"]
                for key in ("flds", "tmpls"):
                    assert [item["name"] for item in held[key]] == [item["name"] for item in model[key]]
                assert [(t["qfmt"], t["afmt"]) for t in held["tmpls"]] == [(t["qfmt"], t["afmt"]) for t in model["tmpls"]]
                assert (held["css"], held["sortf"], held["type"]) == (model["css"], model["sortf"], model["type"])
            assert anki_media(rewritten) == anki_media(original)
            # What Anki keeps of each deck and note model besides arrives too (a deck's own limits,
            # a note model's last tags, ...): all but ids, times, sync state and `mid`, the note
            # type last used in the deck, which names it by an id the folder does not keep.
            assert anki_decks(rewritten) == anki_decks(original)
            with open(deck_file(folder), encoding="utf-8") as handle:
                names = {model["name"] for model in json.load(handle)["note_models"]}
            assert {name: without(rewritten.models.by_name(name), MODEL_IDS) for name in names} == {
                name: without(original.models.by_name(name), MODEL_IDS) for name in names
            }
        finally:
            rewritten.close()
    finally:
        original.close()


def col_models(col: Collection) -> list[dict]:
    return [col.models.get(entry.id) for entry in col.models.all_names_and_ids()]


DECK_IDS = {"id", "mod", "usn", "conf", "mid"}
MODEL_IDS = {"id", "mod", "usn", "did"}


def without(item: dict, keys: set[str]) -> dict:
    return {key: value for key, value in item.items() if key not in keys}


def anki_decks(col: Collection) -> dict[str, dict]:
    """Every deck Anki holds, by name, without the members that are ids, times or sync state."""
    return {deck["name"]: without(deck, DECK_IDS) for deck in col.decks.all()}


@pytest.mark.parametrize("what,change,warning,holds", CASES, ids=[case[0] for case in CASES])
def test_a_value_anki_cannot_read_is_fitted_and_crowdanki_imports_the_folder(tmp_path, what, change, warning, holds):
    source, folder, result = changed_deck_as_folder(tmp_path, change)
    # A deck's and a note type's Anki-only properties are not written to a folder at all (they are
    # reported as dropped), so only the values the folder holds are fitted and named.
    held = "property '" not in warning
    assert (warning in result.stderr) == held, result.stderr
    col = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        assert col.note_count() == 9
        assert col.models.by_name("Basic") is not None
    finally:
        col.close()
    strict = deckport("convert", source, str(tmp_path / "Strict"), "--to", "crowdanki", "--strict", "--verbose")
    assert strict.returncode == 1 and ("value-clamped" in strict.stderr) == held, strict.stderr
    assert not os.path.exists(str(tmp_path / "Strict"))


# A deck's own limits travel in a folder; the day's study counts do not (CrowdAnki's export
# leaves them out), so their cases are left out here.
FOLDER_DECK_VALUES = [case for case in DECK_VALUES if case[0] not in ("newToday", "timeToday")]


@pytest.mark.parametrize(
    "key,text,written,anki_reads", FOLDER_DECK_VALUES, ids=[f"{c[0]}={c[1]}" for c in FOLDER_DECK_VALUES]
)
def test_a_deck_limit_travels_through_crowdanki_as_anki_reads_it(tmp_path, key, text, written, anki_reads):
    """A deck's own limit (from a JSON deck's `ankiProperties`) is written into the folder's deck,
    and CrowdAnki's import gives it to Anki: a value Anki reads arrives as it is, without a
    warning; one Anki would read as no limit or 0 is written as what Anki reads, with a
    `value-clamped` warning naming the deck (the same cases as for a package)."""
    source, folder, result = changed_deck_as_folder(
        tmp_path, lambda document: deck(document)["ankiProperties"].__setitem__(key, text)
    )
    if written is None:
        assert f"property '{key}'" not in result.stderr, result.stderr
    else:
        assert f"deck 'Languages' (id " in result.stderr and f"warning: [value-clamped] property '{key}' is {text}" in result.stderr, result.stderr
        assert f"would read {written} instead; {written} is written" in result.stderr, result.stderr
    with open(deck_file(folder), encoding="utf-8") as handle:
        top = json.load(handle)
    languages = next(child for child in top["children"] if child["name"] == "Languages")
    assert languages[key] == json.loads(written if written is not None else text)
    col = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        expected = json.loads(written if written is not None else text)
        if key.endswith("LimitToday") and isinstance(expected, list):
            expected = {"limit": expected[0], "today": expected[1]}
        # Nested under the folder's root deck (the source has two top-level decks).
        assert col.decks.by_name("Deck::Languages").get(key) == expected
    finally:
        col.close()


def test_anki_refuses_such_a_value_through_crowdanki(tmp_path):
    _, folder, result = changed_deck_as_folder(
        tmp_path, lambda document: note_type(document)["fields"][0].__setitem__("fontSize", 2**63 - 1)
    )
    assert (
        "field 'Front': warning: [value-clamped] font size ('size') is 9223372036854775807, which Anki cannot read"
        " there (it reads a whole number from 0 to 65535) and would refuse it, which stops CrowdAnki's import part"
        " way; 65535 is written"
    ) in result.stderr, result.stderr
    path = deck_file(folder)
    with open(path, encoding="utf-8") as handle:
        deck = json.load(handle)
    basic = next(model for model in deck["note_models"] if model["name"] == "Basic")
    assert basic["flds"][0]["size"] == 65535
    basic["flds"][0]["size"] = 2**63 - 1
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(deck, handle)
    with pytest.raises(BackendError, match="expected u16"):
        folder_in_anki(folder, str(tmp_path / "crowdanki"))


@pytest.mark.parametrize(
    "index,written,consequence",
    [
        (5, 1, "would read 1 instead"),
        (-1, 0, "would refuse it, which stops CrowdAnki's import part way"),
        (70000, 1, "would refuse it, which stops CrowdAnki's import part way"),
    ],
)
def test_a_sort_field_that_names_no_field_is_the_one_anki_takes(tmp_path, index, written, consequence):
    """Anki keeps such a sort field from a package (deckport's package writer refuses it), but its
    note type API, which CrowdAnki's import calls, takes one past the last field as the last and
    refuses one outside 16 bits: the folder holds what Anki takes, and says so."""
    _, folder, result = changed_deck_as_folder(tmp_path, lambda document: note_type(document).__setitem__("sortField", index))
    assert (
        f"note type 'Basic' (id 1795331276711): warning: [value-clamped] sort field ('sortf') is {index}, which Anki"
        f" cannot read there (it reads a whole number from 0 to 1) and {consequence}; {written} is written"
    ) in result.stderr, result.stderr
    col = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        assert col.models.by_name("Basic")["sortf"] == written
    finally:
        col.close()
    if index == 5:
        # Put back, the value is not refused but changed by Anki, silently.
        path = deck_file(folder)
        with open(path, encoding="utf-8") as handle:
            deck = json.load(handle)
        next(model for model in deck["note_models"] if model["name"] == "Basic")["sortf"] = index
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(deck, handle)
        col = folder_in_anki(folder, str(tmp_path / "again"))
        try:
            assert col.models.by_name("Basic")["sortf"] == 1
        finally:
            col.close()


@pytest.mark.parametrize("name,stored", [("  Lang  ", "Deck::Lang"), ("Lang\u0001x", "Deck::Langx")])
def test_a_deck_name_anki_normalises_is_named_as_anki_saves_it(tmp_path, name, stored):
    """The folder keeps a deck's name as it is (CrowdAnki's own export would), and says what Anki
    names the deck when CrowdAnki's import saves it; the folder's name is the added root 'Deck'."""
    _, folder, result = changed_deck_as_folder(tmp_path, lambda document: deck(document).__setitem__("name", name))
    assert f"warning: [deck-renamed] Anki normalises deck names (no control characters, no empty levels, no spaces or ':'" \
        f" around a level), so CrowdAnki's import saves it as '{stored}'" in result.stderr, result.stderr
    col = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        assert stored in [entry.name for entry in col.decks.all_names_and_ids()]
        assert col.note_count() == 9
    finally:
        col.close()


def test_a_default_top_deck_and_template_deck_overrides_arrive_as_reported(tmp_path):
    """A real package whose cards sit under Anki's Default deck, two of whose templates put new
    cards into subdecks by Anki id (`fixtures/real/ankidroid-apisample-legacy1.apkg`). CrowdAnki's
    import finds decks by CrowdAnki UUID, so the collection's own Default is not the folder's:
    the folder's tree arrives as Default_2 ([deck-renamed]). The override ids name decks of the
    package's collection, which the new collection does not have, so Anki adds those cards to
    Default ([template-deck-override], one warning a template)."""
    package = os.path.join(REAL_DIR, "ankidroid-apisample-legacy1.apkg")
    folder = str(tmp_path / "Music")
    written = deckport("convert", package, folder, "--to", "crowdanki", "--verbose")
    assert written.returncode == 0, written.stderr
    assert "deck 'Default' (id 1): warning: [deck-renamed] the top deck is named 'Default'" in written.stderr
    assert "CrowdAnki imports the folder's deck as 'Default_2', with its subdecks below it" in written.stderr
    overrides = [line for line in written.stderr.splitlines() if "[template-deck-override]" in line]
    assert [line.split("template '")[1].split("'")[0] for line in overrides] == [
        "Interval IDing",
        "Compare this with the smaller",
        "Compare this with the larger",
    ], written.stderr
    assert "deck 'Default::music. ear training::Interval IDing' by its Anki id (1606813843189)" in overrides[0]
    col = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        assert sorted(entry.name for entry in col.decks.all_names_and_ids()) == [
            "Default",
            "Default_2",
            "Default_2::music. ear training",
            "Default_2::music. ear training::Interval Comparing",
            "Default_2::music. ear training::Interval IDing",
        ]
        # The package's note has the cards of templates 1 and 3, both with an override.
        cards = sorted((card.ord, col.decks.name(card.did)) for card in col.get_note(col.find_notes("")[0]).cards())
        assert cards == [(0, "Default"), (2, "Default")]
    finally:
        col.close()


def test_a_note_type_name_anki_rewrites_is_refused_as_for_a_package(tmp_path):
    """Anki's note type API, which CrowdAnki's import calls, removes a `"` from a note type's
    name silently (shown below with the folder deckport refuses to write, made by hand); deckport
    refuses such a note type for a folder as it does for a package, and writes nothing."""
    source, folder, _ = changed_deck_as_folder(tmp_path, lambda document: None)
    renamed = str(tmp_path / "renamed.json")
    with open(source, encoding="utf-8") as handle:
        document = json.load(handle)
    note_type(document)["name"] = 'Ba"sic'
    with open(renamed, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    for fmt, out in (("crowdanki", str(tmp_path / "Refused")), ("apkg", str(tmp_path / "refused.apkg"))):
        result = deckport("convert", renamed, out, "--to", fmt)
        assert result.returncode == 1, result.stderr
        assert "note type 'Ba\"sic' (id 1795331276711): the note type name contains '\"', which Anki removes" in result.stderr
        assert not os.path.exists(out)
    path = deck_file(folder)
    with open(path, encoding="utf-8") as handle:
        deck_json = json.load(handle)
    next(model for model in deck_json["note_models"] if model["name"] == "Basic")["name"] = 'Ba"sic'
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(deck_json, handle)
    col = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        names = [entry.name for entry in col.models.all_names_and_ids()]
        assert "Basic" in names and 'Ba"sic' not in names
    finally:
        col.close()


# (front, back) of the Basic note type's template (fields Front and Back): each is refused by Anki's
# note type API or not, as the backend answered; deckport must warn exactly for those it refuses.
TEMPLATES = [
    ("{{Missing}}", "{{Back}}"),
    ("{{#Missing}}x{{/Missing}}{{Front}}", "{{Back}}"),
    ("{{^Missing}}x{{/Missing}}{{Front}}", "{{Back}}"),
    ("{{text:Missing}}{{Front}}", "{{Back}}"),
    ("{{Front}}", "{{Missing}}"),
    ("{{Tags}}{{Front}}", "{{Deck}}{{Subdeck}}{{Card}}{{CardFlag}}{{Type}}{{CardID}}"),
    ("{{cloze:Missing}}{{Front}}", "{{Back}}"),
    ("{{type:Missing}}{{Front}}", "{{Back}}"),
    ("{{ Front }}", "{{Back}}"),
    ("{{front}}", "{{Back}}"),
    ("{{FrontSide}}{{Front}}", "{{Back}}"),
    ("{{Front}}{{c1}}", "{{Back}}"),
    ("{{#c1}}x{{/c1}}{{Front}}", "{{Back}}"),
    ("{{Front}}", "{{#Tags}}t{{/Tags}}{{#FrontSide}}f{{/FrontSide}}{{#c+1}}x{{/c+1}}"),
    ("{{Front}}", "{{tts en_US:Missing}}"),
    ("{{Front}}", "{{:Missing}}"),
    ("{{Front}}", "{{Tags:}}{{}}"),
    ("{{Front}}", "{{FrontSide}}{{#Front}}{{Missing}}{{/Front}}"),
    ("{{#Front}}x", "{{Back}}"),
    ("{{Front}}{{/Back}}", "{{Back}}"),
    # A front needs a replacement or a section; a back does not.
    ("plain", "{{Back}}"),
    ("", "{{Back}}"),
    ("  \n", "{{Back}}"),
    ("<!-- {{Front}} -->", "{{Back}}"),
    ("{{=<% %>=}}plain", "{{Back}}"),
    ("{{=<% %>=}}<%Front%>", "{{Back}}"),
    ("<!-- {{Front}}", "{{Back}}"),
    ("{{Tags}}", "{{Back}}"),
    ("{{#Front}}{{/Front}}", "{{Back}}"),
    ("{{^Front}}x{{/Front}}", "{{Back}}"),
    ("{{}}", "{{Back}}"),
    ("{{Front}}", "plain"),
    ("{{Front}}", ""),
]

NFC_FRONT = unicodedata.normalize("NFC", "\u00e9{{Front}}")
NFD_FRONT = unicodedata.normalize("NFD", "\u00e9{{Front}}")

# (note type, its templates' (front, back), first to last) for what concerns more than one
# template or a cloze note type (fields Text and Back Extra), answered by the backend as above.
NOTE_TYPE_TEMPLATES = [
    # Two fronts must differ, byte for byte, unless they hold {{Card}}.
    ("Basic (and reversed card)", [("{{Front}}", "{{Back}}"), ("{{Front}}", "{{Front}}")]),
    ("Basic (and reversed card)", [("{{Front}}", "{{Back}}"), ("{{Back}}", "{{Front}}"), ("{{Front}}", "x{{Back}}")]),
    ("Basic (and reversed card)", [("{{Front}}", "{{Back}}"), ("{{ Front }}", "{{Back}}")]),
    ("Basic (and reversed card)", [("{{Front}}", "{{Back}}"), ("{{Front}}\n", "{{Back}}")]),
    ("Basic (and reversed card)", [(NFC_FRONT, "{{Back}}"), (NFD_FRONT, "{{Back}}")]),
    ("Basic (and reversed card)", [("{{Card}}{{Front}}", "{{Back}}"), ("{{Card}}{{Front}}", "{{Back}}")]),
    ("Basic (and reversed card)", [("{{\tCard\u00a0}}{{Front}}", "{{Back}}")] * 2),
    ("Basic (and reversed card)", [("<!-- {{Card}} -->{{Front}}", "{{Back}}")] * 2),
    ("Basic (and reversed card)", [("{{{Card}}\u0301{{Front}}", "{{Back}}")] * 2),
    ("Basic (and reversed card)", [("{{#Front}}{{ Card}}{{/Front}}{{Front}}", "{{Back}}")] * 2),
    ("Basic (and reversed card)", [("{{card}}{{Front}}", "{{Back}}")] * 2),
    ("Basic (and reversed card)", [("{{text:Card}}{{Front}}", "{{Back}}")] * 2),
    ("Basic (and reversed card)", [("{{Card}{{Front}}", "{{Back}}")] * 2),
    ("Basic (and reversed card)", [("{{Front}}Card", "{{Back}}")] * 2),
    # A cloze note type's first template needs {{cloze:…}} on both sides; later ones do not.
    ("Cloze", [("{{cloze:Text}}", "{{cloze:Text}}")]),
    ("Cloze", [("{{Text}}", "{{cloze:Text}}")]),
    ("Cloze", [("{{cloze:Text}}", "{{Text}}")]),
    ("Cloze", [("{{cloze:Text}}", "{{FrontSide}}")]),
    ("Cloze", [("{{#Text}}{{cloze:Text}}{{/Text}}", "{{^Back Extra}}{{cloze:Text}}{{/Back Extra}}")]),
    ("Cloze", [("{{type:cloze:Text}}", "{{cloze:text:Text}}")]),
    ("Cloze", [("{{cloze:Tags}}", "{{cloze:}}")]),
    ("Cloze", [("{{Cloze:Text}}", "{{Cloze:Text}}")]),
    ("Cloze", [("{{cloze-only:Text}}", "{{cloze:Text}}")]),
    ("Cloze", [("<!-- {{cloze:Text}} -->{{Text}}", "{{cloze:Text}}")]),
    ("Cloze", [("plain", "{{cloze:Text}}")]),
    ("Cloze", [("{{Back Extra}}", "{{Back Extra}}"), ("{{cloze:Text}}", "{{cloze:Text}}")]),
    ("Cloze", [("{{cloze:Text}}", "{{cloze:Text}}"), ("{{Back Extra}}", "{{Text}}")]),
    ("Cloze", [("{{cloze:Text}}", "{{cloze:Text}}"), ("plain", "{{Text}}")]),
    ("Cloze", [("{{cloze:Text}}", "{{cloze:Text}}"), ("{{Missing}}", "{{Text}}")]),
    ("Cloze", [("{{cloze:Text}}", "{{cloze:Text}}")] * 2),
]

# What deckport's warning says for each of the backend's refusals.
REASONS = {
    "See the preview": "does not parse",
    "not found": "which the note type does not have",
    "identical to card template": "its front is the same as that of template 'Card 1'",
    "Expected to find a field replacement": "its front has no field replacement",
    "Expected to find '{{cloze:Text}}'": "which the first template of a cloze note type needs",
}


def with_templates(document: dict, name: str, sides: list[tuple[str, str]]) -> None:
    """Gives the note type `name` of `document` the templates `sides`, named Card 1, Card 2, …"""
    model = note_type(document, name)
    first = model["templates"][0]
    model["templates"] = [
        {**{key: value for key, value in first.items() if key != "ankiId"}, "name": f"Card {number}",
         "question": front, "answer": back}
        for number, (front, back) in enumerate(sides, start=1)
    ]


@pytest.mark.parametrize(
    "name,sides", [("Basic", [sides]) for sides in TEMPLATES] + NOTE_TYPE_TEMPLATES, ids=lambda value: repr(value)
)
def test_a_template_is_reported_exactly_when_anki_refuses_it_through_crowdanki(tmp_path, name, sides):
    _, folder, result = changed_deck_as_folder(tmp_path, lambda document: with_templates(document, name, sides))
    col = empty_collection(str(tmp_path / "crowdanki"))
    try:
        import_like_crowdanki(col, folder)
        refused = None
    except BackendError as error:
        refused = str(error)
    finally:
        col.close()
    warned = "warning: [template-refused]" in result.stderr
    assert warned == (refused is not None), (result.stderr, refused)
    if refused:
        reason = next(words for answer, words in REASONS.items() if answer in refused)
        if "not found" in refused:
            missing = refused.split("Field '")[1].split("'")[0].strip("\u2068\u2069")
            reason = f"names the field '{missing}', {reason}"
        assert reason in result.stderr, (result.stderr, refused)


def test_a_folder_written_again_after_an_edit_updates_what_crowdanki_imported(tmp_path):
    """The git workflow: a deck is written as a folder and imported with CrowdAnki; the deck is
    edited (a field, a tag) and written again into a folder of the same name; CrowdAnki's second
    import finds every option group, note type and deck by its `crowdanki_uuid` and every note by
    its GUID, and updates them: nothing is added, no note type changes (which would open
    CrowdAnki's mapping dialog), and the edit is there."""
    document = source_document(str(tmp_path))
    source = str(tmp_path / "deck.json")

    def written_folder(place: str) -> str:
        with open(source, "w", encoding="utf-8") as handle:
            json.dump(document, handle)
        os.makedirs(str(tmp_path / place))
        folder = str(tmp_path / place / "Deck")
        result = deckport("convert", source, folder, "--to", "crowdanki")
        assert result.returncode == 0, result.stderr
        return folder

    first = written_folder("first")
    col = empty_collection(str(tmp_path / "crowdanki"))
    try:
        import_like_crowdanki(col, first)

        def counts() -> tuple[int, int, int, int]:
            return (col.note_count(), len(col.models.all()), len(col.decks.all()), len(col.decks.all_config()))

        before = counts()
        edited = document["notes"][0]
        edited["fields"]["Front"] = "edited front"
        edited["tags"] = edited["tags"] + ["added"]
        import_like_crowdanki(col, written_folder("second"))
        assert counts() == before
        note = col.get_note(col.db.scalar("select id from notes where guid = ?", edited["guid"]))
        assert note["Front"] == "edited front" and "added" in note.tags
    finally:
        col.close()


@pytest.mark.parametrize("path,outside,nearest,anki_reads", [BOUNDED[2], BOUNDED[7], BOUNDED[14]], ids=lambda v: str(v))
def test_a_setting_outside_ankis_bounds_is_written_as_the_nearest_crowdanki_keeps(
    tmp_path, path, outside, nearest, anki_reads
):
    """CrowdAnki hands each option group to Anki's collection API, which reads a setting outside
    its bounds as its default, as a package's import does: the folder holds the nearest value
    Anki keeps, with a warning, and the same folder with the value put back is read otherwise."""

    def change(document):
        group = json.loads(document["deckOptions"][0]["anki11Json"])
        document["deckOptions"][0]["anki11Json"] = json.dumps(with_setting(group, path, outside))

    _, folder, result = changed_deck_as_folder(tmp_path, change)
    assert f"[value-clamped] setting '{path}' is {json.dumps(outside)}, outside what Anki keeps there" in result.stderr
    with open(deck_file(folder), encoding="utf-8") as handle:
        deck_json = json.load(handle)
    written = next(group for group in deck_json["deck_configurations"] if group["name"] == "Default")
    assert same(setting(written, path), nearest)
    for scratch, expected in (("crowdanki", nearest), ("put_back", anki_reads)):
        col = folder_in_anki(folder, str(tmp_path / scratch))
        try:
            uuid = written["crowdanki_uuid"]
            group = next(group for group in col.decks.all_config() if group.get("crowdanki_uuid") == uuid)
            assert same(setting(group, path), expected), (scratch, setting(group, path))
        finally:
            col.close()
        deck_json["deck_configurations"] = [
            with_setting(group, path, outside) if group is written else group
            for group in deck_json["deck_configurations"]
        ]
        with open(deck_file(folder), "w", encoding="utf-8") as handle:
            json.dump(deck_json, handle)


def package_of_a_new_collection(folder, name: str, deck: str | None, new_per_day: int) -> str:
    """An .apkg the backend exports from a new collection: one Basic note in `deck` (or in
    Default, deck 1, when None), option group 1 set to `new_per_day` new cards a day."""
    from anki.collection import ExportAnkiPackageOptions
    from anki.decks import DeckId

    os.makedirs(folder / name)
    col = Collection(str(folder / name / "collection.anki2"))
    try:
        deck_id = col.decks.id(deck) if deck else DeckId(1)
        group = col.decks.get_config(1)
        group["new"]["perDay"] = new_per_day
        col.decks.update_config(group)
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"], note["Back"] = f"question {name}", "answer"
        col.add_note(note, deck_id)
        path = str(folder / f"{name}.apkg")
        col.export_anki_package(
            out_path=path,
            options=ExportAnkiPackageOptions(with_scheduling=False, with_deck_configs=True, with_media=True, legacy=True),
            limit=DeckId(deck_id) if deck else None,
        )
        return path
    finally:
        col.close()


def test_folders_of_two_collections_do_not_take_each_others_default_deck_or_group(tmp_path):
    """Deck 1 and option group 1 are in every collection under that id. Their UUIDs came from the
    id alone, so every folder deckport wrote gave them the same ones: CrowdAnki's import of a
    second folder overwrote the first's option group (its decks' settings changed with no word)
    and put both folders' Default cards in one deck. Each collection's now get their own."""
    folders = {}
    for name, deck, per_day in (("A", "Deck A", 50), ("B", "Deck B", 5), ("C", None, 20), ("D", None, 20)):
        package = package_of_a_new_collection(tmp_path, name, deck, per_day)
        folders[name] = str(tmp_path / f"folder{name}")
        written = deckport("convert", package, folders[name], "--to", "crowdanki")
        assert written.returncode == 0, written.stderr

    col = empty_collection(str(tmp_path / "settings"))
    try:
        import_like_crowdanki(col, folders["A"])
        import_like_crowdanki(col, folders["B"])
        per_day = {d["name"]: col.decks.config_dict_for_deck_id(d["id"])["new"]["perDay"] for d in col.decks.all()}
        assert per_day["Deck A"] == 50 and per_day["Deck B"] == 5
    finally:
        col.close()

    col = empty_collection(str(tmp_path / "defaults"))
    try:
        import_like_crowdanki(col, folders["C"])
        import_like_crowdanki(col, folders["D"])
        decks = {col.get_note(card.nid)["Front"]: col.decks.name(card.did) for card in map(col.get_card, col.find_cards(""))}
        assert set(decks) == {"question C", "question D"} and decks["question C"] != decks["question D"]
    finally:
        col.close()


def test_an_option_group_no_deck_uses_is_not_written(tmp_path):
    """CrowdAnki's export writes the groups of its decks, and its import adds every group a folder
    lists: the package's unused group 1 arrived as a second "Default" group. A group other than
    1 that no deck uses is named in a warning."""
    package = package_of_a_new_collection(tmp_path, "E", "Deck E", 20)
    document = tmp_path / "e.json"
    assert deckport("convert", package, str(document)).returncode == 0
    deck = json.loads(document.read_text(encoding="utf-8"))
    used = next(d for d in deck["decks"] if d["name"] == "Deck E")
    group = dict(next(g for g in deck["deckOptions"] if g["id"] == 1), id=1_700_000_000_001, name="Spare")
    deck["deckOptions"].append(group)
    used["options"] = 1_700_000_000_002
    deck["deckOptions"].append(dict(group, id=1_700_000_000_002, name="Used"))
    document.write_text(json.dumps(deck), encoding="utf-8")

    folder = str(tmp_path / "folderE")
    written = deckport("convert", str(document), folder, "--to", "crowdanki")
    assert written.returncode == 0, written.stderr
    assert (
        "warning: [option-groups-dropped] 1 option group that no deck of the folder uses is not written, as "
        "CrowdAnki's export writes only its decks' groups: 'Spare' (id 1700000000001)" in written.stderr
    ), written.stderr
    with open(deck_file(folder), encoding="utf-8") as handle:
        assert [g["name"] for g in json.load(handle)["deck_configurations"]] == ["Used"]
    col = empty_collection(str(tmp_path / "import"))
    try:
        import_like_crowdanki(col, folder)
        assert sorted(g["name"] for g in col.decks.all_config()) == ["Default", "Used"]
    finally:
        col.close()


def package_with_refitted_notes(tmp_path) -> tuple[str, dict[str, list[str]]]:
    """fixtures/anki/legacy2_sched.apkg with one note cut to its first value and another given a
    third, as a damaged or hand-edited package holds them; and the fields Anki's Check Database
    would give each (by GUID): the missing value empty, the extra one joined into the last field."""
    source = os.path.join(FIXTURES, "anki", "legacy2_sched.apkg")
    package = str(tmp_path / "refitted.apkg")
    expected: dict[str, list[str]] = {}
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(package, "w") as target:
        for info in original.infolist():
            data = original.read(info.filename)
            if info.filename == "collection.anki21":
                database = tmp_path / "collection.anki21"
                database.write_bytes(data)
                connection = sqlite3.connect(database)
                rows = connection.execute(
                    "select id, guid, flds from notes where instr(flds, char(31)) > 0 order by id limit 2"
                ).fetchall()
                (short_id, short_guid, short_fields), (long_id, long_guid, long_fields) = rows
                first, *rest = short_fields.split("\x1f")
                connection.execute("update notes set flds = ? where id = ?", (first, short_id))
                expected[short_guid] = [first] + [""] * len(rest)
                values = long_fields.split("\x1f")
                connection.execute("update notes set flds = ? where id = ?", ("\x1f".join(values + ["extra"]), long_id))
                expected[long_guid] = values[:-1] + [values[-1] + "; extra"]
                connection.commit()
                connection.close()
                data = database.read_bytes()
            target.writestr(info, data)
    return package, expected


def test_a_note_whose_values_do_not_fit_its_note_type_is_fitted_and_crowdanki_imports_it(tmp_path):
    """The CrowdAnki writer fits a note with fewer or more values than its note type has fields as
    every package writer does (as Anki's Check Database fits it), with a [field-count] warning: the
    folder imports through CrowdAnki's calls with the values in place. The folder with a note put
    back short is refused by the backend, so the test judges the fitting."""
    package, expected = package_with_refitted_notes(tmp_path)
    folder = str(tmp_path / "refitted")
    result = deckport("convert", package, folder, "--to", "crowdanki", "--verbose")
    assert result.returncode == 0, result.stderr
    assert "empty, as Anki's Check Database fills them" in result.stderr, result.stderr
    assert "as Anki's Check Database joins them" in result.stderr, result.stderr
    col = folder_in_anki(folder, str(tmp_path / "crowdanki"))
    try:
        fields = {col.get_note(nid).guid: list(col.get_note(nid).fields) for nid in col.find_notes("")}
    finally:
        col.close()
    for guid, values in expected.items():
        assert fields[guid] == values, guid

    path = deck_file(folder)
    with open(path, encoding="utf-8") as handle:
        deck = json.load(handle)

    def short_note(node: dict) -> bool:
        for note in node.get("notes", []):
            if note["guid"] in expected and len(note["fields"]) > 1:
                note["fields"] = note["fields"][:1]
                return True
        return any(short_note(child) for child in node.get("children", []))

    assert short_note(deck)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(deck, handle)
    with pytest.raises(BackendError, match="note has 1 fields, expected"):
        folder_in_anki(folder, str(tmp_path / "crowdanki-short"))
