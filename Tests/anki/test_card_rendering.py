"""Every card deckport renders is what the real Anki backend renders, and `convert --to cards`
is Anki's own "Cards in Plain Text".

For every Anki-made and real fixture package, and ``fixtures/rendering/templates.apkg`` (a
collection whose templates use every part of Anki's template language, blank fronts, a removed
cloze and templates that do not parse; ``fixtures/rendering/make_template_package.py``):

* ``deckport render PACKAGE --json`` gives, for each card id, the question, answer and styling
  the backend renders for that card in the package's own collection
  (``fixtures/anki_render.py``: ``render_existing_card`` without the Python front end), and a
  ``problem`` exactly for the cards the backend shows a message for (``is_empty``, or a
  ``TemplateError`` whose message is then both sides);
* ``deckport convert PACKAGE OUT --to cards`` (and with ``--html false``) writes byte for byte
  the file the backend's ``export_card_csv`` writes. Where a template cannot be rendered, the
  backend's export fails as a whole; deckport writes that card with Anki's message and warns,
  so the backend's export of the other cards is compared with deckport's rows for them. A
  package without cards is refused (Anki writes its two header lines alone).

Two more packages are made here with the backend, for what Swift's text handling would make
differ from Anki's bytes (``BUILT``): ``exact_bytes``, templates whose ``{{=<% %>=}}`` is followed
by a combining mark, a joiner or a variation selector (on the front or the back alone), that name
a field in another normalization form than its own (``{{Nai\u0308ve}}`` for ``Naïve``, U+212B for
``Å``, a section opened in one form and closed in the other), and a ``tts`` filter whose options
start with a mark; ``legacy_names``, a legacy package whose collection holds deck names Anki
never stores (``  Spaced  ::  kid ``, ``A::::B``, a control character, NFD) and two note types of
one name with their own CSS. Each card's styling is found by its ``noteTypeId``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unicodedata
import zipfile

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions

from conftest import FIXTURES, REPO, fixture_packages

DECKPORT = os.environ.get("DECKPORT_BIN") or os.path.join(REPO, ".build", "debug", "deckport")
if not os.path.isabs(DECKPORT):
    DECKPORT = os.path.join(REPO, DECKPORT)
if not (os.path.isfile(DECKPORT) and os.access(DECKPORT, os.X_OK)):
    pytest.skip(f"the deckport binary does not exist yet ({DECKPORT})", allow_module_level=True)

from anki_render import card_csv, rendered_cards  # noqa: E402

TEMPLATES = os.path.join(FIXTURES, "rendering", "templates.apkg")
PACKAGES = fixture_packages() + [TEMPLATES]
IDS = [os.path.basename(p) for p in PACKAGES]

_RENDERS: dict[str, dict] = {}


def backend_renders(package: str) -> dict[int, dict]:
    if package not in _RENDERS:
        _RENDERS[package] = rendered_cards(package)
    return _RENDERS[package]


def deckport(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, *args], capture_output=True, text=True, check=False)


def assert_cards_are_ankis(package):
    """Every card of `package` is what the backend renders, with its note type's CSS."""
    result = deckport("render", package, "--json", "--verbose")
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)
    theirs = backend_renders(package)
    assert sorted(card["id"] for card in ours["cards"]) == sorted(theirs), "the same cards"
    # By id, not name: two note types may share a name.
    styling = {entry["noteTypeId"]: entry["css"] for entry in ours["styling"]}
    assert len(styling) == len(ours["styling"]), "one styling entry for each note type"
    for card in ours["cards"]:
        expected = theirs[card["id"]]
        where = f"card {card['id']} ({card['noteType']}, {card['template']})"
        assert card["question"] == expected["question"], f"{where}: question"
        assert card["answer"] == expected["answer"], f"{where}: answer"
        problem = card.get("problem")
        if expected["error"]:
            assert problem and problem["kind"] == "template-error", where
            side = "question" if expected["question"].startswith("Front template") else "answer"
            assert problem["side"] == side, f"{where}: the side Anki names"
        elif expected["empty"]:
            assert problem and problem["kind"] in ("blank-front", "missing-cloze"), where
            assert styling[card["noteTypeId"]] == expected["css"], f"{where}: css"
        else:
            assert problem is None, f"{where}: {problem}"
            assert styling[card["noteTypeId"]] == expected["css"], f"{where}: css"
    # Every card the backend cannot render is named in a warning.
    for card_id, expected in theirs.items():
        if expected["error"] or expected["empty"]:
            assert f"card {card_id} " in result.stderr


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_each_card_is_what_anki_renders(package):
    assert_cards_are_ankis(package)


def records(text: str) -> list[list[str]]:
    """The rows of a Cards in Plain Text file, read by Python's own CSV reader."""
    lines = [line for line in io.StringIO(text, newline="") if not line.startswith("#")]
    return list(csv.reader(lines, delimiter="\t"))


@pytest.mark.parametrize("with_html", [True, False], ids=["html", "plain"])
@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_cards_in_plain_text_are_ankis(package, with_html, tmp_path):
    assert_cards_in_plain_text_are_ankis(package, with_html, tmp_path)


