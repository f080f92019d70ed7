"""A collection kept by Anki's v2 scheduler stays on it when deckport writes it again.

Anki says which scheduler a collection uses in its settings: `schedVer` 2 and no `sched2021`
is the v2 scheduler; `sched2021` true is v3, which Anki turns on only when the user does. The
real collection package `fixtures/real/srf-chinese-legacy2.colpkg` (Anki 2.1.4x, v2) is
converted to a collection package of both layouts, and the real backend restores each: the
scheduler it reports must be the one it reports for the original.
"""

from __future__ import annotations

import os
import subprocess
import tempfile

import pytest

from conftest import REAL_DIR, deckport_binary

DECKPORT = deckport_binary()

from anki.collection import Collection  # noqa: E402

from anki_view import _import_colpkg  # noqa: E402

V2_PACKAGE = os.path.join(REAL_DIR, "srf-chinese-legacy2.colpkg")


def restored_scheduler(package: str) -> tuple[object, object, bool, int]:
    """`sched2021`, `schedVer`, whether v3 is on and the scheduler version, as the backend sees
    them after restoring `package` into a fresh collection (as `anki_view` restores one)."""
    with tempfile.TemporaryDirectory() as folder:
        col = Collection(os.path.join(folder, "collection.anki2"))
        try:
            _import_colpkg(col, package)
            return (
                col.get_config("sched2021", "absent"),
                col.get_config("schedVer", "absent"),
                col.v3_scheduler(),
                col.sched_ver(),
            )
        finally:
            col.close()


@pytest.mark.parametrize("to", ["colpkg", "colpkg-modern"])
def test_a_v2_collection_written_again_stays_on_the_v2_scheduler(to):
    original = restored_scheduler(V2_PACKAGE)
    assert original == ("absent", 2, False, 2)
    with tempfile.TemporaryDirectory() as folder:
        output = os.path.join(folder, "out.colpkg")
        run = subprocess.run(
            [DECKPORT, "convert", V2_PACKAGE, output, "--to", to], capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr
        assert restored_scheduler(output) == original
