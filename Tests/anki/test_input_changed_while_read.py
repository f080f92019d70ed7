"""An input another program shortens while deckport reads it ends in an error naming it, not a crash.

deckport maps a JSON deck into memory to read it. When another program cuts the file short
meanwhile, the pages past the new end can no longer be read; before, that ended the process with
SIGBUS (exit status -7 here, no message, and an output half thought through). Now those pages
read as zeros, the reader is told the file changed, and the conversion fails with exit status 1,
a message naming the file, and no output.

The test stops deckport while its mapping of the input is open (seen in /proc/PID/maps), cuts
the file to 1 KB, and lets it go on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

DECKPORT = os.environ.get(
    "DECKPORT_BIN", os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "deckport"))

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID/maps")

ROWS = 300_000


@pytest.fixture(scope="module")
def big_json(tmp_path_factory) -> str:
    """A JSON deck of ROWS notes (made from a CSV by deckport)."""
    folder = tmp_path_factory.mktemp("big")
    csv = str(folder / "big.csv")
    with open(csv, "w", encoding="utf-8") as out:
        out.write("#separator:comma\n#html:false\n")
        for row in range(ROWS):
            out.write(f"front {row} {'x' * 40},back {row} {'y' * 60}\n")
    path = str(folder / "big.json")
    subprocess.run([DECKPORT, "convert", csv, path], check=True, capture_output=True)
    return path


def maps_file(pid: int, path: str) -> bool:
    """Whether process `pid` has `path` mapped."""
    try:
        with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as maps:
            return any(line.rstrip("\n").endswith(" " + path) for line in maps)
    except FileNotFoundError:
        return False


def test_a_json_deck_cut_short_while_it_is_read(big_json, tmp_path):
    for attempt in range(5):
        source = str(tmp_path / f"deck-{attempt}.json")
        with open(big_json, "rb") as original, open(source, "wb") as copy:
            copy.write(original.read())
        output = str(tmp_path / f"out-{attempt}.apkg")
        process = subprocess.Popen(
            [DECKPORT, "convert", source, output], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not maps_file(process.pid, source) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.0005)
        process.send_signal(signal.SIGSTOP)
        if not maps_file(process.pid, source):
            # The reading was over (or not begun) when it stopped: try again.
            process.send_signal(signal.SIGCONT)
            process.wait(timeout=120)
            continue
        os.truncate(source, 1024)
        process.send_signal(signal.SIGCONT)
        status = process.wait(timeout=120)
        error = process.stderr.read().decode()
        assert status == 1, f"exit status {status}: {error}"
        assert source in error, error
        assert "while deckport read it" in error, error
        assert "nothing was taken from it" in error, error
        assert not os.path.exists(output)
        assert not [name for name in os.listdir(tmp_path) if name.startswith(".")]
        return
    pytest.fail("deckport was never stopped while it had the input mapped")
