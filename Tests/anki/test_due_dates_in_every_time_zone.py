"""A review card due on a date is due on that date in Anki, whatever the user's time zone: a
sheet's `due` column, converted to a package in a zone and imported by the real backend in the
same zone, lands on the same day.

Anki counts due days from the date its collection was made, in the zone `creationOffset` names.
Two zones a day apart have Anki's 04:00 at the same moment (UTC+13 and UTC-11), so a package
whose `creationOffset` guessed the zone from its creation time alone put every review card a day
early in New Zealand's summer, Tonga and Kiribati (found by embedding the library in an app)."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from zoneinfo import ZoneInfo

import pytest

from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

ZONES = [
    "Pacific/Kiritimati",  # UTC+14
    "Pacific/Tongatapu",  # UTC+13
    "Pacific/Auckland",  # UTC+12, +13 in its summer
    "Asia/Tokyo",
    "Europe/Berlin",
    "UTC",
    "America/New_York",
    "Pacific/Honolulu",
    "Pacific/Pago_Pago",  # UTC-11
]

DAYS_FROM_BACKEND = """
import sys
from anki.collection import Collection, ImportAnkiPackageRequest, ImportAnkiPackageOptions
col = Collection(sys.argv[1])
col.import_anki_package(ImportAnkiPackageRequest(
    package_path=sys.argv[2], options=ImportAnkiPackageOptions(with_scheduling=True)))
for cid in col.find_cards(""):
    card = col.get_card(cid)
    print(card.note().fields[0], card.due - col.sched.today)
col.close()
"""


@pytest.mark.parametrize("zone", ZONES)
def test_a_due_date_is_the_same_day_in_anki_in_the_zone_it_was_written_in(tmp_path, zone):
    now = datetime.datetime.now(ZoneInfo(zone))
    # Anki's day starts at 04:00: before that, its today is the calendar's yesterday.
    anki_today = (now - datetime.timedelta(hours=4)).date()
    dates = {"soon": now.date() + datetime.timedelta(days=3), "later": now.date() + datetime.timedelta(days=40)}
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "front,back,due,interval\n" + "".join(f"{word},x,{day.isoformat()},10\n" for word, day in dates.items()),
        encoding="utf-8",
    )
    package = str(tmp_path / "deck.apkg")
    environment = dict(os.environ, TZ=zone)
    converted = subprocess.run(
        [DECKPORT, "convert", str(sheet), package, "--header"], capture_output=True, text=True, env=environment,
        timeout=120,
    )
    assert converted.returncode == 0, converted.stderr
    imported = subprocess.run(
        [sys.executable, "-c", DAYS_FROM_BACKEND, str(tmp_path / "collection.anki2"), package],
        capture_output=True, text=True, env=environment, timeout=120,
    )
    assert imported.returncode == 0, imported.stderr
    days = {word: int(offset) for word, offset in (line.split() for line in imported.stdout.splitlines())}
    assert days == {word: (day - anki_today).days for word, day in dates.items()}
