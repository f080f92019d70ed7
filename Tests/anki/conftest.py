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


def truth_path(package: str) -> str:
    return package + ".truth.json"


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
