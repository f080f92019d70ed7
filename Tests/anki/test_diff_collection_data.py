"""`deckport diff` reports exactly what the real Anki backend changed in a collection's
settings, its list of tags, its deck option groups, and what Anki keeps of decks and note types
besides what the model has properties for (collapse state, the day's counts, sync state, keys
Anki does not know).

`fixtures/anki/latest.colpkg` is restored into a collection, as Anki's GUI restores a backup.
Through the backend's Collection API, a setting is changed, one added and one removed; a deck
is expanded in the deck list and the browser; a card is answered (the day's counts change); the
`Basic` note type, its first field and its first template get a key Anki does not know (Anki
keeps such keys); a tag is expanded in the browser, another marked as synced at usn 7, and a tag
is registered by a note that is then removed; the `Default` option group gets other daily
limits, learning steps and desired retention, and a new group `Fast` is given to one deck. The collection is exported with Anki's own
exporter, in the latest and in the legacy layout.

What `deckport diff backup.colpkg edited.colpkg` must report is read from the backend before
and after the edits (`col.all_config()`, the `tags` table, `col.decks.all()`,
`col.decks.all_config()`, `col.models.all()`), values compared as Python compares parsed JSON (members in any order), so
the expectation does not come from deckport. The keys deckport models itself (a deck's name,
a note type's templates, …) are compared by the other parts of a difference and are left out
here; they are listed below as Anki's schema-11 keys.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import time

import pytest
from anki.collection import Collection
from anki.scheduler.v3 import CardAnswer

from conftest import PACKAGE_DIR
from test_csv_helpers import DECKPORT, deckport_exists
from test_diff import BACKUP, restored_backup

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

# Anki's schema-11 keys whose values the model holds as its own properties (compared as names,
# fields, templates, options and so on, or derived: a note type's `req`), not as Anki properties.
DECK_KEYS = {"id", "mod", "name", "desc", "md", "dyn", "conf", "resched", "terms", "crowdanki_uuid"}
NOTE_TYPE_KEYS = {
    "id", "name", "type", "mod", "sortf", "tmpls", "flds", "css", "latexPre", "latexPost", "latexsvg", "req",
    "originalStockKind", "originalId", "crowdanki_uuid",
}
FIELD_KEYS = {
    "name", "ord", "sticky", "rtl", "font", "size", "description", "plainText", "collapsed", "excludeFromSearch",
    "id", "tag", "preventDeletion",
}
TEMPLATE_KEYS = {"name", "ord", "qfmt", "afmt", "bqfmt", "bafmt", "did", "bfont", "bsize", "id"}


def snapshot(col: Collection) -> dict:
    """The backend's view of what this test edits (copied: the backend's managers hand out the
    dicts they cache)."""
    return copy.deepcopy({
        "settings": col.all_config(),
        "tags": {tag: (usn, bool(collapsed)) for tag, usn, collapsed in col.db.all("select tag, usn, collapsed from tags")},
        "decks": {deck["id"]: deck for deck in col.decks.all()},
        "deckOptions": {config["id"]: config for config in col.decks.all_config()},
        "noteTypes": {note_type["id"]: note_type for note_type in col.models.all()},
    })


@pytest.fixture(scope="module")
def edited(tmp_path_factory):
    folder, col = restored_backup(tmp_path_factory, "diff_collection_data")
    try:
        before = snapshot(col)
        assert before["settings"]["rollover"] != 2 and "sortBackwards" in before["settings"]
        col.set_config("rollover", 2)
        col.set_config("deckportProbe", {"z": 1, "a": [True, None]})
        col.remove_config("sortBackwards")

        deck = col.decks.by_name("Languages::French")
        assert deck["collapsed"] and deck["browserCollapsed"]
        deck["collapsed"] = False
        deck["browserCollapsed"] = False
        deck["desc"] = "Verbs and <b>more</b>"
        col.decks.save(deck)

        basic = col.models.by_name("Basic")
        basic["deckportProbe"] = {"y": [1, 2.5]}
        basic["flds"][0]["deckportProbe"] = "field"
        basic["tmpls"][0]["deckportProbe"] = 7
        basic["sortf"] = 1
        basic["flds"][0]["font"] = "Liberation Serif"
        basic["tmpls"][0]["bqfmt"] = "{{Front}} (browser)"
        col.models.update_dict(basic)

        assert before["tags"]["geo"][1] and "a::b" in before["tags"]
        col.tags.set_collapsed("geo", False)
        col.db.execute("update tags set usn = 7 where tag = 'a::b'")
        note = col.new_note(basic)
        note["Front"] = "registers a tag"
        note.tags = ["registered-only"]
        col.add_note(note, deck["id"])
        col.remove_notes([note.id])

        default = col.decks.get_config(1)
        assert default["new"]["perDay"] != 33 and default["rev"]["perDay"] != 150
        default["new"]["perDay"] = 33
        default["new"]["delays"] = [2.0, 15.0]
        default["rev"]["perDay"] = 150
        default["desiredRetention"] = 0.85
        col.decks.update_config(default)
        fast = col.decks.add_config_returning_id("Fast")
        verbs = col.decks.by_name("Languages::French::Verbs")
        verbs["conf"] = fast
        col.decks.save(verbs)

        new_card = col.find_cards("is:new")[0]
        states = col._backend.get_scheduling_states(new_card)
        col.sched.answer_card(
            CardAnswer(
                card_id=new_card, current_state=states.current, new_state=states.good, rating=CardAnswer.GOOD,
                answered_at_millis=int(time.time() * 1000), milliseconds_taken=3000,
            )
        )
        after = snapshot(col)
        packages = {}
        for layout, legacy in (("latest", False), ("legacy", True)):
            packages[layout] = os.path.join(folder, f"edited-{layout}.colpkg")
            col.export_collection_package(packages[layout], include_media=True, legacy=legacy)
            col.reopen()  # the export closes the collection
    finally:
        if col.db:
            col.close()
    return {"before": before, "after": after, "packages": packages}


def diff(old: str, new: str) -> dict:
    result = subprocess.run([DECKPORT, "diff", old, new, "--json"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stdout + result.stderr
    return json.loads(result.stdout)


def changed_members(before: dict, after: dict, modelled: set[str]) -> dict[str, tuple]:
    """The keys (not in `modelled`) whose values differ, with (before, after); a missing key as
    the string "<absent>"."""
    absent = "<absent>"
    return {
        key: (before.get(key, absent), after.get(key, absent))
        for key in set(before) | set(after)
        if key not in modelled and before.get(key, absent) != after.get(key, absent)
    }


def reported(part: dict) -> dict[tuple, tuple]:
    """A report's part as {(owner, key): (old, new)}, values parsed; a side without the key (an
    added or removed entry) as None."""
    found = {}
    for entry in part["added"]:
        found[(entry.get("owner"), entry["key"])] = (None, json.loads(entry["value"]))
    for entry in part["removed"]:
        found[(entry.get("owner"), entry["key"])] = (json.loads(entry["value"]), None)
    for entry in part["changed"]:
        found[(entry.get("owner"), entry["key"])] = (json.loads(entry["old"]), json.loads(entry["new"]))
    return found


def check_values(expected: dict[tuple, tuple], got: dict[tuple, tuple]) -> None:
    """Every change the backend shows is reported, nothing else is, and each reported value is
    the backend's. A side deckport reports without the key is a value it keeps as the default
    (not read, not written), so only the other side's value is compared."""
    assert set(got) == set(expected), (sorted(got, key=str), sorted(expected, key=str))
    for place, (old, new) in got.items():
        want_old, want_new = expected[place]
        if old is not None:
            assert old == want_old, place
        if new is not None:
            assert new == want_new, place
        assert old is not None or new is not None, place


