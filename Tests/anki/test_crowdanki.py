"""CrowdAnki folders, judged by the real Anki backend and by reading deck.json directly.

* test_real_crowdanki_deck_in_anki: every real CrowdAnki export under fixtures/crowdanki/ is
  converted to an .apkg by deckport and imported by Anki. What Anki then holds must be what the
  folder holds, read here with Python's json module (never through deckport): the same notes
  (GUIDs), each with the same fields and tags, of a note type with the same name, field names,
  templates (qfmt, afmt) and CSS; the deck tree's names rebuilt with '::'; and every media file
  of the folder, byte for byte, in Anki's media folder.
* test_apkg_to_crowdanki_to_apkg_keeps_every_note: each real .apkg fixture, converted to a
  CrowdAnki folder and back to an .apkg, imports into Anki with the same notes (GUID, note type
  name, fields, tags) and the same media bytes as the original package; when the original has
  cards with scheduling, the conversion to CrowdAnki reports it with a [scheduling] warning.
* fixtures/anki/*.apkg with cards under several top-level decks nest under a root named after
  the folder ([deck-root-added]); notes split across decks are reported ([note-decks-split]).
* deck.json is laid out as current CrowdAnki's json.dumps(sort_keys=True, indent=4,
  ensure_ascii=False) writes it; a newer deck file updates notes in Anki (modification time);
  crowdanki_uuid travels through modern (schema 18) packages in both directions.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import subprocess
import tempfile

import pytest

from conftest import FIXTURES, REAL_DIR, REPO

DECKPORT = os.environ.get("DECKPORT_BIN") or os.path.join(REPO, ".build", "debug", "deckport")
if not (os.path.isfile(DECKPORT) and os.access(DECKPORT, os.X_OK)):
    pytest.skip(f"the deckport binary does not exist yet ({DECKPORT})", allow_module_level=True)

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest  # noqa: E402
from anki_view import _neutralise_notetypes, referenced_media  # noqa: E402


# The real 2018 CrowdAnki export the layout checks below compare with.
GEOGRAPHY = os.path.join(FIXTURES, "crowdanki", "ultimate-geography", "Ultimate_Geography")


def crowdanki_folders() -> list[str]:
    """Folders holding deck.json or <folder>.json under fixtures/crowdanki/<name>/."""
    found = []
    for folder in sorted(glob.glob(os.path.join(FIXTURES, "crowdanki", "*", "*"))):
        name = os.path.basename(folder)
        if os.path.isfile(os.path.join(folder, "deck.json")) or os.path.isfile(os.path.join(folder, name + ".json")):
            found.append(folder)
    return found


def deck_file(folder: str) -> str:
    plain = os.path.join(folder, "deck.json")
    return plain if os.path.isfile(plain) else os.path.join(folder, os.path.basename(folder) + ".json")


def run(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run([DECKPORT, *args], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"deckport {' '.join(args)} exited {result.returncode}: {result.stderr}"
    return result


def imported(package: str, scratch: str) -> Collection:
    """A fresh collection without Anki's stock note types (a deck's own "Basic" would otherwise
    arrive as "Basic+", Anki's answer to two note types of one name), `package` imported."""
    col = Collection(os.path.join(scratch, "collection.anki2"))
    _neutralise_notetypes(col)
    col.import_anki_package(
        ImportAnkiPackageRequest(
            package_path=os.path.abspath(package),
            options=ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True, with_deck_configs=True),
        )
    )
    return col


def anki_notes(col: Collection, home_decks: bool = False) -> dict[str, dict]:
    """Notes by GUID: fields, tags, note type name and the names of the decks their cards are in
    (with `home_decks`, a card in a filtered deck counts under its home deck)."""
    notes = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        model = note.note_type()
        decks = {col.decks.name(card.odid if home_decks and card.odid else card.did) for card in note.cards()}
        notes[note.guid] = {
            "fields": list(note.fields),
            "tags": sorted(note.tags),
            "model": model["name"],
            "decks": decks,
        }
    return notes


