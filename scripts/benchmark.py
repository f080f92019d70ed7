#!/usr/bin/env python3
"""Times deckport against the real Anki backend (anki==26.9.3) on large decks.

    scripts/benchmark.py                          # both decks, every task, 3 runs each
    scripts/benchmark.py --decks large --repeats 5
    scripts/benchmark.py --decks huge --tasks legacy-to-latest,json-to-package
    scripts/benchmark.py --deckport /path/to/deckport --no-build

The decks are made once with the real backend and cached under .build-bench/ (delete it, or
pass --regenerate, to make them again):

* large: 20,000 notes of a 5-field note type with two card templates (40,000 cards), tags,
  nested decks (Bench::Level N::Unit M), 15% of the cards rescheduled (review state and a
  review-log entry each), 400 images of 20-40 KB (PNG- and JPEG-like bytes).
* huge: 100,000 notes (200,000 cards) made the same way, the 400 images and 2,000 sound files
  of 400-600 KB (MP3-like bytes): about 1 GB of media.

Tasks, each run as a separate process and measured from outside (wall time, and the peak
resident set size that the kernel reports for the process through wait4):

| task             | deckport                                   | Anki's backend                               |
|------------------|--------------------------------------------|----------------------------------------------|
| legacy-to-latest | convert legacy.apkg out.apkg --to apkg-modern | import legacy.apkg into a new collection, export_anki_package(legacy=False) |
| latest-to-legacy | convert latest.apkg out.apkg --to apkg     | import latest.apkg, export_anki_package(legacy=True) |
| package-to-csv   | convert latest.apkg out.csv                | import latest.apkg, export_note_csv(every column) |
| package-to-cards | convert latest.apkg out.txt --to cards     | import latest.apkg, export_card_csv(with_html=True) |
| package-to-json  | convert latest.apkg out.json               | (no counterpart)                             |
| json-to-package  | convert deck.json out.apkg --to apkg-modern | (no counterpart)                            |
| package-to-crowdanki | convert latest.apkg FOLDER --to crowdanki  | (no counterpart)                             |
| crowdanki-to-package | convert FOLDER out.apkg --to apkg-modern (a CrowdAnki folder) | (no counterpart) |
| inspect          | inspect latest.apkg                        | (no counterpart)                             |
| diff             | diff legacy.apkg latest.apkg --stat        | (no counterpart)                             |
| diff-app-records | diff latest.apkg records.sqlite --stat (the deck as app records) | (no counterpart)       |

The backend's wall time is taken inside its process, from creating the collection to the end
of the export, so Python's start-up and `import anki` are not counted against it; its peak
RSS is the whole process's (the Python interpreter with the backend loaded idles at the
"baseline" printed below the table). deckport's figures are the whole process's. The runs of
the two tools alternate (deckport first on odd rounds, the backend first on even ones), after
one unmeasured warm-up run of each, and the table shows the median of the runs. Before each
run the files written so far are flushed to disk and the run's input is read through, so that
every run starts from the same state: its input in the page cache. Each round runs
every task once, so tasks that are compared with each other (below each table: the JSON restore
and backup against the package conversions) are measured in the same stretch of time.

The script runs scripts/python-env.sh (the real backend in .venv) and, unless --deckport is
given, scripts/setup.sh release (the release build of deckport) first.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
BENCH_DIR = os.path.join(ROOT, ".build-bench")

# Bump when the generated content changes, so cached decks are made again.
GENERATOR_VERSION = 1

DECKS = {
    "large": {"notes": 20_000, "images": 400, "sounds": 0},
    "huge": {"notes": 100_000, "images": 400, "sounds": 2_000},
}

TASKS = [
    "legacy-to-latest", "latest-to-legacy", "package-to-csv", "package-to-cards", "package-to-json", "json-to-package",
    "package-to-crowdanki", "crowdanki-to-package", "inspect", "diff", "diff-app-records",
]
BACKEND_TASKS = {"legacy-to-latest", "latest-to-legacy", "package-to-csv", "package-to-cards"}


# ------------------------------------------------------------------------------------------
# Environment


def ensure_venv(script: str = __file__) -> None:
    """Re-runs `script` with .venv's Python (made by scripts/python-env.sh) if needed."""
    if os.path.realpath(sys.prefix) == os.path.realpath(os.path.join(ROOT, ".venv")):
        return
    subprocess.run([os.path.join(ROOT, "scripts", "python-env.sh")], check=True)
    os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(script), *sys.argv[1:]])