def expected_properties(before: dict, after: dict) -> dict[tuple, tuple]:
    expected = {}
    for deck_id, deck in after["decks"].items():
        if deck_id in before["decks"]:
            for key, values in changed_members(before["decks"][deck_id], deck, DECK_KEYS).items():
                expected[(f"deck '{deck['name']}'", key)] = values
    for type_id, note_type in after["noteTypes"].items():
        old = before["noteTypes"].get(type_id)
        if old is None:
            continue
        owner = f"note type '{note_type['name']}'"
        for key, values in changed_members(old, note_type, NOTE_TYPE_KEYS).items():
            expected[(owner, key)] = values
        for part, noun, modelled in (("flds", "field", FIELD_KEYS), ("tmpls", "template", TEMPLATE_KEYS)):
            for old_item, item in zip(old[part], note_type[part]):
                assert old_item["name"] == item["name"]
                for key, values in changed_members(old_item, item, modelled).items():
                    expected[(f"{owner}, {noun} '{item['name']}'", key)] = values
    return expected


def flattened(config: dict, prefix: str = "") -> dict:
    """An option group's members by path (`new.perDay`), into its sub-objects."""
    members = {}
    for key, value in config.items():
        if isinstance(value, dict):
            members.update(flattened(value, prefix + key + "."))
        else:
            members[prefix + key] = value
    return members


