"""deckport migrate into existing app storage it cannot write faithfully, judged from outside:
the destination's bytes before and after, the exit status and the message, and what Python's own
readers (json, plistlib, sqlite3) make of what deckport wrote. No deckport code takes part, so a
writer and a verification that share a mistake cannot hide it here.

Each case is a user-level report: a JSON file deckport cannot parse whole, an SQLite table with
one cell of another type, text an XML plist cannot hold, and records without keys imported twice.
"""

from __future__ import annotations

import json
import os
import plistlib
import shutil
import sqlite3
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APP = os.path.join(ROOT, "fixtures", "app")
DECKPORT = os.environ.get("DECKPORT_BIN", os.path.join(ROOT, ".build", "debug", "deckport"))


def migrate(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, "migrate", *arguments], capture_output=True, text=True)


def write(path, text: str) -> str:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    return str(path)


# A JSON destination deckport cannot parse whole: each was replaced by the one new record,
# reported as "1 added … verified", with --force, --backup and --dry-run alike.
UNREADABLE_JSON = [
    pytest.param(
        '{"settings":{"theme":"dark","big":18446744073709551616},"cards":[{"w":"a","n":1}]}',
        ":1:35: invalid JSON: the integer 18446744073709551616 does not fit in 64 bits", id="integer beyond 64 bits"),
    pytest.param('{"cards":[{"w":"a","n":1}],"cards":[{"w":"b","n":3}],"settings":{}}', ':1:28: invalid JSON: the key "cards" occurs twice in this object', id="duplicate key"),
    pytest.param('{"cards":[{"w":"a","n":1}],"ratio":NaN}', ":1:36: invalid JSON:", id="NaN"),
    pytest.param('[{"w":"a","n":1},{"w":"b","n":3},"note"]', ": record 3: is a string, not an object", id="non-object item"),
    pytest.param('{"cards":[{"w":"a","n":1}],"s":"\\udc00"}', ":1:33: invalid JSON: a lone low surrogate \\udc00", id="lone surrogate"),
    pytest.param('"just text"', ": the file holds a string, not an array of records", id="a string"),
]