def anki_media(col: Collection) -> dict[str, str]:
    folder = col.media.dir()
    return {
        name: hashlib.sha1(open(os.path.join(folder, name), "rb").read()).hexdigest()
        for name in os.listdir(folder)
        if os.path.isfile(os.path.join(folder, name))
    }


def folder_truth(folder: str) -> tuple[dict[str, dict], dict[str, dict]]:
    """(notes by GUID, note models by UUID) as deck.json states them, decks named with '::'."""
    deck = json.load(open(deck_file(folder), encoding="utf-8"))
    models = {model["crowdanki_uuid"]: model for model in deck.get("note_models", [])}
    notes: dict[str, dict] = {}

    def walk(node: dict, parent: str | None) -> None:
        name = node["name"] if parent is None else f"{parent}::{node['name']}"
        for note in node.get("notes", []):
            model = models[note["note_model_uuid"]]
            notes[note["guid"]] = {
                "fields": note["fields"],
                "tags": sorted(note.get("tags", [])),
                "model": model["name"],
                "decks": {name},
            }
        for child in node.get("children", []):
            walk(child, name)

    walk(deck, None)
    return notes, models


@pytest.mark.parametrize("folder", crowdanki_folders(), ids=os.path.basename)
def test_real_crowdanki_deck_in_anki(folder):
    notes, models = folder_truth(folder)
    assert notes, "the fixture holds notes"
    with tempfile.TemporaryDirectory() as scratch:
        package = os.path.join(scratch, "deck.apkg")
        stderr = run("convert", folder, package, "--verbose").stderr
        col = imported(package, scratch)
        try:
            assert anki_notes(col) == notes
            for model in models.values():
                anki_model = col.models.by_name(model["name"])
                assert anki_model is not None, model["name"]
                assert [f["name"] for f in anki_model["flds"]] == [f["name"] for f in model["flds"]]
                assert [(t["name"], t["qfmt"], t["afmt"]) for t in anki_model["tmpls"]] == [
                    (t["name"], t["qfmt"], t["afmt"]) for t in model["tmpls"]
                ]
                assert anki_model["css"] == model["css"]
                assert anki_model["sortf"] == model["sortf"]
                # CrowdAnki's identity survives into Anki, where CrowdAnki looks for it.
                assert anki_model.get("crowdanki_uuid") == model["crowdanki_uuid"]
            # The folder's files a note or a note type refers to arrive, byte for byte; the others
            # are left out of the .apkg, as Anki's exporter leaves them, each named; a file the
            # deck lists and the folder lacks is named too.
            media_folder = os.path.join(folder, "media")
            present = set(os.listdir(media_folder)) if os.path.isdir(media_folder) else set()
            note_types = [{"css": model["css"], "templates": model["tmpls"]} for model in models.values()]
            referenced = referenced_media(list(notes.values()), note_types)
            expected_media = {
                name: hashlib.sha1(open(os.path.join(media_folder, name), "rb").read()).hexdigest()
                for name in present & referenced
            }
            assert anki_media(col) == expected_media
            for name in present - referenced:
                assert f"media file '{name}': warning: [media-unused]" in stderr, name
            listed = json.load(open(deck_file(folder), encoding="utf-8")).get("media_files", [])
            for name in set(listed) - present:
                assert f"warning: [media-missing] '{name}' is listed" in stderr, name
        finally:
            col.close()


