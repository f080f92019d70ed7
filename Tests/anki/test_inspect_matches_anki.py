"""`deckport inspect PACKAGE --json` must report what the real Anki backend sees.

For every fixture package, the deckport binary (DECKPORT_BIN, default
<repo>/.build/debug/deckport) is run and its JSON compared with anki_view (the real backend,
fixtures/anki_view.py):

* `notes`, `cards`, `media`, `reviews`: integers equal to anki_view's counts, but for `media`
  the files named in `unusedMedia`, which Anki's import of a deck package leaves out: none of
  those may be among the files the backend kept;
* `decks`: the sorted list of full deck names ("A::B") that hold cards;
* `tags`: each tag the notes have, with its count of notes ({"name", "notes"}), sorted by name
  ignoring case;
* `noteTypes`: objects {"name", "kind" ("standard"|"cloze"), "fields" (field names),
  "templates" (template names)}, compared sorted by name (other keys are ignored);
* `missingMedia`: the sorted list of referenced files the package does not provide.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import deckport_binary, fixture_packages

DECKPORT = deckport_binary()

PACKAGES = fixture_packages()


def inspect_json(package: str) -> dict:
    result = subprocess.run(
        [DECKPORT, "inspect", package, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, (
        f"deckport inspect {os.path.basename(package)} --json exited {result.returncode}\n"
        f"stderr: {result.stderr}"
    )
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError as error:
        pytest.fail(f"deckport inspect --json printed invalid JSON ({error}):\n{result.stdout[:2000]}")


def reduce_notetypes_from_anki(note_types: list[dict]) -> list[dict]:
    return sorted(
        (
            {
                "name": t["name"],
                "kind": t["kind"],
                "fields": list(t["fields"]),
                "templates": [tmpl["name"] for tmpl in t["templates"]],
            }
            for t in note_types
        ),
        key=lambda t: t["name"],
    )


def reduce_notetypes_from_deckport(note_types: list[dict]) -> list[dict]:
    return sorted(
        (
            {
                "name": t.get("name"),
                "kind": t.get("kind"),
                "fields": t.get("fields"),
                "templates": t.get("templates"),
            }
            for t in note_types
        ),
        key=lambda t: str(t["name"]),
    )


@pytest.fixture(scope="module")
def deckport_json():
    cache: dict[str, dict] = {}

    def get(package: str) -> dict:
        if package not in cache:
            cache[package] = inspect_json(package)
        return cache[package]

    return get


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_counts(package, deckport_json, live_view):
    out, anki = deckport_json(package), live_view(package)
    for key in ("notes", "cards", "media", "reviews"):
        assert key in out, f"deckport JSON has no '{key}'"
        assert isinstance(out[key], int) and not isinstance(out[key], bool), (
            f"deckport '{key}' should be an integer count, got {out[key]!r}"
        )
    got = {key: out[key] for key in ("notes", "cards", "media", "reviews")}
    assert isinstance(out.get("unusedMedia"), list), "deckport JSON has no 'unusedMedia' list"
    got["media"] -= len(out["unusedMedia"])
    assert got == anki["counts"]
    assert not set(out["unusedMedia"]) & set(anki["media"]), "a file deckport calls unused is one Anki kept"
    if os.path.basename(package).endswith(".colpkg"):
        assert out["unusedMedia"] == [], "Anki restores a collection package's media whole"


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_decks(package, deckport_json, live_view):
    out, anki = deckport_json(package), live_view(package)
    assert out.get("decks") == anki["decks"]


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_tags(package, deckport_json, live_view):
    """Each tag the notes have, with how many notes have it, as the backend holds them after its
    import (which makes tags that differ only in case one)."""
    out, anki = deckport_json(package), live_view(package)
    counts: dict[str, int] = {}
    for note in anki["notes"]:
        for tag in set(note["tags"]):
            counts[tag] = counts.get(tag, 0) + 1
    expected = [{"name": name, "notes": counts[name]} for name in sorted(counts, key=lambda t: (t.lower(), t))]
    assert out.get("tags") == expected


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_note_types(package, deckport_json, live_view):
    out, anki = deckport_json(package), live_view(package)
    assert isinstance(out.get("noteTypes"), list), "deckport JSON has no 'noteTypes' list"
    assert reduce_notetypes_from_deckport(out["noteTypes"]) == reduce_notetypes_from_anki(
        anki["noteTypes"]
    )


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_missing_media(package, deckport_json, live_view):
    out, anki = deckport_json(package), live_view(package)
    assert out.get("missingMedia") == anki["missingMedia"]
