"""`deckport diff A B` says what the real Anki backend's import of B does to a collection holding A.

The decks are made with Anki itself: `fixtures/anki/latest.colpkg` is restored into a collection,
which Anki exports as a deck package (`published.apkg`) and a collection package
(`backup.colpkg`). Then, through the backend, the collection is edited the ways that decide what a
later import takes:

* a note's field is changed (Anki sets its modification time: newer), and another field filled that
  gives it a second card;
* a note's field is changed and its modification time set back to what it was (not newer), and a
  note's tags are changed with its time set earlier than before (older);
* a note's modification time alone moves forward (newer, nothing else changed);
* a note is moved to another note type;
* a field is added to a note type (Anki then adds it on import as a new note type);
* a note type's template text is changed and its modification time set back (not newer);
* a note type's styling is changed (newer);
* a card of an existing note is answered (its scheduling changes);
* a note is added.

Anki exports the edited collection as `current.apkg`. `deckport diff FROM current.apkg --json`
(FROM the deck package or the collection package) predicts the import; the backend then imports
`current.apkg` into a collection holding FROM (a fresh collection that imported the deck package,
or the restored collection package) and its own import log and resulting collection are the judge:
the counts of new, updated, duplicate and conflicting notes; the notes deckport says keep the
collection's version do (and the backend's log puts them where deckport says); the note type whose
change is not taken keeps its old template; the note type with an added field is added as a new
one and its notes conflict; the answered card keeps the collection's scheduling. The same import
with the dialog's other update choices (`--anki-update-notes`, `--anki-update-note-types`: always,
never) is judged the same way, the notes and note types whose change the backend did not take
read from the collection it leaves. So is the import with "Merge note types" on
(`--anki-merge-note-types`), under each update choice for notes, and two small decks the backend
makes show what only merging does: a field the package's note type lost is emptied in every note
Anki updates, and a note moved to a cloze note type makes the backend refuse the import.

With `--only-deck D`, the preview is that of B's deck D exported alone, imported into a
collection holding the whole of A: for every deck of a collection the backend edited (a note moved
into another deck and edited, its note type's template changed with an old clock, a note of
another deck edited with an old clock, a note added), the backend exports the notes its search
`deck:D` finds and imports them into a collection restored from A, and its log and the collection
it leaves judge the preview as above.

A collection that imports the deck package first has no note types of its own: Anki renames a
note type whose name the collection already uses (`Basic+`) and gives it the time of that import,
and a collection holding A with A's own modification times is what the preview describes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time

import pytest
from anki.collection import (
    Collection,
    ExportAnkiPackageOptions,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)

from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from test_diff import BACKUP, answer_good, note_with_front, restored_backup, snapshot  # noqa: E402

EDITED_NEWER = "chat"  # Back changed through the backend: newer
EDITED_NOT_NEWER = "Capital of Japan"  # Back changed, time set back: not newer
RETAGGED_OLDER = "Plain, with"  # tags changed, time set earlier: older
TOUCHED_ONLY = "Hello <b>world</b>"  # time moved forward, nothing else: updated, unchanged
MOVED_NOTE = "chien"  # moved from "Basic (optional reversed card)" to "Basic"
WIDENED_TYPE = "Vocab (3 fields)"  # a field added: a new note type on import
TEMPLATE_NOT_NEWER_TYPE = "Cloze"  # template text changed, time set back
RESTYLED_TYPE = "Basic (and reversed card)"  # styling changed: newer
ADDED_FRONT = "added after publishing"


def export_deck(col: Collection, path: str) -> None:
    col.export_anki_package(
        out_path=path,
        options=ExportAnkiPackageOptions(legacy=False, with_scheduling=True, with_deck_configs=True, with_media=True),
        limit=None,
    )


UPDATE_CONDITIONS = {"if-newer": 0, "always": 1, "never": 2}  # ImportAnkiPackageOptions' enum


def import_options(notes: str = "if-newer", note_types: str = "if-newer", merge: bool = False) -> ImportAnkiPackageOptions:
    """The options of Anki's import dialog (by default: update notes and note types if newer, no
    merging)."""
    return ImportAnkiPackageOptions(
        merge_notetypes=merge, with_scheduling=True, with_deck_configs=False,
        update_notes=UPDATE_CONDITIONS[notes], update_notetypes=UPDATE_CONDITIONS[note_types],
    )


def note_type_view(col: Collection) -> dict:
    """Each note type's templates and styling, by name."""
    return {m["name"]: ([(t["qfmt"], t["afmt"]) for t in m["tmpls"]], m["css"]) for m in col.models.all()}


def note_type_fields(col: Collection) -> dict:
    """Each note type's field names, by id."""
    return {m["id"]: [f["name"] for f in m["flds"]] for m in col.models.all()}


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    folder, col = restored_backup(tmp_path_factory, "diff-import")
    try:
        published = os.path.join(folder, "published.apkg")
        export_deck(col, published)
        backup = os.path.join(folder, "backup.colpkg")
        before = snapshot(col)
        types_before = note_type_view(col)

        def note_id(prefix: str) -> int:
            return before["notes"][note_with_front(col, before, prefix)]["id"]

        note = col.get_note(note_id(EDITED_NEWER))
        note["Back"] = "cat, edited later"
        note["Add Reverse"] = "y"  # a second card
        col.update_note(note)

        edited = note_id(EDITED_NOT_NEWER)
        old_mod = col.db.scalar("select mod from notes where id = ?", edited)
        note = col.get_note(edited)
        note["Back"] = "Tokyo, edited with an old clock"
        col.update_note(note)
        col.db.execute("update notes set mod = ? where id = ?", old_mod, edited)

        retagged = note_id(RETAGGED_OLDER)
        old_mod = col.db.scalar("select mod from notes where id = ?", retagged)
        note = col.get_note(retagged)
        note.tags.append("retagged")
        col.update_note(note)
        col.db.execute("update notes set mod = ? where id = ?", old_mod - 100, retagged)

        col.db.execute("update notes set mod = mod + 50 where id = ?", note_id(TOUCHED_ONLY))

        moved = note_id(MOVED_NOTE)
        basic = col.models.by_name("Basic")
        request = col.models.change_notetype_info(
            old_notetype_id=col.get_note(moved).mid, new_notetype_id=basic["id"]
        ).input
        request.note_ids.extend([moved])
        col.models.change_notetype_of_notes(request)

        widened = col.models.by_name(WIDENED_TYPE)
        col.models.add_field(widened, col.models.new_field("Extra"))
        col.models.update_dict(widened)

        cloze = col.models.by_name(TEMPLATE_NOT_NEWER_TYPE)
        old_mtime = cloze["mod"]
        cloze["tmpls"][0]["qfmt"] += "<br>edited with an old clock"
        col.models.update_dict(cloze)
        col.db.execute("update notetypes set mtime_secs = ? where id = ?", old_mtime, cloze["id"])

        restyled = col.models.by_name(RESTYLED_TYPE)
        restyled["css"] += "\n.card { color: teal; }"
        col.models.update_dict(restyled)
        col.db.execute("update notetypes set mtime_secs = mtime_secs + 60 where id = ?", restyled["id"])

        answered_key = next(
            key for key, card in sorted(before["cards"].items()) if card["values"][0] == 0 and key[0] not in (
                note_with_front(col, before, MOVED_NOTE),
            ) and before["notes"][key[0]]["noteType"] != WIDENED_TYPE
        )
        answer_good(col, before["cards"][answered_key]["id"])

        added = col.new_note(basic)
        added["Front"] = ADDED_FRONT
        added["Back"] = "new"
        col.add_note(added, col.decks.id("Default"))

        current = os.path.join(folder, "current.apkg")
        export_deck(col, current)
        after = snapshot(col)
        types_after = note_type_view(col)
    finally:
        try:
            col.close()
        except Exception:
            pass
    shutil.copy(os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "anki", "latest.colpkg"), backup)
    return {
        "folder": folder, "published": published, "backup": backup, "current": current, "before": before,
        "after": after, "answered": answered_key, "types_before": types_before, "types_after": types_after,
    }