def assert_notes_survive(
    expected: dict[str, dict], got: dict[str, dict], folder: str, stderr: str, through_crowdanki: bool = False
) -> None:
    """Anki's notes after package → CrowdAnki `folder` → package (`got`) are those before
    (`expected`), but for what the conversion reported on `stderr`: cards under several top-level
    decks nest under a root named after the folder ([deck-root-added]), and a note whose cards
    sit in several decks goes under its first card's deck ([note-decks-split]). With
    `through_crowdanki` (`got` is what CrowdAnki's import made of the folder), a top deck named
    Default arrives as Default_2, as the conversion reported ([deck-renamed])."""
    name = os.path.basename(folder)
    tops = {deck.split("::")[0] for note in expected.values() for deck in note["decks"]}
    added = "[deck-root-added]" in stderr
    assert added == (len(tops) > 1), stderr
    deck = json.load(open(os.path.join(folder, "deck.json"), encoding="utf-8"))
    if added:
        assert deck["name"] == name
        assert sorted(child["name"] for child in deck["children"]) == sorted(tops)
        for note in expected.values():
            note["decks"] = {name + "::" + deck for deck in note["decks"]}
    top_is_default = deck["name"].lower() == "default"
    assert ("CrowdAnki imports the folder's deck as" in stderr) == top_is_default, stderr
    if through_crowdanki and top_is_default:
        for note in expected.values():
            note["decks"] = {deck["name"] + "_2" + held[len(deck["name"]):] for held in note["decks"]}
    split = [note for note in expected.values() if len(note["decks"]) > 1]
    assert ("[note-decks-split]" in stderr) == bool(split), stderr
    for guid, note in expected.items():
        if len(note["decks"]) > 1:
            assert len(got[guid]["decks"]) == 1 and got[guid]["decks"] <= note["decks"]
            note["decks"] = got[guid]["decks"]
    assert got == expected


def real_packages() -> list[str]:
    return sorted(glob.glob(os.path.join(REAL_DIR, "*.apkg")))


def original_and_round_trip(package: str, folder: str, scratch: str) -> tuple[Collection, Collection]:
    """Anki collections holding `package` and the CrowdAnki `folder` converted back to an .apkg."""
    back = os.path.join(scratch, "back.apkg")
    run("convert", folder, back)
    collections = []
    for name, source in (("original", package), ("again", back)):
        os.makedirs(os.path.join(scratch, name))
        collections.append(imported(source, os.path.join(scratch, name)))
    return collections[0], collections[1]


@pytest.mark.parametrize("package", real_packages(), ids=os.path.basename)
def test_apkg_to_crowdanki_to_apkg_keeps_every_note(package):
    with tempfile.TemporaryDirectory() as scratch:
        folder = os.path.join(scratch, "folder")
        to_folder = run("convert", package, folder, "--to", "crowdanki", "--verbose")
        original, again = original_and_round_trip(package, folder, scratch)
        try:
            # CrowdAnki has no filtered decks: their cards go home, with a warning naming each.
            filtered = original.db.list("select name from decks where id in (select did from cards where odid != 0)")
            for name in filtered:
                assert f"filtered deck '{name}' is not written" in to_folder.stderr, to_folder.stderr
            expected = anki_notes(original, home_decks=True)
            assert_notes_survive(expected, anki_notes(again), folder, to_folder.stderr)
            assert anki_media(again) == anki_media(original)
            scheduled = original.db.scalar("select count() from cards where type != 0 or queue != 0")
            assert ("[scheduling] the scheduling of" in to_folder.stderr) == (scheduled > 0), to_folder.stderr
        finally:
            original.close()
            again.close()


def anki_packages() -> list[str]:
    return sorted(glob.glob(os.path.join(FIXTURES, "anki", "*.apkg")))