def test_the_edits_are_what_was_done(edited):
    """The backend's snapshots show each edit, so the checks below test something."""
    before, after = edited["before"], edited["after"]
    settings = changed_members(before["settings"], after["settings"], set())
    assert {"rollover", "deckportProbe", "sortBackwards"} <= set(settings)
    assert after["tags"]["geo"] == (before["tags"]["geo"][0], False)
    assert after["tags"]["a::b"][0] == 7 and "registered-only" in after["tags"]
    properties = expected_properties(before, after)
    assert ("deck 'Languages::French'", "collapsed") in properties
    assert ("note type 'Basic'", "deckportProbe") in properties
    assert ("note type 'Basic', field 'Front'", "deckportProbe") in properties
    assert ("note type 'Basic', template 'Card 1'", "deckportProbe") in properties
    assert any(key in ("newToday", "revToday", "timeToday") for _, key in properties)
    assert len(after["deckOptions"]) == len(before["deckOptions"]) + 1
    default = changed_members(flattened(before["deckOptions"][1]), flattened(after["deckOptions"][1]), set())
    assert {"new.perDay", "new.delays", "rev.perDay", "desiredRetention"} <= set(default)


@pytest.mark.parametrize("layout", ["latest", "legacy"])
def test_deck_option_groups_are_reported_exactly(edited, layout):
    """Groups by id; settings by path, each value the backend's (the Latest backup's protobuf
    settings against Anki's own schema-11 `dconf` in the legacy layout, too); decks moved."""
    report = diff(BACKUP, edited["packages"][layout])["deckOptions"]
    before, after = edited["before"]["deckOptions"], edited["after"]["deckOptions"]
    assert [(entry["id"], entry["name"]) for entry in report["added"]] == [
        (group_id, after[group_id]["name"]) for group_id in sorted(set(after) - set(before))
    ]
    assert report["removed"] == []
    expected = {}
    for group_id in sorted(set(before) & set(after)):
        members = changed_members(flattened(before[group_id]), flattened(after[group_id]), {"id", "name", "mod"})
        if members:
            expected[group_id] = members
    got = {change["id"]: change for change in report["changed"]}
    assert set(got) == set(expected)
    for group_id, members in expected.items():
        settings = {setting["key"]: setting for setting in got[group_id]["settings"]}
        assert set(settings) == set(members), group_id
        for key, (old, new) in members.items():
            assert json.loads(settings[key]["old"]) == old and json.loads(settings[key]["new"]) == new, key
    moved = []
    for deck_id, deck in sorted(edited["after"]["decks"].items(), key=lambda item: item[1]["name"]):
        old_deck = edited["before"]["decks"].get(deck_id)
        if old_deck and not deck["dyn"] and old_deck["conf"] != deck["conf"]:
            moved.append({"deck": deck["name"], "old": before[old_deck["conf"]]["name"], "new": after[deck["conf"]]["name"]})
    assert report["decksMoved"] == moved and len(moved) == 1


@pytest.mark.parametrize("layout", ["latest", "legacy"])
def test_settings_are_reported_exactly(edited, layout):
    report = diff(BACKUP, edited["packages"][layout])
    assert report["notCompared"] == []
    expected = {
        (None, key): values
        for key, values in changed_members(edited["before"]["settings"], edited["after"]["settings"], set()).items()
    }
    expected = {place: tuple(None if value == "<absent>" else value for value in values) for place, values in expected.items()}
    got = reported(report["settings"])
    assert set(got) == set(expected)
    for place, values in got.items():
        assert values == expected[place], place


@pytest.mark.parametrize("layout", ["latest", "legacy"])
def test_tag_list_is_reported_exactly(edited, layout):
    """By name, update sequence number and, where both collections say, collapse state: a
    schema-11 collection (the legacy layout) keeps no collapse state."""
    report = diff(BACKUP, edited["packages"][layout])["tagRegistry"]
    before, after = edited["before"]["tags"], edited["after"]["tags"]
    compares_collapse = layout == "latest"
    assert [entry["name"] for entry in report["added"]] == sorted(set(after) - set(before))
    assert [entry["name"] for entry in report["removed"]] == sorted(set(before) - set(after))
    for entry in report["added"]:
        assert entry["usn"] == after[entry["name"]][0]
        assert entry.get("collapsed") == (after[entry["name"]][1] if compares_collapse else None)
    changed = {}
    for name in sorted(set(before) & set(after)):
        (old_usn, old_collapsed), (new_usn, new_collapsed) = before[name], after[name]
        change = {}
        if old_usn != new_usn:
            change["usn"] = {"old": old_usn, "new": new_usn}
        if compares_collapse and old_collapsed != new_collapsed:
            change["collapsed"] = {"old": old_collapsed, "new": new_collapsed}
        if change:
            changed[name] = change
    assert {entry.pop("name"): entry for entry in report["changed"]} == changed


