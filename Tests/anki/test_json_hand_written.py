"""A deckport JSON deck written by hand, without ids, GUIDs, times or cards, gives the real Anki a
deck it can study, and the same document edited and converted again updates the notes Anki
imported from it instead of adding them twice (user complaint 5 in shared/docs/peers.md).

A document that leaves out its `cards` gets the cards Anki makes for each note on import, in the
deck the note names (or the document's only deck). The judge of which cards those are is Anki's
own card generation: the same fields added as a new note in the collection. A note without a GUID
takes one derived from its note type, its first field and its top-level deck, and a note without
`modified` takes the file's modification time; the backend's import log and collection judge the
re-import.
"""

from __future__ import annotations

import copy
import json
import os

import jsonschema
import pytest
from anki.collection import Collection

from conftest import FIXTURES, REPO
from test_csv_helpers import deckport, deckport_exists, import_package, imported_twice

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

DOCUMENT = {
    "format": "deckport-deck",
    "version": 1,
    "decks": [{"name": "Spanish"}, {"name": "Spanish::Verbs"}],
    "noteTypes": [
        {
            "name": "Vocabulary",
            "fields": [{"name": "Word"}, {"name": "Meaning"}, {"name": "Reverse"}],
            "templates": [
                {"name": "Recognise", "question": "{{Word}}", "answer": "{{Meaning}}"},
                {"name": "Recall", "question": "{{#Reverse}}{{Meaning}}{{/Reverse}}", "answer": "{{Word}}"},
            ],
        },
        {
            "name": "Sentences",
            "kind": "cloze",
            "fields": [{"name": "Text"}, {"name": "Extra"}],
            "templates": [{"name": "Cloze", "question": "{{cloze:Text}}", "answer": "{{cloze:Text}}<br>{{Extra}}"}],
        },
    ],
    "notes": [
        {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el gato", "Meaning": "the cat"}},
        {
            "noteType": "Vocabulary",
            "deck": "Spanish",
            "fields": {"Word": "la casa", "Meaning": "the house", "Reverse": "y"},
            "tags": ["home"],
        },
        {"noteType": "Vocabulary", "deck": "Spanish::Verbs", "fields": {"Word": "comer", "Meaning": "to eat"}},
        {
            "noteType": "Sentences",
            "deck": "Spanish",
            "fields": {"Text": "{{c1::Hola}}, {{c3::amigo}}.", "Extra": "a greeting"},
        },
        # The same first field in the same deck: told apart by their order.
        {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el banco", "Meaning": "the bank"}},
        {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el banco", "Meaning": "the bench"}},
    ],
}


def write_document(path: str, document: dict, mtime: int) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document, handle, ensure_ascii=False, indent=1)
    os.utime(path, (mtime, mtime))  # the notes' modification time is the file's


def package(tmp_path, name: str, document: dict, mtime: int) -> str:
    source = str(tmp_path / f"{name}.json")
    write_document(source, document, mtime)
    output = str(tmp_path / f"{name}.apkg")
    result = deckport("convert", source, output)
    assert result.returncode == 0, result.stderr
    return output



def notes(col: Collection) -> list[tuple[str, list[str], list[str]]]:
    found = []
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        found.append((note.note_type()["name"], list(note.fields), sorted(note.tags)))
    return sorted(found)


def cards_anki_makes(col: Collection, note_type: dict, fields: list[str]) -> list[int]:
    """The template ordinals of the cards Anki itself makes when it adds these fields as a note."""
    note = col.new_note(note_type)
    for index, value in enumerate(fields):
        note.fields[index] = value
    col.add_note(note, col.decks.id("Anki's own"))
    ordinals = sorted(card.ord for card in note.cards())
    col.remove_notes([note.id])
    return ordinals


def test_hand_written_document_gives_anki_the_cards_it_makes(tmp_path):
    deck = package(tmp_path, "deck", DOCUMENT, 1_790_000_000)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        log = import_package(col, deck)
        assert (len(log.new), len(log.updated), len(log.duplicate)) == (len(DOCUMENT["notes"]), 0, 0)
        for written in DOCUMENT["notes"]:
            note_type = col.models.by_name(written["noteType"])
            names = [field["name"] for field in note_type["flds"]]
            fields = [written["fields"].get(name, "") for name in names]
            [nid] = [n for n in col.find_notes(f'"note:{written["noteType"]}"') if col.get_note(n).fields == fields]
            imported = col.get_note(nid)
            assert sorted(card.ord for card in imported.cards()) == cards_anki_makes(col, note_type, fields), fields
            # Every card in the deck the note names, new, and the note at the file's time.
            assert {col.decks.name(card.did) for card in imported.cards()} == {written["deck"]}
            assert {card.type for card in imported.cards()} == {0}
            assert imported.mod == 1_790_000_000
        # Cloze numbers 1 and 3 give cards 0 and 2; the reverse template only where Reverse is filled.
        assert col.card_count() == 8
    finally:
        col.close()


def test_edited_hand_written_document_updates_the_notes_anki_has(tmp_path):
    edited = copy.deepcopy(DOCUMENT)
    edited["notes"][0]["fields"]["Meaning"] = "the cat (a pet)"  # a field edited
    edited["notes"][1]["tags"] = ["home", "building"]  # a tag added
    edited["notes"][2]["deck"] = "Spanish"  # moved out of the subdeck
    edited["notes"].append({"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el perro", "Meaning": "the dog"}})
    first = package(tmp_path, "first", DOCUMENT, 1_790_000_000)
    second = package(tmp_path, "edited", edited, 1_790_000_100)
    with imported_twice(str(tmp_path), first, second) as (col, _, log):
        # Every note of the first version is the same note again; only the added one is new.
        count = len(DOCUMENT["notes"])
        assert (len(log.new), len(log.updated), len(log.duplicate), len(log.conflicting)) == (1, count, 0, 0)
        expected = []
        for written in edited["notes"]:
            note_type = col.models.by_name(written["noteType"])
            fields = [written["fields"].get(field["name"], "") for field in note_type["flds"]]
            expected.append((written["noteType"], fields, sorted(written.get("tags", []))))
        assert notes(col) == sorted(expected)


def test_the_same_document_twice_changes_nothing(tmp_path):
    first = package(tmp_path, "first", DOCUMENT, 1_790_000_000)
    again = package(tmp_path, "again", DOCUMENT, 1_790_000_000)
    with imported_twice(str(tmp_path), first, again) as (_, _, log):
        assert (len(log.new), len(log.updated), len(log.duplicate)) == (0, 0, len(DOCUMENT["notes"]))


def test_a_note_in_several_decks_without_its_deck_is_refused(tmp_path):
    document = copy.deepcopy(DOCUMENT)
    del document["notes"][2]["deck"]
    source = str(tmp_path / "deck.json")
    write_document(source, document, 1_790_000_000)
    result = deckport("convert", source, str(tmp_path / "deck.apkg"))
    assert result.returncode != 0
    assert "at notes[2]:" in result.stderr and "name the one for its cards" in result.stderr, result.stderr
    assert not os.path.exists(tmp_path / "deck.apkg")


def test_decks_notes_name_without_defining_them_are_added_as_anki_adds_them(tmp_path):
    """A note may name a deck the document does not define: Anki gets it and its parents, and a
    name differing only in case is the same deck, as Anki matches deck names."""
    document = copy.deepcopy(DOCUMENT)
    document["decks"] = [{"name": "Spanish"}]
    document["notes"][2]["deck"] = "spanish::Verbs::Irregular"
    document["notes"][4]["deck"] = "Latin::Nouns"
    document["notes"][5]["deck"] = "SPANISH::verbs::irregular"
    deck = package(tmp_path, "named", document, 1_790_000_000)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        log = import_package(col, deck)
        assert len(log.new) == len(document["notes"])
        expected = {0: "Spanish", 1: "Spanish", 2: "Spanish::Verbs::Irregular", 3: "Spanish", 4: "Latin::Nouns"}
        expected[5] = expected[2]
        for index, written in enumerate(document["notes"]):
            note_type = col.models.by_name(written["noteType"])
            fields = [written["fields"].get(field["name"], "") for field in note_type["flds"]]
            [nid] = [n for n in col.find_notes(f'"note:{written["noteType"]}"') if col.get_note(n).fields == fields]
            imported = col.get_note(nid)
            assert {col.decks.name(card.did) for card in imported.cards()} == {expected[index]}, written
        names = {entry.name for entry in col.decks.all_names_and_ids()}
        # One deck per name ignoring case, with the parents Anki needs; the first spelling stays.
        assert {"Spanish", "Spanish::Verbs", "Spanish::Verbs::Irregular", "Latin", "Latin::Nouns"} <= names
        assert len({name.lower() for name in names}) == len(names)
    finally:
        col.close()


def json_dir_and_its_documentation(tmp_path) -> tuple[str, str, str]:
    """An Anki-made package, the json-dir deckport makes of it (in `tmp_path`), and the text of
    docs/json-format.md, which says how to add a note to such a folder by hand."""
    original = os.path.join(FIXTURES, "anki", "latest_sched.apkg")
    folder = str(tmp_path / "deck")
    result = deckport("convert", original, folder, "--to", "json-dir")
    assert result.returncode == 0, result.stderr
    with open(os.path.join(REPO, "docs", "json-format.md"), encoding="utf-8") as handle:
        return original, folder, handle.read()


def test_a_note_file_added_to_a_json_dir_by_hand_gives_anki_its_cards(tmp_path):
    """A json-dir note file written by hand, without ids, cards or reviews, gives Anki one new
    note with the cards Anki makes for it, in the deck it names, and leaves every other note of the
    folder as Anki imported it from the package the folder came from."""
    original, folder, text = json_dir_and_its_documentation(tmp_path)
    # Notes with GUIDs, in the files the documentation names by them.
    assert "`notes/686f6c612d31.json` (`printf %s hola-1 | xxd -p`)" in text
    documented = {"guid": "hola-1", "noteType": "Basic (and reversed card)", "deck": "Spanish", "fields": {"Front": "hola", "Back": "hello"}}
    added = {
        documented["guid"]: documented,
        "bonjour-1": {"guid": "bonjour-1", "noteType": "Basic", "deck": "languages::FRENCH", "fields": {"Front": "bonjour", "Back": "hello"}},
    }
    for guid, note in added.items():
        with open(os.path.join(folder, "notes", guid.encode().hex() + ".json"), "w", encoding="utf-8") as handle:
            json.dump({"note": note}, handle)
    package_path = str(tmp_path / "deck.apkg")
    result = deckport("convert", folder, package_path)
    assert result.returncode == 0, result.stderr
    with imported_twice(str(tmp_path), original, package_path) as (col, first, log):
        assert (len(log.new), len(log.updated), len(log.conflicting)) == (2, 0, 0)
        assert len(log.duplicate) == len(first.new)
        expected_decks = {"hola-1": "Spanish", "bonjour-1": "Languages::French"}
        for guid, note in added.items():
            [imported] = [col.get_note(n) for n in col.find_notes("") if col.get_note(n).guid == guid]
            note_type = col.models.by_name(note["noteType"])
            assert sorted(card.ord for card in imported.cards()) == cards_anki_makes(col, note_type, list(imported.fields))
            assert {col.decks.name(card.did) for card in imported.cards()} == {expected_decks[guid]}
            assert {card.type for card in imported.cards()} == {0}


def test_a_freely_named_note_file_is_one_note_that_later_edits_update(tmp_path):
    """A json-dir note file added by hand under a name of the user's choosing, without GUID or
    id (the documentation's example): Anki's import adds it once, with the cards Anki makes; the
    file edited later and converted again updates that note in Anki, adding none."""
    _, folder, text = json_dir_and_its_documentation(tmp_path)
    start = text.index("```json", text.index("**A note added by hand**")) + len("```json")
    documented = json.loads(text[start : text.index("```", start)])
    assert "guid" not in documented["note"] and "id" not in documented["note"]
    assert text.index("saved as `notes/hola.json`") > start
    note_file = os.path.join(folder, "notes", "hola.json")

    def converted(name: str, back: str, mtime: int) -> str:
        edited = copy.deepcopy(documented)
        edited["note"]["fields"]["Back"] = back
        write_document(note_file, edited, mtime)
        out = str(tmp_path / f"{name}.apkg")
        result = deckport("convert", folder, out)
        assert result.returncode == 0, result.stderr
        return out

    first = converted("first", documented["note"]["fields"]["Back"], 1_790_000_000)
    second = converted("second", "hello, edited", 1_790_000_100)
    with imported_twice(str(tmp_path), first, second) as (col, first_log, log):
        assert len(first_log.new) == 10
        assert (len(log.new), len(log.updated), len(log.conflicting)) == (0, 1, 0)
        [nid] = col.find_notes('"Front:hola"')
        imported = col.get_note(nid)
        assert list(imported.fields) == ["hola", "hello, edited"]
        note_type = col.models.by_name(documented["note"]["noteType"])
        assert sorted(card.ord for card in imported.cards()) == cards_anki_makes(col, note_type, list(imported.fields))
        assert {col.decks.name(card.did) for card in imported.cards()} == {documented["note"]["deck"]}


def test_the_hand_written_document_follows_the_schema():
    with open(os.path.join(REPO, "docs", "deckport-deck.schema.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(DOCUMENT))
    assert not errors, "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_the_smallest_documented_document_gives_anki_a_card(tmp_path):
    with open(os.path.join(REPO, "docs", "json-format.md"), encoding="utf-8") as handle:
        text = handle.read()
    after = text.index("The smallest useful document:")
    start = text.index("```json", after) + len("```json")
    document = json.loads(text[start : text.index("```", start)])
    deck = package(tmp_path, "smallest", document, 1_790_000_000)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        log = import_package(col, deck)
        assert len(log.new) == 1
        [card] = [col.get_card(cid) for cid in col.find_cards("")]
        assert (card.note().fields, col.decks.name(card.did), card.ord) == (["el gato", "the cat"], "Default", 0)
    finally:
        col.close()


def test_stock_note_types_need_no_definition(tmp_path):
    """A document without `noteTypes` whose notes name stock note types, in English or in another
    language Anki speaks, gives Anki the backend's own note types and the cards it makes."""
    import make_stock_note_types

    document = {
        "format": "deckport-deck",
        "version": 1,
        "notes": [
            {"noteType": "Basic (and reversed card)", "fields": {"Front": "el gato", "Back": "the cat"}},
            {"noteType": "Texte à trous", "fields": {"Texte": "{{c1::Le}} {{c3::chat}}", "Verso Extra": "x"}},
        ],
    }
    english = {entry["name"]: entry for entry in make_stock_note_types.stock_note_types("en_US")}
    french = {entry["name"]: entry for entry in make_stock_note_types.stock_note_types("fr_FR")}
    expected = {"Basic (and reversed card)": english["Basic (and reversed card)"], "Texte à trous": french["Texte à trous"]}
    deck = package(tmp_path, "stock", document, 1_790_000_000)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        from anki_view import _neutralise_notetypes

        _neutralise_notetypes(col)
        import_package(col, deck)
        for name, truth in expected.items():
            model = col.models.by_name(name)
            assert [f["name"] for f in model["flds"]] == truth["fields"]
            assert [(t["name"], t["qfmt"], t["afmt"]) for t in model["tmpls"]] == [
                (t["name"], t["question"], t["answer"]) for t in truth["templates"]
            ]
            assert model["css"] == truth["css"]
            [nid] = col.find_notes(f'"note:{name}"')
            note = col.get_note(nid)
            assert sorted(card.ord for card in note.cards()) == cards_anki_makes(col, model, list(note.fields))
    finally:
        col.close()


EDGE_FIELDS = ["<br>", "<div></div>", " \t", "<BR />", "</div><br/>", "\u200b", "\u3000", "&nbsp;", "\u00a0", "x"]


def test_which_fields_count_as_empty_and_which_special_fields_make_cards(tmp_path):
    """The cards Anki makes for a note decide on Anki's rule of an empty field (ASCII white space
    and <br>/<div> tags only: a zero-width or non-breaking space is content), count the special
    fields ({{Deck}}, {{Tags}} with tags, …) as never empty, and make none from a front that does
    not parse: for each edge value, the backend's import of deckport's package has the cards Anki
    makes when it adds the same note itself."""
    document = {
        "format": "deckport-deck",
        "version": 1,
        "decks": [{"name": "Edges"}],
        "noteTypes": [
            {
                "name": "Edge cases",
                "fields": [{"name": "Word"}, {"name": "Reverse"}],
                "templates": [
                    {"name": "Forward", "question": "{{Word}}", "answer": "{{Reverse}}"},
                    {"name": "Reverse", "question": "{{#Reverse}}{{Word}}{{/Reverse}}", "answer": "{{Word}}"},
                    {"name": "Unless", "question": "{{^Reverse}}{{Word}}{{/Reverse}}", "answer": "{{Word}}"},
                    {"name": "Deck", "question": "{{Reverse}}{{#Deck}}in a deck{{/Deck}}{{Deck}}", "answer": "{{Word}}"},
                    {"name": "Tags", "question": "{{Tags}}", "answer": "{{Word}}"},
                    {"name": "Broken", "question": "{{#Word}}{{Word}}", "answer": "{{Word}}"},
                ],
            }
        ],
        "notes": [
            {"noteType": "Edge cases", "deck": "Edges", "fields": {"Word": f"w{index}", "Reverse": value},
             "tags": ["t"] if index % 2 else []}
            for index, value in enumerate(EDGE_FIELDS)
        ],
    }
    deck = package(tmp_path, "edges", document, 1_790_000_000)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_package(col, deck)
        note_type = col.models.by_name("Edge cases")
        for written in document["notes"]:
            [nid] = col.find_notes(f'"Word:{written["fields"]["Word"]}"')
            imported = col.get_note(nid)
            expected_note = col.new_note(note_type)
            expected_note["Word"], expected_note["Reverse"] = imported["Word"], imported["Reverse"]
            expected_note.tags = written["tags"]
            col.add_note(expected_note, col.decks.id("Anki's own"))
            expected = sorted(card.ord for card in expected_note.cards())
            col.remove_notes([expected_note.id])
            assert sorted(card.ord for card in imported.cards()) == expected, written
    finally:
        col.close()


def test_a_card_whose_template_its_note_type_lacks_is_refused(tmp_path):
    """A card's template is an ordinal of its note type's templates. One it does not have is
    refused with the card's JSON path: the real backend cannot render such a card, and its Check
    Database deletes it (shown here on a collection holding the document's cards)."""
    apkg = package(tmp_path, "deck", DOCUMENT, 1_700_000_000)
    exported = str(tmp_path / "exported.json")
    result = deckport("convert", apkg, exported)
    assert result.returncode == 0, result.stderr
    with open(exported, encoding="utf-8") as handle:
        document = json.load(handle)
    vocabulary = next(t["id"] for t in document["noteTypes"] if t["name"] == "Vocabulary")
    note = next(n["id"] for n in document["notes"] if n["noteType"] == vocabulary)
    index = next(i for i, c in enumerate(document["cards"]) if c["note"] == note)
    document["cards"][index]["template"] = 5
    edited = str(tmp_path / "edited.json")
    write_document(edited, document, 1_700_000_000)
    result = deckport("convert", edited, str(tmp_path / "edited.apkg"))
    assert result.returncode == 1
    assert (
        f"at cards[{index}].template: note type 'Vocabulary' has 2 templates (ordinals 0 to 1), none of ordinal 5; "
        "Anki cannot show such a card, and its Check Database deletes it"
    ) in result.stderr, result.stderr
    assert not os.path.exists(tmp_path / "edited.apkg")

    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_package(col, apkg)
        card_id = document["cards"][index]["id"]
        col.db.execute("update cards set ord = 5 where id = ?", card_id)
        with pytest.raises(Exception):
            col.get_card(card_id).question(reload=True)
        message, _ = col.fix_integrity()
        assert "missing template" in message, message
        # Deleted (Anki then makes the note's missing card anew, without its scheduling).
        assert not col.db.scalar("select count() from cards where id = ?", card_id)
    finally:
        col.close()


@pytest.mark.parametrize(
    "original, repeated, path, key",
    [
        # A field given twice: the decoder would keep one of the two meanings.
        ('"Meaning": "the cat"}', '"Meaning": "the cat", "Meaning": "the dog"}', "notes[0].fields", "Meaning"),
        # The same key spelled with a decomposed é: Swift's decoders take both as one key, and
        # the one value read might be the empty one.
        ('"Meaning": "the cat"}', '"Meaning": "the cat", "Caf\\u00e9": "y", "Cafe\\u0301": ""}', "notes[0].fields",
         "Cafe\u0301' occurs twice in this object (spelled with other Unicode code points the second time"),
        ('"deck": "Spanish::Verbs",', '"deck": "Spanish::Verbs", "deck": "Spanish",', "notes[2]", "deck"),
        ('"format": "deckport-deck",', '"format": "deckport-deck", "decks": [],', "", "decks"),
    ],
)
def test_a_key_twice_in_an_object_is_refused(tmp_path, original, repeated, path, key):
    """JSON names each key of an object once; a document written by hand that repeats one would
    lose one of its values without a word (a dictionary keeps one). It is refused with the
    object's JSON path, exit 1, and no output."""
    # A field named with a precomposed é, which the second case gives again decomposed.
    text = json.dumps(DOCUMENT, ensure_ascii=False).replace("Reverse", "Caf\u00e9")
    assert original in text
    source = tmp_path / "repeated.json"
    source.write_text(text.replace(original, repeated, 1), encoding="utf-8")
    output = tmp_path / "out.apkg"
    result = deckport("convert", str(source), str(output))
    assert result.returncode == 1, result.stderr
    at = f"at {path}: " if path else ""
    assert f"repeated.json: {at}the key '{key}" in result.stderr
    assert "occurs twice in this object" in result.stderr
    assert not output.exists()


def test_notes_without_ids_that_share_a_guid_are_two_notes(tmp_path):
    """Two hand-written notes with one GUID and no ids: each gets an id of its own, so deckport
    reads back its own JSON deck of them, and the package writer settles the GUID as
    --duplicate-guids says. Before, both took the id derived from the GUID: the JSON deck written
    was refused on reading, and the package writer named an id the document never gave."""
    document = {
        "format": "deckport-deck",
        "version": 1,
        "notes": [
            {"guid": "same-guid", "noteType": "Basic", "deck": "Dup", "fields": {"Front": "first", "Back": "one"}},
            {"guid": "same-guid", "noteType": "Basic", "deck": "Dup", "fields": {"Front": "second", "Back": "two"}},
        ],
    }
    source = str(tmp_path / "dup.json")
    write_document(source, document, 1_700_000_000)
    written = str(tmp_path / "written.json")
    result = deckport("convert", source, written)
    assert result.returncode == 0, result.stderr
    ids = [note["id"] for note in json.load(open(written, encoding="utf-8"))["notes"]]
    assert len(set(ids)) == 2
    result = deckport("convert", written, str(tmp_path / "again.json"))
    assert result.returncode == 0, result.stderr
    refused = deckport("convert", source, str(tmp_path / "refused.apkg"))
    assert refused.returncode == 1
    assert "note %d: note has the GUID 'same-guid' of note %d" % (ids[1], ids[0]) in refused.stderr
    output = str(tmp_path / "dup.apkg")
    result = deckport("convert", source, output, "--duplicate-guids", "new-guid")
    assert result.returncode == 0, result.stderr
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_package(col, output)
        assert sorted(fields[0] for _, fields, _ in notes(col)) == ["first", "second"]
    finally:
        col.close()


def test_a_card_names_its_deck_ignoring_case_as_a_note_does(tmp_path):
    """A card's `deck` may be a name, matched ignoring case as a note's is: a real package's
    cards, each naming its deck in another case, are filed where they were, and the package
    the real backend imports puts every card in the deck it had."""
    source = os.path.join(FIXTURES, "anki", "legacy2_sched.apkg")
    original = json.loads(deckport("convert", source, "-", "--to", "json").stdout)
    names = {deck["id"]: deck["name"] for deck in original["decks"]}
    edited = copy.deepcopy(original)
    for card in edited["cards"]:
        card["deck"] = names[card["deck"]].swapcase()
    path = tmp_path / "cased.json"
    path.write_text(json.dumps(edited))
    package = str(tmp_path / "cased.apkg")
    result = deckport("convert", str(path), package, "--strict")
    assert result.returncode == 0, result.stderr
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_package(col, package)
        filed = {card_id: col.decks.name(col.get_card(card_id).did) for card_id in col.find_cards("")}
    finally:
        col.close()
    assert filed == {card["id"]: names[card["deck"]] for card in original["cards"]}


def test_a_deck_written_without_its_format_key_is_refused_naming_it(tmp_path):
    """A hand-written deck whose `"format": "deckport-deck"` is missing is refused with that key
    named, as docs/json-format.md says, instead of being read as an app's records (a deck of
    one card whose front was the note type's name); `--from app-json` still reads it as records."""
    document = copy.deepcopy(DOCUMENT)
    del document["format"]
    path = tmp_path / "nofmt.json"
    path.write_text(json.dumps(document))
    refused = deckport("convert", str(path), str(tmp_path / "out.apkg"))
    assert refused.returncode == 1
    assert 'at format: not a deckport deck document: the top-level key "format": "deckport-deck" is missing' in refused.stderr
    assert not (tmp_path / "out.apkg").exists()
    as_records = deckport("inspect", str(path), "--from", "app-json", "--key", "notes")
    assert as_records.returncode == 0, as_records.stderr
    assert "app-json" in as_records.stdout
