"""Shared setup for the checks on stores made by Apple's frameworks.

The checks copy stores and write records into folders of their own (`tempfile.mkdtemp`); those
folders go into one folder per session, removed at its end, so a run leaves nothing in the
system's temporary folder.
"""

from __future__ import annotations

import shutil
import tempfile

import pytest


@pytest.fixture(scope="session", autouse=True)
def session_temporary_folder():
    folder = tempfile.mkdtemp(prefix="deckport-store-checks-")
    previous = tempfile.tempdir
    tempfile.tempdir = folder
    yield folder
    tempfile.tempdir = previous
    shutil.rmtree(folder, ignore_errors=True)