@pytest.mark.parametrize("layout", ["latest", "legacy"])
def test_deck_and_note_type_properties_are_reported_exactly(edited, layout):
    report = diff(BACKUP, edited["packages"][layout])
    expected = {
        place: tuple(None if value == "<absent>" else value for value in values)
        for place, values in expected_properties(edited["before"], edited["after"]).items()
    }
    check_values(expected, reported(report["ankiProperties"]))


@pytest.mark.parametrize("layout", ["latest", "legacy"])
def test_deck_description_and_note_type_settings_are_reported_exactly(edited, layout):
    """A deck's description, a note type's sort field, a field's font and a template's browser
    question: each value the backend's, and nothing else of decks and note types."""
    report = diff(BACKUP, edited["packages"][layout])
    before, after = edited["before"], edited["after"]
    french = next(deck for deck in after["decks"].values() if deck["name"] == "Languages::French")
    assert report["decks"]["changed"] == [
        {
            "id": french["id"], "name": french["name"],
            "settings": [
                {"key": "description", "old": json.dumps(before["decks"][french["id"]]["desc"]), "new": json.dumps(french["desc"])}
            ],
        }
    ]
    basic = next(note_type for note_type in after["noteTypes"].values() if note_type["name"] == "Basic")
    old_basic = before["noteTypes"][basic["id"]]
    changes = [change for change in report["noteTypes"]["changed"]]
    assert [change["name"] for change in changes] == ["Basic"]
    settings = {setting["key"]: (json.loads(setting["old"]), json.loads(setting["new"])) for setting in changes[0]["settings"]}
    front, card = basic["flds"][0]["name"], basic["tmpls"][0]["name"]
    assert settings == {
        "sortField": (old_basic["sortf"], basic["sortf"]),
        f"field '{front}'.font": (old_basic["flds"][0]["font"], basic["flds"][0]["font"]),
        f"template '{card}'.browserQuestion": (old_basic["tmpls"][0]["bqfmt"], basic["tmpls"][0]["bqfmt"]),
    }


def test_text_and_stat_show_the_new_parts(edited):
    package = edited["packages"]["latest"]
    text = subprocess.run([DECKPORT, "diff", BACKUP, package], capture_output=True, text=True, timeout=600)
    assert text.returncode == 1, text.stderr
    lines = text.stdout.splitlines()
    assert any(line.startswith("Collection settings: 1 added, 1 removed, ") for line in lines), lines
    probe = [line for line in lines if line.startswith("  + deckportProbe ")]
    assert len(probe) == 1 and json.loads(probe[0].split(" ", 4)[4]) == {"z": 1, "a": [True, None]}, lines
    assert "  ~ rollover: {} → 2".format(edited["before"]["settings"]["rollover"]) in lines
    assert "  ~ geo: collapsed true → false" in lines
    assert "  ~ a::b: usn -1 → 7" in lines
    assert "  + deck 'Languages::French': collapsed false" in lines
    stat = subprocess.run([DECKPORT, "diff", BACKUP, package, "--stat"], capture_output=True, text=True, timeout=600)
    report = diff(BACKUP, package)
    counts = report["counts"]
    for label, key in (("settings:", "settings"), ("tag list:", "tagRegistry"), ("properties:", "ankiProperties")):
        count = counts[key]
        line = f"{label:<12}{count['added']} added, {count['removed']} removed, {count['changed']} changed"
        assert line in stat.stdout.splitlines(), stat.stdout


def test_a_deck_package_holds_no_settings_or_tag_list():
    """Against a deck package, the settings and the list of tags are not compared, and Anki's
    deck export of the same collection has the same deck and note type properties."""
    result = subprocess.run(
        [DECKPORT, "diff", BACKUP, os.path.join(PACKAGE_DIR, "latest_sched.apkg"), "--json"],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert [entry["aspect"] for entry in report["notCompared"]] == ["settings", "tagRegistry", "unusedItems"]
    assert report["ankiProperties"] == {"added": [], "removed": [], "changed": []}
