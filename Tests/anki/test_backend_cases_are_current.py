"""The backend's answers the Swift tests read are proven, not trusted: each script that recorded
them (fixtures/**/make_*_cases.py, written through fixtures/backend_cases.py) asks the live real
Anki backend again and must find its committed file current."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import FIXTURES

SCRIPTS = [
    "rendering/make_cloze_cases.py",
    "rendering/make_filter_cases.py",
    "rendering/make_text_pattern_cases.py",
    "media-references/make_reference_cases.py",
    "search/make_search_cases.py",
    "schema11/make_value_type_cases.py",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_committed_cases_are_what_the_backend_answers(script):
    result = subprocess.run(
        [sys.executable, os.path.join(FIXTURES, script), "--check"],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, f"{script}: {result.stdout}{result.stderr}"
    assert "is current" in result.stdout


def test_every_cases_script_is_checked():
    found = set()
    for folder, _, files in os.walk(FIXTURES):
        for name in files:
            if name.startswith("make_") and name.endswith("_cases.py"):
                found.add(os.path.relpath(os.path.join(folder, name), FIXTURES))
    assert found == set(SCRIPTS)