def deckport_preview(source: str, current: str, *choices: str) -> dict:
    result = subprocess.run(
        [DECKPORT, "diff", source, current, "--json", *choices], capture_output=True, text=True, timeout=600
    )
    assert result.returncode in (0, 1), result.stderr  # equal, or different
    return json.loads(result.stdout)["ankiImport"]


def anki_import(source: str, current: str, folder: str, options: ImportAnkiPackageOptions | None = None) -> dict:
    """The backend's import of `current` (with `options`, by default the dialog's) into a
    collection holding `source` (restored from it, or a collection without note types of its own
    that imported it): its log (notes by GUID, found by the note id each entry carries) and the
    collection afterwards."""
    from anki_view import _import_colpkg, _neutralise_notetypes

    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        if source.endswith(".colpkg"):
            _import_colpkg(col, source)
        else:
            _neutralise_notetypes(col)
            col.import_anki_package(
                ImportAnkiPackageRequest(package_path=os.path.abspath(source), options=import_options())
            )
        def cards_by_guid() -> dict:
            return dict(col.db.all("select n.guid, count(c.id) from notes n left join cards c on c.nid = n.id group by n.id"))

        cards_before = cards_by_guid()
        log = col.import_anki_package(
            ImportAnkiPackageRequest(package_path=os.path.abspath(current), options=options or import_options())
        ).log
        outcome = {
            kind: sorted(col.get_note(entry.id.nid).guid for entry in getattr(log, kind))
            for kind in ("new", "updated", "duplicate", "conflicting")
        }
        # Cards the import added to notes the collection had, those it updated and those it kept.
        cards_after = cards_by_guid()
        outcome["cards_added"] = {
            kind: sum(cards_after[guid] - cards_before[guid] for guid in outcome[kind]) for kind in ("updated", "duplicate")
        }
        assert all(cards_after[guid] == cards_before[guid] for guid in outcome["conflicting"])
        outcome["state"] = snapshot(col)
        outcome["types"] = note_type_view(col)
        outcome["fields"] = note_type_fields(col)
        return outcome
    finally:
        col.close()


@pytest.mark.parametrize("source", ["published", "backup"])
def test_diff_predicts_anki_import(decks, source):
    preview = deckport_preview(decks[source], decks["current"])
    anki = anki_import(decks[source], decks["current"], os.path.join(decks["folder"], f"import-{source}"))
    before, after = decks["before"], decks["after"]

    # The counts are the backend's own.
    assert_counts(preview, anki)
    assert_cards_added(preview, anki)
    assert anki["new"] == [note_with_front(None, after, ADDED_FRONT)]

    # Each note said to keep the collection's version does, and the backend logged it so.
    not_newer = {n["guid"] for n in preview["notesNotTaken"] if n["reason"] == "not-newer"}
    assert not_newer == {
        note_with_front(None, after, EDITED_NOT_NEWER), note_with_front(None, after, RETAGGED_OLDER)
    }
    for guid in not_newer:
        assert guid in anki["duplicate"]
        assert anki["state"]["notes"][guid]["fields"] == before["notes"][guid]["fields"]
        assert anki["state"]["notes"][guid]["fields"] != after["notes"][guid]["fields"] or (
            sorted(anki["state"]["notes"][guid]["tags"]) != sorted(after["notes"][guid]["tags"])
        )
    moved = {n["guid"] for n in preview["notesNotTaken"] if n["reason"] == "note-type-changed"}
    assert moved == {note_with_front(None, after, MOVED_NOTE)}
    assert moved <= set(anki["conflicting"])
    touched = note_with_front(None, after, TOUCHED_ONLY)
    assert touched in anki["updated"]

    # The widened note type is added as a new one; the collection's notes of it conflict.
    types = {t["name"]: t for t in preview["noteTypesNotTaken"]}
    widened_notes = [guid for guid, note in before["notes"].items() if note["noteType"] == WIDENED_TYPE]
    assert types[WIDENED_TYPE]["reason"] == "layout-changed"
    assert types[WIDENED_TYPE]["conflictingNotes"] == len(widened_notes)
    assert set(widened_notes) <= set(anki["conflicting"])
    assert sum(name.startswith(WIDENED_TYPE) for name in anki["types"]) == 2
    # The note type changed without a later time keeps the collection's template.
    assert types[TEMPLATE_NOT_NEWER_TYPE]["reason"] == "not-newer"
    assert "edited with an old clock" not in anki["types"][TEMPLATE_NOT_NEWER_TYPE][0][0][0]  # the first question
    assert set(types) == {WIDENED_TYPE, TEMPLATE_NOT_NEWER_TYPE}
    # The note type restyled later is taken.
    assert anki["types"][RESTYLED_TYPE] == decks["types_after"][RESTYLED_TYPE] != decks["types_before"][RESTYLED_TYPE]

    # The answered card of an existing note keeps the collection's scheduling.
    key = decks["answered"]
    assert after["cards"][key]["values"] != before["cards"][key]["values"]
    assert anki["state"]["cards"][key]["values"] == before["cards"][key]["values"]
    changed_cards = [
        k for k in after["cards"]
        if k in before["cards"] and after["cards"][k]["values"] != before["cards"][k]["values"]
        and anki["state"]["cards"].get(k, {}).get("values") == before["cards"][k]["values"]
    ]
    assert preview["cardsNotTaken"] == len(changed_cards) >= 1


REFUSAL = {"if-newer": "not-newer", "always": "same-time", "never": "updates-off"}
# The notes and note types whose change each update choice leaves out, by the edits above.
NOTES_KEPT = {
    "if-newer": {EDITED_NOT_NEWER, RETAGGED_OLDER},
    "always": {EDITED_NOT_NEWER},  # the same time; the older one is updated
    "never": {EDITED_NEWER, EDITED_NOT_NEWER, RETAGGED_OLDER},
}
TYPES_KEPT = {
    "if-newer": {TEMPLATE_NOT_NEWER_TYPE},
    "always": {TEMPLATE_NOT_NEWER_TYPE},  # the same time
    "never": {TEMPLATE_NOT_NEWER_TYPE, RESTYLED_TYPE},
}


def content(note: dict) -> tuple:
    return note["fields"], sorted(note["tags"])


