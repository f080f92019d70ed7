"""deckport migrate judged by Python's own readers: plistlib for plists, json for JSON files,
sqlite3 for deckport's SQLite schema and for Core Data stores. Independent of the Swift suite's
readers, so a bug that reads back what it wrote wrongly cannot hide here.

Run by scripts/test.sh with DECKPORT_BIN set; the fixtures are made by
fixtures/app/make_app_fixtures.py.
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import plistlib
import shutil
import sqlite3
import struct
import subprocess
import uuid

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
APP = os.path.join(REPO, "fixtures", "app")
DECKPORT = os.environ.get("DECKPORT_BIN", os.path.join(REPO, ".build", "debug", "deckport"))


def migrate(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, "migrate", *arguments], capture_output=True, text=True)


def original_cards() -> list[dict]:
    with open(os.path.join(APP, "flashzilla-binary.plist"), "rb") as handle:
        return json.loads(plistlib.load(handle)["Cards"])


def test_plist_to_json_to_sqlite_to_plist(tmp_path):
    source = tmp_path / "prefs.plist"
    shutil.copy(os.path.join(APP, "flashzilla-binary.plist"), source)
    before = source.read_bytes()
    for src, dst in (("prefs.plist", "cards.json"), ("cards.json", "cards.sqlite"), ("cards.sqlite", "back.plist")):
        run = migrate(str(tmp_path / src), str(tmp_path / dst))
        assert run.returncode == 0, run.stderr
    cards = original_cards()
    assert json.loads((tmp_path / "cards.json").read_text(encoding="utf-8")) == cards
    rows = sqlite3.connect(tmp_path / "cards.sqlite").execute(
        'SELECT id, prompt, answer FROM "cards" ORDER BY deckport_position').fetchall()
    assert rows == [(card["id"], card["prompt"], card["answer"]) for card in cards]
    with open(tmp_path / "back.plist", "rb") as handle:
        back = plistlib.load(handle)
    assert json.loads(back["Cards"]) == cards
    assert source.read_bytes() == before


@pytest.mark.parametrize("name, fmt", [("flashzilla-binary.plist", plistlib.FMT_BINARY), ("flashzilla-xml.plist", plistlib.FMT_XML)])
def test_writing_into_a_plist_keeps_every_other_key(tmp_path, name, fmt):
    target = tmp_path / name
    shutil.copy(os.path.join(APP, name), target)
    with open(target, "rb") as handle:
        before = plistlib.load(handle)
    changed = original_cards()
    changed[0]["answer"] = "twelve"
    cards = tmp_path / "few.json"
    cards.write_text(json.dumps(changed[:1]), encoding="utf-8")
    run = migrate(str(cards), str(target), "--force")
    assert run.returncode == 0, run.stderr
    # The one card matches a held card by id and updates it; the other cards stay.
    assert "0 added, 1 updated, 0 unchanged" in run.stdout
    raw = target.read_bytes()
    assert raw.startswith(b"bplist00") == (fmt == plistlib.FMT_BINARY)
    after = plistlib.loads(raw)
    assert list(after) == list(before)
    for key in before:
        if key != "Cards":
            assert after[key] == before[key] and type(after[key]) is type(before[key]), key
    assert json.loads(after["Cards"]) == changed


def test_filling_a_store(tmp_path):
    store = tmp_path / "default.store"
    shutil.copy(os.path.join(APP, "flashzilla-empty.store"), store)
    run = migrate(os.path.join(APP, "flashzilla-xml.plist"), str(store), "--backup")
    assert run.returncode == 0, run.stderr
    connection = sqlite3.connect(store)
    rows = connection.execute("SELECT Z_PK, Z_ENT, Z_OPT, ZID, ZPROMPT, ZANSWER FROM ZCARD ORDER BY Z_PK").fetchall()
    cards = original_cards()
    assert [(pk, ent, opt) for pk, ent, opt, *_ in rows] == [(1, 1, 1), (2, 1, 1), (3, 1, 1)]
    assert [(str(uuid.UUID(bytes=row[3])).upper(), row[4], row[5]) for row in rows] == [
        (card["id"], card["prompt"], card["answer"]) for card in cards]
    assert connection.execute("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Card'").fetchone() == (3,)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    backups = [name for name in os.listdir(tmp_path) if name.startswith("default.store.backup-")]
    assert len(backups) == 1


def test_refusals_write_nothing(tmp_path):
    target = tmp_path / "cards.json"
    target.write_text("precious", encoding="utf-8")
    run = migrate(os.path.join(APP, "flashzilla-binary.plist"), str(target))
    assert run.returncode == 1
    assert "already exists; pass --backup" in run.stderr
    assert target.read_text(encoding="utf-8") == "precious"
    run = migrate(os.path.join(APP, "unknown-layout.sqlite"), str(tmp_path / "out.json"))
    assert run.returncode == 1
    assert "an SQLite file of an unknown layout: its tables are cards, settings" in run.stderr
    assert sorted(os.listdir(tmp_path)) == ["cards.json"]


RECORDS = [
    {"word": "hola", "level": 3, "score": 2.5, "known": True, "tags": ["a", "b"], "meta": {"x": 1}, "note": ""},
    {"word": "adios", "level": 1, "known": False, "note": "bye"},
]


def convert(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, "convert", *arguments], capture_output=True, text=True)


def records_file(tmp_path, kind: str) -> tuple[str, list[str]]:
    """The records in a file of `kind` made by Python (deckport's SQLite schema by deckport, from
    the JSON file), with the options that write a deck into it."""
    source = tmp_path / "words.json"
    source.write_text(json.dumps(RECORDS), encoding="utf-8")
    if kind == "json":
        return str(source), ["--to", "app-json"]
    if kind == "plist-dictionaries":
        target = tmp_path / "prefs.plist"
        with open(target, "wb") as handle:
            plistlib.dump({"Cards": RECORDS, "Other": 1}, handle, fmt=plistlib.FMT_XML)
        return str(target), []
    target = tmp_path / "words.sqlite"
    run = migrate(str(source), str(target))
    assert run.returncode == 0, run.stderr
    return str(target), []


def records_in(path: str, kind: str) -> list[dict]:
    """The records as Python's own readers see them, typed: json, plistlib, sqlite3 (`typeof`)."""
    if kind == "json":
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    if kind == "plist-dictionaries":
        with open(path, "rb") as handle:
            return plistlib.load(handle)["Cards"]
    connection = sqlite3.connect(path)
    rows = connection.execute(
        'SELECT word, level, typeof(level), score, typeof(score), known, note FROM "words" ORDER BY deckport_position')
    return [dict(zip(("word", "level", "level type", "score", "score type", "known", "note"), row)) for row in rows]


