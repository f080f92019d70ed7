"""`deckport diff` compares a card due on a day by the date it is due on, as the real Anki backend
counts it, not by its stored day number.

A review card's `due` (in a filtered deck, its `odue`), and a card's in learning across days,
is a day counted from the collection's creation time (`crt`). So moving the creation time by a
day moves every such card a day, with no number changed; and moving it with every day number
moved to match leaves every date as it was, with every number changed. The old `diff` said the
first changed no card and the second changed them all (found by a black-box hunt).

The collections are made with the backend: a new collection with a review card due in 3 days,
one in 40 days with custom data (`cd`), one in learning across days (learning steps of 1 and 2
days), one under review moved into a filtered deck, and a new card. It is exported as a
collection package (A); then its `crt` is moved a day earlier (and the card's custom data
changed) and it is exported again (B, "shifted"); then, the custom data put back, each due day
number is moved one up to match and it is exported again (B, "renumbered"). (Earlier: a creation
time after now has no today.) The same with deck packages, which Anki's import places relative
to the collection they go into.

What diff must report is read from the backend: each package restored (or imported) into a new
collection, each card's due date is Anki's today plus the days from the collection's today to
the card's due day; the cards whose date differs, with both dates, are the changed ones. The
cards' data are read from the backend's `cards` table and compared as Python compares parsed
JSON.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions

from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from test_diff import answer_good  # noqa: E402 (after the skip: they skip the same way)
from test_semantic_damage import anki_import  # noqa: E402

WORDS = ("soon", "later", "day-learning", "filtered", "new")
# A card's `data` with custom data (`cd`), before and in the shifted collection.
DATA_BEFORE = {"streak": 2, "gone": "x"}
DATA_AFTER = {"streak": 3}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, "diff", *args], capture_output=True, text=True, timeout=600)


def export(col: Collection, path: str) -> None:
    if path.endswith(".colpkg"):
        col.export_collection_package(path, include_media=True, legacy=False)
        # The export closes the collection, as Anki's GUI does before it; it opens it again after.
        col.reopen()
    else:
        col.export_anki_package(
            out_path=path,
            options=ExportAnkiPackageOptions(legacy=False, with_scheduling=True, with_deck_configs=True, with_media=True),
            limit=None,
        )


def due_dates(col: Collection) -> dict[tuple[str, int], str]:
    """The date each card due on a day is due on, as the backend counts it, by note GUID and
    template ordinal: Anki's today (its day starts at the rollover hour) plus the days from the
    collection's today to the card's day (its original one in a filtered deck)."""
    rollover = col.get_config("rollover", 4)
    anki_today = (datetime.datetime.now() - datetime.timedelta(hours=rollover)).date()
    rows = col.db.all(
        "select n.guid, c.ord, case when c.odid != 0 then c.odue else c.due end from cards c join notes n on n.id = c.nid"
        " where c.queue in (2, 3) or (c.queue < 0 and c.type = 2)"
    )
    today = col.sched.today
    return {(guid, ordinal): (anki_today + datetime.timedelta(days=day - today)).isoformat() for guid, ordinal, day in rows}


def card_data(col: Collection) -> dict[tuple[str, int], dict]:
    rows = col.db.all("select n.guid, c.ord, c.data from cards c join notes n on n.id = c.nid")
    return {(guid, ordinal): json.loads(data or "{}") for guid, ordinal, data in rows}


def as_object(value: object) -> dict | None:
    """`value` if it is a JSON object, or the object a string is the text of (Anki keeps the
    custom data `cd` as such a string); else None."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, dict) else None


def flattened(value: dict, prefix: str = "") -> dict[str, object]:
    """A JSON object's members, those of an object inside (or of a string that is the text of
    one) by a dotted key."""
    result = {}
    for key, member in value.items():
        inner = as_object(member)
        if inner:
            result.update(flattened(inner, f"{prefix}{key}."))
        else:
            result[f"{prefix}{key}"] = member
    return result


@pytest.fixture(scope="module", params=["colpkg", "apkg"])
def packages(request, tmp_path_factory):
    """The packages A, shifted and renumbered, and what the backend sees of each."""
    extension = request.param
    folder = str(tmp_path_factory.mktemp(f"due_dates_{extension}"))
    os.makedirs(os.path.join(folder, "made"))
    col = Collection(os.path.join(folder, "made", "collection.anki2"))
    try:
        basic = col.models.by_name("Basic")
        cards = {}
        for word in WORDS:
            note = col.new_note(basic)
            note["Front"], note["Back"] = word, "x"
            col.add_note(note, 1)
            cards[word] = note.cards()[0]
        col.sched.set_due_date([cards["soon"].id], "3")
        col.sched.set_due_date([cards["later"].id], "40")
        col.sched.set_due_date([cards["filtered"].id], "5")
        card = col.get_card(cards["later"].id)
        card.custom_data = json.dumps(DATA_BEFORE)
        col.update_card(card)
        config = col.decks.config_dict_for_deck_id(1)
        config["new"]["delays"] = [1440.0, 2880.0]
        col.decks.update_config(config)
        answer_good(col, cards["day-learning"].id)
        filtered = col.decks.new_filtered("Filtered")
        deck = col.decks.get(filtered)
        deck["terms"] = [[f"nid:{cards['filtered'].nid}", 100, 0]]
        col.decks.save(deck)
        col.sched.rebuild_filtered_deck(filtered)
        made = {"a": os.path.join(folder, f"a.{extension}")}
        export(col, made["a"])
        col.db.execute("update col set crt = crt - 86400")
        card = col.get_card(cards["later"].id)
        card.custom_data = json.dumps(DATA_AFTER)
        col.update_card(card)
        made["shifted"] = os.path.join(folder, f"shifted.{extension}")
        export(col, made["shifted"])
        card = col.get_card(cards["later"].id)
        card.custom_data = json.dumps(DATA_BEFORE)
        col.update_card(card)
        col.db.execute("update cards set due = due + 1 where odid = 0 and queue in (2, 3)")
        col.db.execute("update cards set odue = odue + 1 where odid != 0 and type = 2")
        made["renumbered"] = os.path.join(folder, f"renumbered.{extension}")
        export(col, made["renumbered"])
    finally:
        col.close()

    seen = {}
    for name, package in made.items():
        # A new collection holding the package: a collection package restored, as Anki's GUI
        # restores a backup; a deck package imported with its scheduling.
        col = anki_import(folder, package)
        try:
            seen[name] = {"dates": due_dates(col), "data": card_data(col)}
        finally:
            col.close()
    return made, seen


