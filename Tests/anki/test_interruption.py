"""Ctrl-C, SIGTERM and SIGHUP never leave anything half written.

The deckport command is interrupted while it reads, while it writes (once its temporary output
exists), while it waits for standard input that does not come, and while it is blocked where no
check is asked (opening a named pipe nobody writes). Each time it must exit with
128 + the signal's number, say so on standard error, leave no output, no hidden temporary file
beside it and no scratch folder in TMPDIR, and leave an existing output it was replacing exactly
as it was. A package Anki made, replaced with --force and interrupted, still imports into the
real backend as it did.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time

import pytest

from conftest import PACKAGE_DIR

DECKPORT = os.environ.get(
    "DECKPORT_BIN", os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "deckport"))

# Long enough to interrupt in the middle: 1.5 s to convert in a release build, 6 s in a debug one.
ROWS = 200_000


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory) -> str:
    """A CSV of ROWS notes."""
    path = str(tmp_path_factory.mktemp("big") / "big.csv")
    with open(path, "w", encoding="utf-8") as out:
        out.write("#separator:comma\n#html:false\n")
        for row in range(ROWS):
            out.write(f"front {row} {'x' * 40},back {row} {'y' * 60}\n")
    return path


@pytest.fixture(scope="module")
def big_package(big_csv, tmp_path_factory) -> str:
    """The CSV as an Anki package."""
    path = str(tmp_path_factory.mktemp("package") / "big.apkg")
    subprocess.run([DECKPORT, "convert", big_csv, path], check=True, capture_output=True)
    return path


def start(arguments: list[str], scratch: str, **popen) -> subprocess.Popen:
    """deckport with `arguments`, its TMPDIR in `scratch`."""
    os.makedirs(scratch, exist_ok=True)
    return subprocess.Popen(
        [DECKPORT, *arguments], env=dict(os.environ, TMPDIR=scratch), stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, **popen)


def wait_for(found, process: subprocess.Popen, what: str, timeout: float = 60) -> None:
    """Waits until `found()` holds, while `process` runs."""
    deadline = time.monotonic() + timeout
    while not found():
        assert process.poll() is None, f"deckport ended before {what}: {process.stderr.read().decode()}"
        assert time.monotonic() < deadline, f"no {what} after {timeout} s"
        time.sleep(0.002)


def temporary_outputs(folder: str) -> list[str]:
    """The hidden temporary outputs deckport writes beside a destination."""
    return [name for name in os.listdir(folder) if name.startswith(".") and ".deckport-" in name]


def interrupted(process: subprocess.Popen, number: int, written: str = "") -> str:
    """Sends signal `number`, waits for the end, checks the exit status and the line that says
    so (naming `written`, an output already in place, when given), and returns stderr."""
    process.send_signal(number)
    status = process.wait(timeout=30)
    error = process.stderr.read().decode()
    assert status == 128 + number, error
    name = signal.Signals(number).name
    placed = f"; {written} was already written, whole, and stays" if written else ""
    assert f"deckport: interrupted by {name}{placed}; nothing was left half written" in error, error
    return error


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("output", ["out.apkg", "out.json", "out"])
def test_interrupted_while_writing(big_csv, tmp_path, number, output):
    folder = str(tmp_path / "out-folder")
    os.makedirs(folder)
    scratch = str(tmp_path / "tmp")
    arguments = ["convert", big_csv, os.path.join(folder, output)]
    if output == "out":
        arguments += ["--to", "json-dir"]
    process = start(arguments, scratch)
    wait_for(lambda: temporary_outputs(folder), process, "temporary output")
    interrupted(process, number)
    assert os.listdir(folder) == []
    assert os.listdir(scratch) == []


def test_interrupted_while_reading(big_package, tmp_path):
    folder = str(tmp_path / "out-folder")
    os.makedirs(folder)
    scratch = str(tmp_path / "tmp")
    process = start(["convert", big_package, os.path.join(folder, "out.json")], scratch)
    # The package's collection is unpacked into a scratch folder first.
    wait_for(lambda: os.path.isdir(scratch) and os.listdir(scratch), process, "scratch folder")
    interrupted(process, signal.SIGINT)
    assert os.listdir(folder) == []
    assert os.listdir(scratch) == []


def test_interrupted_replacement_keeps_the_old_output(big_csv, tmp_path):
    from anki_view import anki_view

    folder = str(tmp_path / "out-folder")
    os.makedirs(folder)
    destination = os.path.join(folder, "deck.apkg")
    original = os.path.join(PACKAGE_DIR, "latest_sched.apkg")
    shutil.copyfile(original, destination)
    with open(original, "rb") as file:
        before = file.read()
    scratch = str(tmp_path / "tmp")
    process = start(["convert", big_csv, destination, "--force"], scratch)
    wait_for(lambda: temporary_outputs(folder), process, "temporary output")
    interrupted(process, signal.SIGINT)
    assert os.listdir(folder) == ["deck.apkg"]
    with open(destination, "rb") as file:
        assert file.read() == before
    assert os.listdir(scratch) == []
    # Anki still imports it as the package it made.
    with open(original + ".truth.json", encoding="utf-8") as file:
        assert anki_view(destination) == json.load(file)


def test_interrupted_after_an_app_file_was_put_in_place_says_it_was_written(tmp_path):
    """App storage is read back from its place after the rename, to check it: a signal then
    stops the check, and the line says the destination was written (it used to say only that
    nothing was left half written, as if the old file were still there)."""
    import sqlite3

    source = str(tmp_path / "records.json")
    with open(source, "w", encoding="utf-8") as out:
        json.dump([{"title": f"title {n} {'x' * 40}", "text": f"text {n} {'y' * 60}"} for n in range(150_000)], out)
    destination = str(tmp_path / "records.sqlite")
    subprocess.run([DECKPORT, "migrate", source, destination, "-q"], check=True, capture_output=True)
    with open(source, "w", encoding="utf-8") as out:
        json.dump([{"title": f"other {n} {'x' * 40}", "text": f"text {n} {'y' * 60}"} for n in range(150_000)], out)
    before = os.stat(destination).st_ino
    process = start(["migrate", source, destination, "--force"], str(tmp_path / "tmp"))
    wait_for(lambda: os.stat(destination).st_ino != before, process, "the new file in place", timeout=120)
    interrupted(process, signal.SIGINT, written=destination)
    with sqlite3.connect(destination) as database:
        assert database.execute("select count(*) from records").fetchone()[0] == 300_000


def waiting_for_standard_input(tmp_path) -> tuple[subprocess.Popen, str, str]:
    """deckport converting standard input, which never ends, once it is copying it; with the
    output folder and TMPDIR."""
    folder = str(tmp_path / "out-folder")
    os.makedirs(folder)
    scratch = str(tmp_path / "tmp")
    process = start(
        ["convert", "-", os.path.join(folder, "out.json"), "--from", "csv"], scratch, stdin=subprocess.PIPE)
    process.stdin.write(b"front,back\n" * 1000)
    process.stdin.flush()
    # Standard input is copied into a scratch folder until it ends.
    wait_for(lambda: os.path.isdir(scratch) and os.listdir(scratch), process, "copy of standard input")
    return process, folder, scratch


def test_interrupted_while_waiting_for_standard_input(tmp_path):
    process, folder, scratch = waiting_for_standard_input(tmp_path)
    time.sleep(0.2)
    started = time.monotonic()
    interrupted(process, signal.SIGINT)
    # The wait asks every tenth of a second whether the work is still wanted.
    assert time.monotonic() - started < 1.5
    assert os.listdir(folder) == []
    assert os.listdir(scratch) == []
    process.stdin.close()


def blocked_on_a_named_pipe(tmp_path) -> tuple[subprocess.Popen, str, str]:
    """deckport reading a named pipe nobody writes: opening it blocks where no check is asked,
    so only the grace period, or a second signal, ends the process. With the output folder and
    TMPDIR."""
    folder = str(tmp_path / "out-folder")
    os.makedirs(folder)
    scratch = str(tmp_path / "tmp")
    os.makedirs(scratch)
    pipe = str(tmp_path / "deck.csv")
    os.mkfifo(pipe)
    process = start(["convert", pipe, os.path.join(folder, "out.json"), "--from", "csv"], scratch)
    time.sleep(0.5)
    assert process.poll() is None, process.stderr.read().decode()
    return process, folder, scratch


def test_work_that_cannot_stop_ends_after_the_grace_period(tmp_path):
    process, folder, scratch = blocked_on_a_named_pipe(tmp_path)
    started = time.monotonic()
    interrupted(process, signal.SIGINT)
    # The grace period is 2 s.
    assert 1.5 < time.monotonic() - started < 10
    assert os.listdir(folder) == []
    assert os.listdir(scratch) == []


def test_a_second_signal_ends_at_once(tmp_path):
    process, folder, scratch = blocked_on_a_named_pipe(tmp_path)
    process.send_signal(signal.SIGTERM)
    time.sleep(0.1)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    status = process.wait(timeout=30)
    assert time.monotonic() - started < 1.5
    # The status and the message name the first signal.
    assert status == 128 + signal.SIGTERM
    assert "deckport: interrupted by SIGTERM; nothing was left half written" in process.stderr.read().decode()
    assert os.listdir(folder) == []
    assert os.listdir(scratch) == []
