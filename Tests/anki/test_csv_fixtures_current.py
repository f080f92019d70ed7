"""The CSV fixtures' truth files are proven, not trusted: each fixtures/csv/**/F is imported
with the live backend's own CSV importer (fixtures/make_csv_fixtures.py csv_view) and compared
with F.truth.json. The Swift tests read the same files and compare with the truth files."""

from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import FIXTURES

CSV_DIR = os.path.join(FIXTURES, "csv")
CSV_FIXTURES = sorted(
    path
    for path in glob.glob(os.path.join(CSV_DIR, "*", "*"))
    if not path.endswith(".json") and not path.endswith(".md")
)


def test_there_are_csv_fixtures():
    names = {os.path.relpath(p, CSV_DIR) for p in CSV_FIXTURES}
    expected = {
        "anki/notes_plain.txt",
        "anki/notes_html_tags.txt",
        "anki/notes_all.txt",
        "anki/latest_notes_all.txt",
        "sheets/quizlet.txt",
        "sheets/header_bom_crlf.csv",
    }
    assert expected <= names, f"missing CSV fixtures: {sorted(expected - names)}"


@pytest.mark.parametrize("fixture", CSV_FIXTURES, ids=lambda p: os.path.relpath(p, CSV_DIR))
def test_csv_truth_is_current(fixture):
    from make_csv_fixtures import csv_view

    truth_path = fixture + ".truth.json"
    assert os.path.exists(truth_path), f"{truth_path} is missing; run: python fixtures/make_csv_fixtures.py"
    with open(truth_path, encoding="utf-8") as handle:
        expected = json.load(handle)
    actual = json.loads(json.dumps(csv_view(fixture), ensure_ascii=False))
    assert actual == expected, f"{os.path.basename(fixture)}: the real importer no longer sees what its truth file says"
