"""Values a migration or conversion could change without a word, judged with Python's own sqlite3,
json and the real Anki backend (no deckport code): numbers a Core Data Double or Float attribute
does not hold, fractions of a second in ISO 8601 dates, infinite doubles in a deck, millisecond
dates going into a store's Date attribute, Flashcard Quiz cards created in one millisecond,
numbers JSON has no text for inside arrays and objects, and fractions of a second dropped from
ISO 8601 dates in JSON under a plist key or nested in a record.
"""

import datetime
import json
import math
import os
import plistlib
import shutil
import sqlite3
import subprocess
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STORES = os.path.join(ROOT, "fixtures", "apple-stores")
APP = os.path.join(ROOT, "fixtures", "app")
DECKPORT = os.environ.get("DECKPORT_BIN", os.path.join(ROOT, ".build", "debug", "deckport"))


@pytest.fixture
def folder():
    path = tempfile.mkdtemp(prefix="deckport-value-fidelity-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def deckport(*arguments):
    return subprocess.run([DECKPORT, *arguments], capture_output=True, text=True)


def copy(source, folder, name=None):
    target = os.path.join(folder, name or os.path.basename(source))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(source + suffix):
            shutil.copyfile(source + suffix, target + suffix)
    return target


def rows(store, sql, arguments=()):
    """Rows of a private copy of `store` (its -wal folded in by SQLite, the store untouched)."""
    scratch = tempfile.mkdtemp(prefix="deckport-value-fidelity-view-")
    try:
        connection = sqlite3.connect(copy(store, scratch))
        try:
            return connection.execute(sql, arguments).fetchall()
        finally:
            connection.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def write_json(folder, name, value):
    path = os.path.join(folder, name)
    with open(path, "w") as handle:
        json.dump(value, handle)
    return path


def file_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


# 1. Numbers a Double or Float attribute does not hold.

def test_an_integer_a_double_does_not_hold_is_refused_naming_record_and_key(folder):
    # Flashcard Quiz's store has no model cache: a FLOAT column is a Double attribute.
    store = copy(os.path.join(APP, "flashcard-quiz.sqlite"), folder)
    connection = sqlite3.connect(store)
    connection.execute("ALTER TABLE ZFLASHCARD ADD COLUMN ZSCORE FLOAT")
    connection.commit()
    connection.close()
    before = file_bytes(store)
    records = [{"word": "exact", "definition": "d", "createdAt": 700000000, "wordTypeRaw": "noun", "score": 9007199254740992},
               {"word": "inexact", "definition": "d", "createdAt": 700000000, "wordTypeRaw": "noun", "score": 9007199254740993}]
    source = write_json(folder, "words.json", records)
    run = deckport("migrate", source, store, "--force", "--profile", "generic", "--json-dates", "seconds-since-2001")
    assert run.returncode == 1, run.stdout
    assert ("record 2, key 'score': 9007199254740993 has no Double: the attribute score (Double) would hold "
            "9007199254740992") in run.stderr
    assert file_bytes(store) == before
    # A whole number a Double holds goes in as that number.
    run = deckport("migrate", write_json(folder, "one.json", records[:1]), store, "--force", "--profile", "generic",
                   "--json-dates", "seconds-since-2001")
    assert run.returncode == 0, run.stderr
    assert rows(store, "SELECT ZSCORE FROM ZFLASHCARD WHERE ZWORD = 'exact'") == [(9007199254740992.0,)]


@pytest.mark.parametrize("radius,message", [
    (1e300, "1e+300 is outside the range of the attribute radius (Float, 32 bits: up to ±3.4028235e+38)"),
    (16777217, "16777217 has no Float: the attribute radius (Float, 32 bits) would hold 16777216"),
])
def test_a_number_a_float_does_not_hold_is_refused_naming_record_and_key(folder, radius, message):
    # Microsoft Teams' SharedPlace.radius is a Float (NSAttributeType 600) in a store Core Data made.
    store = copy(os.path.join(STORES, "MicrosoftTeams-iOS15.sqlite"), folder)
    before = file_bytes(store)
    strings = {"createdByUserMri": "8:orgid:1", "identifier": "1", "threadID": "19:1", "tsID": "1",
               "encryptedLocationData": "AAEC"}
    fits = dict(strings, displayName="fits", radius=0.1)
    source = write_json(folder, "places.json", [fits, dict(strings, displayName="does not", radius=radius)])
    run = deckport("migrate", source, store, "--dest-entity", "SharedPlace", "--force", "--strict")
    assert run.returncode == 1, run.stdout
    assert "record 2, key 'radius': " + message in run.stderr
    assert file_bytes(store) == before
    run = deckport("migrate", write_json(folder, "fits.json", [fits]), store,
                   "--dest-entity", "SharedPlace", "--force", "--strict")
    assert run.returncode == 0, run.stderr
    assert rows(store, "SELECT ZDISPLAYNAME, ZRADIUS FROM ZSHAREDPLACE") == [("fits", 0.1)]


# 2. Fractions of a second in ISO 8601 dates.

def test_an_iso_8601_file_keeps_a_dates_fraction_and_a_second_run_changes_nothing(folder):
    store = copy(os.path.join(APP, "flashcard-quiz.sqlite"), folder)  # hello's createdAt is 700000000.5
    target = write_json(folder, "words.json", [
        {"word": "delta", "definition": "d", "createdAt": "2023-11-14T22:13:20.5Z", "wordTypeRaw": "noun"}])
    run = deckport("migrate", store, target, "--force", "--strict")
    assert run.returncode == 0, run.stderr
    with open(target) as handle:
        written = {record["word"]: record["createdAt"] for record in json.load(handle)}
    assert written == {"delta": "2023-11-14T22:13:20.5Z", "hello": "2023-03-08T20:26:40.5Z",
                       "run": "2023-03-08T21:26:40Z"}
    before = file_bytes(target)
    again = deckport("migrate", store, target, "--force", "--strict")
    assert again.returncode == 0, again.stderr
    assert "0 added, 0 updated, 2 unchanged" in again.stdout
    assert file_bytes(target) == before
    back = deckport("migrate", target, store, "--force")
    assert back.returncode == 0, back.stderr
    assert rows(store, "SELECT ZWORD, ZCREATEDAT FROM ZFLASHCARD ORDER BY Z_PK") == [
        ("hello", 700000000.5), ("run", 700003600), ("delta", 721692800.5)]
    # A new file of ISO 8601 without fractions (JSONEncoder's) says what it drops; with fractions
    # it keeps them.
    new = os.path.join(folder, "new.json")
    run = deckport("migrate", os.path.join(APP, "flashcard-quiz.sqlite"), new, "--json-dates", "iso8601", "--strict")
    assert run.returncode == 1
    assert ("record 1 (Z_PK 1), key 'createdAt': warning: [date-fraction-dropped] 2023-03-08T20:26:40.5Z is written without "
            "its fraction of a second") in run.stderr
    assert not os.path.exists(new)
    run = deckport("migrate", os.path.join(APP, "flashcard-quiz.sqlite"), new, "--json-dates", "iso8601-fractional",
                   "--strict")
    assert run.returncode == 0, run.stderr
    with open(new) as handle:
        assert [record["createdAt"] for record in json.load(handle)] == ["2023-03-08T20:26:40.5Z",
                                                                          "2023-03-08T21:26:40Z"]


def test_a_notes_iso_8601_text_keeps_every_digit_of_its_fraction_in_a_store(folder):
    store = copy(os.path.join(APP, "flashcard-quiz.sqlite"), folder)
    deck_path = os.path.join(folder, "deck.json")
    run = deckport("convert", store, deck_path, "--profile", "generic")
    assert run.returncode == 0, run.stderr
    with open(deck_path) as handle:
        deck = json.load(handle)
    (note,) = [note for note in deck["notes"] if "hello" in note["fields"].values()]
    (key,) = [key for key in note["fields"] if key.lower() == "createdat"]
    note["fields"][key] = "2023-01-01T10:00:00.123456Z"
    write_json(folder, "deck.json", deck)
    run = deckport("convert", deck_path, store, "--force", "--profile", "generic")
    assert run.returncode == 0, run.stderr
    assert "0 added, 1 updated, 1 unchanged" in run.stdout
    # 2023-01-01T10:00:00Z is 694260000 seconds since 2001.
    assert rows(store, "SELECT ZCREATEDAT FROM ZFLASHCARD WHERE ZWORD = 'hello'") == [(694260000.123456,)]


# 3. Infinite doubles in a deck.

def anki_notes(package):
    """The notes of `package` as the real Anki backend imports them: each note's fields."""
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
    scratch = tempfile.mkdtemp(prefix="deckport-value-fidelity-anki-")
    try:
        collection = Collection(os.path.join(scratch, "collection.anki2"))
        try:
            collection.import_anki_package(ImportAnkiPackageRequest(
                package_path=os.path.abspath(package), options=ImportAnkiPackageOptions()))
            return [dict(collection.get_note(note).items()) for note in collection.db.list("SELECT id FROM notes")]
        finally:
            collection.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def test_infinite_doubles_are_inf_and_minus_inf_in_anki_and_come_back(folder):
    store = copy(os.path.join(APP, "flashcard-quiz.sqlite"), folder)
    connection = sqlite3.connect(store)
    connection.execute("ALTER TABLE ZFLASHCARD ADD COLUMN ZSCORE FLOAT")
    connection.execute("UPDATE ZFLASHCARD SET ZSCORE = 9e999 WHERE ZWORD = 'hello'")
    connection.execute("UPDATE ZFLASHCARD SET ZSCORE = -9e999 WHERE ZWORD = 'run'")
    connection.commit()
    connection.close()
    package = os.path.join(folder, "words.apkg")
    run = deckport("convert", store, package, "--profile", "generic")
    assert run.returncode == 0, run.stderr
    scores = {fields["word"]: fields["score"] for fields in anki_notes(package)}
    assert scores == {"hello": "inf", "run": "-inf"}
    before = rows(store, "SELECT * FROM ZFLASHCARD ORDER BY Z_PK")
    back = deckport("convert", package, store, "--force")
    assert back.returncode == 0, back.stderr
    assert "Left" in back.stdout and "as it was" in back.stdout
    assert rows(store, "SELECT * FROM ZFLASHCARD ORDER BY Z_PK") == before


# 4. Millisecond JSON dates going into a store's Date attribute.

def test_millisecond_json_dates_go_into_a_date_attribute_as_the_dates_they_are(folder):
    store = copy(os.path.join(APP, "flashcard-quiz.sqlite"), folder)
    source = write_json(folder, "words.json", [
        {"word": "a", "definition": "d", "createdAt": 1700000000123, "wordTypeRaw": "noun"},
        {"word": "b", "definition": "d", "createdAt": 1690000000000, "wordTypeRaw": "noun"}])
    run = deckport("migrate", source, store, "--force", "--profile", "generic", "--strict")
    assert run.returncode == 0, run.stderr
    since_2001 = dict(rows(store, "SELECT ZWORD, ZCREATEDAT FROM ZFLASHCARD WHERE ZWORD IN ('a', 'b')"))
    # Seconds since 1970 minus the 978307200 from 1970 to 2001.
    assert since_2001["a"] == pytest.approx(1700000000.123 - 978307200, abs=1e-6)
    assert since_2001["b"] == 1690000000 - 978307200


def test_json_dates_of_several_encodings_going_into_a_store_are_said(folder):
    store = copy(os.path.join(APP, "flashcard-quiz.sqlite"), folder)
    before = file_bytes(store)
    source = write_json(folder, "words.json", [
        {"word": "a", "definition": "d", "createdAt": 1700000000123, "wordTypeRaw": "noun"},
        {"word": "b", "definition": "d", "createdAt": 720000000, "wordTypeRaw": "noun"}])
    run = deckport("migrate", source, store, "--force", "--profile", "generic", "--strict")
    assert run.returncode == 1
    assert "[dates-mixed]" in run.stderr and "1700000000123 (record 1, createdat) looks like milliseconds-since-1970" \
        in run.stderr
    assert file_bytes(store) == before


# 5. Flashcard Quiz cards created in one millisecond.

def test_cards_of_one_millisecond_come_back_from_a_package_unchanged(folder):
    store = copy(os.path.join(APP, "flashcard-quiz.sqlite"), folder)  # hello's createdAt is 700000000.5
    twins = write_json(folder, "twins.json", [
        {"word": "twin1", "definition": "d", "createdAt": 700000000.5, "wordTypeRaw": "noun"},
        {"word": "twin2", "definition": "d", "createdAt": 700000000.5, "wordTypeRaw": "noun"}])
    run = deckport("migrate", twins, store, "--force", "--json-dates", "seconds-since-2001")
    assert run.returncode == 0, run.stderr
    before = rows(store, "SELECT ZWORD, ZCREATEDAT, Z_OPT FROM ZFLASHCARD ORDER BY Z_PK")
    assert [row[1] for row in before] == [700000000.5, 700003600, 700000000.5, 700000000.5]
    package = os.path.join(folder, "words.apkg")
    run = deckport("convert", store, package)
    assert run.returncode == 0, run.stderr
    # Note ids are unique: Anki holds the three cards of one millisecond as three ids in a row.
    back = deckport("convert", package, store, "--force")
    assert back.returncode == 0, back.stderr
    assert "0 added, 0 updated, 4 unchanged" in back.stdout or "as it was" in back.stdout
    assert rows(store, "SELECT ZWORD, ZCREATEDAT, Z_OPT FROM ZFLASHCARD ORDER BY Z_PK") == before


# 6. Numbers JSON has no text for, inside arrays and objects.

def same_numbers(actual, expected):
    """Whether two lists of floats are equal, NaN equal to NaN."""
    return len(actual) == len(expected) and all(
        (math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(actual, expected))


def nested_plist(folder):
    path = os.path.join(folder, "nested.plist")
    with open(path, "wb") as handle:
        plistlib.dump({"Cards": [
            {"w": "odd", "scores": [1.5, math.inf, -math.inf, math.nan], "stats": {"best": math.inf, "n": 2}},
            {"w": "plain", "scores": [2.5], "stats": {"best": 1.0, "n": 1}}], "other": "keep"}, handle,
            fmt=plistlib.FMT_XML)
    return path


def test_non_finite_numbers_in_arrays_and_objects_keep_their_note_text_from_a_plist_and_an_sqlite_file(folder):
    # Before, the whole array or object became an empty field, without a word.
    plist = nested_plist(folder)
    sqlite_file = os.path.join(folder, "nested.sqlite")
    run = deckport("migrate", plist, sqlite_file, "--dest-entity", "cards")
    assert run.returncode == 0, run.stderr
    # deckport's SQLite file holds the numbers in its tagged JSON.
    (scores, stats), = rows(sqlite_file, "SELECT scores, stats FROM cards WHERE w = 'odd'")
    assert json.loads(scores) == [1.5, {"$double": "inf"}, {"$double": "-inf"}, {"$double": "nan"}]
    assert json.loads(stats) == {"best": {"$double": "inf"}, "n": 2}
    for source in (plist, sqlite_file):
        package = os.path.join(folder, os.path.basename(source) + ".apkg")
        run = deckport("convert", source, package)
        assert run.returncode == 0, run.stderr
        notes = {fields["w"]: fields for fields in anki_notes(package)}
        assert notes["odd"]["scores"] == "[1.5,inf,-inf,nan]"
        assert notes["odd"]["stats"] == '{"best":inf,"n":2}'
        assert notes["plain"]["scores"] == "[2.5]"


def test_non_finite_numbers_in_a_notes_array_go_back_into_the_plist_as_numbers(folder):
    plist = nested_plist(folder)
    deck_path = os.path.join(folder, "deck.json")
    run = deckport("convert", plist, deck_path)
    assert run.returncode == 0, run.stderr
    with open(deck_path) as handle:
        deck = json.load(handle)
    (note,) = [note for note in deck["notes"] if note["fields"]["w"] == "odd"]
    assert note["fields"]["scores"] == "[1.5,inf,-inf,nan]"
    note["fields"]["scores"] = "[-inf,3.5,nan]"
    note["fields"]["stats"] = '{"best":-inf,"n":3}'
    write_json(folder, "deck.json", deck)
    run = deckport("convert", deck_path, plist, "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 1 updated, 1 unchanged" in run.stdout
    assert "[type-" not in run.stderr
    with open(plist, "rb") as handle:
        cards = {card["w"]: card for card in plistlib.load(handle)["Cards"]}
    assert same_numbers(cards["odd"]["scores"], [-math.inf, 3.5, math.nan])
    assert cards["odd"]["stats"] == {"best": -math.inf, "n": 3}
    assert cards["plain"] == {"w": "plain", "scores": [2.5], "stats": {"best": 1.0, "n": 1}}


# 7. Fractions of a second dropped from ISO 8601 dates in JSON under a plist key, or nested.

def dated_plist(folder):
    path = os.path.join(folder, "dated.plist")
    with open(path, "wb") as handle:
        # A binary plist's dates keep fractions: 700000000.5 and 700000001.25 seconds since 2001.
        plistlib.dump({"Cards": [
            {"w": "whole", "when": datetime.datetime(2023, 3, 8, 20, 26, 40)},
            {"w": "half", "when": datetime.datetime(2023, 3, 8, 20, 26, 40, 500000),
             "seen": [datetime.datetime(2023, 3, 8, 20, 26, 41, 250000)]}]}, handle, fmt=plistlib.FMT_BINARY)
    return path


def json_under_key(path):
    with open(path, "rb") as handle:
        return json.loads(plistlib.load(handle)["Cards"])


def test_a_dates_fraction_dropped_in_json_under_a_plist_key_is_said(folder):
    source = dated_plist(folder)
    target = os.path.join(folder, "prefs.plist")
    run = deckport("migrate", source, target, "--plist-style", "json", "--json-dates", "iso8601", "--strict")
    assert run.returncode == 1
    # plistlib writes a dictionary's keys sorted: "seen" comes first.
    assert (target + ": key 'Cards': record 2, key 'seen[0]': warning: [date-fraction-dropped] 2023-03-08T20:26:41.25Z "
            "(and 1 other date) is written without its fraction of a second") in run.stderr
    assert not os.path.exists(target)
    run = deckport("migrate", source, target, "--plist-style", "json", "--json-dates", "iso8601")
    assert run.returncode == 0, run.stderr
    assert "[date-fraction-dropped]" in run.stderr
    assert [record["when"] for record in json_under_key(target)] == ["2023-03-08T20:26:40Z", "2023-03-08T20:26:40Z"]
    os.remove(target)
    run = deckport("migrate", source, target, "--plist-style", "json", "--json-dates", "iso8601-fractional")
    assert run.returncode == 0, run.stderr
    assert "[date-fraction-dropped]" not in run.stderr
    records = json_under_key(target)
    assert [record["when"] for record in records] == ["2023-03-08T20:26:40Z", "2023-03-08T20:26:40.5Z"]
    assert records[1]["seen"] == ["2023-03-08T20:26:41.25Z"]


def test_a_nested_dates_dropped_fraction_is_said_naming_its_path(folder):
    source = os.path.join(folder, "nested.plist")
    with open(source, "wb") as handle:
        plistlib.dump({"Cards": [{"w": "a", "when": datetime.datetime(2023, 3, 8, 20, 26, 40),
                                  "seen": [datetime.datetime(2023, 3, 8, 20, 26, 41),
                                           {"at": datetime.datetime(2023, 3, 8, 20, 26, 41, 250000)}]}]},
                      handle, fmt=plistlib.FMT_BINARY)
    target = os.path.join(folder, "cards.json")
    run = deckport("migrate", source, target, "--json-dates", "iso8601", "--strict")
    assert run.returncode == 1
    assert (target + ": record 1, key 'seen[1].at': warning: [date-fraction-dropped] 2023-03-08T20:26:41.25Z is "
            "written without its fraction of a second") in run.stderr
    assert not os.path.exists(target)
