"""A package made in another time zone gives a sheet the due dates Anki gives its cards.

Anki counts a package's due days from the date its collection was made in the zone its
`creationOffset` names (Brisbane's 04:00 is the previous day's 18:00 in UTC). deckport dated an
`.apkg`'s days (and those of a JSON deck made from one) from its creation time alone, so a sheet
written in UTC, Los Angeles or Pago Pago put every review card a day early, and the card due
today came back overdue. The real backend, importing each package in the zone the sheet is
written in, says how many days from today each card is due; the sheet's date must be that day."""

from __future__ import annotations

import csv
import datetime
import os
import subprocess
import sys
from zoneinfo import ZoneInfo

import pytest

from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

MADE_IN = ["Australia/Brisbane", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
READ_IN = ["UTC", "Australia/Brisbane", "America/Los_Angeles", "Pacific/Pago_Pago", "Pacific/Kiritimati"]

# A collection made by the backend in the zone TZ names (its crt 04:00 there, its creationOffset
# that zone's), a hundred days old, with cards "Set due date" put today, in 1, 10 and 200 days,
# exported as a legacy and a latest deck package and a collection package.
MAKE = """
import os, sys, tempfile
from anki.collection import Collection, ExportAnkiPackageOptions
folder = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    col = Collection(os.path.join(tmp, "collection.anki2"))
    col.db.execute("update col set crt = crt - 100*86400")
    col.close(); col.reopen(); col._load_scheduler()
    basic = col.models.by_name("Basic"); deck = col.decks.id("Deck")
    for days in ["0", "1", "10", "200"]:
        note = col.new_note(basic); note["Front"] = "in" + days; note["Back"] = "x"
        col.add_note(note, deck)
        col.sched.set_due_date([note.card_ids()[0]], days)
    col.close(); col.reopen()
    for name, legacy in (("legacy.apkg", True), ("latest.apkg", False)):
        col.export_anki_package(out_path=os.path.join(folder, name), limit=None, options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=True, with_media=True, legacy=legacy))
    col.export_collection_package(os.path.join(folder, "whole.colpkg"), include_media=True, legacy=True)
"""

# Each card's days from today as the backend's import of a deck package counts them in TZ.
DAYS = """
import os, sys, tempfile
from anki.collection import Collection, ImportAnkiPackageRequest, ImportAnkiPackageOptions
with tempfile.TemporaryDirectory() as tmp:
    col = Collection(os.path.join(tmp, "collection.anki2"))
    col.import_anki_package(ImportAnkiPackageRequest(
        package_path=sys.argv[1], options=ImportAnkiPackageOptions(with_scheduling=True)))
    for cid in col.find_cards(""):
        card = col.get_card(cid)
        print(card.note().fields[0], card.due - col.sched.today)
    col.close()
"""


def run(arguments, zone):
    done = subprocess.run(arguments, capture_output=True, text=True, env=dict(os.environ, TZ=zone), timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module", params=MADE_IN)
def packages(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param.replace("/", "-"))
    run([sys.executable, "-c", MAKE, str(folder)], request.param)
    return folder


@pytest.mark.parametrize("zone", READ_IN)
def test_a_sheet_dates_each_card_as_anki_does(packages, zone, tmp_path):
    # Anki's day starts at 04:00: before that, its today is the calendar's yesterday.
    anki_today = (datetime.datetime.now(ZoneInfo(zone)) - datetime.timedelta(hours=4)).date()
    days = {}
    for line in run([sys.executable, "-c", DAYS, str(packages / "legacy.apkg")], zone).splitlines():
        front, offset = line.split()
        days[front] = int(offset)
    # Anki's own count: a zone east of the package's can be a day behind its days.
    assert len(days) == 4
    expected = {front: (anki_today + datetime.timedelta(days=offset)).isoformat() for front, offset in days.items()}

    sources = {name: packages / name for name in ("legacy.apkg", "latest.apkg", "whole.colpkg")}
    for name in ("legacy.apkg", "whole.colpkg"):
        deck = tmp_path / f"{name}.json"
        run([DECKPORT, "convert", str(sources[name]), str(deck)], zone)
        sources[f"json from {name}"] = deck
    for name, source in sources.items():
        sheet = tmp_path / f"{name.replace(' ', '-')}.csv"
        run([DECKPORT, "convert", str(source), str(sheet), "--header", "--columns", "front,due,interval"], zone)
        with open(sheet, encoding="utf-8") as handle:
            dated = {row["front"]: row["due"] for row in csv.DictReader(handle)}
        assert dated == expected, f"{name} read in {zone}"