@pytest.mark.parametrize("source", ["published", "backup"])
@pytest.mark.parametrize(
    "notes, note_types", [("always", "always"), ("never", "never"), ("always", "never"), ("never", "if-newer")]
)
def test_diff_predicts_anki_import_with_update_choices(decks, source, notes, note_types):
    preview = deckport_preview(
        decks[source], decks["current"], "--anki-update-notes", notes, "--anki-update-note-types", note_types
    )
    anki = anki_import(
        decks[source], decks["current"], os.path.join(decks["folder"], f"import-{source}-{notes}-{note_types}"),
        import_options(notes, note_types),
    )
    before, after = decks["before"], decks["after"]
    assert preview["options"] == {"updateNotes": notes, "updateNoteTypes": note_types, "mergeNoteTypes": False}
    assert_counts(preview, anki)
    assert_cards_added(preview, anki)

    # The changed notes the backend left as the collection had them are the ones the preview names.
    changed = [
        guid for guid in after["notes"]
        if guid in before["notes"] and guid not in anki["conflicting"]
        and content(after["notes"][guid]) != content(before["notes"][guid])
    ]
    kept = {guid for guid in changed if content(anki["state"]["notes"][guid]) == content(before["notes"][guid])}
    assert all(content(anki["state"]["notes"][guid]) == content(after["notes"][guid]) for guid in set(changed) - kept)
    assert kept == {note_with_front(None, after, prefix) for prefix in NOTES_KEPT[notes]}
    flagged = {n["guid"]: n["reason"] for n in preview["notesNotTaken"] if n["reason"] != "note-type-changed"}
    assert set(flagged) == kept
    assert set(flagged.values()) == {REFUSAL[notes]}

    # Likewise the changed note types (the widened one is added as a new note type either way).
    types_before, types_after = decks["types_before"], decks["types_after"]
    changed_types = {
        name for name in types_after
        if name in types_before and name != WIDENED_TYPE and types_after[name] != types_before[name]
    }
    kept_types = {name for name in changed_types if anki["types"][name] == types_before[name]}
    assert all(anki["types"][name] == types_after[name] for name in changed_types - kept_types)
    assert kept_types == TYPES_KEPT[note_types]
    flagged_types = {t["name"]: t["reason"] for t in preview["noteTypesNotTaken"] if t["reason"] != "layout-changed"}
    assert flagged_types == {name: REFUSAL[note_types] for name in kept_types}


MERGE_REFUSAL = {"if-newer": "merge-rewritten", "always": "same-time", "never": "updates-off"}


# Merging, the template changed at the same time is taken under "always" as well.
MERGE_TYPES_KEPT = {"if-newer": {TEMPLATE_NOT_NEWER_TYPE}, "always": set(), "never": {TEMPLATE_NOT_NEWER_TYPE, RESTYLED_TYPE}}


@pytest.mark.parametrize("source", ["published", "backup"])
@pytest.mark.parametrize(
    "notes, note_types",
    [("if-newer", "if-newer"), ("always", "if-newer"), ("never", "if-newer"), ("if-newer", "always"), ("if-newer", "never")],
)
def test_diff_predicts_anki_import_merging_note_types(decks, source, notes, note_types):
    """With "Merge note types" nothing conflicts: the widened note type is merged with the
    collection's, which rewrites the collection's notes of it as Anki imports (so the package's
    versions of them are not newer), and the moved note is moved, its two note types merged."""
    preview = deckport_preview(
        decks[source], decks["current"], "--anki-update-notes", notes, "--anki-update-note-types", note_types,
        "--anki-merge-note-types",
    )
    time.sleep(1.1)  # the import runs in a later second than the edits: a rewritten note is later
    anki = anki_import(
        decks[source], decks["current"],
        os.path.join(decks["folder"], f"import-{source}-{notes}-{note_types}-merged"),
        import_options(notes, note_types, merge=True),
    )
    before, after = decks["before"], decks["after"]
    assert preview["options"] == {"updateNotes": notes, "updateNoteTypes": note_types, "mergeNoteTypes": True}
    assert_counts(preview, anki)
    assert anki["conflicting"] == []

    # The changed notes the backend left as the collection had them are the ones the preview
    # names. A merge may move a note's text to other (renamed) fields, and a field added to a note
    # type adds an empty one to each note: a note's text and tags are compared.
    def text(note: dict) -> tuple:
        return sorted(value for _, value in note["fields"] if value), sorted(note["tags"])

    changed = [
        guid for guid in after["notes"]
        if guid in before["notes"] and text(after["notes"][guid]) != text(before["notes"][guid])
        and after["notes"][guid]["noteType"] == before["notes"][guid]["noteType"]
    ]

    kept = {guid for guid in changed if text(anki["state"]["notes"][guid]) == text(before["notes"][guid])}
    for guid in set(changed) - kept:
        assert text(anki["state"]["notes"][guid]) == text(after["notes"][guid]), (
            guid, text(before["notes"][guid]), text(after["notes"][guid]), text(anki["state"]["notes"][guid])
        )
    flagged = {n["guid"]: n["reason"] for n in preview["notesNotTaken"]}
    assert set(flagged) & set(changed) == kept
    assert set(flagged.values()) <= {MERGE_REFUSAL[notes], REFUSAL[notes]}

    # The widened note type is merged, not added again: the preview's fields are the backend's,
    # and under if-newer its notes keep the collection's text, rewritten by the merge.
    merged = {t["name"]: t for t in preview["noteTypesMerged"]}
    widened_notes = [guid for guid, note in before["notes"].items() if note["noteType"] == WIDENED_TYPE]
    assert merged[WIDENED_TYPE]["notesRewritten"] == len(widened_notes)
    assert merged[WIDENED_TYPE]["fields"] == anki["fields"][merged[WIDENED_TYPE]["id"]]
    assert sum(name.startswith(WIDENED_TYPE) for name in anki["types"]) == 1
    if notes == "if-newer":
        assert all(guid in anki["duplicate"] for guid in widened_notes)
    # The note type the moved note went to takes the fields of both.
    moved = note_with_front(None, after, MOVED_NOTE)
    target = after["notes"][moved]["noteType"]
    assert merged[target]["fields"] == anki["fields"][merged[target]["id"]]
    assert anki["state"]["notes"][moved]["noteType"] == target

    # The note types whose template or styling change the backend did not take are those named.
    types_before, types_after = decks["types_before"], decks["types_after"]
    changed_types = {name for name in (TEMPLATE_NOT_NEWER_TYPE, RESTYLED_TYPE) if types_after[name] != types_before[name]}
    kept_types = {name for name in changed_types if anki["types"][name] == types_before[name]}
    assert all(anki["types"][name] == types_after[name] for name in changed_types - kept_types)
    assert kept_types == MERGE_TYPES_KEPT[note_types]
    assert {t["name"] for t in preview["noteTypesNotTaken"]} == kept_types


def assert_counts(preview: dict, anki: dict) -> None:
    """The preview's counts are the backend's own: its import log's new, updated, duplicate and
    conflicting notes."""
    assert preview["counts"] == {
        "new": len(anki["new"]), "updated": len(anki["updated"]), "kept": len(anki["duplicate"]),
        "conflicting": len(anki["conflicting"]),
    }, (preview["counts"], {k: anki[k] for k in ("new", "updated", "duplicate", "conflicting")})