def expected_date_changes(seen: dict, name: str) -> dict[tuple[str, int], tuple[str, str]]:
    before, after = seen["a"]["dates"], seen[name]["dates"]
    assert before.keys() == after.keys() and len(before) == 4, (before, after)
    return {key: (before[key], after[key]) for key in before if before[key] != after[key]}


def reported_date_changes(report: dict) -> dict[tuple[str, int], tuple[str, str]]:
    result = {}
    for card in report["scheduling"]["changed"]:
        for change in card["changes"]:
            if change["property"] in ("due", "odue"):
                result[(card["guid"], card["ord"])] = (change.get("oldDate"), change.get("newDate"))
    return result


def test_the_backend_sees_the_edits(packages):
    """The edits did what the test means: moved alone, the creation time moves every date a day
    earlier; moved with the numbers, it moves none."""
    _, seen = packages
    shifted = expected_date_changes(seen, "shifted")
    assert len(shifted) == 4
    for old, new in shifted.values():
        assert datetime.date.fromisoformat(old) - datetime.date.fromisoformat(new) == datetime.timedelta(days=1)
    assert expected_date_changes(seen, "renumbered") == {}


def test_a_creation_time_moved_alone_moves_every_due_date(packages):
    made, seen = packages
    result = run(made["a"], made["shifted"], "--json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    want = expected_date_changes(seen, "shifted")
    assert reported_date_changes(report) == want
    # Each such card changed in its date alone (and one in its data): the numbers are the same.
    for card in report["scheduling"]["changed"]:
        for change in card["changes"]:
            assert change["property"] in ("due", "odue") and change["old"] == change["new"], card
    text = run(made["a"], made["shifted"])
    assert text.returncode == 1, text.stderr
    for (guid, ordinal), (old, new) in want.items():
        assert f"  ~ card {guid} #{ordinal + 1}: due {old} → {new}" in text.stdout or (
            f"  ~ card {guid} #{ordinal + 1}: odue {old} → {new}" in text.stdout
        ), text.stdout


def test_a_creation_time_moved_with_the_day_numbers_changes_no_card(packages):
    made, seen = packages
    assert expected_date_changes(seen, "renumbered") == {}
    result = run(made["a"], made["renumbered"], "--json")
    report = json.loads(result.stdout)
    assert report["scheduling"]["changed"] == [], report["scheduling"]
    assert report["counts"]["cards"]["changed"] == 0
    text = run(made["a"], made["renumbered"])
    assert "Scheduling (cards)" not in text.stdout, text.stdout


def test_changed_custom_data_is_shown_key_by_key(packages):
    made, seen = packages
    before, after = seen["a"]["data"], seen["shifted"]["data"]
    changed = [key for key in before if before[key] != after.get(key)]
    assert len(changed) == 1
    old, new = flattened(before[changed[0]]), flattened(after[changed[0]])
    assert {key for key in old if key.startswith("cd.")} == {"cd.streak", "cd.gone"}, old
    report = json.loads(run(made["a"], made["shifted"], "--json").stdout)
    card = next(card for card in report["scheduling"]["changed"] if (card["guid"], card["ord"]) == changed[0])
    keys = card["dataChanges"]
    assert {entry["key"]: json.loads(entry["value"]) for entry in keys["added"]} == {
        key: value for key, value in new.items() if key not in old
    }
    assert {entry["key"]: json.loads(entry["value"]) for entry in keys["removed"]} == {
        key: value for key, value in old.items() if key not in new
    }
    assert {entry["key"]: (json.loads(entry["old"]), json.loads(entry["new"])) for entry in keys["changed"]} == {
        key: (old[key], new[key]) for key in old if key in new and old[key] != new[key]
    }
    # The text names each key: a removed one, whatever the length of the data, is seen.
    text = run(made["a"], made["shifted"]).stdout
    line = next(line for line in text.splitlines() if line.startswith(f"  ~ card {changed[0][0]} #{changed[0][1] + 1}:"))
    for key in set(old) ^ set(new) | {key for key in old if key in new and old[key] != new[key]}:
        assert f" {key} " in line, line
