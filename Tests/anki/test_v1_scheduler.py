"""A package kept by Anki's v1 scheduler, converted by deckport, judged by the real backend.

Anki upgrades a v1 collection when it imports it (learning answers in the review log take v2's
button numbers, cards being relearned take type 3, and the days are counted by v2's rules).
deckport upgrades it the same way as it reads it, so that every output holds what Anki holds.
The judge: the v1 package and deckport's package of it, each imported by the backend into a
fresh collection on the same day, give the same cards and the same review log, row by row.

The packages: `fixtures/real/personal-collection-legacy1.apkg` (a real v1 collection: 957
learning answers of 1,601 take new numbers), and a copy of it with rows planted in its
collection for what the real one lacks: cards being relearned (queue 1 and 3, in a filtered
deck too), a suspended one, and review-log rows of every type and button.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import tempfile
import zipfile

import pytest

from conftest import REAL_DIR, REPO

DECKPORT = os.environ.get("DECKPORT_BIN") or os.path.join(REPO, ".build", "debug", "deckport")
if not (os.path.isfile(DECKPORT) and os.access(DECKPORT, os.X_OK)):
    pytest.skip(f"the deckport binary does not exist yet ({DECKPORT})", allow_module_level=True)

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest  # noqa: E402

from anki_view import _align_days, _package_timing  # noqa: E402

V1_PACKAGE = os.path.join(REAL_DIR, "personal-collection-legacy1.apkg")

CARD_COLUMNS = "id, ord, type, queue, due, ivl, factor, reps, lapses, left, odue, flags"
REVIEW_COLUMNS = "id, cid, ease, ivl, lastIvl, factor, time, type"


def planted(folder: str) -> str:
    """The real v1 package with rows planted in its collection (see the module docstring)."""
    with zipfile.ZipFile(V1_PACKAGE) as archive:
        archive.extract("collection.anki2", folder)
    database = os.path.join(folder, "collection.anki2")
    db = sqlite3.connect(database)
    reviews = [row[0] for row in db.execute("select id from cards where type = 2 and queue = 2 order by id limit 6")]
    new = db.execute("select id from cards where type = 0 order by id limit 1").fetchone()[0]
    db.execute("update cards set queue = 1, due = 1795000000, left = 1001 where id = ?", (reviews[0],))
    db.execute("update cards set queue = 3, due = 3600, left = 2002 where id = ?", (reviews[1],))
    db.execute("update cards set queue = -1 where id = ?", (reviews[2],))
    decks = json.loads(db.execute("select decks from col").fetchone()[0])
    filtered = {
        "id": 1700000000001, "name": "Planted filtered", "dyn": 1, "desc": "", "mod": 1700000000, "usn": 0,
        "collapsed": False, "browserCollapsed": False, "newToday": [0, 0], "revToday": [0, 0],
        "lrnToday": [0, 0], "timeToday": [0, 0], "extendNew": 10, "extendRev": 50, "conf": 1,
        "resched": True, "terms": [["deck:Golang", 100, 0]], "separate": True, "delays": None, "return": True,
    }
    decks[str(filtered["id"])] = filtered
    db.execute("update col set decks = ?", (json.dumps(decks),))
    for card in (reviews[3], reviews[4], new):
        db.execute("update cards set odid = did, odue = due, did = ? where id = ?", (filtered["id"], card))
    db.execute("update cards set queue = 1, due = 1795000000, left = 1001 where id = ?", (reviews[4],))
    db.execute("update cards set due = -100000 where id = ?", (new,))
    for kind in range(4):
        for ease in range(5):
            db.execute(
                "insert into revlog values (?, ?, -1, ?, 1, 1, 2500, 1000, ?)",
                (1600000000000 + kind * 10 + ease, reviews[5], ease, kind),
            )
    db.commit()
    db.close()
    package = os.path.join(folder, "planted.apkg")
    with zipfile.ZipFile(V1_PACKAGE) as source, zipfile.ZipFile(package, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = open(database, "rb").read() if info.filename == "collection.anki2" else source.read(info.filename)
            out.writestr(info.filename, data)
    return package


def imported_rows(package: str, crt: int, days: int, folder: str) -> tuple[dict, dict, set]:
    """(cards, review log) by id, and the ids of the cards in filtered decks, of `package`
    imported into a fresh collection whose day number is `days`."""
    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _align_days(col, crt, days)
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=os.path.abspath(package),
                options=ImportAnkiPackageOptions(merge_notetypes=False, with_scheduling=True, with_deck_configs=True),
            )
        )
        cards = {row[0]: tuple(row) for row in col.db.all(f"select {CARD_COLUMNS} from cards")}
        reviews = {row[0]: tuple(row) for row in col.db.all(f"select {REVIEW_COLUMNS} from revlog")}
        in_filtered = {row[0] for row in col.db.all("select id from cards where odid != 0")}
    finally:
        col.close()
    return cards, reviews, in_filtered


@pytest.mark.parametrize("which", ["real", "planted"])
@pytest.mark.parametrize("to", ["apkg", "apkg-modern"])
def test_v1_package_converted_imports_as_the_original(which, to):
    with tempfile.TemporaryDirectory() as scratch:
        source = V1_PACKAGE if which == "real" else planted(scratch)
        out = os.path.join(scratch, "ours.apkg")
        result = subprocess.run(
            [DECKPORT, "convert", source, out, "--to", to, "--verbose"], capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, result.stderr
        assert "[scheduler-v1-upgraded]" in result.stderr, result.stderr

        crt, days = _package_timing(source, os.path.join(scratch, "timing"))
        original = imported_rows(source, crt, days, os.path.join(scratch, "original"))
        ours = imported_rows(out, crt, days, os.path.join(scratch, "ours"))
        assert ours[0] == original[0]
        assert ours[1] == original[1]
        assert ours[2] == original[2]
        # The upgrade changed what the source stores: otherwise this test would show nothing.
        with zipfile.ZipFile(source) as archive, open(os.path.join(scratch, "raw.anki2"), "wb") as handle:
            handle.write(archive.read("collection.anki2"))
        raw = sqlite3.connect(os.path.join(scratch, "raw.anki2"))
        stored = {row[0]: row[1] for row in raw.execute("select id, ease from revlog")}
        raw.close()
        assert sum(stored[k] != original[1][k][2] for k in stored) > 0