@pytest.mark.parametrize("package", anki_packages(), ids=os.path.basename)
def test_several_top_level_decks_nest_under_the_folder_name(package):
    """Packages whose cards sit under several top-level decks are written with a root named after
    the folder ([deck-root-added]); Anki then holds every note, in the same decks one level down."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = os.path.join(scratch, "Collection")
        to_folder = run("convert", package, folder, "--to", "crowdanki")
        original, again = original_and_round_trip(package, folder, scratch)
        try:
            # CrowdAnki has no filtered decks: their cards go home, with a warning naming each.
            filtered = original.db.list("select name from decks where id in (select did from cards where odid != 0)")
            for name in filtered:
                assert f"filtered deck '{name}' is not written" in to_folder.stderr, to_folder.stderr
            expected = anki_notes(original, home_decks=True)
            assert_notes_survive(expected, anki_notes(again), folder, to_folder.stderr)
        finally:
            original.close()
            again.close()


def crowdanki_dumps(value) -> str:
    """deck.json as current CrowdAnki writes it (crowd_anki/export/anki_exporter.py)."""
    return json.dumps(value, sort_keys=True, indent=4, ensure_ascii=False)


def json_differences(fixture, written, path: str = "") -> set[str]:
    """Where two parsed deck files differ, as 'differs P', 'only fixture P', 'only deckport P',
    with list positions dropped from P; a float and an int of the same value differ."""
    found: set[str] = set()
    if isinstance(fixture, dict) and isinstance(written, dict):
        for key in set(fixture) | set(written):
            if key not in written:
                found.add(f"only fixture {path}.{key}")
            elif key not in fixture:
                found.add(f"only deckport {path}.{key}")
            else:
                found |= json_differences(fixture[key], written[key], f"{path}.{key}")
    elif isinstance(fixture, list) and isinstance(written, list) and len(fixture) == len(written):
        for a, b in zip(fixture, written):
            found |= json_differences(a, b, f"{path}[]")
    elif fixture != written or type(fixture) is not type(written):
        found.add(f"differs {path}")
    return found


def test_deck_json_is_laid_out_as_current_crowdanki_writes_it():
    """The real 2018 export, read and written again by deckport: deck.json is byte for byte what
    json.dumps(sort_keys=True, indent=4, ensure_ascii=False) makes of it (no final newline), and
    differs from the fixture only where deckport is known to: keys modern Anki adds, keys deckport
    does not keep (`mid`, and note flags and data, reported when read), media_files sorted (as CrowdAnki sorts them now) and req
    derived again. Floats stay floats (0.0, 1.0, 1.3), ints stay ints."""
    folder = GEOGRAPHY
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "again")
        run("convert", folder, out, "--to", "crowdanki")
        text = open(os.path.join(out, "deck.json"), encoding="utf-8").read()
        written = json.loads(text)
        assert text == crowdanki_dumps(written)
        fixture = json.load(open(deck_file(folder), encoding="utf-8"))
        assert written["media_files"] == sorted(fixture["media_files"])
        assert written["deck_configurations"] == fixture["deck_configurations"]
        assert crowdanki_dumps(written["deck_configurations"]) == crowdanki_dumps(fixture["deck_configurations"])
        assert crowdanki_dumps(written["notes"]) == crowdanki_dumps(
            [{key: value for key, value in note.items() if key not in ("flags", "data")} for note in fixture["notes"]]
        )
        differences = json_differences(fixture, written)
        # What Anki keeps of the deck and note model besides (the deck's own limits, the model's
        # last tags) is kept; `mid` names a note type by an id the folder does not keep.
        expected = {
            "differs .media_files[]", "differs .note_models[].req[][]",
            "only fixture .mid", "only fixture .notes[].flags", "only fixture .notes[].data",
        }
        modern = {key for key in differences if key.startswith("only deckport")}
        assert differences - modern == expected
        assert modern == {
            f"only deckport .{key}"
            for key in ["desiredRetention", "newLimit", "newLimitToday", "reviewLimit", "reviewLimitToday"]
        } | {
            f"only deckport .note_models[].{key}"
            for key in ["latexsvg", "tmpls[].bfont", "tmpls[].bsize", "tmpls[].id"]
            + [f"flds[].{k}" for k in ["collapsed", "description", "excludeFromSearch", "id", "plainText", "preventDeletion", "tag"]]
        }


def test_deck_json_escapes_as_python_does():
    """Non-ASCII text stays literal, control characters are escaped as \\u001f, slashes are not."""
    folder = GEOGRAPHY
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "source")
        os.makedirs(source)
        deck = json.load(open(deck_file(folder), encoding="utf-8"))
        deck["notes"][0]["fields"][0] = "Ünïcödé 日本 😀 a/b \"q\" \\ \t\n\x1f\x7f\u2028"
        deck["desc"] = "é"
        open(os.path.join(source, "deck.json"), "w", encoding="utf-8").write(crowdanki_dumps(deck))
        out = os.path.join(scratch, "again")
        run("convert", source, out, "--to", "crowdanki")
        text = open(os.path.join(out, "deck.json"), encoding="utf-8").read()
        assert text == crowdanki_dumps(json.loads(text))
        assert "Ünïcödé 日本 😀 a/b" in text and "\\u001f" in text


def test_a_newer_folder_updates_the_notes_anki_has():
    """Notes read from a folder get the deck file's modification time, so importing a later
    version of the folder into Anki updates the notes an earlier import made."""
    import shutil

    folder = GEOGRAPHY
    with tempfile.TemporaryDirectory() as scratch:
        first_folder = os.path.join(scratch, "v1", os.path.basename(folder))
        shutil.copytree(folder, first_folder)
        first_file = deck_file(first_folder)
        os.utime(first_file, (1_700_000_000, 1_700_000_000))
        second_folder = os.path.join(scratch, "v2", os.path.basename(folder))
        shutil.copytree(folder, second_folder)
        second_file = deck_file(second_folder)
        deck = json.load(open(second_file, encoding="utf-8"))
        guid = deck["notes"][0]["guid"]
        deck["notes"][0]["fields"][0] = "changed upstream"
        open(second_file, "w", encoding="utf-8").write(crowdanki_dumps(deck))
        os.utime(second_file, (1_700_086_400, 1_700_086_400))
        first, second = os.path.join(scratch, "v1.apkg"), os.path.join(scratch, "v2.apkg")
        run("convert", first_folder, first)
        run("convert", second_folder, second)
        col_dir = os.path.join(scratch, "col")
        os.makedirs(col_dir)
        col = imported(first, col_dir)
        try:
            nid = col.db.scalar("select id from notes where guid = ?", guid)
            assert col.get_note(nid).mod == 1_700_000_000
            col.import_anki_package(
                ImportAnkiPackageRequest(
                    package_path=second,
                    options=ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True, with_deck_configs=True),
                )
            )
            note = col.get_note(nid)
            assert note.fields[0] == "changed upstream"
            assert note.mod == 1_700_086_400
        finally:
            col.close()


@pytest.mark.parametrize("package", ["legacy2_sched.apkg", "latest_sched.apkg"])
def test_a_package_edited_as_a_folder_updates_the_collection_it_came_from(package):
    """A package converted to a folder, edited there and converted back, imports into the
    collection that imported the package as an update: the folder keeps the Anki id of each note
    type and option group (`deckport_anki_id`), which Anki's import matches them by. Without it every
    note type came back under an id derived from its UUID, and Anki skipped every note as
    conflicting, the edit with them, and added the note types and option groups again."""
    original = os.path.join(FIXTURES, "anki", package)
    with tempfile.TemporaryDirectory() as scratch:
        folder = os.path.join(scratch, "Deck")
        run("convert", original, folder, "--to", "crowdanki")
        path = deck_file(folder)
        deck = json.load(open(path, encoding="utf-8"))
        ids = {model["name"]: model["deckport_anki_id"] for model in deck["note_models"]}

        def notes(node: dict):
            yield from node["notes"]
            for child in node["children"]:
                yield from notes(child)

        edited = next(notes(deck))
        edited["fields"][0] = "edited in the folder"
        open(path, "w", encoding="utf-8").write(crowdanki_dumps(deck))
        back = os.path.join(scratch, "back.apkg")
        run("convert", folder, back, "--from", "crowdanki")
        col_dir = os.path.join(scratch, "col")
        os.makedirs(col_dir)
        col = imported(original, col_dir)
        try:
            before = {entry.name: entry.id for entry in col.models.all_names_and_ids()}
            assert {name: before[name] for name in ids} == ids
            groups = sorted(group["id"] for group in col.decks.all_config())
            log = col.import_anki_package(
                ImportAnkiPackageRequest(
                    package_path=back,
                    options=ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True, with_deck_configs=True),
                )
            ).log
            assert not log.conflicting, [note.fields for note in log.conflicting]
            assert {entry.name: entry.id for entry in col.models.all_names_and_ids()} == before
            # The option groups keep their ids too: none arrives a second time.
            assert sorted(group["id"] for group in col.decks.all_config()) == groups
            nid = col.db.scalar("select id from notes where guid = ?", edited["guid"])
            assert col.get_note(nid).fields[0] == "edited in the folder"
        finally:
            col.close()


def test_apkg_modern_carries_crowdanki_uuids_into_anki():
    """Written as apkg-modern, the folder's note model and deck UUIDs are in Anki's note type and
    deck after import, where CrowdAnki looks for them."""
    folder = GEOGRAPHY
    deck = json.load(open(deck_file(folder), encoding="utf-8"))
    with tempfile.TemporaryDirectory() as scratch:
        package = os.path.join(scratch, "deck.apkg")
        run("convert", folder, package, "--to", "apkg-modern")
        import zipfile

        assert "collection.anki21b" in zipfile.ZipFile(package).namelist()
        col = imported(package, scratch)
        try:
            for model in deck["note_models"]:
                assert col.models.by_name(model["name"])["crowdanki_uuid"] == model["crowdanki_uuid"]
            assert col.decks.by_name(deck["name"])["crowdanki_uuid"] == deck["crowdanki_uuid"]
        finally:
            col.close()


@pytest.mark.parametrize("kind", ["apkg", "colpkg"])
def test_crowdanki_uuids_of_an_anki_modern_export_are_read(kind):
    """Anki keeps crowdanki_uuid of a note type and a deck in the `other` JSON of their protobuf
    config (schema 18); deckport reads them from Anki's own modern export and writes them to
    deck.json. Anki's deck export (apkg) clears the deck's `common` blob, and with it the deck's
    UUID, so there only the note type's survives; a collection package keeps both."""
    from anki.collection import DeckIdLimit, ExportAnkiPackageOptions

    model_uuid = "11111111-2222-3333-4444-555555555555"
    deck_uuid = "66666666-7777-8888-9999-000000000000"
    with tempfile.TemporaryDirectory() as scratch:
        col = Collection(os.path.join(scratch, "source.anki2"))
        try:
            model = col.models.by_name("Basic")
            model["crowdanki_uuid"] = model_uuid
            col.models.update_dict(model)
            did = col.decks.id("Geography")
            anki_deck = col.decks.get(did)
            anki_deck["crowdanki_uuid"] = deck_uuid
            col.decks.save(anki_deck)
            note = col.new_note(col.models.by_name("Basic"))
            note.fields = ["Paris", "France"]
            col.add_note(note, did)
            package = os.path.join(scratch, "modern." + kind)
            if kind == "apkg":
                col.export_anki_package(
                    out_path=package,
                    options=ExportAnkiPackageOptions(
                        with_scheduling=False, with_deck_configs=True, with_media=False, legacy=False
                    ),
                    limit=DeckIdLimit(did),
                )
            else:
                col.export_collection_package(package, include_media=False, legacy=False)
        finally:
            if kind == "apkg":
                col.close()
        import zipfile

        assert "collection.anki21b" in zipfile.ZipFile(package).namelist()
        out = os.path.join(scratch, "Geography")
        run("convert", package, out, "--to", "crowdanki")
        written = json.load(open(os.path.join(out, "deck.json"), encoding="utf-8"))
        assert written["name"] == "Geography"
        assert [m["crowdanki_uuid"] for m in written["note_models"] if m["name"] == "Basic"] == [model_uuid]
        assert (written["crowdanki_uuid"] == deck_uuid) == (kind == "colpkg")


def test_a_key_twice_in_a_deck_file_is_refused(tmp_path):
    """A deck file edited by hand that gives a note's key twice would lose one of the values (a
    dictionary keeps one): it is refused with the line and column, exit 1, and no output."""
    source = os.path.join(FIXTURES, "crowdanki", "kamaraju-public-deck", "public_anki_deck")
    folder = tmp_path / "public_anki_deck"
    folder.mkdir()
    with open(os.path.join(source, "deck.json"), encoding="utf-8") as handle:
        text = handle.read()
    assert '"guid": "P`)ieErTN$",' in text
    (folder / "deck.json").write_text(
        text.replace('"guid": "P`)ieErTN$",', '"guid": "P`)ieErTN$", "guid": "other",', 1), encoding="utf-8")
    output = tmp_path / "out.apkg"
    result = subprocess.run([DECKPORT, "convert", str(folder), str(output), "--from", "crowdanki"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stderr
    assert 'deck.json:31:' in result.stderr and 'the key "guid" occurs twice in this object' in result.stderr
    assert not output.exists()
