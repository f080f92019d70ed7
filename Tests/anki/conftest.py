"""Shared setup for the checks against the real Anki backend.

Puts <repo>/fixtures on sys.path (for anki_view) and provides the fixture package list and a
per-session cache of anki_view results, so each package is imported only once.
"""

from __future__ import annotations

import glob
import os
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(REPO, "fixtures")
PACKAGE_DIR = os.path.join(FIXTURES, "anki")

if FIXTURES not in sys.path:
    sys.path.insert(0, FIXTURES)


REAL_DIR = os.path.join(FIXTURES, "real")


def fixture_packages() -> list[str]:
    """Every *.apkg and *.colpkg in fixtures/anki (made by our script) and fixtures/real
    (decks exported by people), sorted by folder and file name."""
    found = []
    for folder in (PACKAGE_DIR, REAL_DIR):
        found += sorted(
            glob.glob(os.path.join(folder, "*.apkg")) + glob.glob(os.path.join(folder, "*.colpkg")),
            key=os.path.basename,
        )
    return found


def new_card_positions(col) -> dict[tuple[str, int], int]:
    """The position of each new card of an Anki collection (its due, or its original due in a
    filtered deck), by note GUID and template ordinal."""
    rows = col.db.all(
        "select n.guid, c.ord, case when c.odid != 0 then c.odue else c.due end"
        " from cards c join notes n on n.id = c.nid where c.type = 0"
    )
    return {(guid, ordinal): position for guid, ordinal, position in rows}


def new_card_order_kept(before: dict[tuple[str, int], int], after: dict[tuple[str, int], int]) -> bool:
    """Whether the new cards `before` (positions by GUID and ordinal) come in the same order
    `after`, where they are (cards of one position before may come in any order)."""
    kept = sorted((key for key in before if key in after), key=lambda key: (before[key], after[key]))
    return all(after[first] <= after[second] for first, second in zip(kept, kept[1:]))


def truth_path(package: str) -> str:
    return package + ".truth.json"


def deckport_binary() -> str:
    """The deckport binary the checks run: DECKPORT_BIN (relative to the repository when not
    absolute), else the debug build. Called at a module's top: without a binary, the module's
    checks are skipped, unless DECKPORT_BIN names one that is not there (an error)."""
    path = os.environ.get("DECKPORT_BIN") or os.path.join(REPO, ".build", "debug", "deckport")
    if not os.path.isabs(path):
        path = os.path.join(REPO, path)
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        if os.environ.get("DECKPORT_BIN"):
            raise RuntimeError(f"DECKPORT_BIN names no executable: {path}")
        pytest.skip(
            f"the deckport binary does not exist yet ({path}); build it with scripts/setup.sh or set DECKPORT_BIN",
            allow_module_level=True,
        )
    return path


_VIEWS: dict[str, dict] = {}


@pytest.fixture(scope="session")
def live_view():
    """live_view(package) -> anki_view(package), computed once per session."""
    from anki_view import anki_view

    def get(package: str) -> dict:
        if package not in _VIEWS:
            _VIEWS[package] = anki_view(package)
        return _VIEWS[package]

    return get