def assert_cards_in_plain_text_are_ankis(package, with_html, tmp_path):
    """`convert --to cards` writes the backend's Cards in Plain Text of `package`."""
    out = tmp_path / "cards.txt"
    args = ["convert", package, str(out), "--to", "cards", "--verbose"]
    if not with_html:
        args += ["--html", "false"]
    result = deckport(*args)
    renders = backend_renders(package)
    if not renders:
        # Anki writes the two header lines alone, a file its importer refuses as empty;
        # deckport refuses to write it, as it does a notes CSV without notes.
        assert result.returncode == 1 and "holds no cards" in result.stderr
        assert not out.exists()
        return
    assert result.returncode == 0, result.stderr
    ours = out.read_text(encoding="utf-8")
    failing = sorted(card_id for card_id, render in renders.items() if render["error"])
    if not failing:
        assert ours == card_csv(package, with_html)
        return
    # Anki's export stops at the first template it cannot render: its export of the other
    # cards is compared row by row, and the failing cards hold Anki's message.
    assert card_csv(package, with_html).startswith("ERROR: ")
    rendered = sorted(card_id for card_id in renders if card_id not in failing)
    theirs = card_csv(package, with_html, card_ids=rendered)
    assert ours.splitlines()[:2] == theirs.splitlines()[:2], "the header lines"
    our_rows = dict(zip(sorted(renders), records(ours)))
    assert [our_rows[card_id] for card_id in rendered] == records(theirs)
    for card_id in failing:
        message = renders[card_id]["question"]
        if with_html:
            assert our_rows[card_id] == [message, message]
        else:
            assert our_rows[card_id][0] == our_rows[card_id][1] != ""
        assert f"card {card_id} " in result.stderr


# Packages made here with the backend (see the module docstring).

NFC_NAME, NFD_NAME = "Na\u00efve", unicodedata.normalize("NFD", "Na\u00efve")
ANGSTROM, ANGSTROM_SIGN = "\u00c5ngstr\u00f6m", "\u212bngstr\u00f6m"
MARKS = ["\u0301", "\u200d", "\u0903", "\ufe0f"]


def new_note_type(col, name, fields, count, css=None):
    """A note type with `fields` and `count` templates whose fronts show the first field, so
    every note gets a card of each; the templates' real text is set afterwards (`set_templates`)."""
    mm = col.models
    model = mm.new(name)
    for field in fields:
        mm.add_field(model, mm.new_field(field))
    for index in range(count):
        template = mm.new_template(f"Card {index + 1}")
        template["qfmt"], template["afmt"] = "{{%s}}|%d" % (fields[0], index), "{{%s}}" % fields[0]
        mm.add_template(model, template)
    if css is not None:
        model["css"] = css
    mm.add_dict(model)
    return mm.by_name(name)


def add_note(col, model, deck_id, values):
    note = col.new_note(model)
    for key, value in values.items():
        note[key] = value
    col.add_note(note, deck_id)


def set_templates(col, name, templates):
    """Replaces the templates' text without Anki's checks, which refuse a name it cannot find."""
    model = col.models.by_name(name)
    for template, (front, back) in zip(model["tmpls"], templates):
        template["qfmt"], template["afmt"] = front, back
    col.models.update_dict(model, skip_checks=True)


def export(col, out, legacy):
    col.export_anki_package(
        out_path=str(out),
        options=ExportAnkiPackageOptions(legacy=legacy, with_scheduling=True, with_deck_configs=False, with_media=False),
        limit=None,
    )


def make_exact_bytes(out):
    """Templates Swift's `Character` and `==` would read otherwise than Anki's bytes."""
    folder = tempfile.mkdtemp()
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        deck = col.decks.id("Bytes")
        directive = [("{{=<% %>=}}" + mark + "<%Front%>", "{{Back}}") for mark in MARKS] + [
            (" \n{{=<% %>=}}{{=<% %>=}}\u0301<%Front%>|{{Front}}", "{{Back}}"),
            ("{{Front}}", "{{=<% %>=}}\u0301<%Back%>|<%FrontSide%>"),
            ("{{Front}}", "{{=<% %>=}}\u200d<%Back%>|{{Back}}"),
            ("{{Front}}\u0301|{{#Back}}\u0301s{{/Back}}\u0301", "{{tts \u0301en_US:Back}}"),
        ]
        new_note_type(col, "Directive before a mark", ["Front", "Back"], len(directive))
        names = [
            "{{G}}|{{%s}}" % NFD_NAME,
            "{{G}}|{{text:%s}}" % NFD_NAME,
            "{{G}}|{{#%s}}shown{{/%s}}" % (NFD_NAME, NFD_NAME),
            "{{G}}|{{^%s}}shown{{/%s}}" % (NFD_NAME, NFD_NAME),
            "{{G}}|{{#%s}}shown{{/%s}}" % (NFC_NAME, NFD_NAME),
            "{{G}}|{{%s}}" % ANGSTROM_SIGN,
            "{{G}}|{{%s}}|{{#%s}}s{{/%s}}|{{text:%s}}" % (NFC_NAME, NFC_NAME, NFC_NAME, ANGSTROM),
        ]
        new_note_type(col, "Names in another form", ["G", NFC_NAME, ANGSTROM], len(names))
        add_note(col, col.models.by_name("Directive before a mark"), deck, {"Front": "front", "Back": "back"})
        add_note(col, col.models.by_name("Names in another form"), deck, {"G": "g", NFC_NAME: "n", ANGSTROM: "a"})
        set_templates(col, "Directive before a mark", directive)
        set_templates(col, "Names in another form", [(front, "{{G}}") for front in names])
        export(col, out, legacy=False)
    finally:
        col.close()
        shutil.rmtree(folder)