@pytest.mark.parametrize("content, place", UNREADABLE_JSON)
@pytest.mark.parametrize("flag", ["--force", "--backup", "--dry-run"])
def test_a_json_destination_deckport_cannot_read_whole_is_left_untouched(tmp_path, content, place, flag):
    source = write(tmp_path / "add.json", '[{"w":"new","n":2}]')
    destination = write(tmp_path / "cards.json", content)
    before = open(destination, "rb").read()
    run = migrate(source, destination, "--dest-key", "cards", flag)
    assert run.returncode == 1, run.stdout + run.stderr
    assert destination + place in run.stderr
    assert "deckport changes only a file it can read whole, so nothing was written" in run.stderr
    assert "Wrote" not in run.stdout
    assert open(destination, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["add.json", "cards.json"]


def test_a_json_destination_it_reads_whole_is_still_changed_with_force(tmp_path):
    source = write(tmp_path / "add.json", '[{"w":"new","n":2}]')
    destination = write(tmp_path / "cards.json", '{"settings":{"theme":"dark"},"cards":[{"w":"a","n":1}]}')
    run = migrate(source, destination, "--force")
    assert run.returncode == 0, run.stderr
    with open(destination, encoding="utf-8") as handle:
        assert json.load(handle) == {"settings": {"theme": "dark"}, "cards": [{"w": "a", "n": 1}, {"w": "new", "n": 2}]}


def make_sqlite_with_a_bad_cell(tmp_path) -> str:
    source = write(tmp_path / "three.json", '[{"w":"keep","n":5},{"w":"other","n":6},{"w":"third","n":7}]')
    destination = str(tmp_path / "s.sqlite")
    run = migrate(source, destination, "--dest-entity", "cards")
    assert run.returncode == 0, run.stderr
    connection = sqlite3.connect(destination)
    # Another program wrote text into the INTEGER column.
    connection.execute("UPDATE cards SET n = 'six' WHERE w = 'other'")
    connection.commit()
    connection.close()
    os.remove(source)
    return destination


@pytest.mark.parametrize("flag", ["--force", "--backup", "--dry-run"])
def test_an_sqlite_record_type_with_an_unreadable_cell_keeps_its_records(tmp_path, flag):
    destination = make_sqlite_with_a_bad_cell(tmp_path)
    before = open(destination, "rb").read()
    source = write(tmp_path / "add.json", '[{"w":"new","n":2}]')
    run = migrate(source, destination, "--dest-entity", "cards", flag)
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        destination + ": table cards, row 1: column 'n': expected an integer (the field's type is integer), found the text 'six'"
        in run.stderr
    )
    assert "nothing was written" in run.stderr
    assert open(destination, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["add.json", "s.sqlite"]
    rows = sqlite3.connect(destination).execute("SELECT w, n FROM cards ORDER BY deckport_position").fetchall()
    assert rows == [("keep", 5), ("other", "six"), ("third", 7)]


# XML 1.0 holds none of these, raw or as a character reference: written into an XML plist they
# made a file plistlib (expat) refuses whole, while deckport reported "verified".
NON_XML_TEXT = [
    pytest.param("nul\u0000x", "U+0000 (character 4)", id="U+0000"),
    pytest.param("ctl\u0001x", "U+0001 (character 4)", id="U+0001"),
    pytest.param("vt\u000bx", "U+000B (character 3)", id="U+000B"),
    pytest.param("esc\u001bx", "U+001B (character 4)", id="U+001B"),
    pytest.param("nonchar\ufffex", "U+FFFE (character 8)", id="U+FFFE"),
    pytest.param("nonchar\uffffx", "U+FFFF (character 8)", id="U+FFFF"),
]


def xml_plist(tmp_path, name="x.plist") -> str:
    path = tmp_path / name
    with open(path, "wb") as handle:
        plistlib.dump({"Cards": [{"s": "plain"}], "other": "keep"}, handle, fmt=plistlib.FMT_XML)
    return str(path)


@pytest.mark.parametrize("text, named", NON_XML_TEXT)
def test_text_an_xml_plist_cannot_hold_is_refused_naming_the_record_and_key(tmp_path, text, named):
    destination = xml_plist(tmp_path)
    before = open(destination, "rb").read()
    source = tmp_path / "in.json"
    source.write_text(json.dumps([{"w": "fine"}, {"s": text}]), encoding="utf-8")
    run = migrate(str(source), destination, "--force")
    assert run.returncode == 1, run.stdout + run.stderr
    assert destination + ": key 'Cards': record 3, key 's': the text holds " + named in run.stderr
    assert "XML 1.0 cannot hold" in run.stderr
    assert open(destination, "rb").read() == before


def test_a_key_an_xml_plist_cannot_hold_is_refused(tmp_path):
    destination = xml_plist(tmp_path)
    before = open(destination, "rb").read()
    source = tmp_path / "in.json"
    source.write_text(json.dumps([{"a\u0001b": "x"}]), encoding="utf-8")
    run = migrate(str(source), destination, "--force")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "record 2, key 'a\\u{01}b': the key holds U+0001 (character 2)" in run.stderr
    assert open(destination, "rb").read() == before


@pytest.mark.parametrize("text, named", NON_XML_TEXT)
def test_a_binary_plist_and_json_data_in_an_xml_plist_hold_such_text(tmp_path, text, named):
    source = tmp_path / "in.json"
    source.write_text(json.dumps([{"s": text}]), encoding="utf-8")
    binary = tmp_path / "b.plist"
    with open(binary, "wb") as handle:
        plistlib.dump({"Cards": [{"s": "plain"}], "other": "keep"}, handle, fmt=plistlib.FMT_BINARY)
    run = migrate(str(source), str(binary), "--force")
    assert run.returncode == 0, run.stderr
    with open(binary, "rb") as handle:
        assert plistlib.load(handle)["Cards"] == [{"s": "plain"}, {"s": text}]
    with_json = tmp_path / "j.plist"
    with open(with_json, "wb") as handle:
        plistlib.dump({"Cards": b"[]", "other": "keep"}, handle, fmt=plistlib.FMT_XML)
    run = migrate(str(source), str(with_json), "--force")
    assert run.returncode == 0, run.stderr
    with open(with_json, "rb") as handle:
        assert json.loads(plistlib.load(handle)["Cards"]) == [{"s": text}]


def held_records(path: str, kind: str) -> list:
    if kind == "json":
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    if kind == "plist":
        with open(path, "rb") as handle:
            return json.loads(plistlib.load(handle)["Cards"])
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT deckport_position, deckport_keys, n FROM src ORDER BY 1").fetchall()
    finally:
        connection.close()


@pytest.mark.parametrize("kind", ["json", "plist", "sqlite"])
def test_records_without_keys_are_not_added_again(tmp_path, kind):
    source = write(tmp_path / "src.json", '[{"n":1},{},{}]')
    destination = str(tmp_path / ("out." + kind))
    run = migrate(source, destination)
    assert run.returncode == 0, run.stderr
    first = held_records(destination, kind)
    before = open(destination, "rb").read()
    for _ in range(2):
        run = migrate(source, destination, "--force")
        assert run.returncode == 0, run.stderr
        assert "0 added, 0 updated, 3 unchanged" in run.stdout
        assert open(destination, "rb").read() == before
    assert held_records(destination, kind) == first
    if kind != "sqlite":
        assert first == [{"n": 1}, {}, {}]
    # A third {} is one more record: each held one matches one record being written.
    more = write(tmp_path / "more.json", "[{},{},{}]")
    run = migrate(more, destination, "--force", *(["--dest-entity", "src"] if kind == "sqlite" else []))
    assert run.returncode == 0, run.stderr
    assert "1 added, 0 updated, 2 unchanged" in run.stdout


def test_an_empty_record_goes_into_a_store_once(tmp_path):
    store = tmp_path / "Idealic.sqlite"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(os.path.join(APP, "Idealic.sqlite" + suffix)):
            shutil.copyfile(os.path.join(APP, "Idealic.sqlite" + suffix), str(store) + suffix)
    source = write(tmp_path / "e.json", "[{}]")
    run = migrate(source, str(store), "--dest-entity", "Logs", "--force")
    assert run.returncode == 0, run.stderr

    def rows():
        connection = sqlite3.connect(store)
        try:
            return connection.execute("SELECT Z_PK, Z_OPT, ZTITLE, ZTEXT FROM ZLOGS ORDER BY Z_PK").fetchall()
        finally:
            connection.close()

    after_first = rows()
    assert any(title is None and text is None for _, _, title, text in after_first)
    for _ in range(2):
        run = migrate(source, str(store), "--dest-entity", "Logs", "--force")
        assert run.returncode == 0, run.stderr
        assert "0 added, 0 updated, 1 unchanged" in run.stdout
        assert rows() == after_first
