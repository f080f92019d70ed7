"""deckport against stores that Apple's frameworks made (fixtures/apple-stores, see its README).

Each check compares deckport's output with an independent view of the store (core_data_view.py:
Python's sqlite3, zlib and plistlib, no deckport code): what deckport reads, and the raw rows
and columns of what it writes.
"""

import base64
import datetime
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile

import pytest

import core_data_view as view

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STORES = os.path.join(ROOT, "fixtures", "apple-stores")
DECKPORT = os.environ.get("DECKPORT_BIN", os.path.join(ROOT, ".build", "debug", "deckport"))

WITH_MODEL = ["SampleModel_V1.sqlite", "CartKitSwiftData_v1.sqlite", "SampleModelV2-2018.sqlite", "SampleModel2_V2.sqlite", "Photos.sqlite",
              "NoteStore-macOS-12-Monterey.sqlite", "MicrosoftTeams-iOS15.sqlite", "VacuumTest-challenges.store"]
ALL = WITH_MODEL + ["Model1.sqlite"]


@pytest.fixture(scope="module", autouse=True)
def module_temporary_folder():
    """The checks copy stores and write records into folders of their own (`tempfile.mkdtemp`,
    here and in core_data_view); those go into one folder, removed at the end, so a run leaves
    nothing in the system's temporary folder."""
    folder = tempfile.mkdtemp(prefix="deckport-store-checks-")
    previous = tempfile.tempdir
    tempfile.tempdir = folder
    yield folder
    tempfile.tempdir = previous
    shutil.rmtree(folder, ignore_errors=True)


def deckport(*arguments):
    return subprocess.run([DECKPORT, *arguments], capture_output=True, text=True)


def scratch_copy(name):
    folder = tempfile.mkdtemp(prefix="apple-store-")
    target = os.path.join(folder, name)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(os.path.join(STORES, name + suffix)):
            shutil.copyfile(os.path.join(STORES, name + suffix), target + suffix)
    return target


def write_json(folder, name, records):
    path = os.path.join(folder, name)
    with open(path, "w") as handle:
        json.dump(records, handle)
    return path


def count_rows(store, table):
    connection = sqlite3.connect(store)
    try:
        return connection.execute('SELECT count(*) FROM "%s"' % table).fetchone()[0]
    finally:
        connection.close()


def read_entity(store, entity):
    out = os.path.join(tempfile.mkdtemp(prefix="apple-store-out-"), "records.json")
    run = deckport("migrate", store, out, "--entity", entity, "--profile", "generic")
    assert run.returncode == 0, run.stderr
    with open(out) as handle:
        return json.load(handle), run.stderr


@pytest.mark.parametrize("name", WITH_MODEL)
def test_the_column_rule_holds_on_the_store(name):
    connection = view.open_copy(os.path.join(STORES, name))
    assert view.check_rule_against_data(connection, view.Model(connection)) > 0


def test_suffixed_columns_belong_to_their_entities():
    connection = view.open_copy(os.path.join(STORES, "NoteStore-macOS-12-Monterey.sqlite"))
    columns = view.columns(connection, view.Model(connection))
    assert columns[("ICAttachment", "title")] == "ZTITLE"
    assert columns[("ICNote", "title")] == "ZTITLE1"
    assert columns[("ICFolder", "title")] == "ZTITLE2"


@pytest.mark.parametrize("name", ALL)
def test_every_value_of_every_entity_reaches_generic_output(name):
    """Every non-null attribute value of every row comes out under its model name (composite
    elements inside their composite), every to-one as a reference to the same key, no other key."""
    path = os.path.join(STORES, name)
    connection = view.open_copy(path)
    entities = view.entity_rows(connection)
    has_model = connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'").fetchone()[0] == 1
    model = view.Model(connection) if has_model else None
    columns = view.columns(connection, model) if model else {}
    checked = 0
    for entity, (number, _, _) in sorted(entities.items()):
        table = "Z" + view.root_of(entities, entity).upper()
        rows = connection.execute('SELECT * FROM "%s" WHERE Z_ENT = ? ORDER BY Z_PK' % table, (number,))
        names = [d[0] for d in rows.description]
        rows = [dict(zip(names, row)) for row in rows.fetchall()]
        if not rows:
            continue
        records, _ = read_entity(path, entity)
        assert len(records) == len(rows), entity
        if model is None:
            for row, record in zip(rows, records):
                for column, value in row.items():
                    if column in ("Z_PK", "Z_ENT", "Z_OPT") or value is None:
                        continue
                    key = column[1:].lower()
                    assert key in record, (entity, column)
                    if isinstance(value, bytes):
                        continue
                    assert record[key] == (float(value) if isinstance(value, float) else value), (entity, column)
                    checked += 1
            continue
        properties = {}
        for owner in model.lineage(entity):
            for prop in model.entities.get(owner, []):
                properties[prop[1]] = (owner, prop)
        for row, record in zip(rows, records):
            assert set(record) <= set(properties), (entity, set(record) - set(properties))
            for key, (owner, prop) in properties.items():
                kind = prop[0]
                if kind == "attribute":
                    value = row[columns[(owner, key)]]
                    if value is None:
                        assert key not in record, (entity, key)
                        continue
                    assert record[key] == view.expected_json(value, prop[2], prop[3]), (entity, row["Z_PK"], key)
                    checked += 1
                elif kind == "composite":
                    for element, element_type, external in prop[2]:
                        value = row[columns[(owner, key + "." + element)]]
                        if value is None:
                            assert element not in record.get(key, {}), (entity, key, element)
                            continue
                        assert record[key][element] == view.expected_json(value, element_type, external), (entity, key, element)
                        checked += 1
                elif kind == "to-one":
                    value = row[columns[(owner, key)]]
                    if value is None:
                        assert key not in record, (entity, key)
                        continue
                    assert record[key]["uri"].endswith("/p%d" % value), (entity, row["Z_PK"], key)
                    checked += 1
    assert checked > 0


def test_a_join_table_becomes_references_on_both_sides():
    path = os.path.join(STORES, "SampleModelV2-2018.sqlite")
    connection = view.open_copy(path)
    pairs = connection.execute("SELECT Z_1PREVIOUSCARS, Z_5PREVIOUSOWNERS FROM Z_1PREVIOUSOWNERS").fetchall()
    assert pairs
    cars = {}
    for car, person in pairs:
        cars.setdefault(car, set()).add(person)
    keys = [row[0] for row in connection.execute("SELECT Z_PK FROM ZCAR WHERE Z_ENT = 1 ORDER BY Z_PK")]
    records, _ = read_entity(path, "Car")
    found = {}
    for key, record in zip(keys, records):
        for reference in record.get("previousOwners", []):
            assert reference["entity"] == "Person"
            found.setdefault(key, set()).add(int(reference["uri"].rsplit("/p", 1)[1]))
    expected = {car: people for car, people in cars.items() if car in keys}
    assert found == expected


