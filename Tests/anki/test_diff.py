"""`deckport diff` reports exactly the edits the real Anki backend made, and nothing else.

The edited deck is made with Anki itself: `fixtures/anki/latest.colpkg` is restored into a
collection (as Anki's GUI restores a backup), then, through the backend's Collection API, one
field of one note is changed (to refer to a new media file), a tag is added to another note, a
third note is removed, a new card is answered (Good) and a media file is added. The collection is
then exported with Anki's own exporters, as a collection package (`export_collection_package`)
and as a deck package with scheduling (`export_anki_package`).

What `deckport diff` must report is read from the same collection before and after the edits
(notes with their fields and tags, each card's scheduling values, the review log ids, the media
folder with each file's SHA-1), so the expectation does not come from deckport. The text,
`--json` and `--stat` forms must agree, the exit status is 1, and diffing a package with itself,
or the original against the fixture it came from, gives exit status 0.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions
from anki.scheduler.v3 import CardAnswer

from conftest import PACKAGE_DIR
from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

BACKUP = os.path.join(PACKAGE_DIR, "latest.colpkg")
DECK_PACKAGE = os.path.join(PACKAGE_DIR, "latest_sched.apkg")
# The notes the edits touch, by their first field in the fixture collection.
CHANGED_FRONT = "chat"  # its Back field changes
TAGGED_FRONT_PREFIX = "Hello <b>world</b>"  # gets the tag "reviewed"
REMOVED_FRONT_PREFIX = "Plain, with"  # removed (it refers to no media file)
NEW_MEDIA = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
SCHEDULING = ("type", "queue", "due", "interval", "ease", "reps", "lapses", "left", "flags", "odue")
REVIEW_VALUES = ("ease", "interval", "lastInterval", "factor", "time", "type")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, "diff", *args], capture_output=True, text=True, timeout=600)


def snapshot(col: Collection) -> dict:
    """What the backend sees: notes by GUID, cards by (GUID, ord), review ids, media SHA-1s."""
    notes, cards = {}, {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        names = [field["name"] for field in note.note_type()["flds"]]
        notes[note.guid] = {
            "id": nid, "noteType": note.note_type()["name"], "fields": list(zip(names, note.fields)),
            "tags": list(note.tags), "mod": col.db.scalar("select mod from notes where id = ?", nid),
        }
    for cid in col.find_cards(""):
        card = col.get_card(cid)
        values = (
            card.type, card.queue, card.due, card.ivl, card.factor, card.reps, card.lapses, card.left, card.flags,
            card.odue,
        )
        data = col.db.scalar("select data from cards where id = ?", cid)
        cards[(col.get_note(card.nid).guid, card.ord)] = {"id": cid, "values": values, "deck": card.did, "data": data}
    media_dir = col.media.dir()
    media = {}
    for name in os.listdir(media_dir):
        with open(os.path.join(media_dir, name), "rb") as handle:
            data = handle.read()
        media[name] = {"sha1": hashlib.sha1(data).hexdigest(), "size": len(data)}
    reviews = {row[0]: tuple(row[1:]) for row in col.db.all("select id, ease, ivl, lastIvl, factor, time, type from revlog")}
    return {"notes": notes, "cards": cards, "reviews": reviews, "media": media}


def note_with_front(col: Collection, before: dict, prefix: str) -> str:
    matches = [guid for guid, note in before["notes"].items() if note["fields"][0][1].startswith(prefix)]
    assert len(matches) == 1, (prefix, matches)
    return matches[0]


def answer_good(col: Collection, card_id: int) -> None:
    states = col._backend.get_scheduling_states(card_id)
    col.sched.answer_card(
        CardAnswer(
            card_id=card_id, current_state=states.current, new_state=states.good, rating=CardAnswer.GOOD,
            answered_at_millis=int(time.time() * 1000), milliseconds_taken=3000,
        )
    )


def restored_backup(tmp_path_factory, name: str) -> tuple[str, Collection]:
    """A new folder and, in it, a collection the backup is restored into, as Anki's GUI
    restores one."""
    from anki_view import _import_colpkg

    folder = str(tmp_path_factory.mktemp(name))
    target = os.path.join(folder, "collection")
    os.makedirs(target)
    col = Collection(os.path.join(target, "collection.anki2"))
    _import_colpkg(col, BACKUP)
    return folder, col


@pytest.fixture(scope="module")
def edited(tmp_path_factory):
    """The edited packages and what the backend saw before and after the edits."""
    folder, col = restored_backup(tmp_path_factory, "diff")
    try:
        before = snapshot(col)
        changed = note_with_front(col, before, CHANGED_FRONT)
        tagged = note_with_front(col, before, TAGGED_FRONT_PREFIX)
        removed = note_with_front(col, before, REMOVED_FRONT_PREFIX)
        assert "<img" not in "".join(value for _, value in before["notes"][removed]["fields"])
        new_card = next(key for key, card in before["cards"].items() if key[0] == changed and card["values"][0] == 0)

        media_name = col.media.write_data("added-by-anki.gif", NEW_MEDIA)
        note = col.get_note(before["notes"][changed]["id"])
        note["Back"] = f'cat <img src="{media_name}">'
        col.update_note(note)
        note = col.get_note(before["notes"][tagged]["id"])
        note.tags.append("reviewed")
        col.update_note(note)
        col.remove_notes([before["notes"][removed]["id"]])
        answer_good(col, before["cards"][new_card]["id"])
        # A flag and custom data on another card, and a review log entry made longer.
        flagged = next(key for key in sorted(before["cards"]) if key[0] not in (changed, removed))
        col.set_user_flag_for_cards(3, [before["cards"][flagged]["id"]])
        card = col.get_card(before["cards"][flagged]["id"])
        card.custom_data = '{"deckport":1}'
        col.update_card(card)
        edited_review = min(before["reviews"])
        col.db.execute("update revlog set time = time + 1000 where id = ?", edited_review)
        after = snapshot(col)

        apkg = os.path.join(folder, "current.apkg")
        col.export_anki_package(
            out_path=apkg,
            options=ExportAnkiPackageOptions(legacy=False, with_scheduling=True, with_deck_configs=True, with_media=True),
            limit=None,
        )
        colpkg = os.path.join(folder, "current.colpkg")
        col.export_collection_package(colpkg, include_media=True, legacy=False)
    finally:
        try:
            col.close()
        except Exception:
            pass
    shutil.copy(BACKUP, os.path.join(folder, "backup.colpkg"))
    return {
        "folder": folder, "before": before, "after": after, "colpkg": colpkg, "apkg": apkg,
        "media": media_name, "guids": {"changed": changed, "tagged": tagged, "removed": removed},
    }


def expected(before: dict, after: dict, *, media: bool) -> dict:
    """The difference, computed from the backend's two snapshots."""
    old, new = before["notes"], after["notes"]

    def entry(note: dict, guid: str) -> dict:
        return {
            "guid": guid, "noteType": note["noteType"], "tags": note["tags"],
            "fields": [{"name": name, "value": value} for name, value in note["fields"]],
        }

    changed = []
    for guid in sorted(set(old) & set(new)):
        fields = [
            {"name": name, "old": old_value, "new": new_value}
            for (name, new_value), (_, old_value) in zip(new[guid]["fields"], old[guid]["fields"])
            if old_value != new_value
        ]
        added_tags = sorted(set(new[guid]["tags"]) - set(old[guid]["tags"]))
        removed_tags = sorted(set(old[guid]["tags"]) - set(new[guid]["tags"]))
        if fields or added_tags or removed_tags:
            change = {
                "guid": guid, "noteType": new[guid]["noteType"], "fields": fields,
                "tagsAdded": added_tags, "tagsRemoved": removed_tags,
            }
            if old[guid]["mod"] != new[guid]["mod"]:
                change["modified"] = {"old": old[guid]["mod"], "new": new[guid]["mod"]}
            changed.append(change)
    cards = []
    for key in sorted(set(before["cards"]) & set(after["cards"])):
        a, b = before["cards"][key]["values"], after["cards"][key]["values"]
        values = [{"property": name, "old": x, "new": y} for name, x, y in zip(SCHEDULING, a, b) if x != y]
        data = before["cards"][key]["data"], after["cards"][key]["data"]
        if values or (json.loads(data[0] or "{}") != json.loads(data[1] or "{}")):
            cards.append({"guid": key[0], "ord": key[1], "changes": values, "data": data})
    old_tags = {tag for note in old.values() for tag in note["tags"]}
    new_tags = {tag for note in new.values() for tag in note["tags"]}
    result = {
        "notes": {
            "added": [entry(new[guid], guid) for guid in sorted(set(new) - set(old))],
            "removed": [entry(old[guid], guid) for guid in sorted(set(old) - set(new))],
            "changed": changed,
        },
        "tags": {"added": sorted(new_tags - old_tags), "removed": sorted(old_tags - new_tags)},
        "cards": cards,
        "reviewsAdded": sorted(set(after["reviews"]) - set(before["reviews"])),
        "reviewsRemoved": sorted(set(before["reviews"]) - set(after["reviews"])),
        "reviewsChanged": [
            {
                "id": rid,
                "changes": [
                    {"property": name, "old": x, "new": y}
                    for name, x, y in zip(REVIEW_VALUES, before["reviews"][rid], after["reviews"][rid]) if x != y
                ],
            }
            for rid in sorted(set(before["reviews"]) & set(after["reviews"]))
            if before["reviews"][rid] != after["reviews"][rid]
        ],
    }
    if media:
        result["media"] = {
            "added": sorted(set(after["media"]) - set(before["media"])),
            "removed": sorted(set(before["media"]) - set(after["media"])),
            "changed": sorted(
                name for name in set(before["media"]) & set(after["media"])
                if before["media"][name]["sha1"] != after["media"][name]["sha1"]
            ),
        }
    return result


