"""The README's spreadsheet example works as written: the CSV shown and the one command shown
(taken from README.md's "CSV and spreadsheets" section, not copied here) make a deck that the
real Anki imports with those notes in that deck; and the reverse command makes the sheet."""

from __future__ import annotations

import csv
import io
import os
import re
import shlex

import pytest

from conftest import REPO
from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


def readme_section() -> str:
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as handle:
        text = handle.read()
    match = re.search(r"^## CSV and spreadsheets\n(.*?)(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert match, "README.md has no '## CSV and spreadsheets' section"
    return match.group(1)


def example() -> tuple[str, str, list[str]]:
    """(file name, CSV text, command words) of the README example."""
    section = readme_section()
    name = re.search(r"Given `([^`]+\.csv)`", section).group(1)
    sheet = re.search(r"```csv\n(.*?)```", section, re.DOTALL).group(1)
    command = re.search(r"```sh\n(deckport convert [^\n]+)\n```", section).group(1)
    return name, sheet, shlex.split(command)


def run(words: list[str], cwd, *, warnings_allowed: bool = False) -> str:
    import subprocess

    result = subprocess.run([DECKPORT, *words[1:]], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    if not warnings_allowed:
        assert result.stderr == "", "the README example should convert without warnings"
    return result.stderr


def test_readme_spreadsheet_one_liner(tmp_path):
    from anki_view import anki_view

    name, sheet, words = example()
    assert words[:3] == ["deckport", "convert", name]
    (tmp_path / name).write_text(sheet, encoding="utf-8")
    run(words, tmp_path)
    output = words[3]
    deck = words[words.index("--deck") + 1]

    rows = list(csv.reader(io.StringIO(sheet)))[1:]
    view = anki_view(str(tmp_path / output))
    assert sorted((n["noteType"], tuple(n["fields"])) for n in view["notes"]) == sorted(
        ("Basic", (front, back)) for front, back in rows
    )
    assert view["decks"] == [deck]
    assert len(view["cards"]) == len(rows)


def test_readme_reverse_command(tmp_path):
    section = readme_section()
    reverse = re.search(r"`(deckport convert \S+\.apkg \S+\.csv[^`]*)`", section).group(1)
    name, sheet, words = example()
    (tmp_path / name).write_text(sheet, encoding="utf-8")
    run(words, tmp_path)
    reverse_words = shlex.split(reverse)
    # The sheet has no deck or GUID column; deckport says so.
    warnings = run(reverse_words, tmp_path, warnings_allowed=True)
    assert "decks are not written (no deck column): 'French'" in warnings
    with open(tmp_path / reverse_words[3], encoding="utf-8", newline="") as handle:
        written = list(csv.reader(handle))
    rows = list(csv.reader(io.StringIO(sheet)))
    assert written == [["front", "back"]] + rows[1:]