def log(message: str) -> None:
    print(f"benchmark: {message}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------
# Deck generation (with the real backend)


SYLLABLES = [
    "ka", "to", "mi", "ra", "ne", "su", "lo", "pe", "chi", "ve", "do", "ma", "ri", "an", "el",
    "zo", "bu", "fa", "gri", "tun", "ré", "çu", "ñe", "ö", "wa", "yo", "qui", "ex", "ost", "lin",
]
WORDS_EN = [
    "house", "water", "light", "green", "to run", "quickly", "mountain", "river", "friend",
    "to speak", "bread", "window", "yesterday", "always", "between", "morning", "journey",
    "to carry", "small", "heavy", "city", "garden", "question", "answer", "summer", "winter",
]


def make_word(rng, parts: int) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts))


def make_sentence(rng, words: int) -> str:
    return " ".join(make_word(rng, rng.randint(1, 3)) for _ in range(words)).capitalize() + "."


def media_bytes(rng, kind: str, size: int) -> bytes:
    """Bytes that look like a compressed image or sound: a real header, then mostly random
    bytes with a few repeated runs (such files compress by a few percent at most)."""
    body = bytearray(rng.randbytes(size))
    for _ in range(max(1, size // 8192)):
        start = rng.randrange(0, max(1, size - 256))
        body[start:start + rng.randint(16, 200)] = bytes([rng.randrange(256)]) * 200
    body = bytes(body[:size])
    if kind == "png":
        header = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x90\x00\x00\x01\x2c\x08\x02\x00\x00\x00\x00\x00\x00\x00"
        return header + body + b"\x00\x00\x00\x00IEND\xaeB`\x82"
    if kind == "jpg":
        header = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xdb\x00\x43\x00"
        return header + body + b"\xff\xd9"
    return b"ID3\x03\x00\x00\x00\x00\x00\x0a" + body  # mp3


def generate_deck(name: str, spec: dict, folder: str) -> None:
    """Makes legacy.apkg and latest.apkg in `folder` with the real backend."""
    import random

    from anki.collection import AddNoteRequest, Collection, ExportAnkiPackageOptions

    rng = random.Random(f"deckport-bench-{name}")
    work = tempfile.mkdtemp(prefix="generate-", dir=folder)
    try:
        col = Collection(os.path.join(work, "collection.anki2"))
        started = time.perf_counter()

        mm = col.models
        model = mm.new("Vocabulary (5 fields)")
        for field in ("Word", "Meaning", "Example", "Notes", "Media"):
            mm.add_field(model, mm.new_field(field))
        recognition = mm.new_template("Recognition")
        recognition["qfmt"] = '<div class="word">{{Word}}</div>{{Media}}'
        recognition["afmt"] = "{{FrontSide}}<hr id=answer>{{Meaning}}<br><i>{{Example}}</i><div>{{Notes}}</div>"
        mm.add_template(model, recognition)
        production = mm.new_template("Production")
        production["qfmt"] = "{{Meaning}}"
        production["afmt"] = '{{FrontSide}}<hr id=answer><div class="word">{{Word}}</div>{{Media}}'
        mm.add_template(model, production)
        model["css"] = ".card { font-family: Georgia, serif; font-size: 22px; text-align: center; }\n.word { font-weight: bold; }\n"
        mm.add(model)
        model = mm.by_name("Vocabulary (5 fields)")

        media_names: list[str] = []
        for index in range(spec["images"]):
            kind = "png" if index % 2 == 0 else "jpg"
            data = media_bytes(rng, kind, rng.randint(20_000, 40_000))
            media_names.append(col.media.write_data(f"bench_image_{index:04d}.{kind}", data))
        sound_names: list[str] = []
        for index in range(spec["sounds"]):
            data = media_bytes(rng, "mp3", rng.randint(400_000, 600_000))
            sound_names.append(col.media.write_data(f"bench_sound_{index:05d}.mp3", data))
        log(f"{name}: {len(media_names) + len(sound_names)} media files written")

        deck_ids = []
        for level in range(1, 6):
            for unit in range(1, 11):
                deck_ids.append(col.decks.id(f"Bench::Level {level}::Unit {unit:02d}"))

        notes = spec["notes"]
        image_every = max(1, notes // (len(media_names) * 10)) if media_names else 0
        sound_every = max(1, notes // len(sound_names)) if sound_names else 0
        requests = []
        for index in range(notes):
            note = col.new_note(model)
            word = make_word(rng, rng.randint(2, 4))
            note["Word"] = word if index % 7 else f"<b>{word}</b>"
            note["Meaning"] = rng.choice(WORDS_EN) + (f"; {rng.choice(WORDS_EN)}" if index % 3 == 0 else "")
            note["Example"] = make_sentence(rng, rng.randint(6, 14)).replace(word[:2], f"<u>{word[:2]}</u>", 1)
            note["Notes"] = (
                f"{make_sentence(rng, rng.randint(8, 20))} &amp; <i>{make_word(rng, 3)}</i><br>"
                f"{make_sentence(rng, rng.randint(4, 10))}"
            )
            parts = []
            if media_names and index % image_every == 0:
                parts.append(f'<img src="{media_names[(index // image_every) % len(media_names)]}">')
            if sound_names and index % sound_every == 0:
                parts.append(f"[sound:{sound_names[(index // sound_every) % len(sound_names)]}]")
            note["Media"] = " ".join(parts)
            level = index % 5 + 1
            tags = ["bench", f"level::{level}", f"topic_{rng.randrange(40):02d}"]
            if index % 17 == 0:
                tags.append("marked")
            note.tags = tags
            requests.append(AddNoteRequest(note=note, deck_id=deck_ids[index % len(deck_ids)]))
            if len(requests) == 5000:
                col.add_notes(requests)
                requests = []
        if requests:
            col.add_notes(requests)
        log(f"{name}: {notes} notes added")

        card_ids = list(col.find_cards(""))
        rng.shuffle(card_ids)
        rescheduled = card_ids[: len(card_ids) * 15 // 100]
        for start in range(0, len(rescheduled), 5000):
            col.sched.set_due_date(rescheduled[start:start + 5000], "1-60!")
        col.sched.suspend_cards(card_ids[len(rescheduled): len(rescheduled) + len(card_ids) // 50])

        for file_name, legacy in (("latest.apkg", False), ("legacy.apkg", True)):
            col.export_anki_package(
                out_path=os.path.join(folder, file_name),
                options=ExportAnkiPackageOptions(
                    legacy=legacy, with_scheduling=True, with_deck_configs=True, with_media=True),
                limit=None,
            )
        col.close()
        log(f"{name}: packages exported in {time.perf_counter() - started:.0f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def ensure_deck(name: str, regenerate: bool, spec: dict | None = None) -> str:
    """The folder of deck `name` (made by the real backend to `spec`, by default DECKS[name])."""
    from importlib.metadata import version

    spec = spec or DECKS[name]
    anki_version = version("anki")
    folder = os.path.join(BENCH_DIR, name)
    stamp_path = os.path.join(folder, "stamp.json")
    stamp = {"generator": GENERATOR_VERSION, "spec": spec, "anki": anki_version}
    if not regenerate and os.path.exists(stamp_path):
        with open(stamp_path) as handle:
            if json.load(handle) == stamp:
                return folder
    log(f"{name}: making the deck with the real backend (cached in {os.path.relpath(folder, ROOT)})")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    # In a child process: the measuring process must stay small, because the kernel counts the
    # parent's memory at the moment of spawning in each child's peak RSS (vfork shares it).
    subprocess.run(
        [sys.executable, os.path.abspath(__file__), "_generate", name, folder, json.dumps(spec)], check=True)
    with open(stamp_path, "w") as handle:
        json.dump(stamp, handle)
    return folder


# ------------------------------------------------------------------------------------------
# The backend's side of each task (run in a child process: `benchmark.py _backend ...`)


def backend_task(task: str, source: str, output: str, work: str) -> None:
    from anki.collection import (
        Collection,
        ExportAnkiPackageOptions,
        ImportAnkiPackageOptions,
        ImportAnkiPackageRequest,
    )

    folder = tempfile.mkdtemp(prefix="backend-", dir=work)
    started = time.perf_counter()
    col = Collection(os.path.join(folder, "collection.anki2"))
    if task != "idle":
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=source,
                options=ImportAnkiPackageOptions(
                    merge_notetypes=False, with_scheduling=True, with_deck_configs=True),
            )
        )
    if task in ("legacy-to-latest", "latest-to-legacy"):
        col.export_anki_package(
            out_path=output,
            options=ExportAnkiPackageOptions(
                legacy=task == "latest-to-legacy", with_scheduling=True, with_deck_configs=True,
                with_media=True),
            limit=None,
        )
    elif task == "package-to-csv":
        col.export_note_csv(
            out_path=output, limit=None, with_html=True, with_tags=True, with_deck=True,
            with_notetype=True, with_guid=True)
    elif task == "package-to-cards":
        col.export_card_csv(out_path=output, limit=None, with_html=True)
    elapsed = time.perf_counter() - started
    col.close()
    shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps({"seconds": elapsed}))


# ------------------------------------------------------------------------------------------
# Measuring


def read_through(path: str | None) -> None:
    """Reads the file at `path` (if any), or every file in the folder at `path`, so that their
    pages are in the page cache."""
    if path is None:
        return
    if os.path.isdir(path):
        for folder, _, names in os.walk(path):
            for name in names:
                read_through(os.path.join(folder, name))
        return
    if not os.path.isfile(path):
        return
    with open(path, "rb", buffering=0) as file:
        while file.read(1 << 24):
            pass


def run_measured(
    command: list[str], env: dict | None = None, input_path: str | None = None, success: tuple[int, ...] = (0,),
) -> tuple[float, float, str]:
    """Runs `command`; returns its wall time in seconds, its peak RSS in MB and its stdout. An
    exit status outside `success` is a failure.

    The files earlier runs wrote are flushed to disk first (os.sync), so that a run is not slowed
    by the kernel writing back another run's output: the huge deck's JSON runs write 1.5 GB each.
    Then `input_path` is read through, so every run starts with its input in the page cache: the
    backend's import writes a gigabyte of media files, and the kernel may meanwhile drop the
    pages of the next run's input (a huge latest -> legacy run once took 8.1 s instead of 2).
    """
    os.sync()
    read_through(input_path)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        if process.returncode not in success:
            raise RuntimeError(
                f"{' '.join(command)} failed ({process.returncode}):\n{err.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss / 1024, stdout


class Runner:
    def __init__(self, deckport: str, deck_folder: str, work: str):
        self.deckport = deckport
        self.deck = deck_folder
        self.work = work
        # deckport's scratch files go where the backend's collection goes: the same disk.
        self.env = dict(os.environ, TMPDIR=work)

    def source(self, task: str) -> str:
        if task == "legacy-to-latest":
            return os.path.join(self.deck, "legacy.apkg")
        if task == "json-to-package":
            return os.path.join(self.work, "input.json")
        if task == "crowdanki-to-package":
            return os.path.join(self.work, "crowdanki")
        if task == "diff-app-records":
            return os.path.join(self.work, "records.sqlite")
        return os.path.join(self.deck, "latest.apkg")

    def output(self, task: str, tool: str) -> str | None:
        if task in ("inspect", "diff", "diff-app-records"):
            return None
        extension = {
            "package-to-csv": "csv", "package-to-cards": "txt", "package-to-json": "json", "package-to-crowdanki": "folder",
        }.get(task, "apkg")
        return os.path.join(self.work, f"{tool}-{task}.{extension}")

    def deckport_command(self, task: str) -> list[str]:
        output = self.output(task, "deckport")
        if task == "diff":
            # Both generations of the deck: every note, card and review compared, every media
            # file of both hashed.
            return [self.deckport, "diff", os.path.join(self.deck, "legacy.apkg"), self.source(task), "--stat"]
        if task == "diff-app-records":
            # The deck against the app records made of it: no GUIDs there, so every note is
            # paired by its text (its plain text where a field held markup).
            return [self.deckport, "diff", os.path.join(self.deck, "latest.apkg"), self.source(task), "--stat"]
        if output is None:
            return [self.deckport, task, self.source(task), "--quiet"]
        command = [self.deckport, "convert", self.source(task), output, "--force"]
        if task in ("legacy-to-latest", "json-to-package", "crowdanki-to-package"):
            command += ["--to", "apkg-modern"]
        elif task == "latest-to-legacy":
            command += ["--to", "apkg"]
        elif task == "package-to-cards":
            command += ["--to", "cards"]
        elif task == "package-to-crowdanki":
            command += ["--to", "crowdanki"]
        return command

    def run_deckport(self, task: str) -> tuple[float, float]:
        # diff exits 1 when the decks differ (the legacy generation lacks some of Anki's properties).
        wall, rss, _ = run_measured(
            self.deckport_command(task), env=self.env, input_path=self.source(task),
            success=(0, 1) if task in ("diff", "diff-app-records") else (0,))
        output = self.output(task, "deckport")
        if output is not None and os.path.isdir(output):
            shutil.rmtree(output)
        elif output is not None:
            os.remove(output)
        return wall, rss

    def run_backend(self, task: str) -> tuple[float, float]:
        output = self.output(task, "backend")
        _, rss, stdout = run_measured(
            [sys.executable, os.path.abspath(__file__), "_backend", task, self.source(task), output, self.work],
            input_path=self.source(task))
        if os.path.exists(output):
            os.remove(output)
        return json.loads(stdout.strip().splitlines()[-1])["seconds"], rss

    def prepare_input(self, task: str) -> None:
        """The input of json-to-package, crowdanki-to-package or diff-app-records: the deck
        converted to a deckport JSON deck, a CrowdAnki folder or app records in deckport's
        SQLite file by this deckport."""
        target = self.source(task)
        if not os.path.exists(target):
            to = {"crowdanki-to-package": ["--to", "crowdanki"], "diff-app-records": ["--to", "sqlite"]}
            subprocess.run(
                [self.deckport, "convert", os.path.join(self.deck, "latest.apkg"), target, "--force"]
                + to.get(task, []),
                check=True, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def benchmark_deck(
    name: str, tasks: list[str], repeats: int, deckport: str, regenerate: bool,
    spec: dict | None = None, backend: bool = True,
) -> dict:
    """Times `tasks` on deck `name`; with `backend` False, deckport alone."""
    folder = ensure_deck(name, regenerate, spec)
    work = os.path.join(BENCH_DIR, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    runner = Runner(deckport, folder, work)
    for task in ("json-to-package", "crowdanki-to-package", "diff-app-records"):
        if task in tasks:
            runner.prepare_input(task)
    results = {}
    try:
        baseline_rss = None
        if backend:
            _, baseline_rss, _ = run_measured(
                [sys.executable, os.path.abspath(__file__), "_backend", "idle", "-", "-", work])
        for task in tasks:
            log(f"{name}: {task}: warm-up")
            runner.run_deckport(task)
            if backend and task in BACKEND_TASKS:
                runner.run_backend(task)
        # Each round runs every task once, so that tasks compared with each other (a restore
        # with a package conversion) are measured in the same stretch of time, on a machine
        # whose speed drifts; within a task the two tools alternate which goes first.
        runs = {task: {"deckport": [], "backend": []} for task in tasks}
        for round_ in range(repeats):
            for task in tasks:
                with_backend = backend and task in BACKEND_TASKS
                order = ["deckport", "backend"] if round_ % 2 == 0 else ["backend", "deckport"]
                for tool in order:
                    if tool == "backend" and not with_backend:
                        continue
                    measured = runner.run_deckport(task) if tool == "deckport" else runner.run_backend(task)
                    runs[task][tool].append(measured)
                    log(f"{name}: round {round_ + 1}: {task}: {tool} {measured[0]:.2f} s, {measured[1]:.0f} MB")
        for task in tasks:
            results[task] = {
                tool: {
                    "seconds": statistics.median(r[0] for r in values),
                    "rss_mb": statistics.median(r[1] for r in values),
                    "runs": values,
                }
                for tool, values in runs[task].items() if values
            }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sizes = {
        file: os.path.getsize(os.path.join(folder, file)) for file in ("legacy.apkg", "latest.apkg")
    }
    return {"tasks": results, "baseline_rss_mb": baseline_rss, "sizes": sizes}


# ------------------------------------------------------------------------------------------
# Report


def print_table(name: str, result: dict, repeats: int) -> None:
    spec = DECKS[name]
    sizes = ", ".join(f"{file} {size / 1e6:.0f} MB" for file, size in result["sizes"].items())
    media = spec["images"] + spec["sounds"]
    print(f"\n{name}: {spec['notes']:,} notes, {2 * spec['notes']:,} cards, {media:,} media files ({sizes}); "
          f"median of {repeats} run{'s' if repeats != 1 else ''}")
    header = ("task", "deckport s", "backend s", "ratio", "deckport MB", "backend MB")
    rows = []
    for task, tools in result["tasks"].items():
        ours = tools["deckport"]
        theirs = tools.get("backend")
        rows.append((
            task,
            f"{ours['seconds']:.2f}",
            f"{theirs['seconds']:.2f}" if theirs else "-",
            f"{ours['seconds'] / theirs['seconds']:.2f}" if theirs else "-",
            f"{ours['rss_mb']:.0f}",
            f"{theirs['rss_mb']:.0f}" if theirs else "-",
        ))
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    line = lambda row: "| " + " | ".join(  # noqa: E731
        str(cell).ljust(widths[i]) if i == 0 else str(cell).rjust(widths[i]) for i, cell in enumerate(row)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":" for i, w in enumerate(widths)) + "|")
    for row in rows:
        print(line(row))
    print(f"(ratio = deckport / backend wall time; the backend's Python process idles at "
          f"{result['baseline_rss_mb']:.0f} MB with the backend loaded and an empty collection open)")
    print_restore(result["tasks"])


def print_restore(tasks: dict) -> None:
    """How the JSON restore and backup compare with the package conversions (issue 15's target
    2): latest -> legacy writes no SHA-1, legacy -> latest writes the same Latest package as the
    restore and hashes the same media."""
    seconds = {task: tools["deckport"]["seconds"] for task, tools in tasks.items()}
    for task, label in (("json-to-package", "JSON -> apkg-modern"), ("package-to-json", "apkg -> JSON")):
        if task not in seconds:
            continue
        against = [f"{seconds[task] / seconds[other]:.2f}x {other}"
                   for other in ("latest-to-legacy", "legacy-to-latest") if seconds.get(other)]
        if against:
            print(f"{label}: {', '.join(against)}")


def machine_summary() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    from importlib.metadata import version

    anki_version = version("anki")

    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"{os.cpu_count()} cores ({model or platform.machine()}), {memory:.0f} GiB, "
            f"{platform.system()} {platform.release()}; anki {anki_version}, Python {platform.python_version()}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_backend":
        backend_task(*sys.argv[2:6])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "_generate":
        generate_deck(sys.argv[2], json.loads(sys.argv[4]), sys.argv[3])
        return
    parser = argparse.ArgumentParser(
        description="Time deckport against the real Anki backend.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--decks", default="large,huge", help="comma-separated: large, huge (default: both)")
    parser.add_argument("--tasks", default=",".join(TASKS), help=f"comma-separated, of: {', '.join(TASKS)}")
    parser.add_argument("--repeats", type=int, default=3, help="measured runs per tool and task (default 3)")
    parser.add_argument("--deckport", help="the deckport binary (default: build .build/release/deckport)")
    parser.add_argument("--no-build", action="store_true", help="use .build/release/deckport as it is")
    parser.add_argument("--regenerate", action="store_true", help="make the decks again")
    parser.add_argument("--generate-only", action="store_true", help="make (or check) the decks and stop")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    args = parser.parse_args()

    ensure_venv()
    decks = [d for d in args.decks.split(",") if d]
    tasks = [t for t in args.tasks.split(",") if t]
    for deck in decks:
        if deck not in DECKS:
            parser.error(f"unknown deck '{deck}' (known: {', '.join(DECKS)})")
    for task in tasks:
        if task not in TASKS:
            parser.error(f"unknown task '{task}' (known: {', '.join(TASKS)})")
    os.makedirs(BENCH_DIR, exist_ok=True)
    if args.generate_only:
        for deck in decks:
            ensure_deck(deck, args.regenerate)
        return

    deckport = args.deckport or os.path.join(ROOT, ".build", "release", "deckport")
    if not args.deckport and not args.no_build:
        subprocess.run([os.path.join(ROOT, "scripts", "setup.sh"), "release"], check=True)
    deckport = os.path.abspath(deckport)

    results = {}
    for deck in decks:
        results[deck] = benchmark_deck(deck, tasks, args.repeats, deckport, args.regenerate)
    print(f"\nMachine: {machine_summary()}")
    for deck in decks:
        print_table(deck, results[deck], args.repeats)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"machine": machine_summary(), "results": results}, handle, indent=2)


if __name__ == "__main__":
    main()
