"""Values in the JSON of decks, note types and option groups that the real Anki backend cannot
read (a font size beyond 16 bits, an answer action of -1, `1e400` anywhere), in a deckport JSON
deck or in a package, converted by deckport into every Anki package format and imported by the
real backend.

Anki decodes these objects into narrow types and refuses the whole package for one member out
of range (`fixtures/schema11/value_type_cases.json` records which values it reads where). The
source document here is deckport's JSON of the real fixture `legacy2_sched.apkg` with one value
changed; deckport's package must import, with a `value-clamped` warning naming the item and the
member, and a restored collection (`.colpkg`) must hold the value deckport wrote in its place.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import zipfile

import pytest

from conftest import PACKAGE_DIR
from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from anki.collection import Collection  # noqa: E402
from test_duplicate_guids_and_extreme_values import restored  # noqa: E402

SOURCE = os.path.join(PACKAGE_DIR, "legacy2_sched.apkg")
FORMATS = ["apkg", "apkg-modern", "colpkg", "colpkg-modern"]


def source_document(folder: str) -> dict:
    path = os.path.join(folder, "source.json")
    result = deckport("convert", SOURCE, path, "-q")
    assert result.returncode == 0, result.stderr
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def note_type(document: dict, name: str = "Basic") -> dict:
    return next(item for item in document["noteTypes"] if item["name"] == name)


def deck(document: dict, name: str = "Languages") -> dict:
    return next(item for item in document["decks"] if item["name"] == name)


def set_setting(document: dict, key: str, text: str) -> None:
    """Sets the Default option group's setting `key` to the JSON text `text`."""
    group = document["deckOptions"][0]
    settings = json.loads(group["anki11Json"])
    settings[key] = "\u0000placeholder"
    group["anki11Json"] = json.dumps(settings).replace(json.dumps("\u0000placeholder"), text)


def default_group(col: Collection) -> dict:
    return next(group for group in col.decks.all_config() if group["id"] == 1)


