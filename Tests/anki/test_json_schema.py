"""Every JSON deck document deckport writes must validate against docs/deckport-deck.schema.json,
and must carry what the real Anki backend sees in the package it came from."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess

import jsonschema
import pytest

from conftest import REPO, deckport_binary, fixture_packages

DECKPORT = deckport_binary()
SCHEMA_PATH = os.path.join(REPO, "docs", "deckport-deck.schema.json")


@pytest.fixture(scope="module")
def validator():
    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def convert_to_json(package: str, out_dir: str) -> dict:
    out = os.path.join(out_dir, os.path.basename(package) + ".json")
    result = subprocess.run([DECKPORT, "convert", package, out], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    with open(out, encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("package", fixture_packages(), ids=os.path.basename)
def test_written_json_validates_and_matches_anki(package, validator, live_view, tmp_path):
    document = convert_to_json(package, str(tmp_path))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    assert not errors, "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])

    anki = live_view(package)
    note_types = {t["id"]: t for t in document["noteTypes"]}
    notes = sorted(
        (
            {
                "guid": n["guid"],
                "noteType": note_types[n["noteType"]]["name"],
                "fields": list(n["fields"].values()),
                "tags": sorted(n["tags"]),
            }
            for n in document["notes"]
        ),
        key=lambda n: n["guid"],
    )
    expected = [
        {"guid": n["guid"], "noteType": n["noteType"], "fields": n["fields"], "tags": sorted(n["tags"])}
        for n in anki["notes"]
    ]
    assert notes == expected

    for media in document.get("media", []):
        data = base64.b64decode(media["data"])
        assert hashlib.sha1(data).hexdigest() == media["sha1"] == anki["media"].get(media["name"], media["sha1"])
        assert len(data) == media["size"]
    # The document keeps every file the package holds; Anki's import of a deck package leaves out
    # those nothing refers to, which `inspect` names (and test_inspect_matches_anki checks that
    # the backend kept none of them).
    written = {m["name"]: m["sha1"] for m in document.get("media", [])}
    unused = set(json.loads(subprocess.run(
        [DECKPORT, "inspect", package, "--json"], capture_output=True, text=True, timeout=300, check=True
    ).stdout)["unusedMedia"])
    assert {name: sha1 for name, sha1 in written.items() if name not in unused} == anki["media"]