def assert_cards_added(preview: dict, anki: dict) -> None:
    """The cards Anki added to notes the collection had are what the preview counts, and so are
    those it added to notes it kept as they were (with updates off, the card of the note whose
    field was filled is added all the same, and the collection's note does not make it)."""
    added = anki["cards_added"]
    assert preview["cardsAdded"] == added["updated"] + added["duplicate"] == 1, (preview, added)
    assert preview["cardsAddedToKeptNotes"] == added["duplicate"], (preview, added)
    assert added["duplicate"] == (1 if preview["options"]["updateNotes"] == "never" else 0)


def test_diff_text_names_what_anki_does_not_take(decks):
    result = subprocess.run(
        [DECKPORT, "diff", decks["published"], decks["current"]], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    counts = deckport_preview(decks["published"], decks["current"])["counts"]
    heading = [line for line in lines if line.startswith("Anki's import of")]
    assert heading == [
        "Anki's import of the \"to\" deck into a collection holding the \"from\" deck: "
        f"{counts['new']} new, {counts['updated']} updated, {counts['kept']} kept as they are, "
        f"{counts['conflicting']} conflicting notes"
    ], heading
    flagged = [line for line in lines if line.startswith("  ! ")]
    assert any("not modified later" in line and "Anki keeps the collection's note" in line for line in flagged)
    assert any("moved to another note type" in line for line in flagged)
    assert any(f"note type '{WIDENED_TYPE}'" in line and "new note type" in line for line in flagged)
    assert any(f"note type '{TEMPLATE_NOT_NEWER_TYPE}'" in line and "not modified later" in line for line in flagged)
    assert any("card" in line and "keep" in line and "scheduling" in line for line in flagged)
    assert "  + 1 card of notes the collection has: Anki adds it" in lines


def test_no_preview_without_modification_times(decks, tmp_path):
    csv = str(tmp_path / "current.csv")
    subprocess.run([DECKPORT, "convert", decks["current"], csv, "--quiet"], check=True, timeout=600)
    result = subprocess.run(
        [DECKPORT, "diff", decks["published"], csv, "--json"], capture_output=True, text=True, timeout=600
    )
    report = json.loads(result.stdout)
    assert "ankiImport" not in report
    assert "modificationTimes" in [entry["aspect"] for entry in report["notCompared"]]


def without_field_ids(document: dict, note_type: str, rename: bool) -> dict:
    """`document` (deckport's JSON deck) with `note_type`'s fields and templates stripped of their
    Anki ids, its first field renamed when `rename`, and every note of it modified later."""
    for entry in document["noteTypes"]:
        if entry["name"] != note_type:
            continue
        for part in entry["fields"] + entry["templates"]:
            part.pop("ankiId", None)
        if rename:
            old = entry["fields"][0]["name"]
            entry["fields"][0]["name"] = "Renamed"
            for template in entry["templates"]:
                template["question"] = template["question"].replace("{{%s}}" % old, "{{Renamed}}")
                template["answer"] = template["answer"].replace("{{%s}}" % old, "{{Renamed}}")
            for note in document["notes"]:
                if note["noteType"] == entry["id"]:
                    note["fields"] = {("Renamed" if k == old else k): v for k, v in note["fields"].items()}
        for note in document["notes"]:
            if note["noteType"] == entry["id"]:
                note["modified"] += 60
    return document


@pytest.mark.parametrize("rename", [False, True], ids=["same-names", "renamed-field"])
def test_note_type_without_ids_is_matched_by_names(decks, rename, tmp_path):
    """Where a side's fields have no Anki ids (a deck made by a generator, a JSON deck written by
    hand), Anki compares them by name: the same names update the notes, a renamed field makes a
    new note type and conflicting notes. The package is deckport's (from its JSON deck), the
    collection Anki's, the judge Anki's import."""
    document_path = str(tmp_path / "published.json")
    subprocess.run([DECKPORT, "convert", decks["published"], document_path, "--quiet"], check=True, timeout=600)
    with open(document_path, encoding="utf-8") as handle:
        document = without_field_ids(json.load(handle), "Basic", rename)
    edited_path = str(tmp_path / "edited.json")
    with open(edited_path, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    edited = str(tmp_path / "edited.apkg")
    subprocess.run([DECKPORT, "convert", edited_path, edited, "--quiet"], check=True, timeout=600)

    preview = deckport_preview(decks["published"], edited)
    anki = anki_import(decks["published"], edited, str(tmp_path / "collection"))
    assert preview["counts"] == {
        "new": len(anki["new"]), "updated": len(anki["updated"]), "kept": len(anki["duplicate"]),
        "conflicting": len(anki["conflicting"]),
    }
    basic_notes = {guid for guid, note in decks["before"]["notes"].items() if note["noteType"] == "Basic"}
    assert basic_notes
    assert basic_notes <= set(anki["conflicting"] if rename else anki["updated"])
    layout = [t for t in preview["noteTypesNotTaken"] if t["reason"] == "layout-changed"]
    assert [t["name"] for t in layout] == (["Basic"] if rename else [])


def add_vocab_note_type(col: Collection) -> None:
    """Adds the note type "Vocab" (fields Word, Meaning; one card showing Word, then Meaning)."""
    vocab = col.models.new("Vocab")
    for name in ("Word", "Meaning"):
        col.models.add_field(vocab, col.models.new_field(name))
    template = col.models.new_template("Card 1")
    template["qfmt"], template["afmt"] = "{{Word}}", "{{Meaning}}"
    col.models.add_template(vocab, template)
    col.models.add(vocab)


def small_decks(folder: str, edit) -> tuple[str, str]:
    """A deck "Shared" of three "Vocab" notes (Word, Meaning) and a Basic note, exported by the
    backend (A), then changed by `edit(col)` and exported again (B)."""
    col = Collection(os.path.join(folder, "source.anki2"))
    try:
        add_vocab_note_type(col)
        deck = col.decks.id("Shared")
        for word in ("gato", "perro", "casa"):
            note = col.new_note(col.models.by_name("Vocab"))
            note["Word"], note["Meaning"] = word, word.upper()
            col.add_note(note, deck)
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"], note["Back"] = "hola", "hello"
        col.add_note(note, deck)
        paths = (os.path.join(folder, "A.apkg"), os.path.join(folder, "B.apkg"))
        export_deck(col, paths[0])
        time.sleep(1.1)
        edit(col)
        export_deck(col, paths[1])
        time.sleep(1.1)
        return paths
    finally:
        col.close()


def import_both(folder: str, first: str, second: str, options: ImportAnkiPackageOptions):
    from anki_view import _neutralise_notetypes

    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _neutralise_notetypes(col)
        col.import_anki_package(ImportAnkiPackageRequest(package_path=first, options=import_options()))
        log = col.import_anki_package(ImportAnkiPackageRequest(package_path=second, options=options)).log
        notes = {col.get_note(nid)["Word"]: list(col.get_note(nid).fields) for nid in col.find_notes("note:Vocab")}
        return log, notes
    finally:
        col.close()


def test_diff_merging_names_the_fields_an_update_empties(tmp_path):
    """B's "Vocab" lost its Meaning field and B's notes are newer: merging note types, Anki keeps
    the collection's Meaning field but updates every note from B, which has nothing for it."""
    def remove_meaning(col: Collection) -> None:
        vocab = col.models.by_name("Vocab")
        col.models.remove_field(vocab, vocab["flds"][1])
        col.models.update_dict(vocab)

    first, second = small_decks(str(tmp_path), remove_meaning)
    preview = deckport_preview(first, second, "--anki-merge-note-types")
    log, notes = import_both(str(tmp_path / "import"), first, second, import_options(merge=True))
    assert preview["counts"] == {"new": 0, "updated": len(log.updated), "kept": len(log.duplicate), "conflicting": 0}
    [merge] = preview["noteTypesMerged"]
    assert (merge["name"], merge["fieldsMissingFromPackage"], merge["notesRewritten"]) == ("Vocab", ["Meaning"], 0)
    emptied = [word for word, fields in notes.items() if fields[1] == ""]
    assert merge["notesLosingText"] == len(emptied) == 3


def test_diff_merging_note_types_of_two_kinds_is_refused(tmp_path):
    """B moves the Basic note to Cloze: merging note types, the backend refuses the import."""
    def move_to_cloze(col: Collection) -> None:
        nid = col.find_notes("note:Basic")[0]
        request = col.models.change_notetype_info(
            old_notetype_id=col.get_note(nid).mid, new_notetype_id=col.models.by_name("Cloze")["id"]
        ).input
        request.note_ids.extend([nid])
        col.models.change_notetype_of_notes(request)

    first, second = small_decks(str(tmp_path), move_to_cloze)
    preview = deckport_preview(first, second, "--anki-merge-note-types")
    with pytest.raises(Exception, match="Cloze note types cannot be merged with regular note types"):
        import_both(str(tmp_path / "import"), first, second, import_options(merge=True))
    assert preview["counts"] == {"new": 0, "updated": 0, "kept": 0, "conflicting": 0}
    assert [t["reason"] for t in preview["noteTypesNotTaken"]] == ["kind-changed"]
    # Without merging, the note conflicts and the rest imports.
    log, _ = import_both(str(tmp_path / "no-merge"), first, second, import_options())
    assert len(log.conflicting) == 1


PINNED = 1_700_000_000  # the modification time of every note and note type of A


def pinned_decks(folder: str, edit, extra=None) -> dict:
    """A collection of three "Vocab" notes (Word, Meaning: gato, perro, casa) and a Basic note,
    every note and note type modified at PINNED, exported as a collection package (A); then
    changed by `edit(col)` and exported as a deck package (B). `extra(col)`, when given, changes
    A (after its times are pinned) before it is exported."""
    col = Collection(os.path.join(folder, "source.anki2"))
    try:
        add_vocab_note_type(col)
        deck = col.decks.id("Shared")
        for word in ("gato", "perro", "casa"):
            add_vocab_note(col, word)
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"], note["Back"] = "hola", "hello"
        col.add_note(note, deck)
        col.db.execute("update notes set mod = ?", PINNED)
        col.db.execute("update notetypes set mtime_secs = ?", PINNED)
        if extra:
            extra(col)
        paths = {"A": os.path.join(folder, "A.colpkg"), "B": os.path.join(folder, "B.apkg")}
        col.export_collection_package(paths["A"], include_media=True, legacy=False)
        col.reopen()
        edit(col)
        export_deck(col, paths["B"])
        return paths
    finally:
        col.close()


def add_vocab_note(col: Collection, word: str) -> int:
    note = col.new_note(col.models.by_name("Vocab"))
    note["Word"], note["Meaning"] = word, word.upper()
    col.add_note(note, col.decks.id("Shared"))
    return note.id


def vocab_id(col: Collection, word: str) -> int:
    [nid] = col.find_notes(f'"Word:{word}"')
    return nid


def edit_meaning(col: Collection, word: str, modified: int) -> None:
    """Appends to `word`'s Meaning and sets its modification time to `modified`."""
    nid = vocab_id(col, word)
    note = col.get_note(nid)
    note["Meaning"] += " (edited)"
    col.update_note(note)
    col.db.execute("update notes set mod = ? where id = ?", modified, nid)


def import_into_a(paths: dict, folder: str, options: ImportAnkiPackageOptions) -> dict:
    """The backend's import of B into a collection restored from A: its log by GUID, and each
    note's fields and modification time by GUID (a list, for notes that share one) afterwards,
    with Vocab's sort field index."""
    from anki_view import _import_colpkg

    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _import_colpkg(col, paths["A"])
        log = col.import_anki_package(ImportAnkiPackageRequest(package_path=paths["B"], options=options)).log
        outcome = {
            kind: sorted(col.get_note(entry.id.nid).guid for entry in getattr(log, kind))
            for kind in ("new", "updated", "duplicate", "conflicting")
        }
        outcome["notes"] = {}
        for guid, fields, mod in col.db.all("select guid, flds, mod from notes order by id"):
            outcome["notes"].setdefault(guid, []).append((fields.split("\x1f"), mod))
        vocab = col.models.by_name("Vocab")
        outcome["vocab"] = ([f["name"] for f in vocab["flds"]], vocab["sortf"])
        return outcome
    finally:
        col.close()


def choices(notes: str, note_types: str, merge: bool) -> list[str]:
    return ["--anki-update-notes", notes, "--anki-update-note-types", note_types] + (
        ["--anki-merge-note-types"] if merge else []
    )


# (B's change to Vocab, its note type's time against A's, notes, note types, merging)
SORT_FIELD_CASES = [
    ("sort-field", 100, "if-newer", "if-newer", False),
    ("sort-field", 100, "always", "if-newer", False),
    ("sort-field", 100, "never", "if-newer", False),
    ("sort-field", 100, "if-newer", "never", False),
    ("sort-field", -100, "if-newer", "if-newer", False),
    ("sort-field", -100, "if-newer", "always", False),
    ("sort-field", 0, "if-newer", "always", False),
    ("sort-field", 100, "if-newer", "if-newer", True),
    ("sort-field", 100, "always", "always", True),
    ("sort-field", -100, "if-newer", "if-newer", True),
    ("sort-field", 0, "if-newer", "always", True),
    ("reordered", 100, "if-newer", "if-newer", True),
    ("reordered", -100, "if-newer", "always", True),
    ("reordered", 100, "if-newer", "never", True),
    ("reordered-sort-position-kept", 100, "if-newer", "if-newer", True),
]


@pytest.mark.parametrize("change, later, notes, note_types, merge", SORT_FIELD_CASES)
def test_diff_predicts_the_rewrite_of_a_new_sort_field(tmp_path, change, later, notes, note_types, merge):
    """B's Vocab sorts by Meaning instead of Word (or, merging, has its fields in the other order:
    still sorting by Word, now at position 1, or by Meaning at position 0), and B's gato is edited
    later. Where the backend takes a new sort field position (merging, it keeps the collection's
    order of fields, and takes the position: Word at 1 becomes Meaning), it rewrites every Vocab
    note of the collection before it reads their times: B's are then not newer (kept under
    if-newer), and all of them differ (updated under always). The preview's counts are the
    backend's log, the notes it names as kept for that reason are those it kept, and it names the
    note type whose notes the backend rewrote, with the field it sorts by afterwards."""
    def edit(col: Collection) -> None:
        vocab = col.models.by_name("Vocab")
        if change == "sort-field":
            vocab["sortf"] = 1
        else:
            # Saved, the reordering keeps sorting by Word (now at position 1).
            col.models.reposition_field(vocab, vocab["flds"][1], 0)
            col.models.update_dict(vocab)
            vocab = col.models.get(vocab["id"])
            if change == "reordered-sort-position-kept":
                vocab["sortf"] = 0  # Meaning
        col.models.update_dict(vocab)
        assert col.models.get(vocab["id"])["sortf"] == (0 if change == "reordered-sort-position-kept" else 1)
        col.db.execute("update notetypes set mtime_secs = ? where id = ?", PINNED + later, vocab["id"])
        col.db.execute("update notes set mod = ? where mid = ?", PINNED, vocab["id"])
        edit_meaning(col, "gato", PINNED + 200)

    paths = pinned_decks(str(tmp_path), edit)
    preview = deckport_preview(paths["A"], paths["B"], *choices(notes, note_types, merge))
    anki = import_into_a(paths, str(tmp_path / "import"), import_options(notes, note_types, merge))
    assert_counts(preview, anki)
    # B left perro as A has it, at A's time: only a rewrite makes the backend update it (always)
    # or leaves it with the import's time (if-newer, never).
    [perro] = [guid for guid, entries in anki["notes"].items() if "perro" in entries[0][0]]
    rewritten = perro in anki["updated"] or anki["notes"][perro][0][1] > PINNED + 10_000
    resorted = preview["noteTypesResorted"]
    assert [(t["name"], t["notesRewritten"]) for t in resorted] == ([("Vocab", 3)] if rewritten else [])
    if rewritten:
        names, sort_index = anki["vocab"]
        assert resorted[0]["sortField"]["new"] == names[sort_index]
    gato = next(guid for guid, entries in anki["notes"].items() if "gato" in entries[0][0])
    gato_kept = not any("(edited)" in field for field in anki["notes"][gato][0][0])
    flagged = {n["guid"]: n["reason"] for n in preview["notesNotTaken"]}
    assert (gato in flagged) == gato_kept
    if gato_kept and rewritten and notes == "if-newer":
        assert flagged[gato] == "sort-field-rewritten"
    else:
        assert "sort-field-rewritten" not in flagged.values()


def test_diff_text_names_the_sort_field_rewrite(tmp_path):
    def edit(col: Collection) -> None:
        vocab = col.models.by_name("Vocab")
        vocab["sortf"] = 1
        col.models.update_dict(vocab)
        col.db.execute("update notetypes set mtime_secs = ? where id = ?", PINNED + 100, vocab["id"])
        col.db.execute("update notes set mod = ? where mid = ?", PINNED, vocab["id"])
        edit_meaning(col, "gato", PINNED + 200)

    paths = pinned_decks(str(tmp_path), edit)
    result = subprocess.run([DECKPORT, "diff", paths["A"], paths["B"]], capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert any(
        line.startswith("  ~ note type 'Vocab' (id ") and "new sort field ('Word' → 'Meaning')" in line
        and "rewrites the collection's 3 notes of it as it imports" in line for line in lines
    ), lines
    assert any(
        line.startswith("  ! note ") and "(Vocab): changed, but Anki takes its note type's new sort field" in line
        for line in lines
    ), lines


def shared_guid(col: Collection, nid: int, word: str) -> None:
    col.db.execute("update notes set guid = (select guid from notes where id = ?) where id = ?", vocab_id(col, word), nid)


def a_with_gatito(later: int):
    """A holds a second note of gato's GUID, gatito, added after it (a later id), modified
    `later` seconds after PINNED."""
    def extra(col: Collection) -> None:
        nid = add_vocab_note(col, "gatito")
        shared_guid(col, nid, "gato")
        col.db.execute("update notes set mod = ? where id = ?", PINNED + later, nid)
    return extra


def b_adds_two_of_gatos_guid(col: Collection) -> None:
    for word, later in (("gatoA", 100), ("gatoB", 50)):
        nid = add_vocab_note(col, word)
        shared_guid(col, nid, "gato")
        col.db.execute("update notes set mod = ? where id = ?", PINNED + later, nid)


def b_adds_two_of_a_new_guid(col: Collection) -> None:
    add_vocab_note(col, "nuevo1")
    shared_guid(col, add_vocab_note(col, "nuevo2"), "nuevo1")


def edits(*changes: tuple[str, int]):
    def edit(col: Collection) -> None:
        for word, later in changes:
            edit_meaning(col, word, PINNED + later)
    return edit


# What A holds besides (its notes modified at PINNED, but for gatito), what B changes, and
# why the preview names gato's GUID as not taken (None: it does not), by the update choice for
# notes. "overwritten": two of B's notes of the GUID update the one collection note, and the
# later one (by id) wins.
SHARED_GUID_CASES = {
    "two-new-notes": (None, b_adds_two_of_a_new_guid, {"if-newer": None, "always": None}),
    "two-later-copies-of-a-note": (
        None, b_adds_two_of_gatos_guid, {"if-newer": "overwritten", "always": "overwritten"}
    ),
    "a-holds-two-b-edits-the-second": (a_with_gatito(0), edits(("gatito", 100)), {"if-newer": None, "always": None}),
    # B's gato, edited later than A's gato but earlier than gatito, is judged against gatito.
    "a-holds-two-b-edits-the-first": (a_with_gatito(100), edits(("gato", 50)), {"if-newer": "not-newer", "always": None}),
    # Under always, B's gato (earlier) and B's gatito (later) both update gatito, gatito last.
    "a-holds-two-b-edits-both": (
        a_with_gatito(0), edits(("gato", -100), ("gatito", 100)), {"if-newer": "not-newer", "always": "overwritten"}
    ),
}


@pytest.mark.parametrize("notes", ["if-newer", "always"])
@pytest.mark.parametrize("case", sorted(SHARED_GUID_CASES))
def test_diff_predicts_the_import_of_notes_sharing_a_guid(tmp_path, case, notes):
    """Notes that share a GUID: each of B's is judged against the collection's last note of that
    GUID (by id), on its own; the notes of a GUID the collection lacks are all added. The preview's
    counts are the backend's log; where B edits one note of the GUID, the preview names the GUID
    as not taken exactly when the backend's collection lacks the edit; where two of B's notes
    update the one collection note, the preview names the one the backend's second update
    overwrote."""
    extra, edit, gato_flagged = SHARED_GUID_CASES[case]
    paths = pinned_decks(str(tmp_path), edit, extra)
    preview = deckport_preview(paths["A"], paths["B"], *choices(notes, "if-newer", False))
    anki = import_into_a(paths, str(tmp_path / "import"), import_options(notes))
    assert_counts(preview, anki)
    gato = next(guid for guid, entries in anki["notes"].items() if entries[0][0][0].startswith("gato"))
    flagged = {n["guid"]: n["reason"] for n in preview["notesNotTaken"]}
    reason = gato_flagged[notes]
    assert flagged == ({gato: reason} if reason else {}), flagged
    # The backend updated the collection's note more than once exactly where the preview says one
    # update is overwritten.
    assert (anki["updated"].count(gato) > 1) == (reason == "overwritten"), anki["updated"]
    if reason == REFUSAL[notes]:
        assert gato in anki["duplicate"]
    if case in ("a-holds-two-b-edits-the-second", "a-holds-two-b-edits-the-first"):
        taken = any("(edited)" in fields[1] for fields, _ in anki["notes"][gato])
        assert taken != bool(reason)
    if case == "a-holds-two-b-edits-both" and reason == "overwritten":
        # gatito's own later update is what the collection's note ends with, not B's gato.
        assert [entry[0][0] for entry in anki["notes"][gato]] == ["gato", "gatito"]
        assert "(edited)" in anki["notes"][gato][1][0][1]
    if case == "two-later-copies-of-a-note":
        # The collection's note ends as gatoB, the later of B's two copies: gatoA is lost.
        assert [entry[0][0] for entry in anki["notes"][gato]] == ["gatoB"]


# `--only-deck`: the preview is that of B's deck exported alone, imported into the whole of A.
MOVED_INTO_VERBS = "Capital of Japan"  # from Languages into Languages::French::Verbs, its Back changed: newer
VERBS_NOTE_TYPE_NOT_NEWER = "Basic (type in the answer)"  # the moved note's type; template changed, time set back
ADDED_TO_VERBS = "added to the verbs"


@pytest.fixture(scope="module")
def one_deck_edits(tmp_path_factory):
    """The fixture collection (A) and, as a collection package, what the backend made of it (B):
    a note moved into another deck and edited later, its note type's template changed with its
    time set back, a note of another deck edited with an old clock, and a note added."""
    folder, col = restored_backup(tmp_path_factory, "one-deck-import")
    try:
        before = snapshot(col)
        types_before = note_type_view(col)
        verbs = col.decks.id("Languages::French::Verbs", create=False)
        moved = before["notes"][note_with_front(col, before, MOVED_INTO_VERBS)]["id"]
        col.set_deck(col.card_ids_of_note(moved), verbs)
        note = col.get_note(moved)
        note["Back"] = "Tokyo, in the verbs deck"
        col.update_note(note)

        typed = col.models.by_name(VERBS_NOTE_TYPE_NOT_NEWER)
        old_mtime = typed["mod"]
        typed["tmpls"][0]["qfmt"] += "<br>edited with an old clock"
        col.models.update_dict(typed)
        col.db.execute("update notetypes set mtime_secs = ? where id = ?", old_mtime, typed["id"])

        edited = before["notes"][note_with_front(col, before, EDITED_NEWER)]["id"]
        old_mod = col.db.scalar("select mod from notes where id = ?", edited)
        note = col.get_note(edited)
        note["Back"] = "cat, edited with an old clock"
        col.update_note(note)
        col.db.execute("update notes set mod = ? where id = ?", old_mod, edited)

        added = col.new_note(col.models.by_name("Basic"))
        added["Front"] = ADDED_TO_VERBS
        added["Back"] = "new"
        col.add_note(added, verbs)
        after = snapshot(col)
        types_after = note_type_view(col)
        names = {entry.id: entry.name for entry in col.decks.all_names_and_ids()}
        current = os.path.join(folder, "current.colpkg")
        col.export_collection_package(current, include_media=True, legacy=False)
    finally:
        col.close()
    return {
        "folder": folder, "current": current, "before": before, "after": after, "names": names,
        "types_before": types_before, "types_after": types_after, "moved": note_with_front(None, after, MOVED_INTO_VERBS),
    }


def test_one_deck_preview_is_the_backend_import_of_that_deck_alone(one_deck_edits):
    """`diff A B --only-deck D`, for every deck of B: the preview's counts, cards and changes not
    taken are those of the backend's import of its own export of D's notes (`deck:D`) into a
    collection restored from A, the whole of it. The note moved into Verbs is one A holds in
    another deck: the import updates it there, so it is not new."""
    from anki.collection import NoteIdsLimit, SearchNode
    from test_only_deck import anki_export

    edits = one_deck_edits
    before, after, names = edits["before"], edits["after"], edits["names"]
    deck_names = sorted({names[card["deck"]] for card in after["cards"].values()})
    deck_names = sorted({name.rsplit("::", level)[0] for name in deck_names for level in range(name.count("::") + 1)})
    moved_seen = False
    for deck in deck_names:
        folder = os.path.join(edits["folder"], "deck-" + deck.replace(":", "_"))
        package = anki_export(
            edits["current"], folder,
            lambda col: NoteIdsLimit(list(col.find_notes(col.build_search_string(SearchNode(deck=deck))))),
        )
        exported = {
            guid for (guid, _), card in after["cards"].items()
            if names[card["deck"]] == deck or names[card["deck"]].startswith(deck + "::")
        }
        preview = deckport_preview(BACKUP, edits["current"], "--only-deck", deck)
        anki = anki_import(BACKUP, package, os.path.join(folder, "import"))

        assert_counts(preview, anki)
        added = anki["cards_added"]
        assert preview["cardsAdded"] == added["updated"] + added["duplicate"], deck
        assert preview["cardsAddedToKeptNotes"] == added["duplicate"], deck
        # Cards of notes A has whose scheduling or deck B changed keep A's, and are those counted.
        changed = [
            key for key, card in after["cards"].items()
            if key[0] in exported and key in before["cards"]
            and (card["values"], card["deck"]) != (before["cards"][key]["values"], before["cards"][key]["deck"])
        ]
        assert all(
            (anki["state"]["cards"][key]["values"], anki["state"]["cards"][key]["deck"])
            == (before["cards"][key]["values"], before["cards"][key]["deck"])
            for key in changed
        )
        assert preview["cardsNotTaken"] == len(changed), deck
        # The notes said to keep the collection's version do.
        for entry in preview["notesNotTaken"]:
            assert entry["guid"] in anki["duplicate"], deck
            assert anki["state"]["notes"][entry["guid"]]["fields"] == before["notes"][entry["guid"]]["fields"]
        # The note types B changed that the import leaves as A has them are those said so.
        used = {after["notes"][guid]["noteType"] for guid in exported}
        kept = {
            name for name in used
            if edits["types_after"][name] != edits["types_before"][name]
            and anki["types"][name] == edits["types_before"][name]
        }
        assert {t["name"] for t in preview["noteTypesNotTaken"]} == kept, deck
        if edits["moved"] in exported:
            assert edits["moved"] in anki["updated"], deck
            assert {t["name"] for t in preview["noteTypesNotTaken"]} == {VERBS_NOTE_TYPE_NOT_NEWER}, deck
            moved_seen = True
    assert moved_seen


def with_own_note(note_type: str):
    """A holds a note of `note_type` (Front "own", Back "OWN") besides, modified at PINNED."""
    def extra(col: Collection) -> None:
        note = col.new_note(col.models.by_name(note_type))
        note["Front"], note["Back"] = "own", "OWN"
        col.add_note(note, col.decks.id("Shared"))
        col.db.execute("update notes set mod = ? where id = ?", PINNED, note.id)
    return extra


def moves(word: str, note_type: str, later: int):
    """B moves the note whose first field is `word` to `note_type` (Anki's own field and template
    mapping) and sets its modification time `later` seconds after PINNED."""
    def edit(col: Collection) -> None:
        [nid] = [nid for nid in col.find_notes("") if col.get_note(nid).fields[0] == word]
        request = col.models.change_notetype_info(
            old_notetype_id=col.get_note(nid).mid, new_notetype_id=col.models.by_name(note_type)["id"]
        ).input
        request.note_ids.extend([nid])
        col.models.change_notetype_of_notes(request)
        col.db.execute("update notes set mod = ? where id = ?", PINNED + later, nid)
    return edit


def import_with_cards(paths: dict, folder: str, options: ImportAnkiPackageOptions) -> dict:
    """The backend's import of B into a collection restored from A: its log by GUID; the cards it
    added (ids the collection lacked) to notes the collection had, those it updated and those it
    kept; and the notes it did not update whose text stands under other field names afterwards."""
    from anki_view import _import_colpkg

    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _import_colpkg(col, paths["A"])

        def named_text() -> dict:
            names = {
                ntid: col.db.list("select name from fields where ntid = ? order by ord", ntid)
                for ntid in col.db.list("select id from notetypes")
            }
            return {
                guid: {name: value for name, value in zip(names[mid], flds.split("\x1f")) if value}
                for guid, mid, flds in col.db.all("select guid, mid, flds from notes")
            }

        text_before = named_text()
        cards_before = set(col.db.list("select id from cards"))
        notetypes_before = col.db.scalar("select count() from notetypes")
        log = col.import_anki_package(ImportAnkiPackageRequest(package_path=paths["B"], options=options)).log
        outcome = {
            kind: sorted(col.get_note(entry.id.nid).guid for entry in getattr(log, kind))
            for kind in ("new", "updated", "duplicate", "conflicting")
        }
        added = col.db.list("select n.guid from cards c join notes n on n.id = c.nid")
        ids = col.db.list("select c.id from cards c join notes n on n.id = c.nid")
        new_cards = [guid for guid, cid in zip(added, ids) if cid not in cards_before]
        outcome["cards_added"] = {
            kind: sum(guid in outcome[kind] for guid in new_cards) for kind in ("updated", "duplicate")
        }
        text_after = named_text()
        outcome["text_moved"] = sorted(
            guid for guid in text_before if guid not in outcome["updated"] and text_after[guid] != text_before[guid]
        )
        outcome["notetypes_added"] = col.db.scalar("select count() from notetypes") - notetypes_before
        outcome["notetypes"] = {
            name: (ntid, col.db.list("select name from fields where ntid = ? order by ord", ntid))
            for ntid, name in col.db.all("select id, name from notetypes")
        }
        return outcome
    finally:
        col.close()


# (what A holds besides, the note B moves, the note type it moves it to, its time after PINNED)
MOVED_NOTE_CASES = {
    "basic-to-vocab": (None, "hola", "Vocab", 100),
    "vocab-to-basic-reversed": (with_own_note("Basic (and reversed card)"), "gato", "Basic (and reversed card)", 100),
    "vocab-to-basic-not-newer": (with_own_note("Basic"), "perro", "Basic", 0),
}


@pytest.mark.parametrize("notes", ["if-newer", "never"])
@pytest.mark.parametrize("case", sorted(MOVED_NOTE_CASES))
def test_diff_predicts_cards_and_text_of_a_moved_note_merging(tmp_path, case, notes):
    """Merging note types, B moves a note to another note type. The backend merges the note's old
    note type into its new one and rewrites the new one's notes by the old one's field and
    template positions, then moves the note: text goes to the fields merged in, cards to the
    templates merged in, and B's cards of both notes are added where they are then missing, to
    notes it keeps too. The preview's counts, cards added (all, and to kept notes) and the notes
    it says keep text under other fields are the backend's: new card ids on the notes the
    collection had, and the notes not updated whose text stands under another field name."""
    extra, word, note_type, later = MOVED_NOTE_CASES[case]
    paths = pinned_decks(str(tmp_path), moves(word, note_type, later), extra)
    preview = deckport_preview(paths["A"], paths["B"], *choices(notes, "if-newer", True))
    anki = import_with_cards(paths, str(tmp_path / "import"), import_options(notes, "if-newer", True))
    assert_counts(preview, anki)
    added = anki["cards_added"]
    assert preview["cardsAdded"] == added["updated"] + added["duplicate"] > 0, (preview, added)
    assert preview["cardsAddedToKeptNotes"] == added["duplicate"], (preview, added)
    moved_text = sum(merge.get("notesWithTextMoved", 0) for merge in preview["noteTypesMerged"])
    assert moved_text == len(anki["text_moved"]) > 0, (preview["noteTypesMerged"], anki["text_moved"])
    [target] = [merge for merge in preview["noteTypesMerged"] if merge["name"] == note_type]
    assert target["notesWithTextMoved"] == len(anki["text_moved"])
    assert target["fields"] == anki["notetypes"][note_type][1]


def widened_with_nuevo(col: Collection) -> None:
    """Adds a field to Vocab and a Vocab note, nuevo."""
    vocab = col.models.by_name("Vocab")
    col.models.add_field(vocab, col.models.new_field("Extra"))
    col.models.update_dict(vocab)
    add_vocab_note(col, "nuevo")


@pytest.mark.parametrize(
    "notes, note_types", [("if-newer", "if-newer"), ("never", "if-newer"), ("always", "always")]
)
def test_diff_predicts_the_reuse_of_a_note_type_an_earlier_import_copied(tmp_path, notes, note_types):
    """B's Vocab has a field more than A's. A collection that imported an earlier B (without
    merging) holds its copy, `Vocab+`, with B's fields and `originalId` B's Vocab: the backend's
    next import takes that copy instead of adding another note type, updates the notes of the
    copy as the choices say and skips the collection's Vocab notes as conflicting. The preview
    names the note type as reusing the copy, and its counts are the backend's log."""
    from anki_view import _import_colpkg

    os.makedirs(tmp_path / "first")
    first = pinned_decks(str(tmp_path / "first"), widened_with_nuevo)
    # A: the collection after it imported that B.
    folder = str(tmp_path / "A")
    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _import_colpkg(col, first["A"])
        col.import_anki_package(ImportAnkiPackageRequest(package_path=first["B"], options=import_options()))
        [copy] = [m for m in col.models.all() if m["name"] == "Vocab+"]
        assert copy["originalId"] == col.models.by_name("Vocab")["id"]
        a = os.path.join(folder, "A.colpkg")
        col.export_collection_package(a, include_media=True, legacy=False)
    finally:
        col.close()
    # B again, nuevo and gato edited later.
    source = Collection(str(tmp_path / "first" / "source.anki2"))
    try:
        edit_meaning(source, "nuevo", int(time.time()) + 1000)
        edit_meaning(source, "gato", int(time.time()) + 1000)
        b = str(tmp_path / "B.apkg")
        export_deck(source, b)
    finally:
        source.close()
    paths = {"A": a, "B": b}
    preview = deckport_preview(a, b, *choices(notes, note_types, False))
    anki = import_with_cards(paths, str(tmp_path / "import"), import_options(notes, note_types))
    assert_counts(preview, anki)
    assert anki["notetypes_added"] == 0
    [entry] = [t for t in preview["noteTypesNotTaken"] if t["name"] == "Vocab"]
    assert entry["reason"] == "copy-reused"
    assert entry["reusedCopy"] == {"id": anki["notetypes"]["Vocab+"][0], "name": "Vocab+"}
    assert entry["conflictingNotes"] == len(anki["conflicting"]) == 3
    assert "layout-changed" not in [t["reason"] for t in preview["noteTypesNotTaken"]]