# (what is changed, the change to the document, the words of the warning, what a restored
# collection holds in its place)
CASES = [
    (
        "field font size",
        lambda d: note_type(d)["fields"][0].__setitem__("fontSize", 2**63 - 1),
        "field 'Front': warning: [value-clamped] font size ('size') is 9223372036854775807",
        lambda col: col.models.by_name("Basic")["flds"][0]["size"] == 65535,
    ),
    (
        "original stock kind",
        lambda d: note_type(d).__setitem__("originalStockKind", -(2**40)),
        "[value-clamped] 'originalStockKind' is -1099511627776",
        lambda col: col.models.by_name("Basic") is not None,
    ),
    (
        "note type's last deck beyond a double",
        lambda d: note_type(d).setdefault("ankiProperties", {}).__setitem__("did", "1e400"),
        "[value-clamped] property 'did' is 1e400",
        lambda col: col.models.by_name("Basic") is not None,
    ),
    (
        "deck collapsed as a number",
        lambda d: deck(d)["ankiProperties"].__setitem__("collapsed", "5"),
        "deck 'Languages' (id 1795331276840): warning: [value-clamped] property 'collapsed' is 5",
        lambda col: col.decks.by_name("Languages")["collapsed"] is True,
    ),
    (
        "deck sync number beyond a double",
        lambda d: deck(d)["ankiProperties"].__setitem__("usn", "1e400"),
        "[value-clamped] property 'usn' is 1e400",
        lambda col: col.decks.by_name("Languages") is not None,
    ),
    (
        "deck day counts beyond a double",
        lambda d: deck(d)["ankiProperties"].__setitem__("newToday", "[1e400,4]"),
        "[value-clamped] property 'newToday' is [1e400,4]",
        lambda col: col.decks.by_name("Languages") is not None,
    ),
    (
        "answer action Anki does not define",
        lambda d: set_setting(d, "answerAction", "-1"),
        "option group 'Default' (id 1): warning: [value-clamped] setting 'answerAction' is -1",
        lambda col: default_group(col)["answerAction"] == 0,
    ),
    (
        "answer time cap beyond a double",
        lambda d: set_setting(d, "maxTaken", "1e400"),
        "[value-clamped] setting 'maxTaken' is 1e400",
        # The largest cap Anki keeps (it would read a larger one, even one it reads, as 60).
        lambda col: default_group(col)["maxTaken"] == 9999,
    ),
    (
        "FSRS parameters that are not numbers",
        lambda d: set_setting(d, "fsrsWeights", '["x"]'),
        "[value-clamped] setting 'fsrsWeights' is [\"x\"]",
        lambda col: default_group(col)["fsrsWeights"] == [],
    ),
    (
        "new-card steps beyond a double",
        lambda d: set_setting(d, "new", '{"delays":[1e400],"initialFactor":2500,"ints":[1,4,0],"order":1,"perDay":20}'),
        "[value-clamped] setting 'new.delays' is [1e400]",
        lambda col: default_group(col)["new"]["perDay"] == 20,
    ),
    (
        "maximum interval that resets the review settings",
        lambda d: set_setting(d, "rev", '{"bury":true,"ease4":1.3,"ivlFct":1,"maxIvl":-1,"perDay":123,"hardFactor":1.2}'),
        "setting 'rev.maxIvl' is -1, which Anki cannot read there (it reads a whole number from 0 to 4294967295,"
        " and keeps from 1 to 36500) and would reset all the group's review settings to its defaults; 1 is written",
        # 1, not 0: Anki reads a maximum interval of 0 as 36500 (see BOUNDED below).
        lambda col: default_group(col)["rev"]["perDay"] == 123 and default_group(col)["rev"]["bury"] is True
        and default_group(col)["rev"]["maxIvl"] == 1,
    ),
    (
        "new cards a day Anki would read as 0",
        lambda d: set_setting(d, "new", '{"delays":[1,10],"initialFactor":2500,"ints":[1,4,0],"order":1,"perDay":"30"}'),
        "setting 'new.perDay' is \"30\", which Anki cannot read there (it reads a whole number from 0 to 4294967295)"
        " and would read 0 instead; 0 is written",
        lambda col: default_group(col)["new"]["perDay"] == 0,
    ),
    (
        "browser font size Anki would read as 0",
        lambda d: note_type(d)["templates"][0].__setitem__("browserFontSize", 256),
        "template 'Card 1': warning: [value-clamped] browser font size ('bsize') is 256, which Anki cannot read"
        " there (it reads a whole number from 0 to 255) and would read 0 instead; 255 is written",
        lambda col: col.models.by_name("Basic")["tmpls"][0]["bsize"] == 255,
    ),
    (
        "option group property out of 32 bits",
        lambda d: d["deckOptions"][0].setdefault("ankiProperties", {}).__setitem__("usn", "2147483648"),
        "[value-clamped] property 'usn' is 2147483648",
        lambda col: default_group(col) is not None,
    ),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("what,change,warning,holds", CASES, ids=[case[0] for case in CASES])
def test_a_value_anki_cannot_read_is_fitted_and_the_package_imports(tmp_path, fmt, what, change, warning, holds):
    document = source_document(str(tmp_path))
    change(document)
    source = str(tmp_path / "changed.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    out = str(tmp_path / ("out." + fmt.split("-")[0]))
    result = deckport("convert", source, out, "--to", fmt)
    assert result.returncode == 0, result.stderr
    assert warning in result.stderr, result.stderr
    col = restored(str(tmp_path), out)
    try:
        if fmt.startswith("colpkg"):
            assert holds(col), what
        assert col.note_count() == 9
    finally:
        col.close()
    strict = deckport("convert", source, str(tmp_path / ("strict." + fmt.split("-")[0])), "--to", fmt, "--strict")
    assert strict.returncode == 1 and "value-clamped" in strict.stderr


def test_the_json_deck_keeps_the_value_as_it_was(tmp_path):
    """Only Anki packages change such a value: deckport's own JSON keeps it."""
    document = source_document(str(tmp_path))
    set_setting(document, "maxTaken", "1e400")
    source = str(tmp_path / "changed.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    out = str(tmp_path / "copy.json")
    result = deckport("convert", source, out)
    assert result.returncode == 0 and "value-clamped" not in result.stderr, result.stderr
    with open(out, encoding="utf-8") as handle:
        settings = json.load(handle)["deckOptions"][0]["anki11Json"]
    assert settings == document["deckOptions"][0]["anki11Json"] and '"maxTaken": 1e400' in settings


def with_collection_json_changed(package: str, changed: str, folder: str, change, column: str = "dconf") -> None:
    """Writes `package` again as `changed`, its schema-11 collection's `column` of `col` (the
    option groups, `dconf`, or the note types, `models`) replaced by the JSON text `change` makes
    of it; the collection is extracted under `folder`."""
    scratch = tempfile.mkdtemp(dir=folder)
    with zipfile.ZipFile(package) as original, zipfile.ZipFile(changed, "w") as written:
        database = original.extract("collection.anki21", scratch)
        with sqlite3.connect(database) as db:
            (text,) = db.execute(f"SELECT {column} FROM col").fetchone()
            db.execute(f"UPDATE col SET {column} = ?", (change(json.loads(text)),))
        db.close()
        for name in original.namelist():
            if name == "collection.anki21":
                written.write(database, name)
            else:
                written.writestr(name, original.read(name))


def test_a_package_anki_refuses_for_such_a_value_is_read_and_written_as_one_it_imports(tmp_path):
    """The backend's own package with `1e400` put in its option group: Anki refuses it, deckport
    reads it without losing the group's other settings and writes a package Anki imports."""
    source = str(tmp_path / "refused.apkg")

    def change(groups: dict) -> str:
        groups["1"]["new"]["perDay"] = 37
        groups["1"]["maxTaken"] = "\u0000placeholder"
        return json.dumps(groups).replace(json.dumps("\u0000placeholder"), "1e400")

    with_collection_json_changed(SOURCE, source, str(tmp_path), change)
    with pytest.raises(Exception, match="number out of range"):
        restored(str(tmp_path), source).close()

    copy = str(tmp_path / "copy.json")
    assert deckport("convert", source, copy).returncode == 0
    with open(copy, encoding="utf-8") as handle:
        settings = json.load(handle)["deckOptions"][0]["anki11Json"]
    assert "1e400" in settings and '"perDay":37' in settings

    out = str(tmp_path / "out.colpkg")
    result = deckport("convert", source, out)
    assert result.returncode == 0, result.stderr
    assert "setting 'maxTaken' is 1e400" in result.stderr
    col = restored(str(tmp_path), out)
    try:
        assert default_group(col)["new"]["perDay"] == 37
    finally:
        col.close()


# Settings Anki reads but keeps only within bounds of its own: (setting, a value outside, the
# nearest value inside, which deckport writes, what Anki reads in place of the value outside).
BOUNDED = [
    ("new.initialFactor", 1309, 1310, 2500),
    ("new.initialFactor", 65535, 5000, 2500),
    ("new.perDay", 99999, 9999, 20),
    ("rev.perDay", 10000, 9999, 200),
    ("new.ints", [0, 36501, 7], [1, 36500, 0], [1, 4, 0]),
    ("rev.ease4", 0.99, 1.0, 1.3),
    ("rev.ivlFct", 2.01, 2.0, 1.0),
    ("rev.maxIvl", 0, 1, 36500),
    ("rev.maxIvl", 36501, 36500, 36500),
    ("rev.hardFactor", 1.31, 1.3, 1.2),
    ("lapse.mult", 1.01, 1.0, 0.0),
    ("lapse.minInt", 36501, 36500, 1),
    ("lapse.leechFails", 0, 1, 8),
    ("maxTaken", 10000, 9999, 60),
    ("desiredRetention", 0.991, 0.99, 0.9),
    ("sm2Retention", 0.69, 0.7, 0.9),
    ("newPerDayMinimum", 10000, 9999, 0),
]


def setting(group: dict, path: str):
    for key in path.split("."):
        group = group[key]
    return group


def with_setting(group: dict, path: str, value) -> dict:
    group = json.loads(json.dumps(group))
    *objects, last = path.split(".")
    inner = group
    for key in objects:
        inner = inner[key]
    inner[last] = value
    return group


def same(held, expected) -> bool:
    """Whether Anki's value (a 32-bit float where it keeps one) is `expected`."""
    if isinstance(expected, list):
        return len(held) == len(expected) and all(same(a, b) for a, b in zip(held, expected))
    return abs(held - expected) <= 1e-6 * max(1.0, abs(expected))


@pytest.mark.parametrize("fmt", ["colpkg", "colpkg-modern"])
@pytest.mark.parametrize("path,outside,nearest,anki_reads", BOUNDED, ids=[f"{c[0]}={c[1]}" for c in BOUNDED])
def test_a_setting_outside_ankis_bounds_is_written_as_the_nearest_it_keeps(
    tmp_path, fmt, path, outside, nearest, anki_reads
):
    """Anki reads such a value as its default for the setting, silently, and keeps the others;
    deckport writes the nearest value Anki keeps, with a `value-clamped` warning saying what Anki
    would have read. Judged twice by the backend: the collection deckport wrote holds the nearest
    value, and the same collection with the value put back holds Anki's default instead."""
    document = source_document(str(tmp_path))
    group = json.loads(document["deckOptions"][0]["anki11Json"])
    document["deckOptions"][0]["anki11Json"] = json.dumps(with_setting(group, path, outside))
    source = str(tmp_path / "changed.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    out = str(tmp_path / ("out." + fmt.split("-")[0]))
    result = deckport("convert", source, out, "--to", fmt)
    assert result.returncode == 0, result.stderr
    outside_text = json.dumps(outside, separators=(",", ":"))
    assert (
        f"option group 'Default' (id 1): warning: [value-clamped] setting '{path}' is {outside_text}, outside what"
        " Anki keeps there (from " in result.stderr
        or f"setting '{path}' is {outside_text}, outside what Anki keeps there (value 1 from" in result.stderr
    ), result.stderr
    reads = (
        f"value 1 as {anki_reads[0]}, value 2 as {anki_reads[1]}"
        if isinstance(anki_reads, list)
        else json.dumps(anki_reads, separators=(",", ":"))
    )
    assert f"and Anki would read {reads} instead" in result.stderr, result.stderr
    col = restored(str(tmp_path), out)
    try:
        held = default_group(col)
        assert same(setting(held, path), nearest), (path, setting(held, path))
        # The group's other settings are as they were.
        for other in ("new", "rev", "lapse"):
            if other != path.split(".")[0]:
                assert held[other] == group[other] or all(
                    same(held[other][key], value) for key, value in group[other].items() if not isinstance(value, bool)
                ), other
    finally:
        col.close()
    strict = deckport("convert", source, str(tmp_path / ("strict." + fmt.split("-")[0])), "--to", fmt, "--strict")
    assert strict.returncode == 1 and "value-clamped" in strict.stderr

    if fmt != "colpkg":
        return
    # The value put back into the collection deckport wrote: Anki reads its default there.
    put_back = str(tmp_path / "put_back.colpkg")
    with_collection_json_changed(
        out, put_back, str(tmp_path), lambda groups: json.dumps({**groups, "1": with_setting(groups["1"], path, outside)})
    )
    col = restored(str(tmp_path), put_back)
    try:
        assert same(setting(default_group(col), path), anki_reads), (path, setting(default_group(col), path))
    finally:
        col.close()


@pytest.mark.parametrize("fmt", ["colpkg", "colpkg-modern"])
def test_a_retention_of_0_is_kept_as_anki_reads_it_as_its_default(tmp_path, fmt):
    """0 is what Anki's own schema-18 option groups hold for a retention never set (a real
    collection, `fixtures/real/word-list-latest.colpkg`, has both at 0), and Anki reads it as
    0.9. deckport keeps it, without a warning, so Anki uses 0.9 after any number of conversions;
    the nearest bound, 0.7, which it wrote before, changed that (twice converted, the real
    backend used 0.7)."""
    document = source_document(str(tmp_path))
    group = json.loads(document["deckOptions"][0]["anki11Json"])
    group = with_setting(with_setting(group, "desiredRetention", 0.0), "sm2Retention", 0.0)
    document["deckOptions"][0]["anki11Json"] = json.dumps(group)
    source = str(tmp_path / "changed.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    out = str(tmp_path / ("out." + fmt.split("-")[0]))
    result = deckport("convert", source, out, "--to", fmt, "--strict")
    assert result.returncode == 0 and "value-clamped" not in result.stderr, result.stderr
    again = str(tmp_path / ("again." + fmt.split("-")[0]))
    result = deckport("convert", out, again, "--to", fmt, "--strict")
    assert result.returncode == 0 and "value-clamped" not in result.stderr, result.stderr
    for package in (out, again):
        col = restored(str(tmp_path), package)
        try:
            held = default_group(col)
            assert same(held["desiredRetention"], 0.9) and same(held["sm2Retention"], 0.9), held
        finally:
            col.close()


def test_anki_reads_a_browser_font_size_beyond_255_as_0(tmp_path):
    """Why deckport fits `bsize` (the case above): the collection it wrote, with 256 put back,
    is read by Anki with a browser font size of 0."""
    document = source_document(str(tmp_path))
    source = str(tmp_path / "deck.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    out = str(tmp_path / "out.colpkg")
    assert deckport("convert", source, out, "--to", "colpkg").returncode == 0

    def put_back(note_types: dict) -> str:
        basic = next(model for model in note_types.values() if model["name"] == "Basic")
        basic["tmpls"][0]["bsize"] = 256
        return json.dumps(note_types)

    changed = str(tmp_path / "put_back.colpkg")
    with_collection_json_changed(out, changed, str(tmp_path), put_back, column="models")
    col = restored(str(tmp_path), changed)
    try:
        assert col.models.by_name("Basic")["tmpls"][0]["bsize"] == 0
    finally:
        col.close()


def test_an_apkg_whose_default_option_group_is_changed_says_anki_ignores_it(tmp_path):
    """Anki's import of a deck package keeps the importing collection's own option group 1 and
    ignores the package's, for its own packages as for deckport's; a group of another id is
    added. deckport says so (`deck-options-ignored`, naming the settings) for an .apkg whose
    decks use a changed group 1, and not for a .colpkg, which restores it."""
    from anki.collection import ExportAnkiPackageOptions
    from anki.decks import DeckId
    from anki.import_export_pb2 import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    document = source_document(str(tmp_path))
    group = json.loads(document["deckOptions"][0]["anki11Json"])
    document["deckOptions"][0]["anki11Json"] = json.dumps(with_setting(group, "new.perDay", 33))
    source = str(tmp_path / "changed.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)

    out = str(tmp_path / "out.apkg")
    result = deckport("convert", source, out)
    assert result.returncode == 0, result.stderr
    assert (
        "option group 'Default' (id 1): warning: [deck-options-ignored] its settings differ from Anki's defaults"
        " (new.perDay 33, not 20), but Anki's import of an .apkg keeps the importing collection's own option group 1"
        " and ignores these" in result.stderr
    ), result.stderr
    col = restored(str(tmp_path), out)
    try:
        assert default_group(col)["new"]["perDay"] == 20
    finally:
        col.close()
    assert deckport("convert", source, str(tmp_path / "strict.apkg"), "--strict").returncode == 1

    backup = str(tmp_path / "out.colpkg")
    result = deckport("convert", source, backup)
    assert result.returncode == 0 and "deck-options-ignored" not in result.stderr, result.stderr
    col = restored(str(tmp_path), backup)
    try:
        assert default_group(col)["new"]["perDay"] == 33
    finally:
        col.close()

    unchanged = str(tmp_path / "unchanged.apkg")
    result = deckport("convert", SOURCE, unchanged)
    assert result.returncode == 0 and "deck-options-ignored" not in result.stderr, result.stderr

    # Anki's own package: its group 1 is ignored the same way, its other group is added.
    os.makedirs(str(tmp_path / "anki"))
    anki = Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        default = anki.decks.get_config(1)
        default["new"]["perDay"] = 33
        anki.decks.update_config(default)
        other = anki.decks.add_config("Other")
        other["new"]["perDay"] = 44
        anki.decks.update_config(other)
        deck_id = anki.decks.id("Elsewhere")
        elsewhere = anki.decks.get(deck_id)
        elsewhere["conf"] = other["id"]
        anki.decks.save(elsewhere)
        # A deck of its own on group 1 (the "Default" deck is the importing collection's own).
        for deck, front in ((DeckId(1), "one"), (deck_id, "two"), (anki.decks.id("Languages"), "three")):
            note = anki.new_note(anki.models.by_name("Basic"))
            note["Front"] = front
            anki.add_note(note, deck)
        exported = str(tmp_path / "anki.apkg")
        anki.export_anki_package(
            out_path=exported,
            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True),
            limit=None,
        )
    finally:
        anki.close()
    os.makedirs(str(tmp_path / "other"))
    col = Collection(str(tmp_path / "other" / "collection.anki2"))
    try:
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=exported, options=ImportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True)
            )
        )
        groups = {group["name"]: group["new"]["perDay"] for group in col.decks.all_config()}
        assert groups == {"Default": 20, "Other": 44}
    finally:
        col.close()
    result = deckport("convert", exported, str(tmp_path / "again.apkg"), "--verbose")
    assert "new.perDay 33, not 20" in result.stderr, result.stderr
    with open(source, "w", encoding="utf-8") as handle:
        document["decks"] = [deck for deck in document["decks"] if deck["id"] == 1]
        document["notes"], document["cards"], document["reviews"] = [], [], []
        json.dump(document, handle)
    result = deckport("convert", source, str(tmp_path / "default_deck_only.apkg"), "--verbose")
    assert result.returncode == 0 and "deck-options-ignored" not in result.stderr, result.stderr


# A deck's own limits and day counts: (property, its JSON text, what deckport writes in its
# place or None when Anki reads it as it is, what Anki holds for the property as written (the
# text put back); REFUSED when Anki refuses the package).
REFUSED = "refused"
DECK_VALUES = [
    ("newLimit", "-1", "null", None),
    ("newLimit", "1.5", "null", None),
    ("newLimit", "4294967295", None, 4294967295),
    ("reviewLimit", '"50"', "null", None),
    ("reviewLimit", "4294967296", "null", None),
    ("desiredRetention", "0.9", "null", None),
    ("desiredRetention", "90", None, 90),
    ("extendNew", "-5", "0", 0),
    ("extendRev", "2147483648", "0", 0),
    ("newLimitToday", '{"limit":-1,"today":3}', "null", None),
    ("newLimitToday", "[5,3]", None, {"limit": 5, "today": 3}),
    ("reviewLimitToday", '{"limit":5}', "null", None),
    ("newToday", "5", "[0,0]", REFUSED),
    ("timeToday", '{"a":1}', "[0,0]", REFUSED),
]


def with_deck_property(decks: dict, key: str, text: str) -> str:
    """The `decks` JSON of a collection with the Languages deck's `key` set to the JSON `text`."""
    languages = next(deck for deck in decks.values() if deck["name"] == "Languages")
    languages[key] = "\u0000placeholder"
    return json.dumps(decks).replace(json.dumps("\u0000placeholder"), text)


@pytest.mark.parametrize("fmt", ["colpkg", "colpkg-modern", "apkg"])
@pytest.mark.parametrize("key,text,written,anki_reads", DECK_VALUES, ids=[f"{c[0]}={c[1]}" for c in DECK_VALUES])
def test_a_deck_limit_anki_cannot_read_is_written_as_what_it_reads(tmp_path, fmt, key, text, written, anki_reads):
    """Anki reads a deck's own limit it cannot read as no limit of the deck's own (`null`) or 0,
    silently, and refuses the whole package for a day's study count that is not a list. deckport
    writes what Anki reads (not the nearest number: a new-card limit of -1 would become 0, no
    new cards at all), with a `value-clamped` warning; a value Anki reads is written as it is,
    without one. Judged twice by the backend: what the package deckport wrote holds, and what
    Anki makes of the original value put back into that collection."""
    document = source_document(str(tmp_path))
    deck(document)["ankiProperties"][key] = text
    source = str(tmp_path / "changed.json")
    with open(source, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    out = str(tmp_path / ("out." + fmt.split("-")[0]))
    result = deckport("convert", source, out, "--to", fmt, "--verbose")
    assert result.returncode == 0, result.stderr
    if written is None:
        assert f"property '{key}'" not in result.stderr, result.stderr
    else:
        assert f"deck 'Languages' (id {deck(document)['id']}): warning: [value-clamped] property '{key}' is {text}" in result.stderr
        consequence = "refuse the whole package" if anki_reads == REFUSED else f"read {written} instead"
        assert f"would {consequence}; {written} is written" in result.stderr, result.stderr
    col = restored(str(tmp_path), out)
    try:
        held = col.decks.by_name("Languages")
        expected = json.loads(written if written is not None else text)
        if fmt == "apkg" and key.endswith("LimitToday"):
            # Anki's import of a deck package drops a deck's limits for one day.
            expected = None
        if key.endswith("LimitToday") and isinstance(expected, list):
            expected = {"limit": expected[0], "today": expected[1]}
        assert held.get(key) == expected, (key, held.get(key))
    finally:
        col.close()
    if written is not None and fmt == "apkg":
        strict = deckport("convert", source, str(tmp_path / "strict.apkg"), "--to", fmt, "--strict")
        assert strict.returncode == 1 and "value-clamped" in strict.stderr

    if fmt != "colpkg":
        return
    # The original value put back into the collection deckport wrote.
    put_back = str(tmp_path / "put_back.colpkg")
    with_collection_json_changed(
        out, put_back, str(tmp_path), lambda decks: with_deck_property(decks, key, text), column="decks"
    )
    if anki_reads == REFUSED:
        with pytest.raises(Exception):
            restored(str(tmp_path), put_back).close()
        return
    col = restored(str(tmp_path), put_back)
    try:
        assert col.decks.by_name("Languages").get(key) == anki_reads, (key, col.decks.by_name("Languages").get(key))
    finally:
        col.close()