def check_report(report: dict, want: dict, edited: dict) -> None:
    assert report["equal"] is False
    for note in report["notes"]["changed"]:
        note.pop("noteTypeChange", None)
    assert report["notes"] == want["notes"]
    assert report["tags"] == want["tags"]
    assert report["noteTypes"] == {"added": [], "removed": [], "changed": []}
    assert report["decks"] == {"added": [], "removed": [], "renamed": [], "changed": []}
    cards = [{key: card[key] for key in ("guid", "ord", "changes")} for card in report["scheduling"]["changed"]]
    assert cards == [{key: card[key] for key in ("guid", "ord", "changes")} for card in want["cards"]]
    for card, wanted in zip(report["scheduling"]["changed"], want["cards"]):
        old, new = wanted["data"]
        if json.loads(old or "{}") == json.loads(new or "{}"):
            assert "data" not in card, card
        else:
            assert json.loads(card["data"]["old"] or "{}") == json.loads(old or "{}")
            assert json.loads(card["data"]["new"] or "{}") == json.loads(new or "{}")
    assert all("deck" not in card for card in report["scheduling"]["changed"])
    assert report["scheduling"]["added"] == [] and report["scheduling"]["removed"] == []
    assert [review["id"] for review in report["reviews"]["added"]] == want["reviewsAdded"]
    assert [review["id"] for review in report["reviews"]["removed"]] == want["reviewsRemoved"]
    assert [{"id": review["id"], "changes": review["changes"]} for review in report["reviews"]["changed"]] == want[
        "reviewsChanged"
    ]
    assert all("card" not in review for review in report["reviews"]["changed"])
    media = report["media"]
    assert [entry["name"] for entry in media["added"]] == want["media"]["added"]
    assert [entry["name"] for entry in media["removed"]] == want["media"]["removed"]
    assert [entry["old"]["name"] for entry in media["changed"]] == want["media"]["changed"]
    for entry in media["added"]:
        assert entry["sha1"] == edited["after"]["media"][entry["name"]]["sha1"]
        assert entry["size"] == edited["after"]["media"][entry["name"]]["size"]