# Deck names a legacy package may hold that Anki never stores (no two the same once stored:
# Anki's renaming of a taken name is another matter), and what the backend shows for each.
ODD_DECK_NAMES = ["  Spaced  ::  kid ", "A::::B", "::Lead", "Trail::", "", "x\x1fy", "\u00a0nb\u00a0::k", "tab\there",
                  unicodedata.normalize("NFD", "D\u00e9cor")]


def make_legacy_names(out):
    """A legacy package whose collection's JSON is edited to hold odd deck names and two note
    types of one name, as a package from another tool may."""
    folder = tempfile.mkdtemp()
    source = os.path.join(folder, "source.apkg")
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        decks = new_note_type(col, "Deck names", ["F"], 1)
        for index in range(len(ODD_DECK_NAMES)):
            add_note(col, decks, col.decks.id(f"D{index}"), {"F": f"n{index}"})
        set_templates(col, "Deck names", [("{{F}}|{{Deck}}|{{Subdeck}}", "{{Deck}}::{{Subdeck}}")])
        for name, color in [("Twin A", "red"), ("Twin B", "blue")]:
            twin = new_note_type(col, name, ["F"], 1, css=".card { color: %s; }" % color)
            add_note(col, twin, col.decks.id("Twins"), {"F": name})
        export(col, source, legacy=True)
    finally:
        col.close()
    with zipfile.ZipFile(source) as archive:
        members = archive.namelist()
        archive.extractall(folder)
    with sqlite3.connect(os.path.join(folder, "collection.anki21")) as db:
        decks = json.loads(db.execute("select decks from col").fetchone()[0])
        models = json.loads(db.execute("select models from col").fetchone()[0])
        for deck in decks.values():
            if deck["name"][:1] == "D" and deck["name"][1:].isdigit():
                deck["name"] = ODD_DECK_NAMES[int(deck["name"][1:])]
        for model in models.values():
            if model["name"].startswith("Twin "):
                model["name"] = "Twin"
        db.execute("update col set decks = ?, models = ?", (json.dumps(decks), json.dumps(models)))
    with zipfile.ZipFile(out, "w") as archive:
        for member in members:
            archive.write(os.path.join(folder, member), member)
    shutil.rmtree(folder)


BUILT = {"exact_bytes": make_exact_bytes, "legacy_names": make_legacy_names}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each of `BUILT`'s packages, made once."""
    folder = tmp_path_factory.mktemp("rendering")
    paths = {}
    for name, make in BUILT.items():
        paths[name] = str(folder / f"{name}.apkg")
        make(paths[name])
    return paths


@pytest.mark.parametrize("name", list(BUILT))
def test_each_card_of_a_built_package_is_what_anki_renders(built, name):
    assert_cards_are_ankis(built[name])


@pytest.mark.parametrize("with_html", [True, False], ids=["html", "plain"])
@pytest.mark.parametrize("name", list(BUILT))
def test_cards_in_plain_text_of_a_built_package_are_ankis(built, name, with_html, tmp_path):
    assert_cards_in_plain_text_are_ankis(built[name], with_html, tmp_path)


def test_built_packages_hold_the_cases(built):
    """The packages hold what they are for: Anki renders the directive after a mark, finds no
    field of a name in another form, shows each deck's stored name, and two note types of one
    name (each with its own CSS) have one card each."""
    exact = backend_renders(built["exact_bytes"])
    questions = [render["question"] for render in exact.values()]
    for mark in MARKS:
        assert mark + "front" in questions
    errors = [render["question"] for render in exact.values() if render["error"]]
    assert any(f"there is no field called &#x27;\u2068{NFD_NAME}\u2069" in error for error in errors)
    assert any(f"there is no field called &#x27;\u2068{ANGSTROM_SIGN}\u2069" in error for error in errors)
    named = backend_renders(built["legacy_names"])
    shown = {render["question"] for render in named.values()}
    assert {"n0|Spaced::kid|kid", "n1|A::blank::B|B", "n5|xy|xy", "n8|D\u00e9cor|D\u00e9cor"} <= shown
    ours = json.loads(deckport("render", built["legacy_names"], "--json").stdout)
    twins = [entry for entry in ours["styling"] if entry["noteType"] == "Twin"]
    assert sorted(entry["css"] for entry in twins) == [".card { color: blue; }", ".card { color: red; }"]