@pytest.mark.parametrize("kind", ["json", "plist-dictionaries", "sqlite"])
def test_a_deck_made_from_app_records_goes_back_into_their_file(tmp_path, kind):
    """The deck's fields are text; the values the file holds under each key type them again, and
    records are matched by the text they show, so the way back changes nothing. Before, every
    record was added again, as strings."""
    path, to = records_file(tmp_path, kind)
    before = records_in(path, kind)
    deck = tmp_path / "deck.json"
    run = convert(path, str(deck))
    assert run.returncode == 0, run.stderr
    run = convert(str(deck), path, *to, "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 0 updated, 2 unchanged" in run.stdout
    assert records_in(path, kind) == before
    # Edited in the deck: numbers, a boolean, JSON, and an emptied value.
    document = json.loads(deck.read_text(encoding="utf-8"))
    hola = next(note for note in document["notes"] if note["fields"]["word"] == "hola")
    adios = next(note for note in document["notes"] if note["fields"]["word"] == "adios")
    hola["fields"].update({"level": "4", "score": "0.75", "known": "false"})
    adios["fields"].update({"note": "", "level": "2"})
    if kind != "sqlite":
        hola["fields"]["tags"] = '["c"]'
    deck.write_text(json.dumps(document), encoding="utf-8")
    # No --match-key: each note's GUID names the record it was made from (its first field,
    # which no other record shares).
    run = convert(str(deck), path, *to, "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 2 updated, 0 unchanged" in run.stdout
    after = {record["word"]: record for record in records_in(path, kind)}
    if kind == "sqlite":
        assert (after["hola"]["level"], after["hola"]["level type"]) == (4, "integer")
        assert (after["hola"]["score"], after["hola"]["score type"]) == (0.75, "real")
        assert after["hola"]["known"] == 0 and after["adios"]["level"] == 2
    else:
        assert after["hola"] == {**RECORDS[0], "level": 4, "score": 0.75, "known": False, "tags": ["c"]}
        assert type(after["hola"]["level"]) is int and type(after["hola"]["known"]) is bool
        # Emptied: the note under a key of text stays an empty string.
        assert after["adios"] == {**RECORDS[1], "level": 2, "note": ""}


PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC")


@pytest.mark.parametrize("kind", ["json", "plist-dictionaries", "sqlite"])
def test_a_picture_under_a_key_of_text_is_stored_as_the_file_holds_bytes(tmp_path, kind):
    """A note field that is a picture alone goes back under a key whose values were text: a JSON
    file holds it as its base64 text (the only way JSON holds bytes, so a second write matches
    it), while a plist's dictionaries hold it as <data> and deckport's SQLite file as bytes
    (`{"$data": …}` in a column of any type). Read by Python's own json, plistlib and sqlite3."""
    path, to = records_file(tmp_path, kind)
    deck = tmp_path / "deck.json"
    run = convert(path, str(deck))
    assert run.returncode == 0, run.stderr
    document = json.loads(deck.read_text(encoding="utf-8"))
    adios = next(note for note in document["notes"] if note["fields"]["word"] == "adios")
    adios["fields"]["note"] = '<img src="pixel.png">'
    document.setdefault("media", []).append(
        {"name": "pixel.png", "data": base64.b64encode(PIXEL_PNG).decode("ascii")})
    deck.write_text(json.dumps(document), encoding="utf-8")
    run = convert(str(deck), path, *to, "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 1 updated, 1 unchanged" in run.stdout
    if kind == "sqlite":
        row = sqlite3.connect(path).execute('SELECT note FROM "words" WHERE word = \'adios\'').fetchone()
        assert base64.b64decode(json.loads(row[0])["$data"]) == PIXEL_PNG
        return
    note = {record["word"]: record for record in records_in(path, kind)}["adios"]["note"]
    if kind == "json":
        assert note == base64.b64encode(PIXEL_PNG).decode("ascii")
        # Written again, the record holding the text matches the picture: nothing changes.
        again = convert(str(deck), path, *to, "--force")
        assert again.returncode == 0, again.stderr
        assert "0 added, 0 updated, 2 unchanged" in again.stdout
    else:
        assert note == PIXEL_PNG


def test_a_note_whose_first_field_other_records_share_is_matched_by_its_values(tmp_path):
    """Records sharing a first field give GUIDs numbered by their order, which name no record for
    certain: such a note edited is a new record (as with no GUID), while one whose first field
    is its own goes back into its record."""
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([{"front": "a", "back": "1"}, {"front": "b", "back": "2"},
                                {"front": "b", "back": "3"}]), encoding="utf-8")
    deck = tmp_path / "deck.json"
    assert convert(str(path), str(deck), "--to", "json").returncode == 0
    document = json.loads(deck.read_text(encoding="utf-8"))
    document["notes"][0]["fields"]["back"] = "one"
    document["notes"][2]["fields"]["back"] = "three"
    deck.write_text(json.dumps(document), encoding="utf-8")
    run = convert(str(deck), str(path), "--force")
    assert run.returncode == 0, run.stderr
    assert "1 added, 1 updated, 1 unchanged" in run.stdout
    assert json.loads(path.read_text(encoding="utf-8")) == [
        {"front": "a", "back": "one"}, {"front": "b", "back": "2"}, {"front": "b", "back": "3"},
        {"front": "b", "back": "three"}]


def test_deck_text_that_is_not_of_the_files_type_is_refused(tmp_path):
    """A plist whose records hold an integer, a boolean, a date and an object under four keys: a
    deck's text that is not one of those is refused, naming the record and key, and the file is
    left as it was (the app decodes it by those types)."""
    target = tmp_path / "prefs.plist"
    with open(target, "wb") as handle:
        plistlib.dump({"Items": [{"title": "a", "count": 3, "flag": True, "when": datetime.datetime(2024, 1, 2),
                                  "sub": {"x": 1}}]}, handle, fmt=plistlib.FMT_BINARY)
    before = target.read_bytes()
    deck = tmp_path / "deck.json"
    assert convert(str(target), str(deck)).returncode == 0
    document = json.loads(deck.read_text(encoding="utf-8"))
    for key, text, kind in (("count", "abc", "integer"), ("count", "1.5", "integer"), ("flag", "yes", "bool"),
                            ("when", "tomorrow", "date"), ("sub", "[1]", "object")):
        edited = json.loads(json.dumps(document))
        edited["notes"][0]["fields"][key] = text
        path = tmp_path / "edited.json"
        path.write_text(json.dumps(edited), encoding="utf-8")
        run = convert(str(path), str(target), "--force", "--match-key", "title")
        assert run.returncode != 0
        assert "record 1, key '%s': the file's records hold %s values under %s, and \"%s\" is not one" % (
            key, kind, key, text) in run.stderr
        assert target.read_bytes() == before


def test_keys_anki_cannot_name_a_field_by_come_back(tmp_path):
    """Keys with `:{}"`, a leading `#`, spaces around, or twice in other case become other field
    names (each with a warning); the way back restores them, so the file is unchanged."""
    records = [{"name": "a", "Name": "b", "key:colon": "c", "{brace}": "d", "#h": "e", " pad ": "f", "a\"q": "g"}]
    source = tmp_path / "k.json"
    source.write_text(json.dumps(records), encoding="utf-8")
    deck = tmp_path / "deck.json"
    run = convert(str(source), str(deck))
    assert run.returncode == 0, run.stderr
    assert "key 'key:colon': warning: [key-renamed] is the note field 'keycolon'" in run.stderr
    run = convert(str(deck), str(source), "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 0 updated, 1 unchanged" in run.stdout
    assert json.loads(source.read_text(encoding="utf-8")) == records


def test_records_unlike_the_files_are_added_with_a_warning(tmp_path):
    target = tmp_path / "cards.json"
    shutil.copy(os.path.join(APP, "flashzilla-cards.json"), target)
    deck = tmp_path / "deck.json"
    source = tmp_path / "words.json"
    source.write_text(json.dumps(RECORDS), encoding="utf-8")
    assert convert(str(source), str(deck)).returncode == 0
    before = target.read_bytes()
    strict = convert(str(deck), str(target), "--force", "--profile", "generic", "--strict")
    assert strict.returncode != 0
    assert target.read_bytes() == before
    run = convert(str(deck), str(target), "--force", "--profile", "generic")
    assert run.returncode == 0, run.stderr
    assert "[records-unlike] none of the keys of the records written (word, level, score, known, tags and 2 more)" in run.stderr
    assert len(json.loads(target.read_text(encoding="utf-8"))) == 5


def test_dates_go_into_a_file_as_it_holds_them(tmp_path):
    """A Flashcard Quiz file whose dates are ISO 8601 strings (an app decoding with `.iso8601`)
    takes a deck's notes with ISO 8601 strings too, held and new records alike; before, every
    date became seconds since 2001 and the app could no longer decode its file. `--json-dates`
    names the encoding of a new file."""
    deck = os.path.join(REPO, "fixtures", "anki", "latest_sched.apkg")
    path = tmp_path / "words.json"
    path.write_text(json.dumps([{"word": "apple", "definition": "fruit", "createdAt": "2024-01-02T03:04:05Z",
                                 "wordTypeRaw": "noun"}]), encoding="utf-8")
    run = convert(deck, str(path), "--to", "app-json", "--profile", "flashcard-quiz", "--force")
    assert run.returncode == 0, run.stderr
    records = json.loads(path.read_text(encoding="utf-8"))
    assert len(records) > 1 and records[0]["createdAt"] == "2024-01-02T03:04:05Z"
    for record in records:
        datetime.datetime.strptime(record["createdAt"], "%Y-%m-%dT%H:%M:%SZ")
    fresh = tmp_path / "fresh.json"
    run = convert(deck, str(fresh), "--to", "app-json", "--profile", "flashcard-quiz", "--json-dates",
                  "milliseconds-since-1970")
    assert run.returncode == 0, run.stderr
    notes = sorted(json.loads(fresh.read_text(encoding="utf-8")), key=lambda record: record["createdAt"])
    assert all(type(record["createdAt"]) is int and record["createdAt"] > 10**12 for record in notes)


def test_keys_that_differ_only_in_how_unicode_composes_them_stay_apart(tmp_path):
    """`café` precomposed and decomposed are two keys to an app (Swift's JSONDecoder and Python
    compare keys scalar by scalar). Each keeps its values in the deck and in a SQLite file, and
    the way back restores both. Before, the decomposed key's values were lost without a word."""
    records = [{"front": "a", "caf\u00e9": "one"}, {"front": "b", "cafe\u0301": "two"}]
    source = tmp_path / "k.json"
    source.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    deck = tmp_path / "deck.json"
    run = convert(str(source), str(deck))
    assert run.returncode == 0, run.stderr
    assert "[key-renamed] is the note field 'cafe\u0301 2'" in run.stderr
    notes = json.loads(deck.read_text(encoding="utf-8"))["notes"]
    assert sorted(value for note in notes for value in note["fields"].values() if value) == ["a", "b", "one", "two"]
    run = convert(str(deck), str(source), "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 0 updated, 2 unchanged" in run.stdout
    assert json.loads(source.read_text(encoding="utf-8")) == records
    target = tmp_path / "k.sqlite"
    run = migrate(str(source), str(target))
    assert run.returncode == 0, run.stderr
    connection = sqlite3.connect(target)
    keys = [row[0] for row in connection.execute("SELECT key FROM deckport_fields ORDER BY position")]
    assert keys == ["front", "caf\u00e9", "cafe\u0301"]
    rows = connection.execute('SELECT * FROM "k" ORDER BY deckport_position').fetchall()
    assert [row[2:] for row in rows] == [("a", "one", None), ("b", None, "two")]


NFC_CAFE = "caf\u00e9"
NFD_CAFE = "cafe\u0301"


def test_a_key_spelled_in_two_unicode_compositions_holds_two_lists_of_records(tmp_path):
    """An app's JSON file or plist may hold `café` precomposed and decomposed as two keys (JSON,
    Foundation's dictionaries and Python compare keys code point by code point). Each key's
    records stay its own: --key reads the list it names exactly, and the way back replaces that
    list only. Before, the JSON file gave the other key's records, and writing back put them
    under both keys, so one list was lost without a word."""
    for kind in ("json", "plist"):
        source = tmp_path / f"both.{kind}"
        lists = {NFC_CAFE: [{"word": "one"}], NFD_CAFE: [{"word": "two"}]}
        if kind == "json":
            source.write_text(json.dumps(lists, ensure_ascii=False), encoding="utf-8")
        else:
            source.write_bytes(plistlib.dumps(lists, fmt=plistlib.FMT_BINARY, sort_keys=False))
        run = convert(str(source), str(tmp_path / "d.json"))
        assert run.returncode != 0
        assert f"('{NFC_CAFE}' (caf\\u{{E9}}), '{NFD_CAFE}' (cafe\\u{{301}}))" in run.stderr, run.stderr
        for key, word in ((NFC_CAFE, "one"), (NFD_CAFE, "two")):
            deck = tmp_path / f"{kind}-{word}.json"
            run = convert(str(source), str(deck), "--key", key)
            assert run.returncode == 0, run.stderr
            document = json.loads(deck.read_text(encoding="utf-8"))
            assert [note["fields"] for note in document["notes"]] == [{"word": word}]
        document = json.loads((tmp_path / f"{kind}-one.json").read_text(encoding="utf-8"))
        document["notes"][0]["fields"]["word"] = "edited"
        (tmp_path / f"{kind}-one.json").write_text(json.dumps(document), encoding="utf-8")
        run = convert(str(tmp_path / f"{kind}-one.json"), str(source), "--key", NFC_CAFE, "--force")
        assert run.returncode == 0, run.stderr
        assert "0 added, 1 updated, 0 unchanged" in run.stdout
        if kind == "json":
            after = json.loads(source.read_text(encoding="utf-8"))
        else:
            after = plistlib.loads(source.read_bytes())
            after = {key: json.loads(value) if isinstance(value, (str, bytes)) else value for key, value in after.items()}
        assert after == {NFC_CAFE: [{"word": "edited"}], NFD_CAFE: [{"word": "two"}]}
        assert list(after) == [NFC_CAFE, NFD_CAFE]


def test_a_record_type_named_in_another_unicode_composition_is_the_one_the_file_holds(tmp_path):
    """A Mac spells file names decomposed: migrating `café.json` so spelled into a SQLite file
    that holds the record type `café` precomposed goes into that record type, under the file's
    spelling. Before, the record type's table was dropped and its metadata row was left pointing
    at the new one, so the records it held were lost and the file then held two record types of
    one name."""
    first = tmp_path / f"{NFC_CAFE}.json"
    first.write_text(json.dumps([{"front": "a", "back": "one"}]), encoding="utf-8")
    second = tmp_path / "mac" / f"{NFD_CAFE}.json"
    second.parent.mkdir()
    second.write_text(json.dumps([{"front": "b", "back": "two"}]), encoding="utf-8")
    target = tmp_path / "app.sqlite"
    run = migrate(str(first), str(target))
    assert run.returncode == 0, run.stderr
    run = migrate(str(second), str(target), "--force")
    assert run.returncode == 0, run.stderr
    connection = sqlite3.connect(target)
    types = connection.execute("SELECT name, table_name FROM deckport_record_types").fetchall()
    assert [name for name, _ in types] == [NFC_CAFE]
    table = types[0][1]
    rows = connection.execute(f'SELECT front, back FROM "{table}" ORDER BY deckport_position').fetchall()
    assert rows == [("a", "one"), ("b", "two")]
    fields = connection.execute("SELECT record_type, key FROM deckport_fields ORDER BY position").fetchall()
    assert fields == [(NFC_CAFE, "front"), (NFC_CAFE, "back")]
    connection.close()
    for name in (NFC_CAFE, NFD_CAFE):
        deck = tmp_path / "deck.json"
        run = convert(str(target), str(deck), "--entity", name, "--force")
        assert run.returncode == 0, run.stderr
        notes = json.loads(deck.read_text(encoding="utf-8"))["notes"]
        assert [note["fields"]["back"] for note in notes] == ["one", "two"]


def test_records_of_thousands_of_keys_arrive_whole_and_come_back_unchanged(tmp_path):
    """Records of 5,000 keys (a JSON file) and of 1,900 (a SQLite file, near SQLite's limit of
    2,000 columns): every value arrives in the deck, the way back changes nothing, and one edited
    value updates its record. Keys are found through an index in such records; before, finding
    each key searched the record, and a record of 20,000 keys took minutes
    (scripts/wide-records-benchmark.py has the figures)."""
    for kind, count in (("json", 5000), ("sqlite", 1900)):
        keys = [f"key {index}" for index in range(count)]
        records = [{key: f"{number}-{index}" for index, key in enumerate(keys)} for number in range(3)]
        source = tmp_path / f"wide-{kind}.json"
        source.write_text(json.dumps(records), encoding="utf-8")
        path = source
        if kind == "sqlite":
            path = tmp_path / "wide.sqlite"
            run = migrate(str(source), str(path))
            assert run.returncode == 0, run.stderr
        deck = tmp_path / f"deck-{kind}.json"
        run = convert(str(path), str(deck), "--to", "json")
        assert run.returncode == 0, run.stderr
        notes = json.loads(deck.read_text(encoding="utf-8"))["notes"]
        assert [note["fields"] for note in notes] == records
        run = convert(str(deck), str(path), "--force")
        assert run.returncode == 0, run.stderr
        assert "0 added, 0 updated, 3 unchanged" in run.stdout
        document = json.loads(deck.read_text(encoding="utf-8"))
        document["notes"][1]["fields"][keys[-1]] = "edited"
        deck.write_text(json.dumps(document), encoding="utf-8")
        run = convert(str(deck), str(path), "--force")
        assert run.returncode == 0, run.stderr
        assert "0 added, 1 updated, 2 unchanged" in run.stdout
        if kind == "json":
            after = json.loads(path.read_text(encoding="utf-8"))
        else:
            connection = sqlite3.connect(path)
            assert [row[0] for row in connection.execute("SELECT key FROM deckport_fields ORDER BY position")] == keys
            (table,) = connection.execute("SELECT table_name FROM deckport_record_types").fetchone()
            after = [dict(zip(keys, row[2:])) for row in connection.execute(
                f'SELECT * FROM "{table}" ORDER BY deckport_position')]
        assert after == [records[0], {**records[1], keys[-1]: "edited"}, records[2]]


@pytest.mark.parametrize(
    "when",
    [
        datetime.datetime(1000, 6, 1, 13, 59, 58),
        datetime.datetime(1, 1, 1, 0, 0, 0),
        datetime.datetime(1582, 10, 4, 23, 59, 59),
        datetime.datetime(1582, 10, 15, 0, 0, 0),
        datetime.datetime(2000, 2, 29, 12, 0, 0),
        datetime.datetime(9999, 12, 31, 23, 59, 59),
    ],
)
def test_xml_plist_dates_are_gregorian_before_1582_too(tmp_path, when):
    """An XML plist's dates are days of the proleptic Gregorian calendar, as Core Foundation and
    plistlib read them. Foundation's ISO 8601 formatter switched to the Julian calendar before
    15 October 1582: a date of the year 1000 was written six days early and read six days late,
    the year 1 two days off (which plistlib then refused), each time "verified"."""
    binary = tmp_path / "dates.plist"
    binary.write_bytes(plistlib.dumps({"Cards": [{"front": "a", "when": when}]}, fmt=plistlib.FMT_BINARY))
    xml = tmp_path / "xml.plist"
    xml.write_bytes(plistlib.dumps({"Cards": [{"front": "held"}]}, fmt=plistlib.FMT_XML))
    run = migrate(str(binary), str(xml), "--force")
    assert run.returncode == 0, run.stderr
    assert [card["when"] for card in plistlib.loads(xml.read_bytes())["Cards"] if "when" in card] == [when]
    back = tmp_path / "back.json"
    run = migrate(str(xml), str(back), "--json-dates", "seconds-since-1970")
    assert run.returncode == 0, run.stderr
    epoch = datetime.datetime(1970, 1, 1)
    assert [card["when"] for card in json.loads(back.read_text()) if "when" in card] == [(when - epoch).total_seconds()]


def test_a_date_of_minus_zero_seconds_goes_into_an_xml_plist(tmp_path):
    """A binary plist's date of -0.0 seconds since 2001 is the instant 0.0 names. Migrated into
    an XML plist, whose date text has no sign, it failed verification ("wrote date -0.0 …, read
    back date 0.0 …"); it is written as 2001-01-01T00:00:00Z and verified equal."""
    zero = plistlib.dumps({"Cards": [{"front": "a", "when": datetime.datetime(2001, 1, 1)}]}, fmt=plistlib.FMT_BINARY)
    date = b"\x33" + struct.pack(">d", 0.0)
    assert zero.count(date) == 1
    binary = tmp_path / "dates.plist"
    binary.write_bytes(zero.replace(date, b"\x33" + struct.pack(">d", -0.0)))
    xml = tmp_path / "xml.plist"
    xml.write_bytes(plistlib.dumps({"Other": 1}, fmt=plistlib.FMT_XML))
    run = migrate(str(binary), str(xml), "--force", "--plist-style", "native")
    assert run.returncode == 0, run.stderr
    assert "verified: read back, every value equal" in run.stdout
    written = plistlib.loads(xml.read_bytes())
    assert written == {"Other": 1, "Cards": [{"front": "a", "when": datetime.datetime(2001, 1, 1, 0, 0, 0)}]}
    assert b"<date>2001-01-01T00:00:00Z</date>" in xml.read_bytes()