def test_the_edits_are_what_was_done(edited):
    """The snapshots themselves show the five edits, so the checks below test something."""
    want = expected(edited["before"], edited["after"], media=True)
    guids = edited["guids"]
    assert [note["guid"] for note in want["notes"]["removed"]] == [guids["removed"]]
    assert want["notes"]["added"] == []
    assert sorted(note["guid"] for note in want["notes"]["changed"]) == sorted([guids["changed"], guids["tagged"]])
    assert "reviewed" in want["tags"]["added"]
    assert len(want["cards"]) >= 2 and len(want["reviewsAdded"]) == 1
    assert any(change["property"] == "flags" for card in want["cards"] for change in card["changes"])
    assert any(json.loads(card["data"][1] or "{}").get("cd") for card in want["cards"]), want["cards"]
    assert [[change["property"] for change in review["changes"]] for review in want["reviewsChanged"]] == [["time"]]
    assert want["media"] == {"added": [edited["media"]], "removed": [], "changed": []}


def test_collection_packages_report_exactly_the_edits(edited):
    result = run(BACKUP, edited["colpkg"], "--json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["from"]["format"] == "colpkg-latest" and report["to"]["format"] == "colpkg-latest"
    assert report["notCompared"] == []
    check_report(report, expected(edited["before"], edited["after"], media=True), edited)


def test_deck_packages_report_exactly_the_edits(edited):
    """Against the deck package the fixture collection was exported to: the same edits; the
    media file is referred to by the changed note, so Anki's deck export holds it."""
    result = run(DECK_PACKAGE, edited["apkg"], "--json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert [entry["aspect"] for entry in report["notCompared"]] == ["settings", "tagRegistry", "unusedItems"]
    want = expected(edited["before"], edited["after"], media=True)
    check_report(report, want, edited)


def test_stat_and_text_agree_with_json(edited):
    report = json.loads(run(BACKUP, edited["colpkg"], "--json").stdout)
    stat = run(BACKUP, edited["colpkg"], "--stat", "--json")
    assert stat.returncode == 1
    counts = json.loads(stat.stdout)
    assert counts["counts"] == report["counts"]
    assert counts["equal"] is False and set(counts) == {"from", "to", "equal", "counts", "notCompared", "ankiImport"}
    assert counts["ankiImport"] == report["ankiImport"]["counts"]
    want = report["counts"]
    assert want["notes"] == {"added": 0, "removed": 1, "changed": 2}
    assert want["media"] == {"added": 1, "removed": 0, "changed": 0}
    assert want["reviews"] == {"added": 1, "removed": 0, "changed": 1}
    assert want["cards"]["changed"] == len(report["scheduling"]["changed"])

    text_stat = run(BACKUP, edited["colpkg"], "--stat")
    assert text_stat.returncode == 1
    assert "notes:      0 added, 1 removed, 2 changed" in text_stat.stdout.splitlines()
    assert "media:      1 added, 0 removed, 0 changed" in text_stat.stdout.splitlines()

    text = run(BACKUP, edited["colpkg"])
    assert text.returncode == 1
    lines = text.stdout.splitlines()
    guids = edited["guids"]
    assert "Notes: 1 removed, 2 changed" in lines
    assert any(line.startswith(f"  - note {guids['removed']} (Basic)") for line in lines)
    assert f"  ~ note {guids['changed']} (Basic (optional reversed card))" in lines
    assert f'      Back: "cat" → "cat <img src="{edited["media"]}">"' in lines
    assert "      tags added: reviewed" in lines
    assert any(line.startswith(f"  + {edited['media']} (") for line in lines)
    assert any(line.startswith("  + review ") for line in lines)


def test_backup_against_current_as_in_the_issue(edited):
    """`deckport diff backup.colpkg current.colpkg`, run in the folder holding both."""
    result = subprocess.run(
        [DECKPORT, "diff", "backup.colpkg", "current.colpkg"], cwd=edited["folder"], capture_output=True, text=True,
        timeout=600,
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[:2] == ["from: backup.colpkg (colpkg-latest)", "to:   current.colpkg (colpkg-latest)"]
    assert "Notes: 1 removed, 2 changed" in result.stdout


@pytest.mark.parametrize("package", ["colpkg", "apkg"])
def test_a_package_against_itself_is_equal(edited, package):
    result = run(edited[package], edited[package])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No differences." in result.stdout.splitlines()


def test_the_fixture_collection_against_its_deck_package_is_equal():
    """latest.colpkg and latest_sched.apkg were exported by Anki from one collection: equal in
    everything a deck package holds (unused.png, which no note uses, is not compared)."""
    result = run(BACKUP, DECK_PACKAGE, "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["equal"] is True
    explanations = {entry["aspect"]: entry["explanation"] for entry in report["notCompared"]}
    assert explanations["unusedItems"] == "note types, media and decks nothing uses: not compared (apkg-latest holds none)"
    assert explanations["settings"] == "collection settings: not compared (apkg-latest holds none)"


def test_one_deck_reports_exactly_its_edits(edited, tmp_path_factory):
    """`--only-deck D`, for each deck of the backup: the notes and tags the report shows are the
    backend's edits to the notes with a card in D or its subdecks (on each side), and nothing of
    the other decks; a deck the edits did not touch compares equal."""
    _, col = restored_backup(tmp_path_factory, "deck-names")
    try:
        names = {entry.id: entry.name for entry in col.decks.all_names_and_ids()}
    finally:
        col.close()

    def within(snapshot: dict, deck: str) -> dict:
        def in_deck(did: int) -> bool:
            name = names.get(did, "")
            return name == deck or name.startswith(deck + "::")

        guids = {key[0] for key, card in snapshot["cards"].items() if in_deck(card["deck"])}
        return dict(
            snapshot,
            notes={guid: note for guid, note in snapshot["notes"].items() if guid in guids},
            cards={key: card for key, card in snapshot["cards"].items() if key[0] in guids},
            reviews={},
        )

    touched = 0
    for deck in sorted(set(names.values())):
        want = expected(within(edited["before"], deck), within(edited["after"], deck), media=False)
        result = run(BACKUP, edited["colpkg"], "--only-deck", deck, "--json")
        assert result.returncode in (0, 1), result.stderr
        report = json.loads(result.stdout)
        for note in report["notes"]["changed"]:
            note.pop("noteTypeChange", None)
        assert report["notes"] == want["notes"], deck
        assert report["tags"] == want["tags"], deck
        if any(want["notes"].values()):
            touched += 1
        else:
            assert report["notes"] == {"added": [], "removed": [], "changed": []}
    # The edits touch some decks and not others, so both branches above ran.
    assert 0 < touched < len(set(names.values()))