def test_a_store_with_committed_wal_is_read_with_it():
    path = os.path.join(STORES, "Photos.sqlite")
    connection = view.open_copy(path)
    number = connection.execute("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Asset'").fetchone()[0]
    with_wal = connection.execute("SELECT count(*) FROM ZGENERICASSET WHERE Z_ENT = ?", (number,)).fetchone()[0]
    main_only = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    without = main_only.execute("SELECT count(*) FROM ZGENERICASSET WHERE Z_ENT = ?", (number,)).fetchone()[0]
    assert with_wal > without
    records, _ = read_entity(path, "Asset")
    assert len(records) == with_wal


def test_an_insert_into_a_subentity_lands_in_its_own_columns_under_the_roots_key():
    store = scratch_copy("SampleModel_V1.sqlite")
    records, _ = read_entity(store, "ExpensiveSportCar")
    for index, record in enumerate(records):
        record["numberPlate"] = "COPY-%d" % index
    source = write_json(os.path.dirname(store), "copies.json", records)
    before = view.open_copy(store)
    entities = view.entity_rows(before)
    root_max = entities["Car"][2]
    largest = before.execute("SELECT max(Z_PK) FROM ZCAR").fetchone()[0]
    run = deckport("migrate", source, store, "--dest-entity", "ExpensiveSportCar", "--force")
    assert run.returncode == 0, run.stderr
    after = sqlite3.connect(store)
    model = view.Model(after)
    columns = view.columns(after, model)
    new = after.execute(
        "SELECT Z_PK, Z_ENT, Z_OPT, %s, %s, %s FROM ZCAR WHERE ZNUMBERPLATE LIKE 'COPY-%%' ORDER BY Z_PK"
        % (columns[("ExpensiveSportCar", "isLimitedEdition")], columns[("Car", "owner")], columns[("Car", "maker")])).fetchall()
    assert len(new) == len(records)
    assert [row[0] for row in new] == list(range(max(root_max, largest) + 1, max(root_max, largest) + 1 + len(records)))
    assert all(row[1] == entities["ExpensiveSportCar"][0] and row[2] == 1 for row in new)
    for row, record in zip(new, records):
        assert row[3] == int(record["isLimitedEdition"])
        assert row[5] == record["maker"]
        if "owner" in record:
            assert row[4] == int(record["owner"]["uri"].rsplit("/p", 1)[1])
        else:
            assert row[4] is None
    maxima = dict(after.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").fetchall())
    assert maxima["Car"] == new[-1][0]
    assert maxima["ExpensiveSportCar"] == 0 and maxima["SportCar"] == 0
    assert after.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_an_insert_into_a_suffixed_column_leaves_the_siblings_columns_empty():
    store = scratch_copy("NoteStore-macOS-12-Monterey.sqlite")
    records, _ = read_entity(store, "ICFolder")
    copies = []
    for record in records[:2]:
        record["title"] = "Copied " + record.get("title", "")
        record["identifier"] = record["identifier"] + "-copy"
        copies.append(record)
    source = write_json(os.path.dirname(store), "folders.json", copies)
    run = deckport("migrate", source, store, "--dest-entity", "ICFolder", "--force", "--existing", "add")
    assert run.returncode == 0, run.stderr
    after = sqlite3.connect(store)
    entities = view.entity_rows(after)
    rows = after.execute(
        "SELECT Z_PK, Z_ENT, ZTITLE, ZTITLE1, ZTITLE2 FROM ZICCLOUDSYNCINGOBJECT WHERE ZTITLE2 LIKE 'Copied %' ORDER BY Z_PK").fetchall()
    assert [row[4] for row in rows] == [record["title"] for record in copies]
    assert all(row[1] == entities["ICFolder"][0] and row[2] is None and row[3] is None for row in rows)
    assert entities["ICCloudSyncingObject"][2] == rows[-1][0]


def test_an_abstract_entity_takes_no_rows():
    store = scratch_copy("NoteStore-macOS-12-Monterey.sqlite")
    source = write_json(os.path.dirname(store), "one.json", [{"identifier": "x"}])
    run = deckport("migrate", source, store, "--dest-entity", "ICNoteContainer", "--force")
    assert run.returncode == 1
    assert "the entity ICNoteContainer is abstract: Core Data keeps no rows of it; write into one of its subentities (ICAccount, ICFolder)" in run.stderr


def test_a_second_import_of_a_deck_changes_nothing():
    store = os.path.join(tempfile.mkdtemp(prefix="seed-store-"), "default.store")
    shutil.copyfile(os.path.join(ROOT, "fixtures", "app", "flashzilla-swiftdata-empty.store"), store)
    deck = os.path.join(ROOT, "fixtures", "anki", "latest_sched.apkg")
    first = deckport("convert", deck, store, "--profile", "flashzilla", "--force")
    assert first.returncode == 0, first.stderr
    count = count_rows(store, "ZCARDENTITY")
    assert count == 9
    dry = deckport("convert", deck, store, "--profile", "flashzilla", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "as it is: it already holds every record of apkg-latest (0 added, 0 updated, 9 unchanged); nothing was written" in dry.stdout
    before = file_state(store)
    second = deckport("convert", deck, store, "--profile", "flashzilla", "--backup")
    assert second.returncode == 0, second.stderr
    assert "0 added, 0 updated, 9 unchanged" in second.stdout
    assert "Left %s (core-data) as it was: it already holds every record of apkg-latest" % store in second.stdout
    # Left as it was: the same file (inode), bytes and time, and no backup of it.
    assert file_state(store) == before
    assert sorted(os.listdir(os.path.dirname(store))) == ["default.store"]
    assert count_rows(store, "ZCARDENTITY") == count


def file_state(path: str) -> tuple:
    """A file's inode, modification time and bytes, and whether it has -wal or -shm files."""
    status = os.stat(path)
    with open(path, "rb") as handle:
        content = handle.read()
    companions = tuple(os.path.exists(path + suffix) for suffix in ("-wal", "-shm"))
    return status.st_ino, status.st_mtime_ns, content, companions


def test_a_second_migration_into_a_real_store_changes_nothing():
    store = scratch_copy("SampleModel_V1.sqlite")
    records, _ = read_entity(store, "ExpensiveSportCar")
    for index, record in enumerate(records):
        record["numberPlate"] = "AGAIN-%d" % index
    source = write_json(os.path.dirname(store), "again.json", records)
    first = deckport("migrate", source, store, "--dest-entity", "ExpensiveSportCar", "--force", "--match-key", "numberPlate")
    assert first.returncode == 0, first.stderr
    assert "%d added, 0 updated, 0 unchanged" % len(records) in first.stdout
    count = count_rows(store, "ZCAR")
    before = file_state(store)
    second = deckport("migrate", source, store, "--dest-entity", "ExpensiveSportCar", "--force", "--match-key", "numberPlate")
    assert second.returncode == 0, second.stderr
    assert "0 added, 0 updated, %d unchanged; it already holds every record" % len(records) in second.stdout
    assert file_state(store) == before
    assert count_rows(store, "ZCAR") == count


def test_an_integer_16_out_of_range_is_refused_and_nothing_is_written():
    store = scratch_copy("SampleModel2_V2.sqlite")
    records, _ = read_entity(store, "Author")
    records[0]["age"] = 40000
    source = write_json(os.path.dirname(store), "authors.json", records[:1])
    with open(store, "rb") as handle:
        before = handle.read()
    run = deckport("migrate", source, store, "--dest-entity", "Author", "--force", "--existing", "add")
    assert run.returncode == 1
    assert "key 'age': 40000 is outside the range of the attribute age (Integer 16: -32768…32767)" in run.stderr
    with open(store, "rb") as handle:
        assert handle.read() == before


def test_links_resolve_by_unique_values_or_are_dropped_with_a_warning():
    store = scratch_copy("SampleModel_V1.sqlite")
    records, _ = read_entity(store, "ExpensiveSportCar")
    owned = [record for record in records if "owner" in record]
    assert len(owned) >= 2
    elsewhere = owned[0]
    elsewhere["numberPlate"] = "ELSEWHERE"
    elsewhere["owner"]["uri"] = "x-coredata://00000000-0000-0000-0000-000000000000/Person/p999"
    unknown = owned[1]
    unknown["numberPlate"] = "UNKNOWN"
    unknown["owner"] = {"entity": "Person", "uri": "x-coredata://00000000-0000-0000-0000-000000000000/Person/p998"}
    source = write_json(os.path.dirname(store), "links.json", [elsewhere, unknown])
    run = deckport("migrate", source, store, "--dest-entity", "ExpensiveSportCar", "--force")
    assert run.returncode == 0, run.stderr
    assert "record 2, relationship 'owner': warning: [relationship-dropped] the link to x-coredata://00000000-0000-0000-0000-000000000000/Person/p998 is dropped" in run.stderr
    connection = sqlite3.connect(store)
    first, last = elsewhere["owner"]["unique"]["firstName"], elsewhere["owner"]["unique"]["lastName"]
    person = connection.execute("SELECT Z_PK FROM ZPERSON WHERE ZFIRSTNAME = ? AND ZLASTNAME = ?", (first, last)).fetchone()[0]
    assert connection.execute("SELECT ZOWNER FROM ZCAR WHERE ZNUMBERPLATE = 'ELSEWHERE'").fetchone()[0] == person
    assert connection.execute("SELECT ZOWNER FROM ZCAR WHERE ZNUMBERPLATE = 'UNKNOWN'").fetchone()[0] is None


def test_large_external_storage_values_go_to_files_small_ones_inline():
    folder = tempfile.mkdtemp(prefix="external-")
    store = os.path.join(folder, "neomnemo.store")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(os.path.join(ROOT, "fixtures", "app", "neomnemo.store" + suffix)):
            shutil.copyfile(os.path.join(ROOT, "fixtures", "app", "neomnemo.store" + suffix), store + suffix)
    shutil.copytree(os.path.join(ROOT, "fixtures", "app", ".neomnemo_SUPPORT"), os.path.join(folder, ".neomnemo_SUPPORT"))
    large = bytes(range(256)) * 1024
    small = b"\x89PNG small"
    source = write_json(folder, "mnemonics.json", [
        {"keyword": "large", "story": "a big picture", "image": base64.b64encode(large).decode()},
        {"keyword": "small", "story": "a small one", "image": base64.b64encode(small).decode()}])
    run = deckport("migrate", source, store, "--force", "--profile", "neomnemo")
    assert run.returncode == 0, run.stderr
    connection = sqlite3.connect(store)
    blobs = dict(connection.execute("SELECT ZKEYWORD, ZIMAGE FROM ZMNEMONIC WHERE ZKEYWORD IN ('large', 'small')").fetchall())
    assert blobs["small"] == b"\x01" + small
    assert blobs["large"][:1] == b"\x02" and blobs["large"][-1:] == b"\x00"
    name = blobs["large"][1:-1].decode()
    with open(os.path.join(folder, ".neomnemo_SUPPORT", "_EXTERNAL_DATA", name), "rb") as handle:
        assert handle.read() == large
    assert not [f for f in os.listdir(folder) if f.startswith(".neomnemo.store.deckport")]


def test_a_composite_attribute_is_written_into_its_elements_columns():
    """On a deckport-made SwiftData-shaped store (no licensed real store with composites was found;
    the layout was checked on one we may read but not redistribute): `author.id` takes `ZID`
    and the entity's own `id` takes `ZID1`."""
    folder = tempfile.mkdtemp(prefix="composite-")
    store = os.path.join(folder, "recipes.store")
    shutil.copyfile(os.path.join(ROOT, "fixtures", "app", "recipes-composite.store"), store)
    records, _ = read_entity(store, "Recipe")
    assert records[0]["author"] == {"id": "0C9D3F6B-7C1B-4F1C-8E43-2A5D1B4E9F70", "name": "Ada"}
    assert "author" not in records[1]
    source = write_json(folder, "new.json", [
        {"id": "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE", "title": "Cake",
         "author": {"id": "11111111-2222-4333-8444-555555555555", "name": "Grace"}},
        {"id": "FFFFFFFF-BBBB-4CCC-8DDD-EEEEEEEEEEEE", "title": "Tea"}])
    run = deckport("migrate", source, store, "--force")
    assert run.returncode == 0, run.stderr
    connection = sqlite3.connect(store)
    rows = connection.execute(
        "SELECT ZTITLE, ZID IS NULL, hex(ZID), hex(ZID1), ZNAME FROM ZRECIPE WHERE Z_PK > 2 ORDER BY Z_PK").fetchall()
    assert rows == [("Cake", 0, "11111111222243338444555555555555", "AAAAAAAABBBB4CCC8DDDEEEEEEEEEEEE", "Grace"),
                    ("Tea", 1, "", "FFFFFFFFBBBB4CCC8DDDEEEEEEEEEEEE", None)]


VACUUM = "VacuumTest-challenges.store"


def test_a_real_swiftdata_composite_comes_out_as_an_object_of_its_elements():
    """SwiftData made VacuumTest's store: Challenge.rating, an optional String-raw enum, is a
    composite of one element named as the property, in ZRATING."""
    connection = view.open_copy(os.path.join(STORES, VACUUM))
    model = view.Model(connection)
    assert ("composite", "rating", [("rating", 700, False)]) in model.entities["Challenge"]
    assert view.columns(connection, model)[("Challenge", "rating.rating")] == "ZRATING"
    raw = connection.execute("SELECT ZNAME, ZRATING FROM ZCHALLENGE ORDER BY Z_PK").fetchall()
    records, _ = read_entity(os.path.join(STORES, VACUUM), "Challenge")
    assert [(record["name"], record.get("rating")) for record in records] == [
        (name, {"rating": rating} if rating is not None else None) for name, rating in raw]
    assert any(record.get("rating") == {"rating": "Hard"} for record in records)


def test_an_insert_into_a_real_swiftdata_composite_lands_column_by_column():
    store = scratch_copy(VACUUM)
    folder = os.path.dirname(store)
    records = [{"id": "0D2F3A4B-5C6D-4E7F-8091-A2B3C4D5E6F7", "name": "Challenge #3", "rating": {"rating": "Easy"}},
               {"id": "1E2F3A4B-5C6D-4E7F-8091-A2B3C4D5E6F8", "name": "Challenge #4"}]
    source = write_json(folder, "challenges.json", records)
    before = view.open_copy(store)
    number, _, root_max = view.entity_rows(before)["Challenge"]
    largest = before.execute("SELECT max(Z_PK) FROM ZCHALLENGE").fetchone()[0]
    run = deckport("migrate", source, store, "--dest-entity", "Challenge", "--force", "--match-key", "id")
    assert run.returncode == 0, run.stderr
    assert "2 added, 0 updated, 0 unchanged" in run.stdout
    after = view.open_copy(store)
    rows = after.execute("SELECT * FROM ZCHALLENGE WHERE Z_PK > ? ORDER BY Z_PK", (largest,))
    names = [d[0] for d in rows.description]
    rows = [dict(zip(names, row)) for row in rows.fetchall()]
    assert set(names) == {"Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZRATING", "ZID"}
    first = max(root_max, largest) + 1
    assert [row["Z_PK"] for row in rows] == [first, first + 1]
    assert all(row["Z_ENT"] == number and row["Z_OPT"] == 1 for row in rows)
    assert [row["ZNAME"] for row in rows] == ["Challenge #3", "Challenge #4"]
    assert [row["ZRATING"] for row in rows] == ["Easy", None]
    assert [row["ZID"] for row in rows] == [bytes.fromhex(r["id"].replace("-", "")) for r in records]
    assert dict(after.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").fetchall())["Challenge"] == first + 1
    assert after.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    second = deckport("migrate", source, store, "--dest-entity", "Challenge", "--force", "--match-key", "id")
    assert second.returncode == 0, second.stderr
    assert "0 added, 0 updated, 2 unchanged" in second.stdout
    assert count_rows(store, "ZCHALLENGE") == largest + 2


TEAMS = "MicrosoftTeams-iOS15.sqlite"


def test_an_external_storage_value_of_a_real_store_comes_out_untagged():
    """Microsoft Teams' KeyValueStorage.value allows external storage (bit 0x4 of NSFlagsKey); its
    one row holds the value inline, tagged 0x01, as Core Data wrote it."""
    connection = view.open_copy(os.path.join(STORES, TEAMS))
    model = view.Model(connection)
    assert ("attribute", "value", 1000, True) in model.entities["KeyValueStorage"]
    raw = connection.execute("SELECT ZKEY, ZVALUE FROM ZKEYVALUESTORAGE").fetchall()
    assert len(raw) == 1 and raw[0][1][:1] == b"\x01"
    records, _ = read_entity(os.path.join(STORES, TEAMS), "KeyValueStorage")
    assert [record["key"] for record in records] == [raw[0][0]]
    value = base64.b64decode(records[0]["value"])
    assert value == raw[0][1][1:] and value.startswith(b"bplist00")


def test_an_insert_into_a_real_external_storage_attribute_lands_column_by_column():
    store = scratch_copy(TEAMS)
    folder = os.path.dirname(store)
    small = b"small value \x00\x01\x02"
    large = bytes(range(256)) * 600
    records = [{"key": "deckport.small", "value": base64.b64encode(small).decode()},
               {"key": "deckport.large", "value": base64.b64encode(large).decode()}]
    source = write_json(folder, "values.json", records)
    before = view.open_copy(store)
    entities = view.entity_rows(before)
    number, _, root_max = entities["KeyValueStorage"]
    largest = before.execute("SELECT max(Z_PK) FROM ZKEYVALUESTORAGE").fetchone()[0]
    run = deckport("migrate", source, store, "--dest-entity", "KeyValueStorage", "--force", "--match-key", "key")
    assert run.returncode == 0, run.stderr
    assert "2 added, 0 updated, 0 unchanged" in run.stdout
    after = sqlite3.connect(store)
    rows = after.execute("SELECT * FROM ZKEYVALUESTORAGE WHERE ZKEY LIKE 'deckport.%' ORDER BY Z_PK")
    names = [d[0] for d in rows.description]
    rows = [dict(zip(names, row)) for row in rows.fetchall()]
    assert set(names) == {"Z_PK", "Z_ENT", "Z_OPT", "ZKEY", "ZVALUE"}
    first = max(root_max, largest) + 1
    assert [row["Z_PK"] for row in rows] == [first, first + 1]
    assert all(row["Z_ENT"] == number and row["Z_OPT"] == 1 for row in rows)
    assert [row["ZKEY"] for row in rows] == ["deckport.small", "deckport.large"]
    assert rows[0]["ZVALUE"] == b"\x01" + small
    tagged = rows[1]["ZVALUE"]
    assert tagged[:1] == b"\x02" and tagged[-1:] == b"\x00"
    name = tagged[1:-1].decode()
    with open(os.path.join(folder, ".MicrosoftTeams-iOS15_SUPPORT", "_EXTERNAL_DATA", name), "rb") as handle:
        assert handle.read() == large
    assert dict(after.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").fetchall())["KeyValueStorage"] == first + 1
    assert after.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    back, _ = read_entity(store, "KeyValueStorage")
    by_key = {record["key"]: base64.b64decode(record["value"]) for record in back}
    assert by_key["deckport.small"] == small and by_key["deckport.large"] == large
    second = deckport("migrate", source, store, "--dest-entity", "KeyValueStorage", "--force", "--match-key", "key")
    assert second.returncode == 0, second.stderr
    assert count_rows(store, "ZKEYVALUESTORAGE") == 3


def test_a_second_import_into_a_real_external_storage_attribute_changes_nothing():
    store = scratch_copy(TEAMS)
    folder = os.path.dirname(store)
    records = [{"key": "deckport.small", "value": base64.b64encode(b"small").decode()},
               {"key": "deckport.large", "value": base64.b64encode(bytes(range(256)) * 600).decode()}]
    source = write_json(folder, "values.json", records)
    first = deckport("migrate", source, store, "--dest-entity", "KeyValueStorage", "--force", "--match-key", "key")
    assert first.returncode == 0, first.stderr
    rows = sqlite3.connect(store).execute("SELECT Z_PK, Z_OPT, ZVALUE FROM ZKEYVALUESTORAGE ORDER BY Z_PK").fetchall()
    second = deckport("migrate", source, store, "--dest-entity", "KeyValueStorage", "--force", "--match-key", "key")
    assert second.returncode == 0, second.stderr
    external = os.listdir(os.path.join(folder, ".MicrosoftTeams-iOS15_SUPPORT", "_EXTERNAL_DATA"))
    assert sqlite3.connect(store).execute("SELECT Z_PK, Z_OPT, ZVALUE FROM ZKEYVALUESTORAGE ORDER BY Z_PK").fetchall() == rows
    assert len(external) == 1
    assert "0 added, 0 updated, 2 unchanged" in second.stdout
    # A changed large value gets a new file, and the file of the value it replaced goes.
    records[1]["value"] = base64.b64encode(bytes(range(255, -1, -1)) * 600).decode()
    changed = write_json(folder, "changed.json", records)
    third = deckport("migrate", changed, store, "--dest-entity", "KeyValueStorage", "--force", "--match-key", "key")
    assert third.returncode == 0, third.stderr
    assert "0 added, 1 updated, 1 unchanged" in third.stdout
    folder_now = os.path.join(folder, ".MicrosoftTeams-iOS15_SUPPORT", "_EXTERNAL_DATA")
    files = os.listdir(folder_now)
    assert len(files) == 1 and files != external
    with open(os.path.join(folder_now, files[0]), "rb") as handle:
        assert handle.read() == bytes(range(255, -1, -1)) * 600


def emptied_copy(name):
    """(source, destination): a private copy of the store (its -wal folded in) and a second copy
    with every entity row and link removed and every Z_MAX raised by 1000, so the copied objects
    must get keys other than their source keys. The emptying runs the store's own triggers, with
    the functions Core Data registers on its connection stubbed."""
    source = scratch_copy(name)
    connection = sqlite3.connect(source)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(source + suffix):
            os.remove(source + suffix)
    destination = os.path.join(os.path.dirname(source), "destination.sqlite")
    shutil.copyfile(source, destination)
    connection = sqlite3.connect(destination)
    for (sql,) in connection.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'").fetchall():
        for function in set(re.findall(r"(NSCoreData\w+)\(", sql)):
            connection.create_function(function, -1, lambda *arguments: None)
    tables = [t for (t,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]
    for table in tables:
        if table.startswith("Z") and "_RT_" not in table and table not in ("Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"):
            connection.execute('DELETE FROM "%s"' % table)
    connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1000 WHERE Z_ENT < 16000")
    connection.commit()
    connection.close()
    return source, destination


def graph(store):
    connection = sqlite3.connect(store)
    try:
        return view.object_graph(connection, view.Model(connection))
    finally:
        connection.close()


def row_versions(store):
    """Every entity row's (table, Z_PK, Z_OPT), and every join-table row."""
    connection = sqlite3.connect(store)
    try:
        rows = []
        for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
            names = [row[1] for row in connection.execute('PRAGMA table_info("%s")' % table)]
            if "Z_OPT" in names:
                rows += [(table,) + row for row in connection.execute('SELECT Z_PK, Z_OPT FROM "%s" ORDER BY Z_PK' % table)]
            elif re.fullmatch(r"Z_\d+\w+", table):
                rows += [(table,) + row for row in connection.execute('SELECT * FROM "%s" ORDER BY 1, 2' % table)]
        return rows
    finally:
        connection.close()


@pytest.mark.parametrize("name", WITH_MODEL)
def test_a_whole_store_migration_copies_every_object_and_link(name):
    source, destination = emptied_copy(name)
    run = deckport("migrate", source, destination, "--whole-store", "--force")
    assert run.returncode == 0, run.stderr
    assert "verified: read back, every value and link as written" in run.stdout
    objects, links = graph(source)
    copied_objects, copied_links = graph(destination)
    assert copied_objects == objects
    assert copied_links == links
    # Every object got a new key, above the raised Z_MAX, which the root's Z_MAX now covers.
    connection = sqlite3.connect(destination)
    entities = view.entity_rows(connection)
    for entity, (number, _, _) in entities.items():
        root = view.root_of(entities, entity)
        table = "Z" + root.upper()
        keys = [k for (k,) in connection.execute('SELECT Z_PK FROM "%s" WHERE Z_ENT = ?' % table, (number,))]
        maximum = connection.execute("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", (root,)).fetchone()[0]
        assert all(key <= maximum for key in keys), entity
    connection.close()


@pytest.mark.parametrize("name", ["SampleModel_V1.sqlite", "SampleModelV2-2018.sqlite", "SampleModel2_V2.sqlite", "Photos.sqlite",
                                  "VacuumTest-challenges.store"])
def test_a_second_whole_store_migration_changes_nothing(name):
    source, destination = emptied_copy(name)
    first = deckport("migrate", source, destination, "--whole-store", "--force")
    assert first.returncode == 0, first.stderr
    before = row_versions(destination)
    state = file_state(destination)
    listing_before_second = os.listdir(os.path.dirname(destination))
    # The store is left as it was: not rewritten (same inode, time and bytes), no backup made.
    second = deckport("migrate", source, destination, "--whole-store", "--backup")
    assert second.returncode == 0, second.stderr
    assert f"Left {destination} as it was: it already holds every record and link:" in second.stdout
    assert "Kept the old" not in second.stdout
    assert sorted(os.listdir(os.path.dirname(destination))) == sorted(listing_before_second)
    lines = [line for line in second.stdout.splitlines() if line.startswith("  ")]
    assert lines and all(" 0 added, 0 updated, " in line and " 0 links set" in line for line in lines), second.stdout
    assert file_state(destination) == state
    assert row_versions(destination) == before
    assert graph(destination) == graph(source)


def test_a_whole_store_migration_that_only_relinks_is_written():
    # Every record is already there; one car's owner link is not. The store is not "left as it
    # was": the link is set again, and the store then holds the source's graph.
    source, destination = emptied_copy("SampleModel_V1.sqlite")
    assert deckport("migrate", source, destination, "--whole-store", "--force").returncode == 0
    connection = sqlite3.connect(destination)
    (car,) = connection.execute("SELECT Z_PK FROM ZCAR WHERE ZOWNER IS NOT NULL ORDER BY Z_PK LIMIT 1").fetchone()
    connection.execute("UPDATE ZCAR SET ZOWNER = NULL WHERE Z_PK = ?", (car,))
    connection.commit()
    connection.close()
    assert graph(destination) != graph(source)
    run = deckport("migrate", source, destination, "--whole-store", "--force")
    assert run.returncode == 0, run.stderr
    assert "as it was" not in run.stdout
    assert "Wrote into" in run.stdout
    assert graph(destination) == graph(source)


def test_a_whole_store_migration_into_the_store_it_came_from_matches_by_unique_values():
    # Person has a uniqueness constraint: a copy of the same store matches every person and car.
    source = scratch_copy("SampleModel_V1.sqlite")
    destination = os.path.join(os.path.dirname(source), "copy.sqlite")
    shutil.copyfile(source, destination)
    before = row_versions(destination)
    state = file_state(destination)
    run = deckport("migrate", source, destination, "--whole-store", "--force")
    assert run.returncode == 0, run.stderr
    assert "Person (table ZPERSON): 20 records; 0 added, 0 updated, 20 unchanged; 0 links set" in run.stdout
    assert f"Left {destination} as it was" in run.stdout
    assert row_versions(destination) == before
    assert file_state(destination) == state


def test_a_whole_store_migration_keeps_derived_attributes_to_the_triggers():
    source, destination = emptied_copy("SampleModel2_V2.sqlite")
    run = deckport("migrate", source, destination, "--whole-store", "--force")
    assert run.returncode == 0, run.stderr
    connection = sqlite3.connect(destination)
    # Book.pagesCount is derived: Core Data's triggers count the pages linked to each book.
    counts = connection.execute(
        "SELECT b.ZPAGESCOUNT, (SELECT count(*) FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK) FROM ZBOOK b").fetchall()
    connection.close()
    assert counts and all(stored == linked for stored, linked in counts)


def test_a_whole_store_migration_refuses_what_is_not_a_store():
    source, destination = emptied_copy("SampleModel_V1.sqlite")
    records = write_json(os.path.dirname(source), "records.json", [{"a": 1}])
    run = deckport("migrate", records, destination, "--whole-store", "--force")
    assert run.returncode != 0
    assert "not a Core Data/SwiftData store; a whole-store migration copies one store into another" in run.stderr
    assert deckport("migrate", source, destination, "--whole-store", "--entity", "Car").returncode != 0


def test_a_whole_store_dry_run_writes_nothing():
    source, destination = emptied_copy("SampleModel_V1.sqlite")
    with open(destination, "rb") as handle:
        before = handle.read()
    run = deckport("migrate", source, destination, "--whole-store", "--dry-run")
    assert run.returncode == 0, run.stderr
    assert "Dry run: would write into" in run.stdout
    assert "Car (table ZCAR): 115 records; 115 added, 0 updated, 0 unchanged" in run.stdout
    with open(destination, "rb") as handle:
        assert handle.read() == before


def test_a_whole_store_migration_with_strict_fails_on_a_warning_and_writes_nothing():
    # Photos' own store leaves required keyAsset links empty: the copy warns about each.
    source, destination = emptied_copy("Photos.sqlite")
    with open(destination, "rb") as handle:
        before = handle.read()
    run = deckport("migrate", source, destination, "--whole-store", "--force", "--strict")
    assert run.returncode != 0
    assert "[required-link-empty] the model requires keyAsset, but the source row has none" in run.stderr
    with open(destination, "rb") as handle:
        assert handle.read() == before


# A store -> a deck -> the same store: the deck's note text is typed again by the store's model.

def entities_with_rows(name):
    """(store, entity) for each entity that has rows of its own, counted with Python's sqlite3."""
    connection = view.open_copy(os.path.join(STORES, name))
    try:
        entities = view.entity_rows(connection)
        pairs = []
        for entity, (number, _, _) in sorted(entities.items()):
            table = "Z" + view.root_of(entities, entity).upper()
            if connection.execute('SELECT count(*) FROM "%s" WHERE Z_ENT = ?' % table, (number,)).fetchone()[0]:
                pairs.append((name, entity))
        return pairs
    finally:
        connection.close()


def every_row(store):
    """Every row of every table of the store (its -wal folded in by opening a copy)."""
    connection = view.open_copy(store)
    try:
        tables = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {table: sorted(connection.execute('SELECT * FROM "%s"' % table).fetchall(), key=repr) for table in tables}
    finally:
        connection.close()


def deck_of(store, entity):
    """A deckport JSON deck made from the entity's records, and the file it is in."""
    path = os.path.join(tempfile.mkdtemp(prefix="store-deck-"), entity + ".json")
    run = deckport("convert", store, path, "--entity", entity)
    assert run.returncode == 0, run.stderr
    with open(path) as handle:
        return json.load(handle), path


def write_deck(deck, path):
    with open(path, "w") as handle:
        json.dump(deck, handle)
    return path


@pytest.mark.parametrize("name,entity", [pair for name in ALL for pair in entities_with_rows(name)])
def test_a_deck_made_from_a_store_goes_back_into_it_unchanged(name, entity):
    """Every value comes back as the model types it, so every record matches the row it came from
    and nothing in the store changes: integers, doubles, booleans, dates (to their last digit,
    though the deck shows milliseconds), UUIDs, composites, relationships, empty optionals. No
    --entity on the way back: the deck's note type names it."""
    store = scratch_copy(name)
    before = every_row(store)
    deck, path = deck_of(store, entity)
    run = deckport("convert", path, store, "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 0 updated, %d unchanged" % len(deck["notes"]) in run.stdout
    assert every_row(store) == before


def seconds_since_2001(text):
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return (moment - datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)).total_seconds()


def test_a_deck_edited_goes_back_typed_by_the_model():
    """SampleModel_V1's ExpensiveSportCar (numberPlate unique): a note's boolean and date changed,
    and a new note linked to an existing Person through the reference text another note shows."""
    store = scratch_copy("SampleModel_V1.sqlite")
    before = every_row(store)
    deck, path = deck_of(store, "ExpensiveSportCar")
    notes = sorted(deck["notes"], key=lambda note: note["fields"]["numberPlate"])
    changed, linked = notes[0], next(note for note in notes if note["fields"]["owner"])
    changed["fields"]["isLimitedEdition"] = "true" if changed["fields"]["isLimitedEdition"] == "false" else "false"
    changed["fields"]["markedForDeletionAsOf"] = "2026-12-01T10:00:00.250Z"
    added = json.loads(json.dumps(linked))
    added["id"], added["guid"] = max(note["id"] for note in notes) + 1, "new-note-guid"
    added["fields"]["numberPlate"] = "NEW-1"
    deck["notes"].append(added)
    card = json.loads(json.dumps(deck["cards"][0]))
    card["id"], card["note"] = max(c["id"] for c in deck["cards"]) + 1, added["id"]
    deck["cards"].append(card)
    run = deckport("convert", write_deck(deck, path), store, "--force")
    assert run.returncode == 0, run.stderr
    assert "1 added, 1 updated, %d unchanged" % (len(notes) - 1) in run.stdout
    connection = view.open_copy(store)
    query = ("SELECT Z_OPT, ZISLIMITEDEDITION, typeof(ZISLIMITEDEDITION), ZMARKEDFORDELETIONASOF,"
             " typeof(ZMARKEDFORDELETIONASOF), ZOWNER FROM ZCAR WHERE ZNUMBERPLATE = ?")
    old = dict((row[0], row) for row in before["ZCAR"])
    plate = changed["fields"]["numberPlate"]
    z_opt, flag, flag_type, date, date_type, _ = connection.execute(query, (plate,)).fetchone()
    assert (flag, flag_type) == (1 if changed["fields"]["isLimitedEdition"] == "true" else 0, "integer")
    assert (date, date_type) == (seconds_since_2001("2026-12-01T10:00:00.250Z"), "real")
    previous = next(row for row in before["ZCAR"] if plate in row)
    assert z_opt == previous[2] + 1
    owner_of_linked = connection.execute("SELECT ZOWNER FROM ZCAR WHERE ZNUMBERPLATE = ?",
                                         (linked["fields"]["numberPlate"],)).fetchone()[0]
    new_row = connection.execute(query, ("NEW-1",)).fetchone()
    assert new_row[0] == 1 and new_row[5] == owner_of_linked is not None
    # Every other row is as it was.
    after = {row[0]: row for row in connection.execute("SELECT * FROM ZCAR").fetchall()}
    assert {key: row for key, row in after.items() if row[0] in old and plate not in row} == \
        {key: row for key, row in old.items() if plate not in row}


def test_a_note_goes_back_into_the_row_it_came_from_whatever_was_edited():
    """A note made from a row keeps the row's object URI in its GUID, so it goes back into that
    row, found by nothing else: Photos' Asset (no uniqueness constraint, every note's first field
    empty) with a double edited, and SampleModel_V1's ExpensiveSportCar with its unique
    numberPlate edited. Before, each was added as a new row (the Photos copy taking over the
    original's one-to-one links). Nothing but the edited row changes."""
    cases = [("Photos.sqlite", "Asset", "longitude", "12.5", "ZGENERICASSET", "ZLONGITUDE", 12.5),
             ("SampleModel_V1.sqlite", "ExpensiveSportCar", "numberPlate", "EDITED-1", "ZCAR", "ZNUMBERPLATE",
              "EDITED-1")]
    for name, entity, field, text, table, column, stored in cases:
        store = scratch_copy(name)
        before = every_row(store)
        deck, path = deck_of(store, entity)
        note = deck["notes"][-1]
        note["fields"][field] = text
        run = deckport("convert", write_deck(deck, path), store, "--force")
        assert run.returncode == 0, (name, run.stderr)
        assert "0 added, 1 updated, %d unchanged" % (len(deck["notes"]) - 1) in run.stdout, (name, run.stdout)
        assert "relationship-moved" not in run.stderr, name
        after = every_row(store)
        # Photos' own triggers keep its location index (an R-tree, Z_RT_…) with the longitude.
        changed = {table_name for table_name in before if after[table_name] != before[table_name]}
        assert {table_name for table_name in changed if not table_name.startswith("Z_RT_")} == {table}, (name, changed)
        connection = view.open_copy(store)
        rows = connection.execute('SELECT Z_PK FROM "%s" WHERE "%s" = ?' % (table, column), (stored,)).fetchall()
        assert len(rows) == 1, (name, rows)
        old_rows = {row[0]: row for row in before[table]}
        new_rows = {row[0]: row for row in after[table]}
        assert new_rows.keys() == old_rows.keys(), name
        assert [key for key in new_rows if new_rows[key] != old_rows[key]] == [rows[0][0]], name
        # Written again, the deck changes nothing.
        again = deckport("convert", path, store, "--force")
        assert "0 added, 0 updated, %d unchanged" % len(deck["notes"]) in again.stdout, (name, again.stdout)


def test_a_note_of_another_store_is_matched_by_its_values_not_its_guid():
    """The GUID names the store it was made from (Z_METADATA's Z_UUID): in a store with another
    identifier the same rows are matched by the whole record, as any record is, and an edited
    one is new there."""
    store = scratch_copy("Model1.sqlite")
    deck, path = deck_of(store, "Book")
    other = scratch_copy("Model1.sqlite")
    connection = sqlite3.connect(other)
    connection.execute("UPDATE Z_METADATA SET Z_UUID = '00000000-0000-4000-8000-000000000001'")
    connection.commit()
    connection.close()
    run = deckport("convert", path, other, "--force")
    assert run.returncode == 0, run.stderr
    assert "0 added, 0 updated, %d unchanged" % len(deck["notes"]) in run.stdout
    deck["notes"][0]["fields"]["user"] = "7"
    run = deckport("convert", write_deck(deck, path), other, "--force")
    assert run.returncode == 0, run.stderr
    assert "1 added, 0 updated, %d unchanged" % (len(deck["notes"]) - 1) in run.stdout
    run = deckport("convert", path, store, "--force")
    assert "0 added, 1 updated, %d unchanged" % (len(deck["notes"]) - 1) in run.stdout


def test_a_to_many_edited_in_a_deck_links_and_unlinks_on_the_other_side():
    """A to-many kept in the destination's column (the inverse to-one) is what the note lists:
    - SampleModel_V1: a Person's cars emptied, each car's owner is NULL (Z_OPT up by one);
    - SampleModel2_V2: a page moved to a GraphicNovel gets the novel's key and its entity number
      (Z1_BOOK, since Book has a subentity); the page's order in the note means nothing (the
      relationship is unordered), and the derived pagesCount is the store's (a warning, not written);
    - a page taken from a novel is refused, since Page.book is required, and nothing is written.
    Each write made twice: the second changes nothing."""
    store = scratch_copy("SampleModel_V1.sqlite")
    before = every_row(store)
    deck, path = deck_of(store, "Person")
    owner = next(note for note in deck["notes"] if note["fields"]["cars"] not in ("", "[]"))
    cars = [int(item["uri"].rsplit("/p", 1)[1]) for item in json.loads(owner["fields"]["cars"])]
    owner["fields"]["cars"] = ""
    for _ in range(2):
        run = deckport("convert", write_deck(deck, path), store, "--force")
        assert run.returncode == 0, run.stderr
    assert "0 added, 0 updated, %d unchanged" % len(deck["notes"]) in run.stdout
    connection = view.open_copy(store)
    old = {row[0]: row for row in before["ZCAR"]}
    for car in cars:
        owner_column, version = connection.execute("SELECT ZOWNER, Z_OPT FROM ZCAR WHERE Z_PK = ?", (car,)).fetchone()
        assert owner_column is None and version == old[car][2] + 1

    store = scratch_copy("SampleModel2_V2.sqlite")
    deck, path = deck_of(store, "GraphicNovel")
    novel = deck["notes"][0]
    pages = json.loads(novel["fields"]["pages"])
    page = next(number for number in range(1, 200) if not any(item["uri"].endswith("/p%d" % number) for item in pages))
    pages.insert(0, {"entity": "Page", "uri": pages[0]["uri"].rsplit("/p", 1)[0] + "/p%d" % page})
    novel["fields"]["pages"] = json.dumps(pages)
    for _ in range(2):
        run = deckport("convert", write_deck(deck, path), store, "--force")
        assert run.returncode == 0, run.stderr
    assert "0 added, 0 updated, 1 unchanged" in run.stdout
    assert "[derived-not-written] 1 record gives pagesCount a value the store does not hold" in run.stderr
    connection = view.open_copy(store)
    novel_key = connection.execute("SELECT Z_PK FROM ZBOOK WHERE Z_ENT = 2").fetchone()[0]
    assert connection.execute("SELECT ZBOOK, Z1_BOOK FROM ZPAGE WHERE Z_PK = ?", (page,)).fetchone() == (novel_key, 2)
    assert connection.execute("SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = ?", (novel_key,)).fetchone()[0] == len(pages)

    with open(store, "rb") as handle:
        unchanged = handle.read()
    novel["fields"]["pages"] = json.dumps(pages[1:])
    run = deckport("convert", write_deck(deck, path), store, "--force")
    assert run.returncode != 0
    assert "Page Z_PK %d is linked to this record, and the model requires its book" % page in run.stderr
    with open(store, "rb") as handle:
        assert handle.read() == unchanged


def test_composites_integers_and_doubles_from_note_text():
    """VacuumTest's composite (SwiftData), Model1's integer (a store without a model cache: the
    columns' types) and SampleModel2_V2's double, each edited in a deck and matched by --match-key."""
    cases = [
        ("VacuumTest-challenges.store", "Challenge", "id", "rating", '{"rating":"Easy"}', "ZRATING", "Easy"),
        ("Model1.sqlite", "Book", "title", "user", "5", "ZUSER", 5),
        ("SampleModel2_V2.sqlite", "Feedback", "comment", "rating", "4.25", "ZRATING", 4.25),
    ]
    for name, entity, key, field, text, column, stored in cases:
        store = scratch_copy(name)
        deck, path = deck_of(store, entity)
        note = deck["notes"][0]
        note["fields"][field] = text
        run = deckport("convert", write_deck(deck, path), store, "--force", "--match-key", key)
        assert run.returncode == 0, (name, run.stderr)
        assert "0 added, 1 updated, %d unchanged" % (len(deck["notes"]) - 1) in run.stdout, name
        connection = view.open_copy(store)
        table = "Z" + view.root_of(view.entity_rows(connection), entity).upper()
        values = [row[0] for row in connection.execute('SELECT "%s" FROM "%s"' % (column, table))]
        assert stored in values, (name, values)
        assert type(stored).__name__ == {"integer": "int", "real": "float", "text": "str"}[
            connection.execute('SELECT typeof("%s") FROM "%s" WHERE "%s" = ?' % (column, table, column),
                               (stored,)).fetchone()[0]]
    # Emptied, the composite's value is gone (NULL), not an empty string.
    store = scratch_copy("VacuumTest-challenges.store")
    deck, path = deck_of(store, "Challenge")
    for note in deck["notes"]:
        note["fields"]["rating"] = ""
    run = deckport("convert", write_deck(deck, path), store, "--force", "--match-key", "id")
    assert run.returncode == 0, run.stderr
    assert view.open_copy(store).execute("SELECT count(*) FROM ZCHALLENGE WHERE ZRATING IS NOT NULL").fetchone()[0] == 0


def test_note_text_that_is_not_its_attributes_type_is_refused_and_nothing_is_written():
    store = scratch_copy("Model1.sqlite")
    with open(store, "rb") as handle:
        unchanged = handle.read()
    deck, path = deck_of(store, "Book")
    deck["notes"][0]["fields"]["user"] = "five"
    run = deckport("convert", write_deck(deck, path), store, "--force")
    assert run.returncode != 0
    assert "key 'user': the attribute user (integer) cannot hold \"five\"" in run.stderr
    with open(store, "rb") as handle:
        assert handle.read() == unchanged


@pytest.mark.parametrize("name,entity", [("SampleModel_V1.sqlite", "Car"), ("VacuumTest-challenges.store", "Challenge"),
                                         ("Model1.sqlite", "Book"), ("SampleModel2_V2.sqlite", "Book")])
def test_a_store_through_anki_and_back(name, entity):
    """The real Anki backend imports the package made from a store and exports it again; that
    package goes back into the store unchanged (dates, relationships, composites, pictures as
    Anki media). An edit made in Anki updates its record: SampleModel_V1's cars are matched by
    their unique numberPlate."""
    from anki.collection import (Collection, ExportAnkiPackageOptions, ImportAnkiPackageOptions,
                                 ImportAnkiPackageRequest)

    store = scratch_copy(name)
    folder = os.path.dirname(store)
    before = every_row(store)
    package = os.path.join(folder, "from-store.apkg")
    run = deckport("convert", store, package, "--entity", entity)
    assert run.returncode == 0, run.stderr
    col = Collection(os.path.join(tempfile.mkdtemp(prefix="anki-collection-"), "collection.anki2"))
    col.import_anki_package(
        ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions(with_scheduling=True)))
    edited = None
    if entity == "Car":
        edited = col.get_note(sorted(col.find_notes(""))[0])
        edited["maker"], edited["markedForDeletionAsOf"] = "Edited in Anki", "2026-12-01T10:00:00Z"
        col.update_note(edited)
    count = len(col.find_notes(""))
    exported = os.path.join(folder, "from-anki.apkg")
    col.export_anki_package(
        out_path=exported, options=ExportAnkiPackageOptions(with_scheduling=True, with_media=True, legacy=True), limit=None)
    col.close()
    run = deckport("convert", exported, store, "--force")
    assert run.returncode == 0, run.stderr
    if edited is None:
        assert "0 added, 0 updated, %d unchanged" % count in run.stdout
        assert every_row(store) == before
        return
    assert "0 added, 1 updated, %d unchanged" % (count - 1) in run.stdout
    # A whole number of seconds: SQLite's NUMERIC affinity (TIMESTAMP) keeps it as an integer.
    row = view.open_copy(store).execute(
        "SELECT ZMAKER, ZMARKEDFORDELETIONASOF FROM ZCAR WHERE ZNUMBERPLATE = ?", (edited["numberPlate"],)).fetchone()
    assert row == ("Edited in Anki", seconds_since_2001("2026-12-01T10:00:00Z"))


def test_note_text_that_shows_what_a_row_holds_matches_it():
    """Text that types to what a row holds matches it, however it is spelled: an empty composite
    (`{}`, `{"rating":null}`) is NULL, a UUID in lower case is the UUID (VacuumTest, matched by
    the whole record); a whole Decimal written `100.0` is the 100 SQLite keeps (CartKit); an
    emptied required UUID keeps the row's, and `[]` for a to-many with no link changes nothing
    (SampleModel_V1's Person). Each write is made twice: the second changes nothing, Z_OPT
    included."""
    cases = [
        ("VacuumTest-challenges.store", "Challenge", lambda notes: notes[0]["fields"].update(
            {"rating": '{"rating":null}', "id": notes[0]["fields"]["id"].lower()}), "ZCHALLENGE"),
        ("VacuumTest-challenges.store", "Challenge", lambda notes: notes[0]["fields"].update({"rating": "{}"}),
         "ZCHALLENGE"),
        ("CartKitSwiftData_v1.sqlite", "CartModel", lambda notes: notes[0]["fields"].update(
            {"minSubtotalAmount": "100.0"}), "ZCARTMODEL"),
        ("SampleModel_V1.sqlite", "Person", lambda notes: [notes[3]["fields"].update({"id": ""}),
                                                           notes[0]["fields"].update({"cars": "[]"})], "ZPERSON"),
    ]
    for name, entity, edit, table in cases:
        store = scratch_copy(name)
        deck, path = deck_of(store, entity)
        count = len(deck["notes"])
        edit(deck["notes"])
        write_deck(deck, path)
        first = deckport("convert", path, store, "--force")
        assert first.returncode == 0, (name, first.stderr)
        assert " 0 added" in first.stdout, (name, first.stdout)
        rows = every_row(store)[table]
        second = deckport("convert", path, store, "--force")
        assert second.returncode == 0, (name, second.stderr)
        assert "0 added, 0 updated, %d unchanged" % count in second.stdout, (name, second.stdout)
        assert every_row(store)[table] == rows, name
        assert count_rows(store, table) >= count
